/**
 * How a term is written at one occurrence — its letter case and whether its last word is plural
 * — kept as a few bits, so an index of a large workspace holds no text, and a rename can write
 * the new surface the way each occurrence wrote the old one ("Work packages" → "Deliverables").
 */

import { irregularPluralOf, normalizeSurface, pluralStem } from '../normalize';

/** Letter case of an occurrence: lower, Capital ("Work package"), Title ("Work Package"), UPPER. */
export const CaseStyle = { Lower: 0, Capital: 1, Title: 2, Upper: 3 } as const;
export type CaseStyle = (typeof CaseStyle)[keyof typeof CaseStyle];

/** Bits of a written form: case style in bits 0–1, plural in bit 2, hyphen-joined in bit 3. */
export type WrittenForm = number;

const CASE_MASK = 3;
const PLURAL = 4;
/** A multi-word surface written hyphen-joined ("work-package", SPEC §5): a rename keeps the hyphens. */
const HYPHENS = 8;

export function formOf(written: string, surface: string): WrittenForm {
  if (written === surface) return CaseStyle.Lower; // most uses: no work
  const trimmed = written.trim();
  const hyphens = surface.includes(' ') && !/\s/.test(trimmed) && trimmed.includes('-');
  const words = (hyphens ? trimmed.split('-') : trimmed.split(/\s+/)).filter((w) => w.length > 0);
  const letters = words.join('');
  let style: CaseStyle = CaseStyle.Lower;
  if (letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) style = CaseStyle.Upper;
  else if (startsUpper(words[0])) style = words.length > 1 && words.every(startsUpper) ? CaseStyle.Title : CaseStyle.Capital;
  const lastWritten = (words[words.length - 1] ?? '').toLowerCase();
  const lastSurface = surface.split(' ').pop() ?? '';
  const plural = lastWritten !== lastSurface && (normalizeSurface(lastWritten) === lastSurface || pluralStem(lastWritten) === lastSurface);
  return style | (plural ? PLURAL : 0) | (hyphens ? HYPHENS : 0);
}

export function isPlural(form: WrittenForm): boolean {
  return (form & PLURAL) !== 0;
}

export function caseStyle(form: WrittenForm): CaseStyle {
  return (form & CASE_MASK) as CaseStyle;
}

/**
 * `surface` (normalized) written in `form`; undefined when its plural would not read back as the
 * surface (neither SPEC §4's rules nor the plurals they keep give every English plural: "mice").
 */
export function writeInForm(surface: string, form: WrittenForm): string | undefined {
  const words = surface.split(' ');
  if (isPlural(form)) {
    const last = words.length - 1;
    const plural = pluralOf(words[last]!);
    if (plural === undefined) return undefined;
    words[last] = plural;
  }
  const between = (form & HYPHENS) !== 0 ? '-' : ' ';
  switch (caseStyle(form)) {
    case CaseStyle.Upper:
      return words.join(between).toUpperCase();
    case CaseStyle.Title:
      return words.map(capitalize).join(between);
    case CaseStyle.Capital:
      return [capitalize(words[0]!), ...words.slice(1)].join(between);
    default:
      return words.join(between);
  }
}

/** The English plural of a word that reads back as it (singularized, a plural SPEC §4 keeps, or an irregular one: criterion → criteria), if there is one. */
export function pluralOf(word: string): string | undefined {
  const irregular = irregularPluralOf(word);
  if (irregular !== undefined) return irregular;
  const tries: string[] = [];
  if (/[^aeiou]y$/.test(word)) tries.push(word.slice(0, -1) + 'ies');
  if (/(?:s|x|z|ch|sh)$/.test(word)) tries.push(word + 'es');
  tries.push(word + 's');
  // (A plural SPEC §4 keeps, of a word ending in a vowel or -as/-us: scenarios, canvases, statuses;
  // not -is or -os, whose plurals are not +es: axis → axes, not "axises".)
  return tries.find((candidate) => normalizeSurface(candidate) === word || (pluralStem(candidate) === word && !/(?:is|os)$/.test(word)));
}

function startsUpper(word: string | undefined): boolean {
  const first = word ? /\p{L}/u.exec(word)?.[0] : undefined;
  return first !== undefined && first !== first.toLowerCase();
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
