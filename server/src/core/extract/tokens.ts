/**
 * Word tokens of the masked document. Stored as parallel typed arrays (start, end, word id, shape)
 * because a 1 MB spec has ~170,000 words and an object or a string per word would dominate the
 * check's cost. The lexer is a character loop (no regular expression, no allocation per token)
 * and interns each token's lowercase text in a `Lexicon`.
 */

import { grown } from '../text';
import { foldedHash, type Lexicon } from './lexicon';

export interface Tokens {
  count: number;
  start: Int32Array;
  end: Int32Array;
  /** Lexicon id of the token's lowercase text. */
  word: Int32Array;
  /** SHAPE_* bits of the token as written. */
  shape: Uint8Array;
  /**
   * The tokens with any SHAPE_* bit, in order (few: acronyms, camelCase), when the tokenizer made
   * them all; undefined for spliced tokens (then look at `shape`).
   */
  shaped?: number[];
  /**
   * Offsets of the double quotes (", “, ”) of the masked text, in order, when the tokenizer made
   * all the tokens (it passes every character between words anyway); undefined for spliced tokens.
   */
  quotes?: number[];
  /** Text of token i as written (possessive `'s` already removed). */
  text(i: number): string;
}

/** Matches /^[A-Z]{2,5}s?$/ (an acronym, maybe plural). */
export const SHAPE_ACRONYM = 1;
/** Matches /^[A-Z]{2,5}s$/ (an acronym plural such as "APIs"). */
export const SHAPE_ACRONYM_PLURAL = 2;
/**
 * ASCII letters, digits and underscores only, and either an underscore, or a lower-case start and
 * an upper-case letter, or an upper-case start, another upper-case letter and a lower-case letter
 * or digit: what camelCase, PascalCase and snake_case words need.
 */
export const SHAPE_MIXED = 4;

// Letters (incl. Latin-1/Extended-A/B, but not the signs × and ÷ among them: "coord×lanes" is two
// words; and the combining marks U+0300–U+036F, so a decomposed "zorbdó" is one word, as the
// composed one is), digits and underscores, with inner apostrophes so possessives and contractions
// stay one token: /[A-Za-z0-9_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F]+(?:['’][A-Za-z\u00C0-…]+)*/.
// CHAR[c] (c < CHARS) is 0 for other characters, else its kind in bits 16–20 and, for ASCII
// letters, digits and '_', a code 1–37 in bits 10–15 (case-insensitive), so the lexer's inner loop
// has no branches.
const UPPER = 1 << 16;
const LOWER = 2 << 16;
const UNDERSCORE = 4 << 16;
const DIGIT = 8 << 16;
const OTHER = 16 << 16;
const LETTER = UPPER | LOWER | OTHER;
const CODE_SHIFT = 10;
const CHARS = 0x370;
const CHAR = new Int32Array(CHARS);
for (let c = 0; c < CHARS; c++) {
  if (c >= 65 && c <= 90) CHAR[c] = UPPER | ((c - 64) << CODE_SHIFT);
  else if (c >= 97 && c <= 122) CHAR[c] = LOWER | ((c - 96) << CODE_SHIFT);
  else if (c >= 48 && c <= 57) CHAR[c] = DIGIT | ((c - 48 + 27) << CODE_SHIFT);
  else if (c === 95) CHAR[c] = UNDERSCORE | (37 << CODE_SHIFT);
  else if ((c >= 0xc0 && c < 0x250 && c !== 0xd7 && c !== 0xf7) || c >= 0x300) CHAR[c] = OTHER;
}

/**
 * Words of at most 16 ASCII letters and digits (nearly all of them) are looked up by their
 * characters packed into two numbers, eight 6-bit codes each: an exact key, compared without
 * reading the word again.
 */
const PACKED_MAX = 16;

/** Arrays a tokenization may write into instead of allocating its own (see `TokenBuffers`). */
export interface TokenArrays {
  start: Int32Array;
  end: Int32Array;
  word: Int32Array;
  shape: Uint8Array;
}

