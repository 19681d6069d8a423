/**
 * What a line starts, read from its first non-space character `at` to its end `lineEnd` (the
 * caller has checked the indentation): ATX headings, fences, thematic breaks, list markers,
 * setext underlines and GFM table rows, as markdown-it reads them.
 */

import {
  ASTERISK,
  BACKSLASH,
  BACKTICK,
  CLOSE_PAREN,
  COLON,
  DASH,
  DOT,
  EQUALS,
  HASH,
  PIPE,
  PLUS,
  TILDE,
  UNDERSCORE,
  SPACE,
  TAB,
  CR,
  NO_BREAK_SPACE,
  BYTE_ORDER_MARK,
  isDigit,
  isSpaceOrTab,
} from './chars';

/** The most digits an ordered list marker may have. */
const MAX_ORDERED_DIGITS = 9;
const MAX_HEADING_LEVEL = 6;
const MIN_FENCE = 3;

/** The level of the ATX heading at `at` (`#` to `######` and a space, a tab or the line's end), or 0. */
export function atxHeadingLevel(text: string, at: number, lineEnd: number): number {
  let k = at;
  while (k < lineEnd && text.charCodeAt(k) === HASH) k++;
  const level = k - at;
  if (level === 0 || level > MAX_HEADING_LEVEL) return 0;
  return k === lineEnd || isSpaceOrTab(text.charCodeAt(k)) ? level : 0;
}

/**
 * The content of an ATX heading whose markers end at `from`: without the white space around it
 * and without a closing run of `#` that white space precedes. [start, end); empty: start === end.
 */
export function atxHeadingContent(text: string, from: number, lineEnd: number): [number, number] {
  let max = lineEnd;
  while (max > from && isSpaceOrTab(text.charCodeAt(max - 1))) max--;
  let closing = max;
  while (closing > from && text.charCodeAt(closing - 1) === HASH) closing--;
  if (closing > from && isSpaceOrTab(text.charCodeAt(closing - 1))) max = closing;
  let start = from;
  while (start < max && isSpaceOrTab(text.charCodeAt(start))) start++;
  while (max > start && isSpaceOrTab(text.charCodeAt(max - 1))) max--;
  return [start, max];
}

/** The length of the fence opening at `at` (three or more backticks or tildes), or 0. */
export function fenceOpening(text: string, at: number, lineEnd: number): number {
  const c = text.charCodeAt(at);
  if (c !== BACKTICK && c !== TILDE) return 0;
  let k = at;
  while (k < lineEnd && text.charCodeAt(k) === c) k++;
  const length = k - at;
  if (length < MIN_FENCE) return 0;
  // A backtick fence's info string may hold no backtick (that line is inline code).
  if (c === BACKTICK) {
    const tick = text.indexOf('`', k);
    if (tick !== -1 && tick < lineEnd) return 0;
  }
  return length;
}

/** Whether the line from `at` closes a fence of `length` `char`s: as many or more, then only blanks. */
export function closesFence(text: string, at: number, lineEnd: number, char: number, length: number): boolean {
  let k = at;
  while (k < lineEnd && text.charCodeAt(k) === char) k++;
  if (k - at < length) return false;
  while (k < lineEnd && isSpaceOrTab(text.charCodeAt(k))) k++;
  return k === lineEnd;
}

/** Whether the line from `at` is a thematic break: three or more of one of `*-_`, blanks between. */
export function isThematicBreak(text: string, at: number, lineEnd: number): boolean {
  const marker = text.charCodeAt(at);
  if (marker !== ASTERISK && marker !== DASH && marker !== UNDERSCORE) return false;
  let count = 0;
  for (let k = at; k < lineEnd; k++) {
    const c = text.charCodeAt(k);
    if (c === marker) count++;
    else if (!isSpaceOrTab(c)) return false;
  }
  return count >= 3;
}

/** A list marker: where it ends, and for an ordered one, its number. */
export interface ListMarker {
  end: number;
  ordered: boolean;
  /** The ordered marker's number (1 for bullets, which never need it). */
  value: number;
}

/**
 * The list marker at `at` (`-`, `+`, `*`, or one to nine digits and `.` or `)`), followed by a
 * space, a tab or the line's end; undefined when there is none.
 */
