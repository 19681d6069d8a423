/**
 * What SPEC §5 excludes from prose on top of CommonMark: bare URLs and e-mail addresses, file
 * paths, and identifiers that look like words but are not terms (requirement ids such as FR-001,
 * issue references, ULIDs, git hashes, versions, dates and date formats).
 *
 * Prose is cut into white-space-delimited chunks; only a chunk holding a character that can
 * start one of those is matched against the (slower) patterns, and what the patterns found in a
 * chunk is remembered for the next time the same chunk comes up (ids, paths and links recur
 * within a document).
 */

import {
  AT,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  CLOSE_PAREN,
  COLON,
  COMMA,
  DASH,
  DOT,
  EXCLAMATION,
  HASH,
  LOWER_A,
  LOWER_F,
  LOWER_W,
  LOWER_Y,
  LOWER_Z,
  OPEN_BRACE,
  OPEN_BRACKET,
  OPEN_PAREN,
  QUESTION,
  QUOTE,
  APOSTROPHE,
  ASTERISK,
  SEMICOLON,
  SLASH,
  BACKSLASH,
  UNDERSCORE,
  UPPER_A,
  UPPER_Y,
  UPPER_Z,
  DIGIT_0,
  DIGIT_9,
  LF,
  CR,
  SPACE,
  TAB,
  ASCII_END,
  CASE_BIT,
  isDigit,
} from './chars';
import type { Pairs } from './pairs';

// (The patterns are spelled as literals for their syntax to be checked; each ProseExclusions
// compiles its own global copies, whose lastIndex it uses.)
// Bare URLs and e-mail addresses, looked for only inside chunks that contain ':' or '@'.
const URL_OR_EMAIL = /\b(?:https?|ftp|file|ssh|git):\/\/[^\s<>)\]`]+|\bwww\.[A-Za-z0-9-]+\.[^\s<>)\]`]+|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,255}/;

// File paths: ./x, ../x, ~/x, /x/y, a/b/c (two or more separators), or name.ext or dir/name.ext
// with a known extension; also dot-folders such as .kittify/ and .github; and Windows paths,
// C:\x, a\b\c and dir\name.ext (a backslash before a letter is text in CommonMark).
const PATH =
  /(?<![\w/\\])(?:(?:~|\.{1,2})?\/[\w@.+-]{1,255}(?:\/[\w@.+-]{0,255}){0,64}|[\w@.+-]{1,255}\/[\w@.+-]{1,255}\/[\w@.+\/-]{0,255}|[A-Za-z]:\\[\w@.+-]{1,255}(?:\\[\w@.+-]{0,255}){0,64}|[\w@.+-]{1,255}\\[\w@.+-]{1,255}\\[\w@.+\\-]{0,255}|[\w@+-][\w@.+\/\\-]{0,255}\.(?:md|mdx|json|jsonl|ya?ml|toml|py|pyi|ts|tsx|js|jsx|mjs|cjs|txt|sh|bash|lock|cfg|ini|go|rs|java|kt|rb|php|html?|css|scss|csv|xml|lua|el|vsix|sql|proto|env|log|gz|zip|tar|png|jpe?g|svg|pdf|c|h|cpp|hpp|cs|swift)\b|\.[A-Za-z][\w-]{0,255}\/[\w@.+\/-]{0,255}|\.(?:github|gitignore|kittify|vscode|env)\b)/;