/**
 * Tokens of the masked code units [from, to) (see maskedCodes.ts) of `text`; `from` and `to` must
 * not fall inside a word (line starts do not). Characters are read from `masked`; a token's
 * spelling, where needed, from `text` (the same there). `skip`, the masked stretches as sorted
 * flat [start, end) pairs, lets the lexer jump over them. `into` lends arrays to fill (when they
 * are large enough).
 */
export function tokenize(masked: Uint16Array, text: string, lexicon: Lexicon, from = 0, to = masked.length, skip?: readonly number[], into?: TokenArrays): Tokens {
  // A token takes at least two characters with its separator; prose averages six or more.
  const capacity = Math.max(16, ((to - from) >> 2) + 16);
  const out = into && into.start.length >= capacity ? new TokenWriter(into.start, into.end, into.word, into.shape) : new TokenWriter(new Int32Array(capacity), new Int32Array(capacity), new Int32Array(capacity), new Uint8Array(capacity));
  const count = lexRange(masked, text, lexicon, from, to, skip, out);
  const tokens = makeTokens(text, count, out.start, out.end, out.word, out.shape);
  tokens.shaped = out.shaped;
  tokens.quotes = out.quotes;
  return tokens;
}

/** The arrays a tokenization fills, grown as needed, and the few tokens and quotes it lists. */
class TokenWriter {
  readonly shaped: number[] = [];
  readonly quotes: number[] = [];

  constructor(
    public start: Int32Array,
    public end: Int32Array,
    public word: Int32Array,
    public shape: Uint8Array,
  ) {}

  grow(): void {
    const capacity = 2 * this.start.length;
    this.start = grown(this.start, capacity);
    this.end = grown(this.end, capacity);
    this.word = grown(this.word, capacity);
    this.shape = grown(this.shape, capacity);
  }
}

/**
 * The tokens of masked[from, to) written into `out`; returns how many. (A function of its own,
 * with nothing after its loop: V8 optimizes the loop while the first document is read, and code
 * after the loop, never run by then, made that code give way at the end of every later document:
 * ~100 deoptimizations in a CLI run of 400 specs, docs/performance.md.)
 */
function lexRange(masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, skip: readonly number[] | undefined, out: TokenWriter): number {
  let { start, end, word, shape } = out;
  let count = 0;
  // What lexWord read (one object per call, not per token).
  const lexed: LexedWord = { start: 0, end: 0, id: 0, bits: 0 };
  let i = from;
  let k = 0; // next masked stretch in `skip`
  while (i < to) {
    const c = masked[i]!;
    if (c >= CHARS || CHAR[c] === 0) {
      i++;
      if (c === 0x1f) {
        // The mask: jump to the end of its stretch.
        if (skip) {
          while (k < skip.length && skip[k + 1]! < i) k += 2;
          if (k < skip.length && skip[k]! < i && skip[k + 1]! > i) i = Math.min(to, skip[k + 1]!);
        }
      } else if (c === 34 || c === 0x201c || c === 0x201d) out.quotes.push(i - 1);
      continue;
    }
    i = lexWord(masked, text, lexicon, i, to, lexed);
    if (lexed.start < 0) continue;
    if (count === start.length) {
      out.grow();
      ({ start, end, word, shape } = out);
    }
    start[count] = lexed.start;
    end[count] = lexed.end;
    word[count] = lexed.id;
    shape[count] = lexed.bits;
    if (lexed.bits !== 0) out.shaped.push(count);
    count++;
  }
  return count;
}

/** What `lexWord` read: one object per tokenization, reused, so the lexer makes no object per token. */
interface LexedWord {
  /** -1 when nothing was left of the word (underscores only). */
  start: number;
  end: number;
  id: number;
  bits: number;
}

/**
 * Reads the word whose first character is masked[from] (a word character after a non-word one, or
 * at the start of the range) into `out`: its extent (with inner apostrophes; without `_emphasis_`
 * underscores or a possessive 's), shape and lexicon id. Returns the offset after the characters
 * it took.
 */
