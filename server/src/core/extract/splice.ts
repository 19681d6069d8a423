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

/**
 * The entries of `previous` at positions before `from`, then what `redo(from, to, out)` adds for
 * the stretch [from, to), then the previous entries at positions from `to - shift` on, moved by
 * `shift`.
 */
export function spliceFound<T>(previous: Found<T>, from: number, to: number, shift: number, redo: (from: number, to: number, out: Found<T>) => void): Found<T> {
  const head = lowerBound(previous.at, from);
  const out: Found<T> = { at: previous.at.slice(0, head), value: previous.value.slice(0, head) };
  redo(from, to, out);
  for (let k = lowerBound(previous.at, to - shift); k < previous.at.length; k++) {
    out.at.push(previous.at[k]! + shift);
    out.value.push(previous.value[k]!);
  }
  return out;
}

