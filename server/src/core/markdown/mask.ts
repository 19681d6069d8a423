/**
 * Markdown-aware masking: returns a copy of the document, same length and same line breaks, in
 * which everything terms must never be extracted from (front matter, code blocks, inline code,
 * HTML, link destinations, URLs, file paths, requirement ids) is replaced by MASK. Extractors then
 * run plain regular expressions over prose, and every offset still points into the original.
 *
 * A line scanner rather than a full CommonMark parser: it needs to be linear, allocation-light and
 * fast enough for a 1 MB spec in a few milliseconds (see docs/architecture.md).
 */

import { locateFrontMatter } from './frontMatter';
import { InlineCache, dateFormatOffsets, excludeRange, maskInlineInto } from './inline';

export const MASK = '\u001f';

export interface Heading {
  level: number;
  /** Offsets of the heading text (without `#` markers). */
  start: number;
  end: number;
  /** Offset of the start of the heading line. */
  lineStart: number;
  text: string;
}

export interface MaskedDocument {
  masked: string;
  /** Flat [start, end) pairs of the masked stretches, in order (may touch or overlap). */
  excluded: number[];
  headings: Heading[];
  /** Offsets where front matter ends (0 when there is none). */
  bodyStart: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*?)\r?$/; // a CRLF line keeps its \r: not part of the info string
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S/;
const RAW_HTML_BLOCK = /^ {0,3}<(pre|script|style|textarea)(?:[\s>]|$)/i;
const HTML_COMMENT_START = /^ {0,3}<!--/;

/**
 * Line-scanner state at a line start that no block construct spans (no open fence, comment, raw
 * HTML block or paragraph): what is left is whether the previous line was blank and whether a
 * list is open. Masking from such a line on depends only on this state and the text that follows.
 */
export const STATE_PREVIOUS_BLANK = 1;
export const STATE_IN_LIST = 2;
export const INITIAL_STATE = STATE_PREVIOUS_BLANK;

/** The masking of lines [from, end) of a document. */
export interface MaskedLines {
  from: number;
  end: number;
  /** Flat [start, end) pairs of excluded offsets, in order. */
  excluded: number[];
  headings: Heading[];
  /** Flat [offset, state] pairs: every line start in [from, end) whose state is clean (when asked for). */
  checkpoints: number[];
}

/** `lineStarts`: the offsets where the text's lines start, when the caller has them already. */
export function maskMarkdown(text: string, lineStarts?: ArrayLike<number>): MaskedDocument {
  const { excluded, headings, bodyStart } = documentExclusions(text, lineStarts, false);
  return { masked: applyMask(text, excluded, 0, text.length), excluded, headings, bodyStart };
}

/** What is excluded from extraction in a whole document, and what else masking found. */
export interface DocumentExclusions {
  /** Sorted flat [start, end) pairs (may touch or overlap): BOM, front matter, then the body's. */
  excluded: number[];
  headings: Heading[];
  /** Where the body starts (after front matter), and where the front matter is, if any. */
  bodyStart: number;
  front: { start: number; end: number } | undefined;
  /** The body's clean line starts (see `maskLines`), when asked for (`record`). */
  checkpoints: number[];
}

/** The exclusions of a whole document: a BOM, the front matter, then the masking of the body. */
export function documentExclusions(text: string, lineStarts: ArrayLike<number> | undefined, record: boolean): DocumentExclusions {
  const found = locateFrontMatter(text);
  const front = found && { start: found.start, end: found.end };
  const bodyStart = front ? front.end : 0;
  const excluded: number[] = [];
  if (text.charCodeAt(0) === 0xfeff) excluded.push(0, 1);
  if (front && front.end > front.start) {
    if (excluded.length > 0 && excluded[1]! >= front.start) excluded[1] = Math.max(excluded[1]!, front.end);
    else excluded.push(front.start, front.end);
  }
  const body = maskLines(text, bodyStart, INITIAL_STATE, undefined, record, excluded, lineStarts);
  return { excluded, headings: body.headings, bodyStart, front, checkpoints: body.checkpoints };
}

