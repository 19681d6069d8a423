/**
 * The hash indexes of the shipped word lists (`dist/data/<list>.index`, core/wordIndex.ts),
 * written by the build so the CLI looks words up by their hash without building a table at every
 * start. A file is a header line, `spec-glossary word index <bytes of the .txt it indexes>
 * <slots>`, padded with spaces to a multiple of four bytes, then the slots (32-bit little-endian
 * integers). A file that is missing, cut short, or was made from a `.txt` of another size is not
 * read: the list is searched as before (a binary search). Like the front-coded lists
 * (codedWordLists.ts), an index is the build's, written with its `.txt`: a `.txt` changed by hand
 * to the same size is not noticed (`npm run build` writes both again).
 */

import { closeSync, fstatSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { indexWords } from '../core/wordIndex';

const HEADER = 'spec-glossary word index';
const HEADER_LINE = new RegExp(`^${HEADER} (\\d+) (\\d+) *$`);
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** The longest header line read. */
const MAX_HEADER = 64;

/** Writes `<base>.index` of `text`, the list `<base>.txt` (build step). */
export function writeWordIndex(base: string, text: string): void {
  const slots = indexWords(text);
  let header = `${HEADER} ${statSync(`${base}.txt`).size} ${slots.length}`;
  // (Padded so the slots start at a multiple of four bytes: read in place as 32-bit integers.)
  header = header.padEnd(Math.ceil((header.length + 1) / 4) * 4 - 1) + '\n';
  const body = Buffer.alloc(4 * slots.length);
  for (let k = 0; k < slots.length; k++) body.writeInt32LE(slots[k]!, 4 * k);
  writeFileSync(`${base}.index`, Buffer.concat([Buffer.from(header, 'latin1'), body]));
}

/**
 * The index of `<base>.txt` as the build wrote it, or undefined (no such file, made from a text of
 * another size, or cut short).
 */
export function readWordIndex(base: string): Int32Array | undefined {
  let fd: number;
  try {
    fd = openSync(`${base}.index`, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(MAX_HEADER);
    const read = readSync(fd, head, 0, MAX_HEADER, 0);
    const newline = head.subarray(0, read).indexOf(10);
    const header = newline > 0 ? HEADER_LINE.exec(head.toString('latin1', 0, newline)) : null;
    if (!header || (newline + 1) % 4 !== 0 || Number(header[1]) !== statSync(`${base}.txt`).size) return undefined;
    const count = Number(header[2]);
    // (A power of two: core/wordIndex.ts masks hashes with count - 1.)
    if (count === 0 || (count & (count - 1)) !== 0 || fstatSync(fd).size !== newline + 1 + 4 * count) return undefined;
    // (The slots are read in place as this machine's integers: little-endian ones only.)
    if (!LITTLE_ENDIAN) return undefined;
    const slots = new Int32Array(count);
    const bytes = new Uint8Array(slots.buffer);
    for (let at = 0, got; at < bytes.length; at += got) {
      got = readSync(fd, bytes, at, bytes.length - at, newline + 1 + at);
      if (got === 0) return undefined;
    }
    return slots;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
