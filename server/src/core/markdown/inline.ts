/**
 * Inline exclusions inside one paragraph or heading: code spans, HTML comments and tags,
 * autolinks, link destinations and reference labels, bare URLs, file paths and identifiers such
 * as requirement ids (FR-001), issue references and ULIDs. Ranges are reported in document
 * order through `exclude`.
 */

import { lowerBound } from '../text';

type Exclude = (start: number, end: number) => void;

// One pass finds every construct that starts with a distinctive character sequence.
const INLINE =
  /`+|<!--[\s\S]*?(?:-->|$)|<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,2048}|[^\s<>@]{1,64}@[^\s<>]{1,255})>|<\/?[A-Za-z][A-Za-z0-9-]{0,63}(?:\s[^<>]{0,1000})?\/?>|\]\(|\]\[[^\]\n]*\]/g;

// Bare URLs and e-mail addresses, looked for only inside chunks that contain ':' or '@'.
const URL_OR_EMAIL = /\b(?:https?|ftp|file|ssh|git):\/\/[^\s<>)\]`]+|\bwww\.[A-Za-z0-9-]+\.[^\s<>)\]`]+|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,255}/g;

// File paths: ./x, ../x, ~/x, /x/y, a/b/c (two or more separators), or name.ext with a known
// extension; also dot-folders such as .kittify/ and .github.
const PATH =
  /(?<![\w/])(?:(?:~|\.{1,2})?\/[\w@.+-]{1,255}(?:\/[\w@.+-]{0,255}){0,64}|[\w@.+-]{1,255}\/[\w@.+-]{1,255}\/[\w@.+\/-]{0,255}|[\w@+-][\w@.+-]{0,255}\.(?:md|mdx|json|jsonl|ya?ml|toml|py|pyi|ts|tsx|js|jsx|mjs|cjs|txt|sh|bash|lock|cfg|ini|go|rs|java|kt|rb|php|html?|css|scss|csv|xml|lua|el|vsix|sql|proto|env|log|gz|zip|tar|png|jpe?g|svg|pdf|c|h|cpp|hpp|cs|swift)\b|\.[A-Za-z][\w-]{0,255}\/[\w@.+\/-]{0,255}|\.(?:github|gitignore|kittify|vscode|env)\b)/g;

// Identifiers that look like words but are not terms: FR-001, NFR-002, SC-3, GH-123, T001,
// WP03, ULIDs, git hashes, issue references (#123), semantic versions and dates.
const IDENTIFIER =
  /\b[A-Z][A-Za-z]{0,7}-\d[\w.-]*|\b[A-Z]{1,6}\d+[\w.-]*|\b[0-9A-HJKMNP-TV-Z]{26}\b|\b(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{7,64}\b|#\d+\b|\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\b|\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b|\b(?:YYYY|yyyy)(?:[-/.]?(?:MM|mm|DD|dd|HH|hh|SS|ss))+\b/g;

/**
 * What masking one text keeps from one paragraph to the next (only valid for that text):
 * - what the path, URL and id patterns found in a chunk, for the next time the same chunk comes up
 *   (ids, paths and links recur within a document), keyed by a hash of the chunk's characters and
 *   checked against them, so a lookup needs no new string;
 * - where the next '`', '<' and ']' are: every inline construct starts with one of them, so the
 *   inline pattern need only be tried there (indexOf finds them several times faster than the
 *   regex engine scans for them). Each search is reused for every paragraph before what it found;
 * - the same for the next character that makes a chunk worth a look (see `interesting`).
 */
export class InlineCache {
  readonly chunks = new Map<number, CachedChunk>();
  /** For '`', '<', ']': where the last search started, and what it found (-1: none). */
  readonly searchedFrom = [Infinity, Infinity, Infinity];
  readonly found = [-1, -1, -1];
  /** The same for INTERESTING_GLOBAL (see `interesting`). */
  interestingFrom = Infinity;
  interesting = -1;
  constructor(readonly text: string) {}
}

