/**
 * "Inconsistent" usage of a resolved term (SPEC §6): a sentence that says "X is not a …",
 * "unlike X", or "X means/is a …" while sharing under 30% of the definition's keywords. Only a
 * sentence about the term itself counts: X must be its subject, with at most an article before it
 * ("A mission is …", "Missions are not …"); "this mission is the first increment" or "each WP is a
 * prompt file" speak of one instance and redefine nothing. "X is the …" identifies rather than
 * defines ("Doctrine is the knowledge store") and is not read as a definition.
 *
 * Also here: whether the sentence around a word shares the vocabulary of a definition
 * (`sharesDefinitionContext`), which decides if an ordinary word listed as a synonym to avoid is
 * used in the glossary's sense.
 */

import { maskedString } from '../extract/maskedCodes';
import { normalizeSurface } from '../normalize';
import { FUNCTION_WORDS } from '../words';

const NEGATION_AFTER = /^\s+(?:is|are)\s+not\s+(?:an?|the)\b|^\s+(?:isn['\u2019]t|aren['\u2019]t)\s+(?:an?|the)\b/i;
const UNLIKE_BEFORE = /\bunlike\s+(?:the\s+|an?\s+)?$/i;
const REDEFINITION_AFTER = /^\s+(?:means|refers\s+to|(?:is|are)\s+defined\s+as|(?:is|are)\s+an?)\s+(.+)$/is;
/** What may stand before the term in a sentence about the term itself: markup, list markers, an article. */
const GENERIC_SUBJECT = /^[\s*_`"'\u201c\u2018([#>|+-]*(?:\d+[.)]\s+)?[\s*_`"'\u201c\u2018([]*(?:(?:an?|the)\s+[*_`"'\u201c\u2018]*)?$/i;
const KEYWORD = /[A-Za-z][A-Za-z0-9_-]{2,}/g;
const SENTENCE_LIMIT = 400;

export const KEYWORD_OVERLAP_THRESHOLD = 0.3;

/** Content words of a text, normalized, without function words. */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.match(KEYWORD) ?? []) {
    const lower = word.toLowerCase();
    if (!FUNCTION_WORDS.has(lower)) out.add(normalizeSurface(lower));
  }
  return out;
}

/**
 * True when the sentence around the occurrence [start, end) of the term in the masked document
 * (`masked`, its code units, see maskedCodes.ts; `text`, the document) contradicts `definition`.
 */
export function contradictsDefinition(masked: Uint16Array, text: string, start: number, end: number, definitionKeywords: ReadonlySet<string> | (() => ReadonlySet<string>)): boolean {
  if (!mayContradict(masked, start, end)) return false;
  const before = sentenceBefore(masked, start);
  if (UNLIKE_BEFORE.test(before)) return true;
  if (!GENERIC_SUBJECT.test(subjectPart(before))) return false;
  const after = sentenceAfter(masked, text, end);
  if (NEGATION_AFTER.test(after)) return true;
  const redefinition = REDEFINITION_AFTER.exec(after);
  if (!redefinition) return false;
  const wanted = typeof definitionKeywords === 'function' ? definitionKeywords() : definitionKeywords;
  if (wanted.size === 0) return false;
  const said = keywords(redefinition[1]!);
  let shared = 0;
  for (const word of wanted) if (said.has(word)) shared++;
  return shared / wanted.size < KEYWORD_OVERLAP_THRESHOLD;
}

/**
 * The part of the sentence before the term that could hold its subject: from the start of a list
 * item, table cell, heading or quote on the term's line, or after a colon.
 */
