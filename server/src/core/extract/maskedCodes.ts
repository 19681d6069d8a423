/**
 * The masked document as UTF-16 code units in a typed array rather than a string: the code unit
 * of the text where it is prose, MASK (0x1f) where it is excluded (line breaks stay). Extraction
 * reads characters from it, and the text itself for any slice of prose (which is the same there).
 *
 * Why not a string: a 1 MB masked copy built per check is a 1 MB string allocation (which V8 puts
 * in large-object space, with page faults on every fresh one), and after an edit a masked copy
 * spliced from the previous one is a rope that the first read flattens — ~1 ms a keystroke on
 * this machine. An array can be filled natively from the text in ~0.05 ms per MB, lent from one
 * check to the next, and spliced in place after an edit (`copyWithin`). Reading it is also faster
 * than `charCodeAt`.
 */

import { MASK } from '../markdown/mask';

const MASK_CODE = MASK.charCodeAt(0);

// Node's Buffer (the core must also run without it), on a little-endian platform (the typed
// array reads the code units Buffer writes in the platform's byte order).
const NATIVE_BUFFER = typeof Buffer !== 'undefined' && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Code units of text[from, to) written into `codes` at the same offsets (Node's Buffer writes a
 * string's UTF-16 code units natively, lone surrogates included).
 */
export function writeCodes(text: string, codes: Uint16Array, from = 0, to = text.length): void {
  if (NATIVE_BUFFER && to - from > 64) {
    const bytes = Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength);
    bytes.write(from === 0 && to === text.length ? text : text.slice(from, to), 2 * from, 2 * (to - from), 'utf16le');
    return;
  }
  for (let i = from; i < to; i++) codes[i] = text.charCodeAt(i);
}

/** A fresh backing array for a document of `length` characters (room for it to grow a little). */
export function spareCodes(length: number): Uint16Array {
  return new Uint16Array(length + (length >> 4) + 64);
}

/**
 * MASK over the excluded ranges (sorted flat [start, end) pairs, may touch or overlap) inside
 * [from, to), except at line breaks, which keep lines aligned.
 */
export function maskCodes(codes: Uint16Array, excluded: readonly number[], from = 0, to = codes.length): void {
  for (let k = 0; k < excluded.length; k += 2) {
    const start = Math.max(from, excluded[k]!);
    const end = Math.min(to, excluded[k + 1]!);
    for (let i = start; i < end; i++) {
      const c = codes[i]!;
      if (c !== 10 && c !== 13) codes[i] = MASK_CODE;
    }
  }
}

/** The masked code units [from, to) as a string (MASK where masked): for the few regular expressions that read it. */
export function maskedString(codes: Uint16Array, from: number, to: number): string {
  let out = '';
  // (fromCharCode takes arguments; pass them in chunks well under any engine's argument limit.)
  for (let at = from; at < to; at += 8192) out += String.fromCharCode.apply(null, codes.subarray(at, Math.min(to, at + 8192)) as unknown as number[]);
  return out;
}

/** True when one of the code units [from, to) is MASK. */
export function hasMask(codes: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (codes[i] === MASK_CODE) return true;
  return false;
}