/**
 * Mask the lines of `text` from the line start `from`, where the scanner is in the clean `state`.
 * With `stop`, the scan ends at the first clean line start after `from` for which `stop` says so
 * (the incremental checker stops where the state matches the previous scan again).
 */
export function maskLines(
  text: string,
  from: number,
  state: number,
  stop?: (offset: number, state: number) => boolean,
  record = true,
  excluded: number[] = [],
  lineStarts?: ArrayLike<number>,
): MaskedLines {
  // With the line starts known, line ends need no search.
  let line = lineStarts ? lineAt(lineStarts, from) : -1;
  const headings: Heading[] = [];
  const checkpoints: number[] = [];
  // Date formats are rare: found once here rather than searched for in every paragraph.
  const dates = dateFormatOffsets(text, from);
  const chunks = new InlineCache(text);

  let fence: { char: number; length: number } | undefined;
  let rawHtmlCloser: RegExp | undefined;
  let inComment = false;
  let previousBlank = (state & STATE_PREVIOUS_BLANK) !== 0;
  let inList = (state & STATE_IN_LIST) !== 0;
  let paragraphStart = -1;
  let paragraphEnd = -1;
  const flushParagraph = () => {
    if (paragraphStart >= 0) maskInlineInto(text, paragraphStart, paragraphEnd, excluded, dates, chunks);
    paragraphStart = -1;
  };

  let pos = from;
  let end = text.length;
  while (pos < text.length) {
    if (paragraphStart < 0 && fence === undefined && !inComment && rawHtmlCloser === undefined) {
      const bits = (previousBlank ? STATE_PREVIOUS_BLANK : 0) | (inList ? STATE_IN_LIST : 0);
      if (stop && pos > from && stop(pos, bits)) {
        end = pos;
        break;
      }
      if (record) checkpoints.push(pos, bits);
    }
    let lineEnd: number;
    if (line >= 0) lineEnd = ++line < lineStarts!.length ? lineStarts![line]! - 1 : text.length;
    else if ((lineEnd = text.indexOf('\n', pos)) === -1) lineEnd = text.length;
    const next = lineEnd + 1;

    if (fence) {
      excludeRange(excluded, pos, lineEnd);
      if (closesFence(text, pos, lineEnd, fence.char, fence.length)) fence = undefined;
      pos = next;
      continue;
    }
    if (inComment) {
      const close = text.slice(pos, lineEnd).indexOf('-->');
      excludeRange(excluded, pos, close === -1 ? lineEnd : pos + close + 3);
      if (close !== -1) inComment = false;
      pos = next;
      continue;
    }
    if (rawHtmlCloser) {
      excludeRange(excluded, pos, lineEnd);
      if (rawHtmlCloser.test(text.slice(pos, lineEnd))) rawHtmlCloser = undefined;
      pos = next;
      continue;
    }

    if (isBlank(text, pos, lineEnd)) {
      flushParagraph();
      previousBlank = true;
      pos = next;
      continue;
    }

    // Every block construct below starts with a distinctive character after at most three
    // spaces; only the pattern that character can start is tried.
    let k = pos;
    while (k - pos < 3 && text.charCodeAt(k) === 32) k++;
    const first = k < lineEnd ? text.charCodeAt(k) : -1;

    // (A fence needs three of the character: most lines starting with one are inline code.)
    if ((first === 96 || first === 126) && text.charCodeAt(k + 1) === first && text.charCodeAt(k + 2) === first) {
      const fenceOpen = FENCE.exec(text.slice(pos, lineEnd));
      if (fenceOpen && !(fenceOpen[1]![0] === '`' && fenceOpen[2]!.includes('`'))) {
        flushParagraph();
        fence = { char: first, length: fenceOpen[1]!.length };
        excludeRange(excluded, pos, lineEnd);
        previousBlank = false;
        pos = next;
        continue;
      }
    }

    const c0 = text.charCodeAt(pos);
    const indented = c0 === 9 || (c0 === 32 && text.charCodeAt(pos + 1) === 32 && text.charCodeAt(pos + 2) === 32 && text.charCodeAt(pos + 3) === 32);
    if (indented && paragraphStart < 0 && previousBlank && !inList) {
      excludeRange(excluded, pos, lineEnd); // indented code block
      pos = next;
      continue;
    }

    if (first === 60) {
      const line = text.slice(pos, lineEnd);
      if (HTML_COMMENT_START.test(line)) {
        flushParagraph();
        const close = line.indexOf('-->');
        excludeRange(excluded, pos, close === -1 ? lineEnd : pos + close + 3);
        if (close === -1) inComment = true;
        else if (pos + close + 3 < lineEnd) maskInlineInto(text, pos + close + 3, lineEnd, excluded, dates, chunks);
        previousBlank = false;
        pos = next;
        continue;
      }
      const rawHtml = RAW_HTML_BLOCK.exec(line);
      if (rawHtml) {
        flushParagraph();
        excludeRange(excluded, pos, lineEnd);
        const closer = new RegExp(`</${rawHtml[1]}>`, 'i');
        if (!closer.test(line)) rawHtmlCloser = closer;
        previousBlank = false;
        pos = next;
        continue;
      }
    }
    if (first === 91 && REFERENCE_DEFINITION.test(text.slice(pos, lineEnd))) {
      flushParagraph();
      excludeRange(excluded, pos, lineEnd);
      previousBlank = false;
      pos = next;
      continue;
    }

    if (first === 35) {
      const level = atxHeading(text, k, lineEnd);
      if (level > 0) {
        flushParagraph();
        const content = text.slice(HEADING_TEXT[0], HEADING_TEXT[1]);
        // (Where the text is first found after the '#'s of the line: usually where it is, and
        // never after it, so only the few offsets before it need a look.)
        let start = lineEnd;
        if (content) {
          start = pos + level;
          while (start < HEADING_TEXT[0]! && !text.startsWith(content, start)) start++;
        }
        headings.push({ level, start, end: start + content.length, lineStart: pos, text: content });
        // The line's leading spaces and run of '#' form a chunk of their own that nothing masks
        // (no digit, at most six characters): the inline pass starts after them.
        maskInlineInto(text, k + level, lineEnd, excluded, dates, chunks);
        inList = false;
        previousBlank = false;
        pos = next;
        continue;
      }
    }

    if ((first === 45 || first === 42 || first === 43 || (first >= 48 && first <= 57)) && isListItem(text, k, lineEnd)) {
      flushParagraph();
      inList = true;
    } else if (previousBlank && !indented) {
      inList = false;
    }
    if (paragraphStart < 0) paragraphStart = pos;
    paragraphEnd = lineEnd;
    previousBlank = false;
    pos = next;
  }
  flushParagraph();
  return { from, end, excluded, headings, checkpoints };
}

