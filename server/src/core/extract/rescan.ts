/**
 * Scanning an edited document again without redoing the whole of it (the keystroke target of
 * SPEC §10). Masking is a line scanner whose state at a line start outside any block construct
 * is two bits; the previous scan recorded those "clean" line starts. An edit is re-masked from
 * the last clean line start before it until the first clean line start after it where the state
 * is what the previous scan had there: from that line on, masking (and so tokenizing) would only
 * repeat the previous result, shifted by the edit's change in length. Everything else of the
 * previous scan is reused.
 *
 * The result is exactly the scan `scanDocument` makes of the new text (a property test checks
 * it after random edits). Documents with `glossary_fields`, and edits of the front matter, are
 * scanned in full.
 */

import { locateFrontMatter } from '../markdown/frontMatter';
import { maskLines } from '../markdown/mask';
import type { LineIndex } from '../text';
import type { Lexicon } from './lexicon';
import { maskCodes, spareCodes, writeCodes } from './maskedCodes';
import { assembleScan, exclusionsOf, firstTokenAt, markHeadings, maskedCodesOf, readHeader, scanDocument, type DocumentScan } from './scan';
import { makeTokens, tokenize, type Tokens } from './tokens';

type Header = ReturnType<typeof readHeader>;

/** A scan plus what re-scanning an edit of it needs. */
export interface ScanState {
  scan: DocumentScan;
  /** Offsets where the body starts (after front matter) and where front matter is, if any. */
  bodyStart: number;
  front: { start: number; end: number } | undefined;
  /** Flat [offset, state] pairs of the clean line starts (see `maskLines`); undefined: none kept. */
  checkpoints: Int32Array | undefined;
}

/** What `rescan` did, for tests and the benchmark. */
export interface RescanInfo {
  full: boolean;
  /** Offsets (in the new text) of the lines masked and tokenized again. */
  from: number;
  to: number;
}

/** Scan `text` from scratch, keeping what later edits need. */
export function scanFully(text: string, header: Header, fields: readonly string[], lexicon: Lexicon): ScanState {
  if (fields.length > 0) {
    const front = locateFrontMatter(text);
    return { scan: scanDocument(text, lexicon, fields, header), bodyStart: front ? front.end : 0, front: front && { start: front.start, end: front.end }, checkpoints: undefined };
  }
  const { excluded, headings, bodyStart, front, checkpoints } = exclusionsOf(text, header.lines, true);
  const masked = maskedCodesOf(text, excluded);
  const tokens = tokenize(masked, text, lexicon, 0, text.length, excluded);
  // (Room to grow: later keystrokes splice the token arrays and these marks in place.)
  const scan = assembleScan(text, header.lines, header.frontMatter, masked, tokens, lexicon, markHeadings(tokens, headings, undefined, 0, tokens.count, tokens.start.length));
  return { scan, bodyStart, front, checkpoints: Int32Array.from(checkpoints) };
}

/**
 * The header (lines, front matter) of `text`, an edit of `previous`'s text: the line index is
 * patched and the parsed front matter kept when the edit leaves it alone.
 */
export function editedHeader(previous: ScanState, text: string): { header: Header; edit: Edit } | undefined {
  const old = previous.scan.text;
  const edit = diff(old, text);
  const front = locateFrontMatter(text);
  const sameFront = front === undefined ? previous.front === undefined : previous.front !== undefined && previous.front.start === front.start && previous.front.end === front.end;
  if (!sameFront || edit.from < previous.bodyStart) return undefined;
  const lines: LineIndex = previous.scan.lines.edited(text, edit.from, edit.oldEnd, edit.newEnd);
  return { header: { lines, frontMatter: previous.scan.frontMatter }, edit };
}

/** The scan of `text` given the scan of an earlier version of it. */
/**
 * `into` lends arrays for the tokens and heading marks (those of a scan nothing uses any more:
 * the incremental checker alternates two sets instead of allocating megabytes per keystroke).
 */