const CANDIDATES = ['`', '<', ']'];

/** The offset of the first '`', '<' or ']' at or after `at` (-1: none). */
function nextCandidate(cache: InlineCache, at: number): number {
  const searchedFrom = cache.searchedFrom;
  const found = cache.found;
  let first = found[0]!;
  if (!(searchedFrom[0]! <= at && (first === -1 || first >= at))) first = search(cache, 0, at);
  let next = found[1]!;
  if (!(searchedFrom[1]! <= at && (next === -1 || next >= at))) next = search(cache, 1, at);
  if (next !== -1 && (first === -1 || next < first)) first = next;
  next = found[2]!;
  if (!(searchedFrom[2]! <= at && (next === -1 || next >= at))) next = search(cache, 2, at);
  if (next !== -1 && (first === -1 || next < first)) first = next;
  return first;
}

/** The search of `nextCandidate` for CANDIDATES[k] from `at`, kept in the cache. */
function search(cache: InlineCache, k: number, at: number): number {
  const found = cache.text.indexOf(CANDIDATES[k]!, at);
  cache.searchedFrom[k] = at;
  cache.found[k] = found;
  return found;
}

interface CachedChunk {
  /** The probe: the chunk with the character before it. */
  probe: string;
  /** Ranges found, as offsets from the chunk's start (after the character before it). */
  found: number[];
}

/** A list of [start, end) pairs, kept from one segment to the next so that masking allocates none. */
class Pairs {
  /** The pairs are data[0, length); what follows is left over from earlier segments. */
  readonly data: number[] = [];
  length = 0;
  push(start: number, end: number): void {
    const data = this.data;
    data[this.length] = start;
    data[this.length + 1] = end;
    this.length += 2;
  }
}

// The inline ranges of the segment being masked (`maskInlineInto` does not nest).
const SCRATCH = new Pairs();

/**
 * Exclusions of text[start, end) (a paragraph, a heading line or the rest of a line; `end` is a
 * line end). `dates`, when given, lists every offset of "YYYY"/"yyyy" in the text in order, so
 * segments need not be searched for date formats one by one. `chunks` remembers what the path,
 * URL and id patterns found in a chunk (see `InlineCache`).
 */
export function maskInline(text: string, start: number, end: number, exclude: Exclude, dates?: readonly number[], chunks?: InlineCache): void {
  const excluded: number[] = [];
  maskInlineInto(text, start, end, excluded, dates ?? dateFormatOffsets(text.slice(0, end), start), chunks?.text === text ? chunks : undefined);
  for (let i = 0; i < excluded.length; i += 2) exclude(excluded[i]!, excluded[i + 1]!);
}

/**
 * `maskInline` appending to `excluded` (flat sorted [start, end) pairs; a range that touches or
 * overlaps the last one extends it) instead of calling back.
 */
