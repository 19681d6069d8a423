/**
 * Offset ↔ LSP position conversion over a string (UTF-16 code units, as LSP wants), and the small
 * array helpers the core's offset tables share.
 */

import type { Position, Range } from './types';

export class LineIndex {
  /**
   * Offset of the first character of each line. (A typed array: a 1 MB spec has ~14,000 lines,
   * and an index is made or patched per check and per keystroke.)
   */
  private readonly starts: Int32Array;
  /** Whether a `\r` not followed by `\n` ends a line (LSP counts `\n`, `\r\n` and `\r`): rare, so `edited` then starts over. */
  private readonly loneCr: boolean;

  /** `starts` (the offsets of the line starts of `text`) when the caller already knows them. */
  constructor(
    readonly text: string,
    starts?: Int32Array,
  ) {
    if (starts) {
      this.starts = starts;
      this.loneCr = false;
      return;
    }
    // One search for the line breaks, into an array that grows as needed (room for a line per
    // 32 characters to start with: prose lines are longer, so it seldom does).
    let found = new Int32Array(Math.max(16, (text.length >> 5) + 16));
    let lines = 1;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      if (lines === found.length) found = grown(found, lines * 2);
      found[lines++] = at + 1;
    }
    const atLineFeeds = found.length === lines ? found : found.slice(0, lines);
    const lone = text.indexOf('\r') === -1 ? undefined : loneCrStarts(text);
    this.loneCr = lone !== undefined;
    this.starts = lone === undefined ? atLineFeeds : merged(atLineFeeds, lone);
  }

  /**
   * The index of `text`, which is this index's text with [from, oldEnd) replaced by what is now
   * [from, newEnd): only the line breaks of the replaced part are looked for.
   */
  edited(text: string, from: number, oldEnd: number, newEnd: number): LineIndex {
    // A lone `\r` in the text, or one at the edit (which may join or part a `\r\n`): counted anew.
    if (this.loneCr || text.charCodeAt(from - 1) === 13 || text.charCodeAt(newEnd - 1) === 13 || text.slice(from, newEnd).includes('\r')) return new LineIndex(text);
    const delta = newEnd - oldEnd;
    const old = this.starts;
    const head = lowerBound(old, from + 1); // (offsets are integers: the first start after `from`)
    const tail = lowerBound(old, oldEnd + 1);
    let added = 0;
    for (let at = text.indexOf('\n', from); at !== -1 && at < newEnd; at = text.indexOf('\n', at + 1)) added++;
    const starts = new Int32Array(head + added + old.length - tail);
    starts.set(old.subarray(0, head));
    let k = head;
    for (let at = text.indexOf('\n', from); at !== -1 && at < newEnd; at = text.indexOf('\n', at + 1)) starts[k++] = at + 1;
    for (let i = tail; i < old.length; i++) starts[k++] = old[i]! + delta;
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offsets of the line starts, ascending (do not modify). */
  lineStarts(): ArrayLike<number> {
    return this.starts;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))]!;
  }

  /** Offset just past the line's content (before `\r\n` or `\n`). */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
    return next > this.lineStart(line) && this.text.charCodeAt(next - 1) === 13 ? next - 1 : next;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.starts[low]! };
  }

  offsetAt(position: Position): number {
    if (position.line >= this.starts.length) return this.text.length;
    if (position.line < 0) return 0;
    const start = this.starts[position.line]!;
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }

  /**
   * Line start + character: the offset `positionAt` turned into `position` (unlike `offsetAt`, a
   * character past the line's end is not clamped). Orders positions as (line, character) does.
   */
  offsetOf(position: Position): number {
    const line = position.line;
    return (line < 0 ? 0 : line >= this.starts.length ? this.text.length : this.starts[line]!) + position.character;
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /**
   * `rangeOf` of the [start, end) pairs of the flat list `pairs` from pair index `from` to `to`,
   * whose starts must ascend: each line is found by galloping on from the previous one.
   */
  rangesOfSorted(pairs: ArrayLike<number>, from = 0, to = pairs.length >> 1): Range[] {
    const out: Range[] = new Array(to - from);
    const length = this.text.length;
    let line = 0;
    for (let k = from; k < to; k++) {
      const start = Math.max(0, Math.min(pairs[2 * k]!, length));
      const end = Math.max(0, Math.min(pairs[2 * k + 1]!, length));
      if (this.starts[line]! > start) line = 0; // starts did not ascend: look from the top
      line = this.lineFrom(line, start);
      const endLine = end >= start ? this.lineFrom(line, end) : this.lineFrom(0, end);
      out[k - from] = { start: { line, character: start - this.starts[line]! }, end: { line: endLine, character: end - this.starts[endLine]! } };
    }
    return out;
  }

  /** The line holding `offset`, given a line `hint` that starts at or before it. */
  private lineFrom(hint: number, offset: number): number {
    const starts = this.starts;
    const last = starts.length - 1;
    if (hint >= last || starts[hint + 1]! > offset) return hint;
    // Gallop: low always starts at or before the offset.
    let low = hint + 1;
    let step = 1;
    while (low + step <= last && starts[low + step]! <= offset) {
      low += step;
      step *= 2;
    }
    let high = Math.min(last, low + step);
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/**
 * `s` as a string of its own. V8 makes a longer substring (`slice`, a regular expression's match,
 * a `toLowerCase` that changes nothing) a view into the string it was taken from, which keeps
 * all of that string alive: a word remembered by an engine's lexicon or memo would keep the whole
 * document it first appeared in. (Slicing a concatenation copies: V8 flattens it first.)
 */
export function standalone(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/**
 * `array` with its entries [from, to) replaced by `items`, in `array`'s own memory when it has
 * room (the result is then a view of it, and `array` must not be read again), else in a new
 * array with room to grow: for typed arrays kept from one check of a document to the next and
 * edited a little each time.
 */
export function splicedInt32(array: Int32Array, from: number, to: number, items: ArrayLike<number>): Int32Array {
  const size = array.length - (to - from) + items.length;
  const capacity = array.buffer.byteLength / Int32Array.BYTES_PER_ELEMENT;
  let all: Int32Array;
  if (array.byteOffset === 0 && size <= capacity) {
    // (Over the whole buffer: the entries after the replaced ones may move past the array's end.)
    all = array.length === capacity ? array : new Int32Array(array.buffer, 0, capacity);
    all.copyWithin(from + items.length, to, array.length);
  } else {
    all = new Int32Array(size + (size >> 3) + 64);
    all.set(array.subarray(0, from));
    all.set(array.subarray(to), from + items.length);
  }
  all.set(items, from);
  return all.length === size ? all : all.subarray(0, size);
}

/** The line starts after each `\r` that no `\n` follows; undefined when there is none (CRLF text, the common case). */
function loneCrStarts(text: string): number[] | undefined {
  let out: number[] | undefined;
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 10) (out ??= []).push(at + 1);
  return out;
}

/** The two ascending lists of line starts as one. */
function merged(a: Int32Array, b: readonly number[]): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) out[k] = j >= b.length || (i < a.length && a[i]! < b[j]!) ? a[i++]! : b[j++]!;
  return out;
}

/** `array`'s values at the start of a new typed array of the same kind with `length` entries (the rest 0). */
export function grown<T extends Int32Array | Uint8Array>(array: T, length: number): T {
  const bigger = (array instanceof Int32Array ? new Int32Array(length) : new Uint8Array(length)) as T;
  bigger.set(array);
  return bigger;
}

/** Index of the first entry of the ascending `sorted` that is at least `value` (binary search). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