export function listMarker(text: string, at: number, lineEnd: number): ListMarker | undefined {
  const c = text.charCodeAt(at);
  let end: number;
  let ordered = false;
  let value = 1;
  if (c === DASH || c === PLUS || c === ASTERISK) end = at + 1;
  else if (isDigit(c)) {
    let k = at;
    while (k < lineEnd && isDigit(text.charCodeAt(k))) k++;
    if (k - at > MAX_ORDERED_DIGITS || k >= lineEnd) return undefined;
    const delimiter = text.charCodeAt(k);
    if (delimiter !== DOT && delimiter !== CLOSE_PAREN) return undefined;
    ordered = true;
    value = Number(text.slice(at, k));
    end = k + 1;
  } else return undefined;
  if (end < lineEnd && !isSpaceOrTab(text.charCodeAt(end))) return undefined;
  return { end, ordered, value };
}

/** The level of the setext underline at `at` (a run of `=` gives 1, of `-` gives 2, then only blanks), or 0. */
export function setextLevel(text: string, at: number, lineEnd: number): number {
  const marker = text.charCodeAt(at);
  if (marker !== EQUALS && marker !== DASH) return 0;
  let k = at;
  while (k < lineEnd && text.charCodeAt(k) === marker) k++;
  while (k < lineEnd && isSpaceOrTab(text.charCodeAt(k))) k++;
  if (k < lineEnd) return 0;
  return marker === EQUALS ? 1 : 2;
}

/**
 * The number of columns of the GFM table delimiter row at `at` (`|---|:--:|`), or 0 when the line
 * is not one. (markdown-it's rule: only `|`, `-`, `:` and blanks; every cell but an empty first
 * or last one is `:?-+:?`; a line starting with `-` and a blank is a list item instead.)
 */
export function tableDelimiterColumns(text: string, at: number, lineEnd: number): number {
  if (lineEnd - at < 2) return 0;
  const first = text.charCodeAt(at);
  if (first !== PIPE && first !== DASH && first !== COLON) return 0;
  const second = text.charCodeAt(at + 1);
  if (second !== PIPE && second !== DASH && second !== COLON && !isSpaceOrTab(second)) return 0;
  if (first === DASH && isSpaceOrTab(second)) return 0;
  for (let k = at + 2; k < lineEnd; k++) {
    const c = text.charCodeAt(k);
    if (c !== PIPE && c !== DASH && c !== COLON && !isSpaceOrTab(c)) return 0;
  }
  const cells = text.slice(at, lineEnd).split('|');
  let columns = 0;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!.trim();
    if (!cell) {
      if (i === 0 || i === cells.length - 1) continue;
      return 0;
    }
    if (!/^:?-+:?$/.test(cell)) return 0;
    columns++;
  }
  return columns;
}

/**
 * The cells of the table row text[from, to) (the line from its first non-space character), as
 * markdown-it splits them: the row trimmed, split at pipes a backslash does not escape, an empty
 * first and last cell dropped, each cell trimmed. Flat [start, end) pairs, appended to `cells`;
 * returns the number of cells (0 for a row of white space).
 */
export function tableCells(text: string, from: number, to: number, cells: number[]): number {
  let start = from;
  let end = to;
  while (start < end && isTrimmed(text.charCodeAt(start))) start++;
  while (end > start && isTrimmed(text.charCodeAt(end - 1))) end--;
  if (start === end) return 0;
  const first = cells.length;
  // An empty first cell (the row's leading pipe) is no cell.
  let cellStart = text.charCodeAt(start) === PIPE ? start + 1 : start;
  // (markdown-it's escape check: the character before a pipe, whatever escapes that one.)
  for (let pipe = text.indexOf('|', cellStart); pipe !== -1 && pipe < end; pipe = text.indexOf('|', pipe + 1)) {
    if (pipe > start && text.charCodeAt(pipe - 1) === BACKSLASH) continue;
    pushTrimmed(text, cellStart, pipe, cells);
    cellStart = pipe + 1;
  }
  // An empty last cell (after the row's trailing pipe) is no cell.
  if (cellStart < end) pushTrimmed(text, cellStart, end, cells);
  return (cells.length - first) / 2;
}

/** text[from, to) without the white space around it, as a pair (an empty cell: start === end). */
function pushTrimmed(text: string, from: number, to: number, cells: number[]): void {
  while (from < to && isTrimmed(text.charCodeAt(from))) from++;
  while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
  cells.push(from, to);
}

/**
 * White space as String.prototype.trim knows it (markdown-it trims rows and cells with it): ASCII
 * tab to carriage return and space, and Unicode's: no-break space, Ogham space mark, the spaces
 * U+2000–U+200A, line and paragraph separators, narrow no-break space, medium mathematical space,
 * ideographic space, and the byte order mark.
 */
function isTrimmed(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= TAB && c <= CR);
  if (c < NO_BREAK_SPACE) return false;
  return c === NO_BREAK_SPACE || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === BYTE_ORDER_MARK;
}