export function maskInlineInto(text: string, start: number, end: number, excluded: number[], dates: readonly number[], chunks: InlineCache | undefined): void {
  const ranges = SCRATCH; // [start, end) pairs, offsets in the whole text
  ranges.length = 0;
  let segment = ''; // text[start, end), when needed

  if (chunks) inlineConstructs(start, end, ranges, chunks);
  else {
    segment = text.slice(start, end);
    INLINE.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = INLINE.exec(segment)) !== null) INLINE.lastIndex = inlineConstruct(segment, start, match.index, match[0], ranges);
  }
  // The ranges so far are in order and disjoint; chunks may add ranges out of order.
  const sorted = ranges.length;
  maskChunks(text, segment, start, end, ranges, dates, chunks);
  const n = ranges.length;
  if (n === 0) return;

  if (n === sorted) {
    for (let i = 0; i < n; i += 2) excludeRange(excluded, ranges.data[i]!, ranges.data[i + 1]!);
    return;
  }
  // The chunks' ranges come mostly in order (each chunk's patterns add theirs one after the
  // other, the date formats' chunks come last): put them in order by start, then merge them with
  // the inline ones. (Ranges with the same start may come in any order: the union is the same.)
  let inOrder = true;
  for (let i = sorted + 2; i < n; i += 2) {
    if (ranges.data[i]! < ranges.data[i - 2]!) {
      inOrder = false;
      break;
    }
  }
  if (!inOrder) {
    if (n - sorted > 128) {
      const order: number[] = [];
      for (let i = 0; i < n; i += 2) order.push(i);
      order.sort((a, b) => ranges.data[a]! - ranges.data[b]!);
      for (let k = 0; k < order.length; k++) excludeRange(excluded, ranges.data[order[k]!]!, ranges.data[order[k]! + 1]!);
      return;
    }
    // Few ranges: an insertion sort of the pairs by start, in place.
    for (let i = sorted + 2; i < n; i += 2) {
      const s = ranges.data[i]!;
      const e = ranges.data[i + 1]!;
      let j = i - 2;
      while (j >= sorted && ranges.data[j]! > s) {
        ranges.data[j + 2] = ranges.data[j]!;
        ranges.data[j + 3] = ranges.data[j + 1]!;
        j -= 2;
      }
      ranges.data[j + 2] = s;
      ranges.data[j + 3] = e;
    }
  }
  let i = 0;
  let j = sorted;
  while (i < sorted && j < n) {
    if (ranges.data[i]! <= ranges.data[j]!) {
      excludeRange(excluded, ranges.data[i]!, ranges.data[i + 1]!);
      i += 2;
    } else {
      excludeRange(excluded, ranges.data[j]!, ranges.data[j + 1]!);
      j += 2;
    }
  }
  for (; i < sorted; i += 2) excludeRange(excluded, ranges.data[i]!, ranges.data[i + 1]!);
  for (; j < n; j += 2) excludeRange(excluded, ranges.data[j]!, ranges.data[j + 1]!);
}

/**
 * INLINE's matches in text[start, end), looked for only where they can start: at a '`' (the first
 * alternative, a run of backticks, always matches there), at a ']' (followed by '(' or by
 * "[label]"), or at a '<' (where the regex is run over the segment, from there on).
 */
function inlineConstructs(start: number, end: number, ranges: Pairs, cache: InlineCache): void {
  const text = cache.text;
  let segment: string | undefined;
  let at = start;
  for (;;) {
    const p = nextCandidate(cache, at);
    if (p === -1 || p >= end) return;
    const c = text.charCodeAt(p);
    if (c === 96) {
      let q = p + 1;
      while (q < end && text.charCodeAt(q) === 96) q++;
      // A code span: the same number of backticks closes it; an unmatched run is literal text.
      const close = closingBackticks(cache, q, end, q - p);
      if (close === -1) at = q;
      else {
        ranges.push(p, close + (q - p));
        at = close + (q - p);
      }
    } else if (c === 93) {
      const after = p + 1 < end ? text.charCodeAt(p + 1) : -1;
      if (after === 40) {
        // '](': the link destination.
        const close = closingParen(text, p + 2, end);
        ranges.push(p + 1, close);
        at = close;
      } else if (after === 91) {
        // /\]\[[^\]\n]*\]/: the first ']' or line break after "][" decides.
        let q = p + 2;
        while (q < end && text.charCodeAt(q) !== 93 && text.charCodeAt(q) !== 10) q++;
        if (q < end && text.charCodeAt(q) === 93) {
          ranges.push(p + 1, q + 1);
          at = q + 1;
        } else at = p + 1;
      } else at = p + 1;
    } else {
      segment ??= text.slice(start, end);
      INLINE.lastIndex = p - start;
      const match = INLINE.exec(segment);
      if (match === null) return;
      at = start + inlineConstruct(segment, start, match.index, match[0], ranges);
    }
  }
}

/**
 * `findClosingBackticks` in text[from, end) (of the cache's text), with the cache's search for the
 * next '`' (every search here is one `nextCandidate` would make next anyway).
 */
