/**
 * Scanning an edited document again without redoing the whole of it (the keystroke target of
 * SPEC §10). Masking re-masks the lines from a checkpoint before the edit to where its block
 * state meets the previous masking's again (markdown/mask.ts `remask`): from that line on,
 * masking (and so tokenizing) would only repeat the previous result, shifted by the edit's
 * change in length. Everything else of the previous scan is reused.
 *
 * The result is exactly the scan `scanDocument` makes of the new text (a property test checks
 * it after random edits). Documents with `glossary_fields`, and edits of the front matter, are
 * scanned in full.
 */

import { locateFrontMatter } from '../markdown/frontMatter';
import { remask, type MaskMemory } from '../markdown/mask';
import type { LineIndex } from '../text';
import type { Lexicon } from './lexicon';
import { maskCodes, spareCodes, writeCodes } from './maskedCodes';
import { assembleScan, exclusionsOf, firstTokenAt, markHeadings, maskedCodesOf, scanDocument, type DocumentScan, type Header } from './scan';
import { makeTokens, tokenize, type Tokens } from './tokens';

/** A scan plus what re-scanning an edit of it needs. */
export interface ScanState {
  scan: DocumentScan;
  /** Offsets where the body starts (after front matter) and where front matter is, if any. */
  bodyStart: number;
  front: { start: number; end: number } | undefined;
  /** What re-masking after an edit needs; undefined: nothing kept (the next edit scans in full). */
  mask: MaskMemory | undefined;
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
    return { scan: scanDocument(text, lexicon, fields, header), bodyStart: front ? front.end : 0, front: front && { start: front.start, end: front.end }, mask: undefined };
  }
  const { excluded, headings, bodyStart, front, memory, blocks } = exclusionsOf(text, true);
  const masked = maskedCodesOf(text, excluded);
  const tokens = tokenize(masked, text, lexicon, 0, text.length, excluded);
  // (Room to grow: later keystrokes splice the token arrays and these marks in place.)
  const scan = assembleScan(text, header.lines, header.frontMatter, masked, tokens, lexicon, markHeadings(tokens, headings, undefined, 0, tokens.count, tokens.start.length), blocks);
  return { scan, bodyStart, front, mask: memory };
}

/**
 * The header (lines, front matter) of `text`, an edit of `previous`'s text: the line index is
 * patched and the parsed front matter kept when the edit leaves it alone. `known`: the edit,
 * when the caller knows it (it may cover more than what changed); else the texts are compared.
 */
export function editedHeader(previous: ScanState, text: string, known?: Edit): { header: Header; edit: Edit } | undefined {
  const old = previous.scan.text;
  const edit = known ?? diff(old, text);
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
  if (!edit || !previous.mask || fields.length > 0 || previous.scan.lexicon !== lexicon) return full();
  const old = previous.scan;
  const delta = edit.newEnd - edit.oldEnd;
  const region = remask(text, previous.mask, edit);
  if (!region) return full();
  const { from: restart, end } = region;
  const resume = end - delta; // where the reused rest of the previous scan starts, in its offsets

  // From here on the previous scan's arrays are changed in place (the caller drops that scan): the
  // masking, the tokens and their heading marks before the region stay, those after it move, and
  // the region's are written anew. Copying all of them into fresh arrays cost ~0.5 ms a keystroke.
  const masked = splicedCodes(old.masked, text, restart, end, resume);
  maskCodes(masked, region.excluded, restart, end);

  const before = firstTokenAt(old.tokens, restart);
  const oldTail = end >= masked.length ? old.tokens.count : firstTokenAt(old.tokens, resume);
  const retokenized = tokenize(masked, text, lexicon, restart, end, region.excluded);
  const { tokens, inHeading } = spliceTokens(old.tokens, old.inHeading, text, before, oldTail, delta, retokenized);
  const after = before + retokenized.count;
  markHeadings(tokens, region.headings, inHeading, before, after);
  if (info) Object.assign(info, { full: false, from: restart, to: end });
  const scan = assembleScan(text, header.lines, header.frontMatter, masked, tokens, lexicon, inHeading);
  scan.edit = { previous: old.serial, restart, end, delta, before, after, shift: after - oldTail, lineDelta: header.lines.lineCount - old.lines.lineCount };
  return { scan, bodyStart: previous.bodyStart, front: previous.front, mask: region.memory };
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
