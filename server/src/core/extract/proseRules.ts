/**
 * What in prose is not a term, by its shape and its place (issue 15): the rules the extractors
 * apply before they propose a surface. Pure functions over the masked code units (maskedCodes.ts)
 * and plain strings; the word lists are the callers'.
 */

import { normalizeSurface } from '../normalize';
import { FUNCTION_WORDS } from '../words';

const QUOTED_WORD = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}_'\u2019-]*$/u;

/**
 * Words that may join the words of a term ("point of sale", "terms and conditions"); any other
 * function word makes a quoted text a message or a sentence ("not shipped", "is this live").
 */
export const TERM_CONNECTORS = new Set(['of', 'and', 'or', 'for', 'per', 'in', 'on', 'to', 'at', 'by', 'with', 'vs', 'via']);
const ARTICLES = new Set(['a', 'an', 'the']);
/** Code in quotes: an underscore, a digit, a dot inside, or a capital after a lowercase letter. */
const IDENTIFIER_IN_QUOTES = /[_0-9]|[a-z]\.[a-z]|[a-z][A-Z]/;
const CAPITALISED = /^\p{Lu}/u;
/** "don't", "it's", "we'll": a contraction belongs to a sentence. */
const CONTRACTION = /['\u2019](?:t|re|ll|ve|d|m)$|^(?:it|that|there|here|what|who|he|she)['\u2019]s$/i;

/**
 * The surface a quoted text proposes, from its shape alone; undefined for none. A term is 1–4
 * words that are not all function words, and not:
 * - a message or sentence: it ends in "?" or "!", holds a comma or a contraction, or holds a
 *   function word other than a connector once a leading article is dropped ("not confirmed",
 *   "make the model static");
 * - a title: two or more words, each capitalised but the connectors ("Get Started");
 * - code: an identifier shape ("for_review", "003-admin-panel", "EnvironmentContext").
 * Whether its words are all familiar is decided when it is proposed (it depends on the word lists).
 */
export function quotedShape(quoted: string): string | undefined {
  const trimmed = quoted.trim();
  if (/[?!]$/.test(trimmed) || trimmed.includes(',')) return undefined;
  const inner = trimmed.replace(/[.;:]+$/, '');
  let words = inner.split(/\s+/).filter(Boolean);
  if (words.length < 1 || words.length > 4 || !words.every((w) => QUOTED_WORD.test(w)) || !/\p{L}/u.test(inner)) return undefined;
  if (words.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) return undefined;
  if (words.some((w) => IDENTIFIER_IN_QUOTES.test(w) || CONTRACTION.test(w))) return undefined;
  if (words.length > 1 && ARTICLES.has(words[0]!.toLowerCase())) words = words.slice(1);
  if (words.some((w) => FUNCTION_WORDS.has(w.toLowerCase()) && !TERM_CONNECTORS.has(w.toLowerCase()))) return undefined;
  if (words.length > 1 && words.every((w) => CAPITALISED.test(w) || TERM_CONNECTORS.has(w.toLowerCase()))) return undefined;
  const normalized = normalizeSurface(words.join(' '));
  return normalized.length > 1 ? normalized : undefined;
}

/**
 * Capitals that are no acronym of their own: a unit after a number ("5 MB", "2 GB"), or a part of
 * an abbreviation joined by a slash, semicolon or ampersand ("TL;DR", "CI/CD", "R&D").
 */
export function isUnitOrFragment(masked: Uint16Array, start: number, end: number): boolean {
  let k = start - 1;
  if (k >= 0 && masked[k] === 32) k--;
  if (end - start <= 3 && masked[end - 1] !== 115 && k >= 0 && masked[k]! >= 48 && masked[k]! <= 57) return true;
  const joins = (c: number | undefined) => c === 47 || c === 59 || c === 38;
  const upper = (c: number | undefined) => c !== undefined && c >= 65 && c <= 90;
  return (joins(masked[end]) && upper(masked[end + 1])) || (start >= 2 && joins(masked[start - 1]) && upper(masked[start - 2]));
}

// "pre-existing", "non-goal", "pre-#555": a prefix joined by a hyphen is not a word of its own.
const HYPHEN_PREFIXES = new Set('pre non sub post multi anti semi auto inter intra meta micro macro mini pseudo quasi bi tri uni mid re co de un'.split(' '));