function subjectPart(before: string): string {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  let part = /^\s*(?:[-*+>|#]|\d+[.)])/.test(line) ? line : before;
  const cut = Math.max(part.lastIndexOf(':'), part.lastIndexOf('|'));
  if (cut !== -1) part = part.slice(cut + 1);
  return part;
}

/** How many of the definition's keywords a sentence must share to use a word in its sense. */
export const CONTEXT_KEYWORDS = 2;

/**
 * True when the sentence around the occurrence [start, end) shares at least CONTEXT_KEYWORDS of
 * `definitionKeywords` (the keywords of the word itself left out): the sentence talks about what
 * the definition talks about. "The pack extends the built-in tactic" shares pack, built-in and
 * tactic with the definition of "enhances"; "this extends the deadline" shares nothing.
 */
export function sharesDefinitionContext(masked: Uint16Array, text: string, start: number, end: number, definitionKeywords: ReadonlySet<string>, ownWords: ReadonlySet<string>): boolean {
  const sentence = keywords(sentenceBefore(masked, start).replace(/\u001f+/g, ' ') + ' ' + sentenceAfter(masked, text, end));
  let shared = 0;
  for (const word of sentence) if (definitionKeywords.has(word) && !ownWords.has(word) && ++shared >= CONTEXT_KEYWORDS) return true;
  return false;
}

/**
 * Cheap pre-check, true for every occurrence that can contradict: each pattern needs "unlike"
 * within the 16 characters before, or 1–3 whitespace characters and then is/are/isn't/aren't,
 * means or refers after (only the first two letters are looked at here).
 */
export function mayContradict(text: Uint16Array, start: number, end: number): boolean {
  let k = end;
  const limit = Math.min(text.length, end + 4);
  while (k < limit && isSpace(text[k]!)) k++;
  if (k > end && k < limit) {
    const first = text[k]! | 32;
    const second = k + 1 < text.length ? text[k + 1]! | 32 : 0;
    // is, ar(e), me(ans), re(fers)
    if ((first === 105 && second === 115) || (first === 97 && second === 114) || (first === 109 && second === 101) || (first === 114 && second === 101)) return true;
  }
  return unlikeBefore(text, start);
}

/** `text[start - 16, start)` lowercased includes "unlike" (the masked code units), without allocating. */
function unlikeBefore(text: Uint16Array, start: number): boolean {
  const from = Math.max(0, start - 16);
  for (let k = from; k < start; k++) {
    const c = text[k]!;
    if (c > 127) return maskedString(text, from, start).toLowerCase().includes('unlike');
  }
  for (let k = from; k + 6 <= start; k++) {
    if ((text[k]! | 32) === 117 && (text[k + 1]! | 32) === 110 && (text[k + 2]! | 32) === 108 && (text[k + 3]! | 32) === 105 && (text[k + 4]! | 32) === 107 && (text[k + 5]! | 32) === 101) return true;
  }
  return false;
}

/** JavaScript's \s. */
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The sentence from `from` on: up to a full stop, exclamation or question mark followed by
 * whitespace, a blank line, a masked character, or 400 characters. It holds no masked character,
 * so it is the text's own slice.
 */
function sentenceAfter(masked: Uint16Array, text: string, from: number): string {
  const limit = Math.min(masked.length, from + SENTENCE_LIMIT);
  for (let i = from; i < limit; i++) {
    const c = masked[i]!;
    if ((c === 46 || c === 33 || c === 63) && (i + 1 >= masked.length || isSpace(masked[i + 1]!))) return text.slice(from, i);
    if (c === 10 && masked[i + 1] === 10) return text.slice(from, i);
    if (c === 0x1f) return text.slice(from, i);
  }
  return text.slice(from, limit);
}

/** The sentence before `to` (at most 400 characters), as masked (MASK where masked). */
function sentenceBefore(masked: Uint16Array, to: number): string {
  const limit = Math.max(0, to - SENTENCE_LIMIT);
  for (let i = to - 1; i >= limit; i--) {
    const c = masked[i]!;
    if ((c === 46 || c === 33 || c === 63) && (i + 1 >= masked.length || isSpace(masked[i + 1]!))) return maskedString(masked, i + 1, to);
    if (c === 10 && i > 0 && masked[i - 1] === 10) return maskedString(masked, i + 1, to);
  }
  return maskedString(masked, limit, to);
}