// Identifiers that look like words but are not terms: FR-001, NFR-002, SC-3, GH-123, T001,
// WP03, ULIDs, git hashes, issue references (#123), semantic versions and dates.
const IDENTIFIER =
  /\b[A-Z][A-Za-z]{0,7}-\d[\w.-]*|\b[A-Z]{1,6}\d+[\w.-]*|\b[0-9A-HJKMNP-TV-Z]{26}\b|\b(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{7,64}\b|#\d+\b|\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\b|\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b|\b(?:YYYY|yyyy)(?:[-/.]?(?:MM|mm|DD|dd|HH|hh|SS|ss))+\b/;

// Where a chunk worth a look may be: a character that can start a path, URL, id or version. A '.'
// or ':' counts only when something other than closing punctuation follows it in the chunk: the
// punctuation that ends a sentence ("word.") is stripped before a chunk is looked at, so such a
// chunk can never match. ("YYYY"/"yyyy" date formats are found with indexOf instead: a 'y' in the
// pattern would make the regex engine stop at every letter y of the prose.) (The look-ahead is
// spelled as two alternatives, the next character or one further on: a little faster on the '.'
// that end sentences than one greedy run that backtracks.)
const INTERESTING = /[/\\#@0-9]|[.:](?=[^ \t\n\r.,;:!?)\]}"'*_]|[^ \t\n\r]+[^ \t\n\r.,;:!?)\]}"'*_])/;

/** The length of a ULID: a chunk this long may be one even without a digit. */
const ULID_LENGTH = 26;

// What each ASCII character of a chunk tells `maskChunk`.
const C_DIGIT = 1;
const C_ID_START = 2; // "FR-1", "T001", a ULID (capitals), a hash (a-f), a date ('-'), a version ('.'), '#'
const C_Y = 4; // 'Y' or 'y': maybe "YYYY"/"yyyy"
const C_COLON_AT = 8;
const C_SLASH = 16;
const C_HASH = 32;
const C_DOT = 64;
const C_INTERESTING = C_DIGIT | C_COLON_AT | C_SLASH | C_HASH | C_DOT;
const C_SPACE = 128; // see isSpace
const C_CLOSING = 256; // see isClosing
const CHUNK_CLASS = (() => {
  const table = new Uint16Array(ASCII_END);
  for (let c = DIGIT_0; c <= DIGIT_9; c++) table[c] = C_DIGIT;
  for (let c = UPPER_A; c <= UPPER_Z; c++) table[c] = C_ID_START;
  table[UPPER_Y] |= C_Y;
  for (let c = LOWER_A; c <= LOWER_F; c++) table[c] = C_ID_START;
  table[LOWER_Y] = C_Y;
  table[DASH] = C_ID_START;
  table[COLON] = table[AT] = C_COLON_AT;
  table[SLASH] = table[BACKSLASH] = C_SLASH;
  table[HASH] = C_HASH | C_ID_START;
  table[DOT] = C_DOT | C_ID_START;
  for (let c = 0; c < ASCII_END; c++) {
    if (isSpace(c)) table[c] |= C_SPACE;
    if (isClosing(c)) table[c] |= C_CLOSING;
  }
  return table;
})();

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === CR;
}

/** `(`, `[`, `{`, `"`, `'`, `*`, `_`: punctuation that may open a chunk of prose. */
function isOpening(c: number): boolean {
  return c === OPEN_PAREN || c === OPEN_BRACKET || c === OPEN_BRACE || c === QUOTE || c === APOSTROPHE || c === ASTERISK || c === UNDERSCORE;
}

/** `. , ; : ! ? ) ] } " ' * _`: punctuation that may close a chunk of prose. */
function isClosing(c: number): boolean {
  return (
    c === DOT || c === COMMA || c === SEMICOLON || c === COLON || c === EXCLAMATION || c === QUESTION || c === CLOSE_PAREN || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === QUOTE || c === APOSTROPHE || c === ASTERISK || c === UNDERSCORE
  );
}

/** What the patterns found in a chunk: for the next time the same chunk comes up. */
interface KnownChunk {
  /** The chunk with the character before it. */
  probe: string;
  /** Ranges found, as offsets from the chunk's start. */
  found: number[];
}

/** Chunks seen so far, by a hash of their probe: shared by everything masked in one document. */
export type ChunkMemo = Map<number, KnownChunk>;

/**
 * The SPEC §5 exclusions of the prose of one text (the document, or the joined lines of a quoted
 * paragraph). Stretches are asked for in increasing order: the search for the next interesting
 * character is reused for every stretch before what it found.
 */
export class ProseExclusions {
  private readonly url = new RegExp(URL_OR_EMAIL.source, 'g');
  private readonly path = new RegExp(PATH.source, 'g');
  private readonly identifier = new RegExp(IDENTIFIER.source, 'g');
  private readonly interestingPattern = new RegExp(INTERESTING.source, 'g');
  private interestingFrom = Infinity;
  private interestingAt = -1;
  /** The first "YYYY" or "yyyy" inside text[yearFrom, yearLimit) (-1: none), the last search made. */
  private yearFrom = Infinity;
  private yearLimit = -1;
  private yearAt = -1;

  constructor(
    private readonly text: string,
    private readonly memo: ChunkMemo = new Map(),
  ) {}

  /**
   * Add to `ranges` the exclusions of text[start, end) (a line end: a stretch of prose). The first
   * `covering` pairs of `ranges` are what inline markup took there (sorted, disjoint): a chunk
   * inside one of them needs no look.
   */
  find(start: number, end: number, ranges: Pairs): void {
    const text = this.text;
    const covering = ranges.length;
    const data = ranges.data; // (the same array all along: pushes only add to it)
    // (Searched first: the searches the chunks make then go forward from it.)
    const firstYear = this.nextYear(start, end);
    let r = 0;
    for (let at = this.interesting(start); at !== -1 && at < end; ) {
      if (r < covering) {
        const after = this.afterCover(start, end, at, data, r, covering);
        if (after !== at) {
          at = after;
          continue;
        }
      }
      // The chunk text[from, to) around `at`, its characters classified on the way (see
      // `maskChunk`): the closing punctuation that ends it is left out (`pending` until a
      // character follows it).
      let bits = 0;
      let from = at;
      while (from > start) {
        const c = text.charCodeAt(from - 1);
        if (c < ASCII_END) {
          const t = CHUNK_CLASS[c]!;
          if ((t & C_SPACE) !== 0) break;
          bits |= t;
        }
        from--;
      }
      let pending = 0;
      let stop = -1; // after the last character that is not closing punctuation
      let to = at;
      for (; to < end; to++) {
        const c = text.charCodeAt(to);
        if (c < ASCII_END) {
          const t = CHUNK_CLASS[c]!;
          if ((t & C_SPACE) !== 0) break;
          if ((t & C_CLOSING) !== 0) {
            pending |= t;
            continue;
          }
          bits |= pending | t;
        } else bits |= pending;
        pending = 0;
        stop = to + 1;
      }
      while (r < covering && data[r + 1]! <= from) r += 2;
      if (!(r < covering && data[r]! <= from && to <= data[r + 1]!)) this.maskFound(start, from, at, stop, to, bits, ranges, r, covering);
      at = to < end ? this.interesting(to) : -1;
    }
    if (firstYear !== -1) this.maskDateFormats(start, end, firstYear, ranges, covering);
  }

  /**
   * Where `find` goes on from an interesting character at `at`: after the inline range it lies in
   * when that range has white space (or the stretch's edge) on both sides, such as most code spans
   * (every chunk there lies inside it); else `at` itself. data[r] is the first inline range (of
   * the `covering` first) not known to end before `at`.
   */
  private afterCover(start: number, end: number, at: number, data: readonly number[], r: number, covering: number): number {
    const text = this.text;
    let j = r;
    while (j < covering && data[j + 1]! <= at) j += 2;
    if (j < covering && data[j]! <= at) {
      const coverStart = data[j]!;
      const coverEnd = data[j + 1]!;
      if ((coverStart === start || isSpace(text.charCodeAt(coverStart - 1))) && (coverEnd >= end || isSpace(text.charCodeAt(coverEnd)))) return coverEnd < end ? this.interesting(coverEnd) : -1;
    }
    return at;
  }

  /**
   * The exclusions of the chunk text[from, to) that `find` found around `at`, not inside one
   * inline range (data[r] is the first that ends after `from`): `stop` is after its last
   * character that is not closing punctuation (-1: none), `bits` its characters' CHUNK_CLASS bits
   * up to there.
   */
  private maskFound(start: number, from: number, at: number, stop: number, to: number, bits: number, ranges: Pairs, r: number, covering: number): void {
    if (stop > at) {
      // What `maskChunk` would do: `at` lies between the opening punctuation (none of which is
      // classified) and `stop`, so `bits` are those of the chunk it looks at.
      const text = this.text;
      const data = ranges.data;
      let base = from;
      while (isOpening(text.charCodeAt(base))) base++;
      // Inside one inline range but for its punctuation ("`FR-001`,"): nothing to add.
      let k = r;
      while (k < covering && data[k + 1]! <= base) k += 2;
      const inside = k < covering && data[k]! <= base && stop <= data[k + 1]!;
      if (stop - base >= 2 && !inside) this.maskClassified(start, base, stop, bits, ranges, r, covering);
    } else this.maskChunk(start, from, to, ranges, r, covering);
  }

  /** The chunks of text[start, end) holding a date format ("YYYY-MM-DD"), the first "YYYY" or "yyyy" at `first`. */
  private maskDateFormats(start: number, end: number, first: number, ranges: Pairs, covering: number): void {
    const text = this.text;
    for (let at = first; at !== -1; at = this.nextYear(at + 1, end)) {
      let from = at;
      while (from > start && !isSpace(text.charCodeAt(from - 1))) from--;
      let to = at + 1;
      while (to < end && !isSpace(text.charCodeAt(to))) to++;
      this.maskChunk(start, from, to, ranges, covering, covering);
      if (to >= end) break;
      at = to - 1; // (the chunk is done: on after it)
    }
  }

  /**
   * The first "YYYY" or "yyyy" inside text[from, limit) (-1: none); a search is reused until
   * passed. Searched only up to `limit` (the end of the stretch asked about): a document without
   * another date format after the edit was searched to its end at every re-mask of a keystroke,
   * twice (a fifth of a millisecond on a 1 MB spec).
   */
  private nextYear(from: number, limit: number): number {
    const at = this.yearAt;
    if (this.yearFrom <= from && (at >= from || (at === -1 && limit <= this.yearLimit))) return at !== -1 && at + 4 <= limit ? at : -1;
    // (A slice of a string is a view, not a copy: the searches stop at its end.)
    const stretch = this.text.slice(from, limit);
    const upper = stretch.indexOf('YYYY');
    const lower = stretch.indexOf('yyyy');
    const first = upper === -1 ? lower : lower === -1 || upper < lower ? upper : lower;
    this.yearFrom = from;
    this.yearLimit = limit;
    this.yearAt = first === -1 ? -1 : from + first;
    return this.yearAt;
  }

  /**
   * The offset of the first INTERESTING match at or after `from` (-1: none). A match depends only
   * on the characters from it to the next white space, so one search over the whole text serves
   * every stretch before what it found.
   */
  private interesting(from: number): number {
    if (this.interestingFrom <= from && (this.interestingAt === -1 || this.interestingAt >= from)) return this.interestingAt;
    const pattern = this.interestingPattern;
    pattern.lastIndex = from;
    this.interestingAt = pattern.test(this.text) ? pattern.lastIndex - 1 : -1;
    this.interestingFrom = from;
    return this.interestingAt;
  }

  /** Whether text[base, stop) holds "YYYY" or "yyyy". */
  private holdsDateFormat(base: number, stop: number): boolean {
    return this.nextYear(base, stop) !== -1;
  }

  /**
   * The path, URL and id ranges of the chunk text[from, to) of the stretch starting at `start`.
   * ranges.data[cover] is the first inline range (of the `covering` first) that ends after the
   * chunk's start (cover === covering: none).
   */
  private maskChunk(start: number, from: number, to: number, ranges: Pairs, cover: number, covering: number): void {
    const text = this.text;
    // "word." and "(word)," are prose: drop the punctuation around the chunk before deciding.
    let base = from;
    while (base < to && isOpening(text.charCodeAt(base))) base++;
    let stop = to;
    while (stop > base && isClosing(text.charCodeAt(stop - 1))) stop--;
    if (stop - base < 2) return;
    let bits = 0;
    for (let k = base; k < stop; k++) {
      const c = text.charCodeAt(k);
      if (c < ASCII_END) bits |= CHUNK_CLASS[c]!;
    }
    this.maskClassified(start, base, stop, bits, ranges, cover, covering);
  }

  /**
   * `maskChunk` once the chunk's punctuation is dropped: text[base, stop), at least two characters,
   * whose ASCII characters' CHUNK_CLASS bits are or-ed in `bits` (other bits may be set too).
   */
  private maskClassified(start: number, base: number, stop: number, bits: number, ranges: Pairs, cover: number, covering: number): void {
    const text = this.text;
    // Look-behinds at the chunk's start must see what precedes it in the stretch: the probe is the
    // chunk with that character (a space or opening punctuation, never part of a date format).
    const behind = base > start ? 1 : 0;
    const digit = (bits & C_DIGIT) !== 0;
    const colonOrAt = (bits & C_COLON_AT) !== 0;
    const slash = (bits & C_SLASH) !== 0;
    const hash = (bits & C_HASH) !== 0;
    const interesting = (bits & C_INTERESTING) !== 0;
    const letterY = (bits & C_Y) !== 0;
    // Whether an id can start here at all: each kind of id needs one of these (see IDENTIFIER).
    const idStart = stop - base >= ULID_LENGTH || (bits & C_ID_START) !== 0;
    // A '.' before a letter (only asked for when there is no '/').
    const dotLetter = !slash && (bits & C_DOT) !== 0 && hasDotLetter(text, base, stop);
    // The cheap tests first: most chunks that get here are prose after all.
    const year = !digit && letterY && this.holdsDateFormat(base, stop);
    if (!interesting && !year) return;
    // Each pattern needs: a URL ':' or '@' (or "www."); a path '/' or a '.' before a letter; an id
    // a digit or "YYYY", or for a ULID a '#' (which let such chunks in before).
    const url = colonOrAt || (startsWithWww(text, base) && base + 4 <= stop);
    const path = slash || dotLetter;
    // (A chunk of digits alone, "2024" or "10", has none of what an id needs.)
    const identifier = (digit || year || (hash && stop - base >= ULID_LENGTH)) && (idStart || year);
    if (!url && !path && !identifier) return;
    if (!url && !path && (behind === 0 || text.charCodeAt(base - 1) !== UNDERSCORE) && isWholeId(text, base, stop)) {
      // "FR-004", "NFR-2", "US1", "#964": the id pattern matches the whole chunk, and only it runs.
      ranges.push(base, stop);
      return;
    }
    const probeStart = base - behind;
    if (cover < covering && ranges.data[cover]! < stop) {
      // Partly inside inline constructs (a link's destination, a code span): see `collectAround`.
      this.collectAround(probeStart, base, stop, ranges, cover, covering, url, path, identifier);
      return;
    }
    const length = stop - probeStart;
    let key = 0; // a hash of the probe's characters
    for (let k = probeStart; k < stop; k++) key = (Math.imul(key, 31) + text.charCodeAt(k)) | 0;
    const known = this.memo.get(key);
    // (startsWith compares natively: several times faster than a loop here for a long probe.)
    if (known && known.probe.length === length && text.startsWith(known.probe, probeStart)) {
      const found = known.found;
      for (let k = 0; k < found.length; k += 2) ranges.push(base + found[k]!, base + found[k + 1]!);
      return;
    }
    const probe = text.slice(probeStart, stop);
    const first = ranges.length;
    if (url) collect(this.url, probe, probeStart, base, ranges);
    if (path) collect(this.path, probe, probeStart, base, ranges);
    if (identifier) collect(this.identifier, probe, probeStart, base, ranges);
    const found: number[] = [];
    for (let k = first; k < ranges.length; k++) found.push(ranges.data[k]! - base);
    this.memo.set(key, { probe, found });
  }

  /**
   * The matches in the probe text[probeStart, stop) that reach outside the inline ranges
   * ranges.data[cover], ranges.data[cover + 1], … (sorted, the first `covering` entries) — the
   * others add nothing to the mask — found without running the patterns over the covered stretches.
   *
   * No match of the patterns can hold white space or any of < > ) ] `, and every inline range
   * starts at or just after one of them ('`', '<', the ']' of a link) and ends with one (or at a
   * line break or the stretch's end, which end the chunk too). So a match that starts before a
   * covered stretch ends before it, one that starts inside it ends inside it, and the patterns see
   * the same characters, word boundaries and look-behinds whether they run over the whole probe
   * or over each uncovered piece on its own.
   */
  private collectAround(probeStart: number, base: number, stop: number, ranges: Pairs, cover: number, covering: number, url: boolean, path: boolean, identifier: boolean): void {
    let at = probeStart;
    let r = cover;
    while (at < stop) {
      const next = r < covering && ranges.data[r]! < stop ? ranges.data[r]! : stop; // where the next covered stretch starts
      if (next > at && next > base) this.collectPiece(at, next, base, ranges, url, path, identifier);
      if (next >= stop) return;
      at = Math.max(at, ranges.data[r + 1]!);
      r += 2;
    }
  }

  /** The matches in text[from, to) (no look-behind beyond it) starting at or after `min`. */
  private collectPiece(from: number, to: number, min: number, ranges: Pairs, url: boolean, path: boolean, identifier: boolean): void {
    if (to - from < 2) return; // (every match of the patterns is two characters or more)
    const text = this.text;
    // What each pattern cannot match without: a URL ':' (scheme), '.' ("www.") or '@'; a path '/'
    // or '\\' or '.'; an id a digit, "YYYY"/"yyyy" or 26 characters (a ULID).
    let urlMark = false;
    let pathMark = false;
    let idMark = to - from >= ULID_LENGTH;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (isDigit(c)) idMark = true;
      else if (c === DOT) urlMark = pathMark = true;
      else if (c === COLON || c === AT) urlMark = true;
      else if (c === SLASH || c === BACKSLASH) pathMark = true;
      else if (c === UPPER_Y || c === LOWER_Y) idMark = true;
    }
    if (!((url && urlMark) || (path && pathMark) || (identifier && idMark))) return;
    const piece = text.slice(from, to);
    if (url && urlMark) collect(this.url, piece, from, min, ranges);
    if (path && pathMark) collect(this.path, piece, from, min, ranges);
    if (identifier && idMark) collect(this.identifier, piece, from, min, ranges);
  }
}

