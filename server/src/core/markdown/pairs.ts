/**
 * Flat lists of [start, end) offset pairs: the currency of masking.
 */

/**
 * A list of [start, end) pairs whose storage is kept from one use to the next (`length = 0`
 * empties it), so that masking one paragraph after another allocates nothing.
 */
export class Pairs {
  /** The pairs are data[0, length); what follows is left over from earlier uses. */
  readonly data: number[] = [];
  length = 0;

  push(start: number, end: number): void {
    const data = this.data;
    data[this.length] = start;
    data[this.length + 1] = end;
    this.length += 2;
  }
}

/**
 * Append [start, end) to the sorted flat pairs `excluded` (ranges come in document order): a range
 * that touches or overlaps the last one extends it; an empty one is dropped.
 */
export function excludeRange(excluded: number[], start: number, end: number): void {
  if (end <= start) return;
  const last = excluded.length - 1;
  if (last > 0 && excluded[last]! >= start) {
    if (end > excluded[last]!) excluded[last] = end;
  } else excluded.push(start, end);
}

/**
 * The pairs data[0, n) appended to `excluded` in order of their starts: data[0, sorted) are in
 * order and disjoint already; those after them come mostly in order (each pattern adds its
 * matches one after another). The pairs are reordered in place.
 */
export function excludeSorted(data: number[], sorted: number, n: number, excluded: number[]): void {
  if (n === 0) return;
  if (n === sorted) {
    for (let i = 0; i < n; i += 2) excludeRange(excluded, data[i]!, data[i + 1]!);
    return;
  }
  let inOrder = true;
  for (let i = sorted + 2; i < n; i += 2) {
    if (data[i]! < data[i - 2]!) {
      inOrder = false;
      break;
    }
  }
  if (!inOrder) {
    if (n - sorted > 128) {
      const order: number[] = [];
      for (let i = 0; i < n; i += 2) order.push(i);
      order.sort((a, b) => data[a]! - data[b]!);
      for (let k = 0; k < order.length; k++) excludeRange(excluded, data[order[k]!]!, data[order[k]! + 1]!);
      return;
    }
    // Few pairs: an insertion sort of the later ones by start, in place.
    for (let i = sorted + 2; i < n; i += 2) {
      const s = data[i]!;
      const e = data[i + 1]!;
      let j = i - 2;
      while (j >= sorted && data[j]! > s) {
        data[j + 2] = data[j]!;
        data[j + 3] = data[j + 1]!;
        j -= 2;
      }
      data[j + 2] = s;
      data[j + 3] = e;
    }
  }
  // Merge the two sorted runs. (Pairs with the same start may come in any order: the union is the same.)
  let i = 0;
  let j = sorted;
  while (i < sorted && j < n) {
    if (data[i]! <= data[j]!) {
      excludeRange(excluded, data[i]!, data[i + 1]!);
      i += 2;
    } else {
      excludeRange(excluded, data[j]!, data[j + 1]!);
      j += 2;
    }
  }
  for (; i < sorted; i += 2) excludeRange(excluded, data[i]!, data[i + 1]!);
  for (; j < n; j += 2) excludeRange(excluded, data[j]!, data[j + 1]!);
}