/** Index of the line starting at `offset` (a line start). */
function lineAt(starts: ArrayLike<number>, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/ with a run of `char` at least `length` long. */
function closesFence(text: string, pos: number, lineEnd: number, char: number, length: number): boolean {
  let k = pos;
  while (k - pos < 3 && k < lineEnd && text.charCodeAt(k) === 32) k++;
  const runStart = k;
  while (k < lineEnd && text.charCodeAt(k) === char) k++;
  const run = k - runStart;
  if (run < 3 || run < length) return false;
  while (k < lineEnd && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
  if (k < lineEnd && text.charCodeAt(k) === 13) k++;
  return k === lineEnd;
}

// Characters up to the next line terminator ('\n' only ends the line: the search goes no further).
const NO_LINE_TERMINATOR = /[^\n\r\u2028\u2029]*/y;

// Where `atxHeading` found the heading's text.
const HEADING_TEXT = [0, 0];

/**
 * /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?$/ on the line ending at `lineEnd`, `at`
 * being its first '#' (after up to three spaces): the number of '#' (0: not a heading), the text
 * (group 2, '' when absent) in HEADING_TEXT. Spelled out:
 * - the run of '#' is the whole run (what follows fewer would be a '#'), of at most six;
 * - what follows it, but for a last '\r', holds no line terminator ('.' matches none, nor does
 *   anything after it) and is empty or starts with a blank; nothing but blanks: no text;
 * - else the text starts after the blanks and is as short as the rest allows: up to the blanks
 *   before a closing run of '#' that only blanks follow, or up to the trailing blanks.
 */
function atxHeading(text: string, at: number, lineEnd: number): number {
  let k = at;
  while (k < lineEnd && text.charCodeAt(k) === 35) k++;
  const level = k - at;
  if (level > 6) return 0;
  const end = lineEnd > k && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
  NO_LINE_TERMINATOR.lastIndex = k;
  NO_LINE_TERMINATOR.test(text);
  if (NO_LINE_TERMINATOR.lastIndex < end) return 0;
  HEADING_TEXT[0] = HEADING_TEXT[1] = end;
  if (k === end) return level;
  if (!isBlankChar(text.charCodeAt(k))) return 0;
  while (k < end && isBlankChar(text.charCodeAt(k))) k++;
  if (k === end) return level;
  let stop = end;
  while (isBlankChar(text.charCodeAt(stop - 1))) stop--;
  let closing = stop;
  while (closing > k && text.charCodeAt(closing - 1) === 35) closing--;
  if (closing < stop && closing > k && isBlankChar(text.charCodeAt(closing - 1))) {
    stop = closing - 1;
    while (isBlankChar(text.charCodeAt(stop - 1))) stop--;
  }
  HEADING_TEXT[0] = k;
  HEADING_TEXT[1] = stop;
  return level;
}

/** [ \t] */
function isBlankChar(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/ on the line ending at `lineEnd`, `at` being past its
 * (up to three) leading spaces.
 */
function isListItem(text: string, at: number, lineEnd: number): boolean {
  const c = text.charCodeAt(at);
  let k = at + 1;
  if (c !== 45 && c !== 42 && c !== 43) {
    k = at;
    while (k < lineEnd && k - at < 10 && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
    if (k === at || k - at > 9 || k >= lineEnd) return false;
    const after = text.charCodeAt(k);
    if (after !== 46 && after !== 41) return false;
    k++;
  }
  if (k >= lineEnd) return true;
  const next = text.charCodeAt(k);
  return next === 32 || next === 9;
}

/** `line.trim().length === 0` without slicing the line. */
function isBlank(text: string, pos: number, lineEnd: number): boolean {
  for (let k = pos; k < lineEnd; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128) return false;
    return text.slice(pos, lineEnd).trim().length === 0;
  }
  return true;
}

/**
 * `text[from, to)` with the excluded ranges (sorted flat pairs) replaced by MASK, as a string
 * (for tools and tests: checks read the masked code units of extract/maskedCodes.ts instead).
 */
export function applyMask(text: string, excluded: readonly number[], from: number, to: number): string {
  if (excluded.length === 0) return from === 0 && to === text.length ? text : text.slice(from, to);
  const parts: string[] = [];
  let at = from;
  for (let i = 0; i < excluded.length; i += 2) {
    const start = excluded[i]!;
    const end = excluded[i + 1]!;
    if (start > at) parts.push(text.slice(at, start));
    if (end > at) fill(text, Math.max(start, at), end, parts);
    at = Math.max(at, end);
  }
  if (at < to) parts.push(text.slice(at, to));
  return parts.join('');
}

let MASK_RUN = MASK.repeat(256);

function maskRun(length: number): string {
  while (MASK_RUN.length < length) MASK_RUN += MASK_RUN;
  return MASK_RUN.slice(0, length);
}

/** MASK for every character in [start, end) except line breaks, which keep lines aligned. */
function fill(text: string, start: number, end: number, parts: string[]): void {
  const slice = text.slice(start, end);
  if (slice.indexOf('\n') === -1 && slice.indexOf('\r') === -1) parts.push(maskRun(slice.length));
  else parts.push(slice.replace(/[^\r\n]/g, MASK));
}
