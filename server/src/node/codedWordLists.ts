/**
 * The shipped word lists front-coded by the build (`dist/data/<list>.coded`), so the language
 * server, which keeps its lists front-coded (core/frontCodedWords.ts: half the memory), reads them
 * as they are instead of coding them at its first check (~55 ms of its start on the way to the
 * first diagnostics and to the term index). A file is one header line, `spec-glossary front-coded
 * <bytes of the .txt it was coded from> <blocks>`, then the blocks' starts (32-bit little-endian
 * integers), then the coded words (one byte per character). A file that is missing, or was coded
 * from another `.txt`, is not read: the list is coded from the text as before.
 */

import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { FrontCodedWords } from '../core/frontCodedWords';

const HEADER = 'spec-glossary front-coded';
/** The header line: the size of the `.txt` coded, the number of blocks. */
const HEADER_LINE = new RegExp(`^${HEADER} (\\d+) (\\d+)$`);
/** Bytes read at a time: below glibc's initial mmap threshold (see packageFiles.ts `readTextInPieces`). */
const PIECE_BYTES = 64 * 1024;

/** Writes `<base>.coded` from `<base>.txt` (build step); false when the list cannot be coded. */
export function writeCodedWordList(base: string, text: string): boolean {
  const coded = FrontCodedWords.of(text);
  if (!coded) return false;
  const { coded: words, heads } = coded.parts();
  const header = Buffer.from(`${HEADER} ${statSync(`${base}.txt`).size} ${heads.length}\n`, 'latin1');
  const starts = Buffer.alloc(4 * heads.length);
  heads.forEach((head, k) => starts.writeInt32LE(head, 4 * k));
  writeFileSync(`${base}.coded`, Buffer.concat([header, starts, Buffer.from(words, 'latin1')]));
  return true;
}

/**
 * The list of `<base>.txt` as the build coded it, or undefined (no such file, or coded from
 * another text). `pieceBytes`: read at a time (tests read in small pieces; the header line must
 * fit in one).
 */
export function readCodedWordList(base: string, pieceBytes = PIECE_BYTES): FrontCodedWords | undefined {
  let fd: number;
  try {
    fd = openSync(`${base}.coded`, 'r');
  } catch {
    return undefined;
  }
  try {
    const piece = Buffer.allocUnsafeSlow(pieceBytes);
    let read = readSync(fd, piece, 0, pieceBytes, 0);
    const newline = piece.indexOf(10);
    const header = newline > 0 && newline < read ? HEADER_LINE.exec(piece.toString('latin1', 0, newline)) : null;
    if (!header || Number(header[1]) !== statSync(`${base}.txt`).size) return undefined;
    const heads = new Int32Array(Number(header[2]));
    let at = newline + 1;
    const startsEnd = at + 4 * heads.length;
    const parts: string[] = [];
    for (let offset = 0; ; ) {
      // `piece` holds the file's bytes [offset, offset + read).
      for (; at < startsEnd && at + 4 <= offset + read; at += 4) heads[(at - newline - 1) / 4] = piece.readInt32LE(at - offset);
      if (at >= startsEnd) {
        if (at < offset + read) parts.push(piece.toString('latin1', at - offset, read));
        at = offset + read;
      }
      // (A start cut by the piece's end is read again at the next piece's start.)
      offset = at;
      read = readSync(fd, piece, 0, pieceBytes, offset);
      if (read === 0) break;
    }
    if (at < startsEnd) return undefined;
    return FrontCodedWords.fromParts(parts.join(''), heads);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