function closingBackticks(cache: InlineCache, from: number, end: number, length: number): number {
  const text = cache.text;
  let at = nextBacktick(cache, from);
  while (at !== -1 && at < end) {
    let run = 1;
    while (at + run < end && text.charCodeAt(at + run) === 96) run++;
    if (run === length) return at;
    at = nextBacktick(cache, at + run);
  }
  return -1;
}

/** `nextCandidate` for '`' alone. */
function nextBacktick(cache: InlineCache, at: number): number {
  let found = cache.found[0]!;
  if (!(cache.searchedFrom[0]! <= at && (found === -1 || found >= at))) {
    found = cache.text.indexOf('`', at);
    cache.searchedFrom[0] = at;
    cache.found[0] = found;
  }
  return found;
}

/**
 * `findClosingParen` in text[from, end) (`end` a line end): the regex engine finds the parentheses
 * and line breaks, faster than a loop over a URL's characters.
 */
function closingParen(text: string, from: number, end: number): number {
  let depth = 1;
  PAREN_OR_BREAK.lastIndex = from;
  while (PAREN_OR_BREAK.test(text)) {
    const i = PAREN_OR_BREAK.lastIndex - 1;
    if (i >= end) break;
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41) {
      if (--depth === 0) return i + 1;
    } else if (i + 1 < end && text.charCodeAt(i + 1) === 10) return i;
  }
  return end;
}

const PAREN_OR_BREAK = /[()\n]/g;

/** The range of INLINE's match `token` at segment offset `at`; returns where the search goes on. */
function inlineConstruct(segment: string, start: number, at: number, token: string, ranges: Pairs): number {
  const c = token.charCodeAt(0);
  if (c === 96) return codeSpan(segment, start, at, token.length, ranges);
  if (c === 93 && token.charCodeAt(1) === 40) return linkDestination(segment, start, at, ranges);
  // '][label]': the label; else the whole match (comment, autolink, tag).
  ranges.push(start + at + (c === 93 ? 1 : 0), start + at + token.length);
  return at + token.length;
}

/** Code span: the same number of backticks closes it; an unmatched run is literal text. */
function codeSpan(segment: string, start: number, at: number, length: number, ranges: Pairs): number {
  const close = findClosingBackticks(segment, at + length, length);
  if (close === -1) return at + length;
  ranges.push(start + at, start + close + length);
  return close + length;
}

/** '](': the link destination. */
function linkDestination(segment: string, start: number, at: number, ranges: Pairs): number {
  const close = findClosingParen(segment, at + 2);
  ranges.push(start + at + 1, start + close);
  return close;
}

/** Append [start, end) to the flat sorted pairs `excluded`, merging it into the last pair when they touch. */
export function excludeRange(excluded: number[], start: number, end: number): void {
  if (end <= start) return;
  const last = excluded.length - 1;
  if (last > 0 && excluded[last]! >= start) {
    if (end > excluded[last]!) excluded[last] = end;
  } else excluded.push(start, end);
}

/** Offsets of every "YYYY" and "yyyy" in text[from, …), in order. */
export function dateFormatOffsets(text: string, from = 0): number[] {
  const out: number[] = [];
  for (const year of ['YYYY', 'yyyy']) {
    for (let at = text.indexOf(year, from); at !== -1; at = text.indexOf(year, at + 1)) out.push(at);
  }
  return out.sort((a, b) => a - b);
}

