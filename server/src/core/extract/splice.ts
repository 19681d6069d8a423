/**
 * Lists of things found at positions (token indexes or text offsets), in document order, kept
 * from one check of a document to the next: after an edit, the entries before the edited stretch
 * stay, the stretch is looked at again, and the entries after it move.
 */

import { lowerBound } from '../text';

export interface Found<T> {
  at: number[];
  value: T[];
}

export function emptyFound<T>(): Found<T> {
  return { at: [], value: [] };
}

/** Up to this many entries found again are spliced in as arguments (a spread of more could overflow the stack). */
const SPLICED_AT_MOST = 4096;

/**
 * The entries of `previous` at positions before `from`, then what `redo(from, to, out)` adds for
 * the stretch [from, to), then the previous entries at positions from `to - shift` on, moved by
 * `shift`. Usually made in `previous`'s own arrays (`Array.prototype.splice`, a move of memory),
 * which it then returns: the previous check's lists are never read again, and copying them (tens
 * of thousands of entries on a 1 MB spec, for the handful an edit changes) was a large part of
 * what a keystroke left for the collector.
 */
export function spliceFound<T>(previous: Found<T>, from: number, to: number, shift: number, redo: (from: number, to: number, out: Found<T>) => void): Found<T> {
  const head = lowerBound(previous.at, from);
  const tail = lowerBound(previous.at, to - shift);
  const middle = emptyFound<T>();
  redo(from, to, middle);
  const out: Found<T> = { at: replaced(previous.at, head, tail, middle.at), value: replaced(previous.value, head, tail, middle.value) };
  if (shift !== 0) {
    const at = out.at;
    for (let k = head + middle.at.length; k < at.length; k++) at[k]! += shift;
  }
  return out;
}

/**
 * `array` with its entries [from, to) replaced by `items`: `array` itself, spliced (a move of
 * memory), unless there are too many items to pass as arguments; then a new array.
 */
export function replaced<T>(array: T[], from: number, to: number, items: readonly T[]): T[] {
  if (items.length <= SPLICED_AT_MOST) {
    array.splice(from, to - from, ...items);
    return array;
  }
  return array.slice(0, from).concat(items, array.slice(to));
}