export function rescan(previous: ScanState, text: string, header: Header, edit: Edit | undefined, fields: readonly string[], lexicon: Lexicon, info?: RescanInfo): ScanState {
  const full = (): ScanState => {
    if (info) Object.assign(info, { full: true, from: 0, to: text.length });
    return scanFully(text, header, fields, lexicon);
  };
  const checkpoints = previous.checkpoints;
  if (!edit || !checkpoints || fields.length > 0 || previous.scan.lexicon !== lexicon) return full();
  const old = previous.scan;
  const delta = edit.newEnd - edit.oldEnd;

  // Restart at the last clean line start at or before the edit.
  let k = lastAtOrBefore(checkpoints, edit.from);
  if (k < 0) return full();
  const restart = checkpoints[k]!;
  // Stop at a clean line start after the edit whose state matches the previous scan's there.
  let j = k;
  const stop = (pos: number, state: number): boolean => {
    if (pos < edit.newEnd) return false;
    const at = pos - delta;
    while (j < checkpoints.length && checkpoints[j]! < at) j += 2;
    return j < checkpoints.length && checkpoints[j] === at && checkpoints[j + 1] === state;
  };
  const region = maskLines(text, restart, checkpoints[k + 1]!, stop, true, [], header.lines.text === text ? header.lines.lineStarts() : undefined);
  const end = region.end;
  const resume = end - delta; // where the reused rest of the previous scan starts, in its offsets

  // From here on the previous scan's arrays are changed in place (the caller drops that scan): the
  // masking, the tokens and their heading marks before the region stay, those after it move, and
  // the region's are written anew. Copying all of them into fresh arrays cost ~0.5 ms a keystroke.
  const masked = splicedCodes(old.masked, text, restart, end, resume);
  maskCodes(masked, region.excluded, restart, end);

  // Those before the region, the region's, then those from the resumed text on, moved (a typed
  // array of the final size: a 1 MB spec has ~14,000 of them, and this runs per keystroke).
  let tail = j;
  while (tail < checkpoints.length && checkpoints[tail]! < resume) tail += 2;
  const nextCheckpoints = new Int32Array(k + region.checkpoints.length + checkpoints.length - tail);
  nextCheckpoints.set(checkpoints.subarray(0, k));
  nextCheckpoints.set(region.checkpoints, k);
  for (let from = tail, to = k + region.checkpoints.length; from < checkpoints.length; from += 2, to += 2) {
    nextCheckpoints[to] = checkpoints[from]! + delta;
    nextCheckpoints[to + 1] = checkpoints[from + 1]!;
  }

  const before = firstTokenAt(old.tokens, restart);
  const oldTail = end >= masked.length ? old.tokens.count : firstTokenAt(old.tokens, resume);
  const retokenized = tokenize(masked, text, lexicon, restart, end, region.excluded);
  const { tokens, inHeading } = spliceTokens(old.tokens, old.inHeading, text, before, oldTail, delta, retokenized);
  const after = before + retokenized.count;
  markHeadings(tokens, region.headings, inHeading, before, after);
  if (info) Object.assign(info, { full: false, from: restart, to: end });
  const scan = assembleScan(text, header.lines, header.frontMatter, masked, tokens, lexicon, inHeading);
  scan.edit = { previous: old.serial, restart, end, delta, before, after, shift: after - oldTail, lineDelta: header.lines.lineCount - old.lines.lineCount };
  return { scan, bodyStart: previous.bodyStart, front: previous.front, checkpoints: nextCheckpoints };
}

/**
 * The masked code units of `text`: `old`'s before `restart`, `old`'s from `resume` on moved to
 * `end`, and text[restart, end) written (not yet masked). In `old`'s backing array when it has
 * room, else in a new one with room to grow.
 */