// Whitespace-delimited chunks; only those holding a character that can start a path, URL, id or
// version are matched against the (slower) patterns. The regex engine finds those characters;
// plain prose never reaches JavaScript code. A '.' or ':' counts only when something other than
// closing punctuation follows it in the chunk: the punctuation that ends a sentence ("word.") is
// stripped before a chunk is looked at, so such a chunk can never match. ("YYYY"/"yyyy" date
// formats are found with indexOf instead: a 'y' in the pattern would make the regex engine stop
// at every letter y of the prose.)
// (The look-ahead, "something but closing punctuation follows in the chunk", is spelled as two
// alternatives, the next character or one further on: a little faster on the '.' that end
// sentences than one greedy run that backtracks.)
const INTERESTING_GLOBAL = /[/#@0-9]|[.:](?=[^ \t\n\r.,;:!?)\]}"'*_]|[^ \t\n\r]+[^ \t\n\r.,;:!?)\]}"'*_])/g;

function isSpace(c: number): boolean {
  return c <= 32 && (c === 32 || c === 10 || c === 9 || c === 13);
}

/** `(`, `[`, `{`, `"`, `'`, `*`, `_`: punctuation that may open a chunk of prose. */
function isOpening(c: number): boolean {
  return c === 40 || c === 91 || c === 123 || c === 34 || c === 39 || c === 42 || c === 95;
}

/** `. , ; : ! ? ) ] } " ' * _`: punctuation that may close a chunk of prose. */
function isClosing(c: number): boolean {
  return c === 46 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 41 || c === 93 || c === 125 || c === 34 || c === 39 || c === 42 || c === 95;
}

function maskChunks(text: string, segment: string, start: number, end: number, ranges: Pairs, dates: readonly number[], chunks: InlineCache | undefined): void {
  // Ranges found so far (code spans, tags, link destinations) are sorted and disjoint: a chunk
  // that lies inside one of them cannot add anything to the mask.
  const covering = ranges.length;
  const data = ranges.data; // (the same array all along: pushes only add to it)
  let r = 0;
  for (let at = interesting(text, segment, start, start, chunks); at !== -1 && at < end; ) {
    // Inside an inline range with white space (or the segment's edge) on both sides, such as most
    // code spans: every chunk there lies inside it, so the search goes on after it.
    let j = r;
    while (j < covering && data[j + 1]! <= at) j += 2;
    if (j < covering && data[j]! <= at) {
      const coverStart = data[j]!;
      const coverEnd = data[j + 1]!;
      if ((coverStart === start || isSpace(text.charCodeAt(coverStart - 1))) && (coverEnd >= end || isSpace(text.charCodeAt(coverEnd)))) {
        at = coverEnd < end ? interesting(text, segment, start, coverEnd, chunks) : -1;
        continue;
      }
    }
    // The chunk text[from, to) around `at`, its characters classified on the way (see maskChunk):
    // the closing punctuation that ends it is left out (`pending` until a character follows it).
    let bits = 0;
    let from = at;
    while (from > start) {
      const c = text.charCodeAt(from - 1);
      if (c < 128) {
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
      if (c < 128) {
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
    if (!(r < covering && data[r]! <= from && to <= data[r + 1]!)) {
      if (stop > at) {
        // What `maskChunk` would do: `at` lies between the opening punctuation (none of which is
        // classified) and `stop`, so `bits` are those of the chunk it looks at.
        let base = from;
        while (isOpening(text.charCodeAt(base))) base++;
        // Inside one inline range but for its punctuation ("`FR-001`,"): nothing to add (see
        // `collectAround`, which would find no uncovered piece).
        let j = r;
        while (j < covering && data[j + 1]! <= base) j += 2;
        const inside = j < covering && data[j]! <= base && stop <= data[j + 1]!;
        if (stop - base >= 2 && !inside) maskClassified(text, start, base, stop, bits, ranges, dates, chunks, r, covering);
      } else maskChunk(text, start, from, to, ranges, dates, chunks, r, covering);
    }
    at = to < end ? interesting(text, segment, start, to, chunks) : -1;
  }
  // Chunks holding a date format.
  if (dates.length === 0) return;
  let done = start;
  for (let i = lowerBound(dates, start); i < dates.length && dates[i]! + 4 <= end; i++) {
    const at = dates[i]!;
    if (at < done) continue;
    let from = at;
    while (from > start && !isSpace(text.charCodeAt(from - 1))) from--;
    let to = at + 1;
    while (to < end && !isSpace(text.charCodeAt(to))) to++;
    maskChunk(text, start, from, to, ranges, dates, chunks, covering, covering);
    done = to;
  }
}

/**
 * The offset of the first INTERESTING_GLOBAL match at or after `from` (-1: none), which is past
 * the segment text[start, …) when the segment has none. A match depends only on the characters
 * from it to the next white space (and segments end at a line break), so with the cache the regex
 * runs over the whole text and each search is reused for every paragraph before what it found:
 * the paragraphs' last, failing searches are saved.
 */
function interesting(text: string, segment: string, start: number, from: number, cache: InlineCache | undefined): number {
  if (cache !== undefined && cache.interestingFrom <= from && (cache.interesting === -1 || cache.interesting >= from)) return cache.interesting;
  return searchInteresting(text, segment, start, from, cache);
}

function searchInteresting(text: string, segment: string, start: number, from: number, cache: InlineCache | undefined): number {
  if (cache === undefined) {
    INTERESTING_GLOBAL.lastIndex = from - start;
    return INTERESTING_GLOBAL.test(segment) ? start + INTERESTING_GLOBAL.lastIndex - 1 : -1;
  }
  INTERESTING_GLOBAL.lastIndex = from;
  const found = INTERESTING_GLOBAL.test(text) ? INTERESTING_GLOBAL.lastIndex - 1 : -1;
  cache.interestingFrom = from;
  cache.interesting = found;
  return found;
}

/**
 * Whether text[base, stop) holds "YYYY" or "yyyy", `dates` listing every offset of those in the
 * text from before `base` on, in order (see `maskInline`).
 */
function holdsDateFormat(dates: readonly number[], base: number, stop: number): boolean {
  if (dates.length === 0) return false;
  const i = lowerBound(dates, base);
  return i < dates.length && dates[i]! + 4 <= stop;
}

// What each ASCII character of a chunk tells `maskChunk` (see there).
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
  const table = new Uint16Array(128);
  for (let c = 48; c <= 57; c++) table[c] = C_DIGIT;
  for (let c = 65; c <= 90; c++) table[c] = C_ID_START;
  table[89] |= C_Y;
  for (let c = 97; c <= 102; c++) table[c] = C_ID_START;
  table[121] = C_Y;
  table[45] = C_ID_START;
  table[58] = table[64] = C_COLON_AT;
  table[47] = C_SLASH;
  table[35] = C_HASH | C_ID_START;
  table[46] = C_DOT | C_ID_START;
  for (let c = 0; c < 128; c++) {
    if (isSpace(c)) table[c] |= C_SPACE;
    if (isClosing(c)) table[c] |= C_CLOSING;
  }
  return table;
})();

/** Whether text[base, stop) holds a '.' followed by an ASCII letter. */
function hasDotLetter(text: string, base: number, stop: number): boolean {
  for (let k = base; k + 1 < stop; k++) {
    if (text.charCodeAt(k) !== 46) continue;
    const next = text.charCodeAt(k + 1) | 32;
    if (next >= 97 && next <= 122) return true;
  }
  return false;
}

/**
 * The path, URL and id ranges of the chunk text[from, to) of the segment starting at `start`.
 * ranges.data[cover] is the first inline range (of the `covering` first entries) that ends after the
 * chunk's start (cover === covering: none).
 */
function maskChunk(text: string, start: number, from: number, to: number, ranges: Pairs, dates: readonly number[], chunks: InlineCache | undefined, cover: number, covering: number): void {
  // "word." and "(word)," are prose: drop the punctuation around the chunk before deciding.
  let base = from;
  while (base < to && isOpening(text.charCodeAt(base))) base++;
  let stop = to;
  while (stop > base && isClosing(text.charCodeAt(stop - 1))) stop--;
  if (stop - base < 2) return;
  let bits = 0;
  for (let k = base; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c < 128) bits |= CHUNK_CLASS[c]!;
  }
  maskClassified(text, start, base, stop, bits, ranges, dates, chunks, cover, covering);
}

/**
 * `maskChunk` once the chunk's punctuation is dropped: text[base, stop), at least two characters,
 * whose ASCII characters' CHUNK_CLASS bits are or-ed in `bits` (other bits may be set too).
 */
function maskClassified(text: string, start: number, base: number, stop: number, bits: number, ranges: Pairs, dates: readonly number[], chunks: InlineCache | undefined, cover: number, covering: number): void {
  // Look-behinds at the chunk's start must see what precedes it in the segment: the probe is the
  // chunk with that character (a space or opening punctuation, never part of a date format).
  const behind = base > start ? 1 : 0;
  const digit = (bits & C_DIGIT) !== 0;
  const colonOrAt = (bits & C_COLON_AT) !== 0;
  const slash = (bits & C_SLASH) !== 0;
  const hash = (bits & C_HASH) !== 0;
  const interesting = (bits & C_INTERESTING) !== 0;
  const letterY = (bits & C_Y) !== 0;
  // Whether an id can start here at all: each kind of id needs one of these (see IDENTIFIER).
  const idStart = stop - base >= 26 || (bits & C_ID_START) !== 0;
  // A '.' before a letter (only asked for when there is no '/').
  const dotLetter = !slash && (bits & C_DOT) !== 0 && hasDotLetter(text, base, stop);
  // The cheap tests first: most chunks that get here are prose after all.
  const year = !digit && letterY && holdsDateFormat(dates, base, stop);
  if (!interesting && !year) return;
  // Each pattern needs: a URL ':' or '@' (or "www."); a path '/' or a '.' before a letter; an id a
  // digit or "YYYY", or for a 26-character ULID a '#' (which let such chunks in before).
  const url = colonOrAt || (text.charCodeAt(base) === 119 && text.charCodeAt(base + 1) === 119 && text.charCodeAt(base + 2) === 119 && text.charCodeAt(base + 3) === 46 && base + 4 <= stop);
  const path = slash || dotLetter;
  // (A chunk of digits alone, "2024" or "10", has none of what an id needs.)
  const identifier = (digit || year || (hash && stop - base >= 26)) && (idStart || year);
  if (!url && !path && !identifier) return;
  if (!url && !path && (behind === 0 || text.charCodeAt(base - 1) !== 95) && isWholeId(text, base, stop)) {
    // "FR-004", "NFR-2", "US1", "#964": the id pattern matches the whole chunk, and only it runs.
    ranges.push(base, stop);
    return;
  }
  const probeStart = base - behind;
  if (cover < covering && ranges.data[cover]! < stop) {
    // Partly inside inline constructs (a link's destination, a code span): see `collectAround`.
    collectAround(text, probeStart, base, stop, ranges, cover, covering, url, path, identifier);
    return;
  }
  const length = stop - probeStart;
  let key = 0; // a hash of the probe's characters
  if (chunks) {
    for (let k = probeStart; k < stop; k++) key = (Math.imul(key, 31) + text.charCodeAt(k)) | 0;
    const known = chunks.chunks.get(key);
    // (startsWith compares natively: several times faster than a loop here for a long probe.)
    if (known && known.probe.length === length && text.startsWith(known.probe, probeStart)) {
      const found = known.found;
      for (let k = 0; k < found.length; k += 2) ranges.push(base + found[k]!, base + found[k + 1]!);
      return;
    }
  }
  const probe = text.slice(probeStart, stop);
  const first = ranges.length;
  if (url) collect(URL_OR_EMAIL, probe, probeStart, base, ranges);
  if (path) collect(PATH, probe, probeStart, base, ranges);
  if (identifier) collect(IDENTIFIER, probe, probeStart, base, ranges);
  if (chunks) {
    const found: number[] = [];
    for (let k = first; k < ranges.length; k++) found.push(ranges.data[k]! - base);
    chunks.chunks.set(key, { probe, found });
  }
}

/**
 * The matches in the probe text[probeStart, stop) that reach outside the inline ranges
 * ranges.data[cover], ranges.data[cover + 1], … (sorted, the first `covering` entries) — the others add
 * nothing to the mask — found without running the patterns over the covered stretches.
 *
 * No match of URL_OR_EMAIL, PATH or IDENTIFIER can hold white space or any of < > ) ] `, and every
 * inline range starts at or just after one of them ('`', '<', the ']' of "](" or "][") and ends
 * with one (or at a line break or the segment's end, which end the chunk too). So a match that
 * starts before a covered stretch ends before it, one that starts inside it ends inside it, and
 * the patterns see the same characters, word boundaries and look-behinds whether they run over
 * the whole probe or over each uncovered piece on its own: the matches starting in a piece are
 * the same either way.
 */
function collectAround(text: string, probeStart: number, base: number, stop: number, ranges: Pairs, cover: number, covering: number, url: boolean, path: boolean, identifier: boolean): void {
  let at = probeStart;
  let r = cover;
  while (at < stop) {
    const next = r < covering && ranges.data[r]! < stop ? ranges.data[r]! : stop; // where the next covered stretch starts
    if (next > at && next > base) collectPiece(text, at, next, base, ranges, url, path, identifier);
    if (next >= stop) return;
    at = Math.max(at, ranges.data[r + 1]!);
    r += 2;
  }
}

/** The matches in text[from, to) (no look-behind beyond it) starting at or after `min`. */
function collectPiece(text: string, from: number, to: number, min: number, ranges: Pairs, url: boolean, path: boolean, identifier: boolean): void {
  if (to - from < 2) return; // (every match of the patterns is two characters or more)
  // What each pattern cannot match without: a URL ':' (scheme), '.' ("www.") or '@'; a path '/'
  // or '.'; an id a digit, "YYYY"/"yyyy" or 26 characters (a ULID).
  let urlMark = false;
  let pathMark = false;
  let idMark = to - from >= 26;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) idMark = true;
    else if (c === 46) urlMark = pathMark = true;
    else if (c === 58 || c === 64) urlMark = true;
    else if (c === 47) pathMark = true;
    else if (c === 89 || c === 121) idMark = true;
  }
  if (!((url && urlMark) || (path && pathMark) || (identifier && idMark))) return;
  const piece = text.slice(from, to);
  if (url && urlMark) collect(URL_OR_EMAIL, piece, from, min, ranges);
  if (path && pathMark) collect(PATH, piece, from, min, ranges);
  if (identifier && idMark) collect(IDENTIFIER, piece, from, min, ranges);
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
  if (first === 35) {
    if (stop - base < 2) return false;
    for (let k = base + 1; k < stop; k++) if (!isDigit(text.charCodeAt(k))) return false;
    return true;
  }
  if (first < 65 || first > 90) return false;
  let k = base + 1;
  let capitals = true;
  for (; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c >= 97 && c <= 122) capitals = false;
    else if (!(c >= 65 && c <= 90)) break;
  }
  if (k - base <= 8 && k + 1 < stop && text.charCodeAt(k) === 45 && isDigit(text.charCodeAt(k + 1))) k += 2;
  else if (capitals && k - base <= 6 && k < stop && isDigit(text.charCodeAt(k))) k += 1;
  else return false;
  for (; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (!(isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45)) return false;
  }
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
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

function findClosingBackticks(segment: string, from: number, length: number): number {
  let at = segment.indexOf('`', from);
  while (at !== -1) {
    let run = 1;
    while (segment.charCodeAt(at + run) === 96) run++;
    if (run === length) return at;
    at = segment.indexOf('`', at + run);
  }
  return -1;
}

/** End (exclusive) of a link destination starting after `](`, allowing balanced parentheses. */
function findClosingParen(segment: string, from: number): number {
  let depth = 1;
  for (let i = from; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return i + 1;
    else if (c === 10 && segment.charCodeAt(i + 1) === 10) return i;
  }
  return segment.length;
}