function startsWithWww(text: string, at: number): boolean {
  return text.charCodeAt(at) === LOWER_W && text.charCodeAt(at + 1) === LOWER_W && text.charCodeAt(at + 2) === LOWER_W && text.charCodeAt(at + 3) === DOT;
}

/** Whether text[base, stop) holds a '.' followed by an ASCII letter. */
function hasDotLetter(text: string, base: number, stop: number): boolean {
  for (let k = base; k + 1 < stop; k++) {
    if (text.charCodeAt(k) !== DOT) continue;
    const next = text.charCodeAt(k + 1) | CASE_BIT;
    if (next >= LOWER_A && next <= LOWER_Z) return true;
  }
  return false;
}

/**
 * Whether IDENTIFIER, run over text[base, stop) after a non-word character, finds exactly one
 * match, the whole of it: "#" and digits (its fifth alternative: the ones before need a word
 * character first); or a capital and up to seven letters, '-', a digit (the first alternative,
 * greedy to the end); or one to six capitals and a digit (the second; the first needs a '-' after
 * the letters); the rest word characters, '.' or '-'.
 */
function isWholeId(text: string, base: number, stop: number): boolean {
  const first = text.charCodeAt(base);
  if (first === HASH) {
    if (stop - base < 2) return false;
    for (let k = base + 1; k < stop; k++) if (!isDigit(text.charCodeAt(k))) return false;
    return true;
  }
  if (first < UPPER_A || first > UPPER_Z) return false;
  let k = base + 1;
  let capitals = true;
  for (; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c >= LOWER_A && c <= LOWER_Z) capitals = false;
    else if (!(c >= UPPER_A && c <= UPPER_Z)) break;
  }
  if (k - base <= 8 && k + 1 < stop && text.charCodeAt(k) === DASH && isDigit(text.charCodeAt(k + 1))) k += 2;
  else if (capitals && k - base <= 6 && k < stop && isDigit(text.charCodeAt(k))) k += 1;
  else return false;
  for (; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (!(isDigit(c) || (c >= UPPER_A && c <= UPPER_Z) || (c >= LOWER_A && c <= LOWER_Z) || c === UNDERSCORE || c === DOT || c === DASH)) return false;
  }
  return true;
}

function collect(pattern: RegExp, probe: string, offset: number, min: number, ranges: Pairs): void {
  pattern.lastIndex = 0;
  let match: RegExpExecArray | null;
  // None of the patterns matches the empty string: a match that ends the probe is the last.
  while (pattern.lastIndex < probe.length && (match = pattern.exec(probe)) !== null) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const start = offset + match.index;
    if (start >= min) ranges.push(start, start + match[0].length);
  }
}
