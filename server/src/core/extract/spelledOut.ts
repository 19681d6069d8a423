/**
 * Abbreviations a document spells out where it writes them: "Doctrine Reference Graph (DRG)" (the
 * long form right before it, the abbreviation in parentheses) or "DRG (doctrine reference graph)".
 * The writer has said what the abbreviation means in that document, which is what an "unknown
 * term" finding would ask for (the judged findings call such findings noise: "expanded in
 * place"). A long form that does not spell it ("the synthesized doctrine graph (DRG)") is no
 * definition, and the abbreviation stays unknown.
 *
 * The long form spells the abbreviation when its words' initials give its letters in order, as
 * technical writing forms abbreviations: every letter from the first letter of a word (or, for a
 * word with inner capitals such as "GitHub", from each of its capitals in turn); connecting words
 * ("of", "and", "the"…) and the parts after the first of a hyphen-joined word ("Conflict-free")
 * may give a letter or none; every other word gives one. So "Single Source of Truth (SSOT)",
 * "Human-in-Charge (HiC)", "Conflict-free Replicated Data Type (CRDT)". Pure: masked code units
 * in (maskedCodes.ts: code is never a long form), a yes or no out.
 */

/** Words that may stand in a long form without giving a letter. */
const CONNECTING = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'via', 'with']);
const MAX_CONNECTING = 4;

const OPEN = 40; // (
const CLOSE = 41; // )
const SPACE = 32;
const HYPHEN = 45;
/** Characters between the parenthesis and the words it follows or holds, at most (spaces). */
const MAX_GAP = 2;
/** Code units a long form in parentheses may take, at most. */
const MAX_INSIDE = 120;

interface LongFormWord {
  /** Lowercase: the word's first letter, then each capital after a lowercase letter ("gh" for GitHub). */
  initials: string;
  /** A connecting word or a part after the first of a hyphen-joined word: it may give no letter. */
  optional: boolean;
}

/**
 * Whether the abbreviation at `[start, end)` has the shape of one spelled out: in parentheses
 * right after a word, or followed by parentheses holding only words. Allocates nothing: asked of
 * every abbreviation of a document at every check, before `isSpelledOut` looks at the letters.
 */
export function mayBeSpelledOut(masked: Uint16Array, start: number, end: number): boolean {
  const wordEnd = longFormEnd(masked, start, end);
  if (wordEnd !== undefined) return wordEnd > 0 && isWordCode(masked[wordEnd - 1]!);
  const open = openingAfter(masked, end);
  if (open === -1) return false;
  let at = open + 1;
  while (masked[at] === SPACE) at++;
  if (at >= masked.length || !isWordCode(masked[at]!)) return false;
  for (const limit = Math.min(masked.length, at + MAX_INSIDE); at < limit; at++) {
    const c = masked[at]!;
    if (c === CLOSE) return true;
    if (c !== SPACE && c !== HYPHEN && !isWordCode(c)) return false;
  }
  return false;
}

/**
 * Whether the abbreviation written at `[start, end)` of `masked` is spelled out there. `letters`:
 * the abbreviation's letters, in lowercase, without a plural `s` ("APIs" → "api").
 */
export function isSpelledOut(masked: Uint16Array, start: number, end: number, letters: string): boolean {
  if (letters.length < 2) return false;
  // "Long Form (ABBR)"
  const wordEnd = longFormEnd(masked, start, end);
  if (wordEnd !== undefined) {
    // (Most parenthesized capitals follow words that end otherwise: "parity proof (ADDITIVE)".)
    if (!mayEndWith(masked, wordEnd, letters[letters.length - 1]!)) return false;
    const words = wordsBefore(masked, wordEnd, 2 * letters.length + 2);
    for (let first = words.length - 1; first >= 0; first--) {
      if (spells(words, first, letters, 0, true)) return true;
    }
    return false;
  }
  // "ABBR (long form)"
  const open = openingAfter(masked, end);
  if (open === -1) return false;
  const close = closingParenthesis(masked, open + 1);
  if (close === -1) return false;
  // (Most parentheses after an abbreviation say something else: "JSONL (no events lost)".)
  let from = open + 1;
  while (masked[from] === SPACE) from++;
  if (lowerOf(masked[from]!) !== letters[0] && !isConnectingWord(masked, from, wordEndAt(masked, from, close))) return false;
  const words = wordsIn(masked, open + 1, close);
  return words !== undefined && words.length > 0 && spells(words, 0, letters, 0, false);
}

/**
 * Whether the word ending at `end` may give `last`, the abbreviation's last letter: its first
 * letter, a capital inside it, or it may give none (a connecting word, a part after a hyphen).
 */
function mayEndWith(masked: Uint16Array, end: number, last: string): boolean {
  let start = end;
  while (start > 0 && isWordCode(masked[start - 1]!)) start--;
  if (start === end) return false;
  if (lowerOf(masked[start]!) === last || masked[start - 1] === HYPHEN || end - start <= MAX_CONNECTING) return true;
  for (let at = start + 1; at < end; at++) if (isUpper(masked[at]!) && lowerOf(masked[at]!) === last) return true;
  return false;
}