function splicedCodes(old: Uint16Array, text: string, restart: number, end: number, resume: number): Uint16Array {
  let masked: Uint16Array;
  if (old.byteOffset === 0 && old.buffer.byteLength >= 2 * text.length) {
    const backing = new Uint16Array(old.buffer, 0, old.buffer.byteLength >> 1);
    backing.copyWithin(end, resume, old.length);
    masked = backing.subarray(0, text.length);
  } else {
    masked = spareCodes(text.length).subarray(0, text.length);
    masked.set(old.subarray(0, restart));
    masked.set(old.subarray(resume), end);
  }
  writeCodes(text, masked, restart, end);
  return masked;
}

/**
 * Old tokens [0, before), the region's, then old tokens [after, …) moved by delta; with their
 * heading marks (the region's left for the caller to set). In the old arrays when they have room.
 */
function spliceTokens(old: Tokens, oldMarks: Uint8Array, text: string, before: number, after: number, delta: number, region: Tokens): { tokens: Tokens; inHeading: Uint8Array } {
  const count = before + region.count + old.count - after;
  const at = before + region.count;
  const room = old.start.length >= count && oldMarks.length >= count;
  const grow = <T extends Int32Array | Uint8Array>(array: T, make: (n: number) => T): T => {
    if (room) return array;
    const bigger = make(count + (count >> 4) + 16);
    bigger.set(array.subarray(0, before));
    return bigger;
  };
  const start = grow(old.start, (n) => new Int32Array(n));
  const finish = grow(old.end, (n) => new Int32Array(n));
  const word = grow(old.word, (n) => new Int32Array(n));
  const shape = grow(old.shape, (n) => new Uint8Array(n));
  const inHeading = grow(oldMarks, (n) => new Uint8Array(n));
  // The tail first (it may overlap where the region goes), then the region.
  if (room) {
    start.copyWithin(at, after, old.count);
    finish.copyWithin(at, after, old.count);
    word.copyWithin(at, after, old.count);
    shape.copyWithin(at, after, old.count);
    inHeading.copyWithin(at, after, old.count);
  } else {
    start.set(old.start.subarray(after, old.count), at);
    finish.set(old.end.subarray(after, old.count), at);
    word.set(old.word.subarray(after, old.count), at);
    shape.set(old.shape.subarray(after, old.count), at);
    inHeading.set(oldMarks.subarray(after, old.count), at);
  }
  start.set(region.start.subarray(0, region.count), before);
  finish.set(region.end.subarray(0, region.count), before);
  word.set(region.word.subarray(0, region.count), before);
  shape.set(region.shape.subarray(0, region.count), before);
  if (delta !== 0) {
    for (let i = at; i < count; i++) {
      start[i] += delta;
      finish[i] += delta;
    }
  }
  return { tokens: makeTokens(text, count, start, finish, word, shape), inHeading };
}

/** Index (into the flat pairs) of the last checkpoint at or before `offset`, or -1. */
function lastAtOrBefore(checkpoints: Int32Array, offset: number): number {
  let low = 0;
  let high = checkpoints.length / 2;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (checkpoints[2 * mid]! <= offset) low = mid + 1;
    else high = mid;
  }
  return 2 * low - 2;
}

/** An edit: old[from, oldEnd) became new[from, newEnd); the rest is the same. */
export interface Edit {
  from: number;
  oldEnd: number;
  newEnd: number;
}

/** The smallest edit turning `a` into `b` as one replaced range. */
export function diff(a: string, b: string): Edit {
  const limit = Math.min(a.length, b.length);
  // Big blocks first (string comparison is native), then smaller ones, then characters.
  let from = 0;
  for (const block of [65536, 4096, 256]) {
    while (from + block <= limit && a.slice(from, from + block) === b.slice(from, from + block)) from += block;
  }
  while (from < limit && a.charCodeAt(from) === b.charCodeAt(from)) from++;
  let same = 0;
  const room = limit - from;
  for (const block of [65536, 4096, 256]) {
    while (same + block <= room && a.slice(a.length - same - block, a.length - same) === b.slice(b.length - same - block, b.length - same)) same += block;
  }
  while (same < room && a.charCodeAt(a.length - same - 1) === b.charCodeAt(b.length - same - 1)) same++;
  return { from, oldEnd: a.length - same, newEnd: b.length - same };
}