function lexWord(masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, out: LexedWord): number {
  // One pass over the word's characters: its end, its kinds and its packed key.
  let i = from;
  let s = from;
  let c = masked[i]!;
  let kinds = 0;
  let uppers = 0;
  let head = 0; // codes of characters 1–8
  let tail = 0; // codes of characters 9–16
  let t = CHAR[c]!;
  do {
    kinds |= t;
    uppers += (t >> 16) & 1;
    if (i - s < 8) head = head * 64 + ((t >> CODE_SHIFT) & 63);
    else tail = tail * 64 + ((t >> CODE_SHIFT) & 63);
    i++;
  } while (i < to && (c = masked[i]!) < CHARS && (t = CHAR[c]!) !== 0);
  let apostrophes = false;
  while (i + 1 < to && (c === 39 || c === 0x2019)) {
    const next = masked[i + 1]!;
    if (next >= CHARS || (CHAR[next]! & LETTER) === 0) break;
    apostrophes = true;
    i += 2;
    while (i < to && (c = masked[i]!) < CHARS && (CHAR[c]! & LETTER) !== 0) i++;
  }
  let e = i;
  if (!apostrophes && (kinds & UNDERSCORE) === 0) {
    out.bits = shapeFromKinds(text, s, e, kinds, uppers);
    out.id = (kinds & OTHER) === 0 && e - s <= PACKED_MAX ? lexicon.idOfPacked(text, s, e, head, tail) : lexicon.idOf(text, s, e, foldedHash(text, s, e), (kinds & UPPER) === 0);
  } else {
    // `_emphasis_` markers are not part of the word.
    while (s < e && masked[s] === 95) s++;
    while (e > s && masked[e - 1] === 95) e--;
    // Possessive: "mission's" / "mission’s" is an occurrence of "mission".
    if (e - s > 2) {
      const last = masked[e - 1]!;
      if (last === 115 || last === 83) {
        const apostrophe = masked[e - 2]!;
        if (apostrophe === 39 || apostrophe === 0x2019) e -= 2;
      }
    }
    if (e <= s) {
      out.start = -1;
      return i;
    }
    out.bits = shapeOf(text, s, e);
    out.id = lexicon.idOf(text, s, e, foldedHash(text, s, e), false);
  }
  out.start = s;
  out.end = e;
  return i;
}

/**
 * Buffers lent to checks whose scan does not outlive them (`checkDocument` with the standard
 * pipeline): a 1 MB spec needs ~3 MB of token arrays, and allocating them for every check makes
 * the garbage collector run far more often. One set is kept; a nested check allocates its own.
 */
export class TokenBuffers {
  private spare: ScanBuffers | undefined;

  /** The buffers, if free, sized for a text of `length` characters. */
  take(length: number): ScanBuffers {
    const capacity = (length >> 2) + 16;
    let spare = this.spare;
    this.spare = undefined;
    if (!spare || spare.start.length < capacity) {
      const size = Math.max(capacity, spare ? spare.start.length * 2 : 0);
      spare = { start: new Int32Array(size), end: new Int32Array(size), word: new Int32Array(size), shape: new Uint8Array(size), marks: [new Uint8Array(size), new Uint8Array(size)], codes: spare?.codes };
    }
    return spare;
  }

  give(buffers: ScanBuffers): void {
    this.spare = buffers;
  }
}

/**
 * Everything a scan can be lent: token arrays, two sets of per-token marks (heading, consumed),
 * and the backing array of the masked code units.
 */
export interface ScanBuffers extends TokenArrays {
  marks: Uint8Array[];
  codes?: Uint16Array | undefined;
}

