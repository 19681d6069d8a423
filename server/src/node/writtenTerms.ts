/**
 * Terms written anywhere in a text, code included: `mission_id` in backticks, `work_packages` in
 * a code block. Glossary health asks it of the terms no prose uses (a term written only in code
 * is not unused); the term index records, per document, the seed terms it writes without a use in
 * its prose (node/indexDocument.ts).
 */

import { normalizeSurface, singularize } from '../core/normalize';
import type { WorkspaceSnapshot } from './workspace';

/** Whether term use can be known in this folder: not when its config switches the glossary matcher off. */
export function usageKnowable(snapshot: WorkspaceSnapshot): boolean {
  return !snapshot.config.disabledExtractors.includes('glossary_match');
}

/** How to find terms in a spec's raw text. */
export interface OutsideProseSearch {
  /** The terms looked for, sorted and joined: the same key, the same search. */
  key: string;
  termsIn(text: string): string[];
}

/** The normalized surfaces of the folder's seed files' senses (the terms health judges, and the bundled core's). */
export function seedTerms(snapshot: WorkspaceSnapshot): Set<string> {
  return new Set(snapshot.seeds.flatMap((s) => s.seed.senses).map((s) => normalizeSurface(s.surface)));
}

/** How to find `terms` written anywhere in a text (code included); undefined for no terms. */
export function writtenTermsSearch(terms: Iterable<string>): OutsideProseSearch | undefined {
  const left = [...terms].filter((t) => t !== '').sort();
  if (left.length === 0) return undefined;
  // A term by its words: `mission_id`, `mission-id` and `mission id` are written alike in code.
  const byWords = new Map<string, string[]>();
  const firstWords = new Set<string>();
  let longest = 1;
  for (const term of left) {
    const words = term.split(WORD_JOINERS);
    longest = Math.max(longest, words.length);
    firstWords.add(words[0]!);
    const key = words.join(' ');
    const same = byWords.get(key);
    if (same) same.push(term);
    else byWords.set(key, [term]);
  }
  // Where a run may start: any first word, found by one pattern over the lowercased text (one
  // native scan, however many terms; a pass over every word of the text cost ~10× more).
  const firstPattern = new RegExp([...firstWords].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  return { key: left.join('\n'), termsIn: (text) => termsWrittenIn(text, { byWords, firstWords, longest, firstPattern }) };
}

interface WordIndex {
  /** Terms by their words joined with one space. */
  byWords: ReadonlyMap<string, readonly string[]>;
  /** The first word of every term (a one-word term's singular form): where a run may start. */
  firstWords: ReadonlySet<string>;
  longest: number;
  /** Matches any first word (in lowercase text). */
  firstPattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const WORD_JOINERS = /[\s_-]+/;
const WORD = /[\p{L}\p{N}]+/gu;
const JOINER_GAP = /^[\s_-]+$/;

/**
 * The terms (`index`) a text writes anywhere: runs of up to `longest` words joined by spaces, `_`
 * or `-`, any case, the last word also as its singular; a run does not start or end inside an
 * identifier (`mission` is not written in `mission_id`). A run is read only where a word some
 * term starts with begins, found by one pattern of every first word over the lowercased text.
 */
function termsWrittenIn(text: string, index: WordIndex): string[] {
  const found = new Set<string>();
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    const pattern = index.firstPattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
      const at = match.index;
      // The longest first word matching here was taken: a word that goes on past it (but for a
      // plural s) is no term's first word — most hits ("missionary", "specification") end here.
      const after = at + match[0].length;
      const goesOn = LETTER_OR_DIGIT.test(lower[after] ?? ' ') && !(lower[after] === 's' && !LETTER_OR_DIGIT.test(lower[after + 1] ?? ' '));
      if (!goesOn && !WORD_CHAR.test(text[at - 1] ?? ' ')) readRun(text, at, index, found);
      pattern.lastIndex = at + 1; // (another first word may start inside this one, after a '/' or '.')
    }
  } else {
    // (Lowercasing changed the length — a few letters outside ASCII do: offsets would not agree.)
    WORD.lastIndex = 0;
    for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
      const first = match[0].toLowerCase();
      if (index.firstWords.has(first) || (first.endsWith('s') && index.firstWords.has(singularize(first)))) readRun(text, match.index, index, found);
    }
  }
  return [...found];
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The terms a run of words starting at `start` writes, into `found`. */
function readRun(text: string, start: number, index: WordIndex, found: Set<string>): void {
  if (text[start - 1] === '_') return;
  RUN.lastIndex = start;
  let key = '';
  let end = start;
  for (let k = 0; k < index.longest; k++) {
    const next = RUN.exec(text);
    if (next === null || (k === 0 && next.index !== start) || (k > 0 && !JOINER_GAP.test(text.slice(end, next.index)))) return;
    const word = next[0].toLowerCase();
    const stem = key;
    key = k === 0 ? word : `${key} ${word}`;
    end = next.index + next[0].length;
    if (text[end] === '_') continue; // the run goes on inside an identifier
    for (const term of index.byWords.get(key) ?? []) found.add(term);
    if (word.endsWith('s')) for (const term of index.byWords.get(k === 0 ? singularize(word) : `${stem} ${singularize(word)}`) ?? []) found.add(term);
  }
}

const RUN = /[\p{L}\p{N}]+/gu;