/**
 * An abbreviation written in parentheses, "(ABBR)": where its long form would end (before the
 * spaces, at most MAX_GAP, in front of the parenthesis); undefined when it is not so written.
 */
function longFormEnd(masked: Uint16Array, start: number, end: number): number | undefined {
  if (masked[start - 1] !== OPEN || masked[end] !== CLOSE) return undefined;
  let at = start - 2;
  for (let gap = 0; gap < MAX_GAP && masked[at] === SPACE; gap++) at--;
  return at + 1;
}

/** The parenthesis opening after an abbreviation (past spaces, at most MAX_GAP); -1 for none. */
function openingAfter(masked: Uint16Array, end: number): number {
  let at = end;
  for (let gap = 0; gap < MAX_GAP && masked[at] === SPACE; gap++) at++;
  return masked[at] === OPEN ? at : -1;
}

/** The end of the word starting at `start`, before `limit`. */
function wordEndAt(masked: Uint16Array, start: number, limit: number): number {
  let end = start;
  while (end < limit && isWordCode(masked[end]!)) end++;
  return end;
}

/** Whether `[start, end)` is a connecting word ("of", "the"…; only short words are spelled out to be looked up). */
function isConnectingWord(masked: Uint16Array, start: number, end: number): boolean {
  return end > start && end - start <= MAX_CONNECTING && CONNECTING.has(String.fromCharCode(...masked.subarray(start, end)).toLowerCase());
}

/**
 * Whether `words[from..]` give `letters[li..]`, every word used: a word gives its first initial,
 * or all its initials, or (an optional word) none. `first`: `words[from]` must give a letter (a
 * long form starts with a word that counts).
 */
function spells(words: readonly LongFormWord[], from: number, letters: string, li: number, first: boolean): boolean {
  if (from === words.length) return li === letters.length;
  const word = words[from]!;
  if (li < letters.length && letters[li] === word.initials[0] && spells(words, from + 1, letters, li + 1, false)) return true;
  if (word.initials.length > 1 && letters.startsWith(word.initials, li) && spells(words, from + 1, letters, li + word.initials.length, false)) return true;
  return !first && word.optional && spells(words, from + 1, letters, li, false);
}

/** The words ending at `end` (exclusive), at most `max` of them, in text order; stops at anything but a space or one hyphen. */
function wordsBefore(masked: Uint16Array, end: number, max: number): LongFormWord[] {
  const words: LongFormWord[] = [];
  let at = end;
  while (words.length < max) {
    const wordEnd = at;
    while (at > 0 && isWordCode(masked[at - 1]!)) at--;
    if (at === wordEnd) break;
    const joined = masked[at - 1] === HYPHEN && at >= 2 && isWordCode(masked[at - 2]!);
    words.push(longFormWord(masked, at, wordEnd, joined));
    if (joined) at--;
    else if (masked[at - 1] === SPACE) {
      at--;
      if (!isWordCode(masked[at - 1] ?? 0)) break;
    } else break;
  }
  return words.reverse();
}

/** The words of `[start, end)` when it holds only words, spaces and hyphens between words; else undefined. */
function wordsIn(masked: Uint16Array, start: number, end: number): LongFormWord[] | undefined {
  const words: LongFormWord[] = [];
  let at = start;
  while (at < end && masked[at] === SPACE) at++;
  let joined = false;
  while (at < end) {
    const wordStart = at;
    while (at < end && isWordCode(masked[at]!)) at++;
    if (at === wordStart) return undefined;
    words.push(longFormWord(masked, wordStart, at, joined));
    if (at === end) break;
    joined = masked[at] === HYPHEN;
    if (!joined && masked[at] !== SPACE) return undefined;
    at++;
    if (!joined) while (at < end && masked[at] === SPACE) at++;
  }
  return words;
}

function closingParenthesis(masked: Uint16Array, from: number): number {
  for (let at = from; at < masked.length && at < from + MAX_INSIDE; at++) {
    const c = masked[at]!;
    if (c === CLOSE) return at;
    if (c === OPEN || c === 10 || c === 13) return -1;
  }
  return -1;
}

function longFormWord(masked: Uint16Array, start: number, end: number, joined: boolean): LongFormWord {
  let initials = lowerOf(masked[start]!);
  for (let at = start + 1; at < end; at++) if (isUpper(masked[at]!) && isLower(masked[at - 1]!)) initials += lowerOf(masked[at]!);
  return { initials, optional: joined || isConnectingWord(masked, start, end) };
}

function lowerOf(c: number): string {
  return isUpper(c) ? String.fromCharCode(c + 32) : String.fromCharCode(c).toLowerCase();
}

/** A letter or digit of a word (ASCII, and letters beyond it: "Général"). */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || isUpper(c) || isLower(c) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && c <= 0x24f);
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