/** Shape of a token of letters and digits (no underscore, no apostrophe) from the kinds it holds. */
function shapeFromKinds(text: string, s: number, e: number, kinds: number, uppers: number): number {
  const length = e - s;
  let bits = 0;
  if (kinds === (kinds & (0xffff | UPPER))) {
    // Upper case letters only.
    if (length >= 2 && length <= 5) bits |= SHAPE_ACRONYM;
  } else if ((kinds & (0xffff | UPPER | LOWER)) === kinds && (kinds & UPPER) !== 0) {
    // Letters of both cases: an acronym plural ("APIs") when only the final "s" is lower case.
    if (length >= 3 && length <= 6 && text.charCodeAt(e - 1) === 115 && isUpperRun(text, s, e - 1)) bits |= SHAPE_ACRONYM | SHAPE_ACRONYM_PLURAL;
  }
  if ((kinds & OTHER) === 0 && uppers > 0) {
    const first = text.charCodeAt(s);
    if (first >= 97 ? true : uppers >= 2 && (kinds & (LOWER | DIGIT)) !== 0) bits |= SHAPE_MIXED;
  }
  return bits;
}

function isUpperRun(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

export function makeTokens(text: string, count: number, start: Int32Array, end: Int32Array, word: Int32Array, shape: Uint8Array): Tokens {
  return { count, start, end, word, shape, text: (i) => text.slice(start[i]!, end[i]!) };
}

function shapeOf(text: string, s: number, e: number): number {
  let upper = 0;
  let lowerOrDigit = 0;
  let underscore = 0;
  let other = 0;
  for (let k = s; k < e; k++) {
    const c = text.charCodeAt(k);
    if (c >= 65 && c <= 90) upper++;
    else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) lowerOrDigit++;
    else if (c === 95) underscore++;
    else other++;
  }
  const length = e - s;
  let bits = 0;
  if (upper === length && length >= 2 && length <= 5) bits |= SHAPE_ACRONYM;
  else if (upper === length - 1 && length >= 3 && length <= 6 && text.charCodeAt(e - 1) === 115) bits |= SHAPE_ACRONYM | SHAPE_ACRONYM_PLURAL;
  if (other === 0) {
    const first = text.charCodeAt(s);
    if (underscore > 0 || (first >= 97 && upper > 0) || (upper >= 2 && lowerOrDigit > 0)) bits |= SHAPE_MIXED;
  }
  return bits;
}

/** Spaces that keep two words on one line ("work\u00a0package"): between words they are spaces (SPEC §4). */
const NO_BREAK_SPACE = 0xa0;
const NARROW_NO_BREAK_SPACE = 0x202f;

/**
 * True when only spaces (no-break spaces too), tabs and at most one line break separate two tokens (in the masked code
 * units). A backslash right before the break is a hard line break (CommonMark): the paragraph,
 * and a term written across it ("work\\⏎package"), goes on.
 */
export function isWhitespaceGap(masked: Uint16Array, from: number, to: number): boolean {
  if (to <= from) return false;
  let breaks = 0;
  // The `>` markers the next line begins with (-1 before the line break): a paragraph in a block
  // quote goes on there ("> the work⏎> package"), when the first line has as many.
  let quotes = -1;
  for (let i = from; i < to; i++) {
    const c = masked[i]!;
    if (c === 10) {
      if (++breaks > 1) return false;
      quotes = 0;
    } else if (c === 62 && quotes >= 0) {
      quotes++;
    } else if (c === 92 && breaks === 0 && (masked[i + 1] === 10 || (masked[i + 1] === 13 && masked[i + 2] === 10))) {
      // (A hard line break: nothing to do.)
    } else if (c !== 32 && c !== 9 && c !== 13 && c !== NO_BREAK_SPACE && c !== NARROW_NO_BREAK_SPACE) {
      return false;
    }
  }
  return quotes <= 0 || quotes === quoteMarkersOfLine(masked, from);
}

/** How many `>` markers begin the line holding `at` (before its first other character). */
function quoteMarkersOfLine(masked: Uint16Array, at: number): number {
  let start = at;
  while (start > 0 && masked[start - 1] !== 10) start--;
  let count = 0;
  for (let i = start; i < at; i++) {
    const c = masked[i]!;
    if (c === 62) count++;
    else if (c !== 32 && c !== 9) break;
  }
  return count;
}