/** A hyphen at `end` of the masked code units after a prefix word ("pre-", "non-"). */
export function isCompoundPrefix(masked: Uint16Array, end: number, lower: string): boolean {
  return masked[end] === 45 && end + 1 < masked.length && !isBlank(masked[end + 1]!) && HYPHEN_PREFIXES.has(lower);
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isAsciiLetter(c: number | undefined): boolean {
  return c !== undefined && ((c | 32) >= 97 && (c | 32) <= 122);
}

/**
 * Whether the token [start, end) is part of an identifier or path written in prose: a dotted name
 * (`mission.status`, `yaml.safe_load`: a dot with a letter on both sides), a call (`frozenset(`),
 * a slash-joined path or slug (`QwenLM/qwen-code`), or the value of a command-line option
 * (`init --ai zorb`). Code is not vocabulary, even outside backticks.
 */
export function isIdentifierPart(masked: Uint16Array, start: number, end: number): boolean {
  const after = masked[end];
  if (after === 40) return true; // "("
  if (after === 46 && isWordCode(masked[end + 1])) return true;
  if (start >= 2 && masked[start - 1] === 46 && isWordCode(masked[start - 2])) return true;
  return inSlashedChunk(masked, start, end) || afterOption(masked, start);
}

/** Whether the token at `start` is the value of a command-line option written in prose (`--ai zorb`, `--mode=zorb`). */
function afterOption(masked: Uint16Array, start: number): boolean {
  let k = start - 1;
  if (k >= 0 && (masked[k] === 32 || masked[k] === 61)) k--;
  else return false;
  while (k >= 0 && (isWordCode(masked[k]) || masked[k] === 45 || masked[k] === 95)) k--;
  // k is now before the option's name: it must have been "--name" at a word boundary.
  return k + 2 < start && masked[k + 1] === 45 && masked[k + 2] === 45 && (k < 0 || masked[k] === 32 || masked[k] === 10 || masked[k] === 9);
}

/** How far around a token `inSlashedChunk` looks. */
const CHUNK_REACH = 64;

/**
 * Whether the run of non-blank characters around [start, end) holds a slash between word
 * characters: a path or slug such as `QwenLM/qwen-code` or `Owner-ai/repo#12`.
 */
function inSlashedChunk(masked: Uint16Array, start: number, end: number): boolean {
  const from = Math.max(1, start - CHUNK_REACH);
  for (let k = start - 1; k >= from; k--) {
    const c = masked[k]!;
    if (isBlank(c) || c === 0x1f) break;
    if (c === 47 && isWordCode(masked[k - 1]) && isWordCode(masked[k + 1])) return true;
  }
  const to = Math.min(masked.length - 1, end + CHUNK_REACH);
  for (let k = end; k < to; k++) {
    const c = masked[k]!;
    if (isBlank(c) || c === 0x1f) break;
    if (c === 47 && isWordCode(masked[k - 1]) && isWordCode(masked[k + 1])) return true;
  }
  return false;
}

/** An ASCII letter or digit. */
function isWordCode(c: number | undefined): boolean {
  return c !== undefined && (isAsciiLetter(c) || (c >= 48 && c <= 57));
}

/**
 * How an occurrence is written, for telling names apart: LOWER ("claude"), CAPITAL_MID (capital
 * letter after other words of its sentence: "ask Claude"), OTHER (capital at the start of a
 * sentence, line, list item or cell, where any word is capitalised).
 */
export const LOWER = 0;
export const CAPITAL_MID = 1;
export const OTHER = 2;

export function caseOf(masked: Uint16Array, start: number): number {
  const first = masked[start]!;
  if (first >= 97 && first <= 122) return LOWER;
  if (first >= 0xdf && first <= 0x24f && String.fromCharCode(first).toLowerCase() === String.fromCharCode(first)) return LOWER;
  // What comes before it in its sentence: skip spaces and emphasis, quotes and brackets.
  let k = start - 1;
  while (k >= 0) {
    const c = masked[k]!;
    if (c === 32 || c === 9 || c === 42 || c === 95 || c === 34 || c === 39 || c === 40 || c === 91 || c === 0x201c || c === 0x2018) k--;
    else break;
  }
  if (k < 0) return OTHER;
  const before = masked[k]!;
  // Line start, a sentence end, a list marker, a table cell, a heading or quote marker, a colon.
  if (before === 10 || before === 13 || before === 46 || before === 33 || before === 63 || before === 58 || before === 124 || before === 35 || before === 62 || before === 45 || before === 43 || before === 0x1f || before === 0x2014 || before === 0x2013) return OTHER;
  return CAPITAL_MID;
}
