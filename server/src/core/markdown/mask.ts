/**
 * Markdown-aware masking: a copy of the document, same length and same line breaks, in which
 * everything terms must never be extracted from is replaced by MASK. Extractors then run over
 * prose only, and every offset still points into the original.
 *
 * Masked (SPEC §5): front matter, fenced and indented code, code spans, HTML blocks and inline
 * HTML (comments, tags), autolinks, link destinations and titles (and the labels of full reference
 * links), link reference definitions, and within prose bare URLs, file paths and ids. What is code
 * and what is prose follows CommonMark's block structure as markdown-it reads it (blocks.ts):
 * containers, lazy continuation lines, a fence that ends with its list item, table cells (prose).
 *
 * Masking is two passes: the blocks (blocks.ts), then the inline content of the prose blocks
 * (inline.ts), which needs the labels the whole document defines. After an edit, only the lines
 * from a checkpoint before the edit to where the block state meets the previous masking's again
 * are masked anew (`remask`).
 */

import { BYTE_ORDER_MARK, CR, LF, SPACE, TAB } from './chars';
import { BlockKind, BlockList, scanBlocks } from './blocks';
import { BlockStates, EMPTY_STATE } from './blockState';
import { locateFrontMatter } from './frontMatter';
import { InlineMasker } from './inline';
import { lowerBound, splicedInt32 } from '../text';
import { excludeRange } from './pairs';

export const MASK = '\u001f';

export interface Heading {
  level: number;
  /** Offsets of the heading text (without `#` markers or setext underline). */
  start: number;
  end: number;
  /** Offset of the start of the heading's (first) line. */
  lineStart: number;
  text: string;
}

export interface MaskedDocument {
  masked: string;
  /** Flat [start, end) pairs of the masked stretches, in order. */
  excluded: number[];
  headings: Heading[];
  /** Offsets where front matter ends (0 when there is none). */
  bodyStart: number;
}

export interface MaskOptions {
  /**
   * Also SPEC §5's exclusions within prose (paths, URLs, ids): the default. false: CommonMark's
   * markup alone (what the tests compare with markdown-it's reading).
   */
  proseExclusions?: boolean;
}

/** The masked copy of `text`. */
export function maskMarkdown(text: string, options: MaskOptions = {}): MaskedDocument {
  const { excluded, headings, bodyStart } = documentExclusions(text, false, options);
  return { masked: applyMask(text, excluded, 0, text.length), excluded, headings, bodyStart };
}

/** What masking again after an edit needs to know of a document's masking. */
export interface MaskMemory {
  bodyStart: number;
  /** The document's table of block states (the numbers in `checkpoints` are its). */
  states: BlockStates;
  /** Flat [offset, state] pairs: the line starts where masking can start again, in order. */
  checkpoints: Int32Array;
  /** The link reference definitions: where each starts, in order, and its label. */
  definitionStarts: number[];
  definitionLabels: string[];
  /** The labels defined (undefined: none, which markdown-it treats apart). */
  references: ReadonlySet<string> | undefined;
}

/** What is excluded from extraction in a whole document, and what else masking found. */
export interface DocumentExclusions {
  /** Sorted flat [start, end) pairs: BOM, front matter, then the body's. */
  excluded: number[];
  headings: Heading[];
  /** Where the body starts (after a BOM and front matter), and where the front matter is, if any. */
  bodyStart: number;
  front: { start: number; end: number } | undefined;
  /** What `remask` needs (when asked for: `remember`). */
  memory: MaskMemory | undefined;
  /** The body's blocks (what `documentBlocks` gives), for features that read the structure too. */
  blocks: BlockList;
}

/** The exclusions of a whole document: a BOM, the front matter, then the masking of the body. */
export function documentExclusions(text: string, remember: boolean, options: MaskOptions = {}): DocumentExclusions {
  const found = locateFrontMatter(text);
  const front = found && { start: found.start, end: found.end };
  const bom = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  const bodyStart = front ? front.end : bom;
  const excluded: number[] = [];
  if (bom) excluded.push(0, 1);
  if (front) excludeRange(excluded, front.start, front.end);
  const states = new BlockStates();
  const scan = scanBlocks(text, bodyStart, EMPTY_STATE, { states, record: remember });
  const references = scan.definitionLabels.length > 0 ? new Set(scan.definitionLabels) : undefined;
  const headings = maskBlocks(text, scan.blocks, new InlineMasker(text, references, options.proseExclusions ?? true), excluded);
  const memory: MaskMemory | undefined = remember
    ? { bodyStart, states, checkpoints: Int32Array.from(scan.checkpoints), definitionStarts: scan.definitionStarts, definitionLabels: scan.definitionLabels, references }
    : undefined;
  return { excluded, headings, bodyStart, front, memory, blocks: scan.blocks };
}

/** What `remask` masked again. */
export interface MaskedRegion {
  /** The lines [from, end) were masked again: `excluded` and `headings` are theirs. */
  from: number;
  end: number;
  excluded: number[];
  headings: Heading[];
  /** The memory of the edited document's masking. */
  memory: MaskMemory;
}

/** An edit: old[from, oldEnd) became new[from, newEnd); the rest is the same. */
export interface TextEdit {
  from: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * Mask `text`, an edit of a document masked before (`previous`), again from the last checkpoint
 * before the edit up to the first checkpoint after it where the block state is the previous
 * masking's there: from that line on, masking would repeat the previous result shifted by the
 * edit's change in length. Undefined when the document must be masked in full: no checkpoint
 * before the edit, or the edit changed which labels are defined (which changes links anywhere).
 */
export function remask(text: string, previous: MaskMemory, edit: TextEdit, options: MaskOptions = {}): MaskedRegion | undefined {
  const checkpoints = previous.checkpoints;
  const delta = edit.newEnd - edit.oldEnd;
  let k = lastAtOrBefore(checkpoints, edit.from);
  // (An edit can make a CR before a checkpoint the first half of a CRLF.)
  while (k >= 0 && checkpoints[k]! > previous.bodyStart && !isLineStart(text, checkpoints[k]!)) k -= 2;
  if (k < 0) return undefined;
  const restart = checkpoints[k]!;
  let j = k;
  const stop = (pos: number, state: number): boolean => {
    if (pos < edit.newEnd) return false;
    const at = pos - delta;
    while (j < checkpoints.length && checkpoints[j]! < at) j += 2;
    return j < checkpoints.length && checkpoints[j] === at && checkpoints[j + 1] === state;
  };
  const scan = scanBlocks(text, restart, checkpoints[k + 1]!, { states: previous.states, record: true, stop });
  const end = scan.end;
  const resume = end - delta; // where the reused rest of the previous masking starts, in its offsets

  // The definitions the region had must be the ones it has: else the defined labels may differ.
  const first = lowerBound(previous.definitionStarts, restart);
  const last = lowerBound(previous.definitionStarts, resume);
  if (last - first !== scan.definitionLabels.length) return undefined;
  for (let i = first; i < last; i++) if (previous.definitionLabels[i] !== scan.definitionLabels[i - first]) return undefined;

  const excluded: number[] = [];
  const headings = maskBlocks(text, scan.blocks, new InlineMasker(text, previous.references, options.proseExclusions ?? true), excluded);

  // The checkpoints before the region, the region's, then those from the resumed text on, moved.
  let tail = j;
  while (tail < checkpoints.length && checkpoints[tail]! < resume) tail += 2;
  // (In the previous checkpoints' own memory when it has room: they are not read again, and a
  // copy of them all was a tenth of what a keystroke on a 1 MB spec took outside the heap.)
  const next = splicedInt32(checkpoints, k, tail, scan.checkpoints);
  if (delta !== 0) for (let at = k + scan.checkpoints.length; at < next.length; at += 2) next[at]! += delta;
  const definitionStarts = previous.definitionStarts.slice(0, first).concat(scan.definitionStarts, previous.definitionStarts.slice(last).map((at) => at + delta));
  const definitionLabels = previous.definitionLabels.slice(0, first).concat(scan.definitionLabels, previous.definitionLabels.slice(last));
  const memory: MaskMemory = { bodyStart: previous.bodyStart, states: previous.states, checkpoints: next, definitionStarts, definitionLabels, references: previous.references };
  return { from: restart, end, excluded, headings, memory };
}

/** The masking of the blocks' content, appended to `excluded`; returns the headings. */
function maskBlocks(text: string, blocks: BlockList, inline: InlineMasker, excluded: number[]): Heading[] {
  const headings: Heading[] = [];
  const ranges = blocks.ranges;
  for (let i = 0; i < blocks.count; i++) {
    const first = blocks.first(i);
    const last = blocks.last(i);
    switch (blocks.kind(i)) {
      case BlockKind.Heading:
        headings.push(headingOf(text, blocks, i));
        maskProse(blocks, i, inline, excluded);
        break;
      case BlockKind.Paragraph:
        maskProse(blocks, i, inline, excluded);
        break;
      case BlockKind.TableRow:
        inline.maskRow(ranges, first, last, excluded);
        break;
      case BlockKind.Code:
      case BlockKind.Html:
      case BlockKind.Unrendered:
      case BlockKind.Definition:
        for (let k = first; k < last; k += 2) excludeRange(excluded, ranges[k]!, ranges[k + 1]!);
        break;
    }
  }
  return headings;
}

/** A paragraph's or heading's lines. */
function maskProse(blocks: BlockList, i: number, inline: InlineMasker, excluded: number[]): void {
  const first = blocks.first(i);
  const last = blocks.last(i);
  if (blocks.quoted(i)) inline.maskLines(blocks.ranges, first, last, excluded);
  else inline.maskContent(blocks.ranges[first]!, blocks.ranges[last - 1]!, excluded);
}

/** A heading's text: its lines (setext: maybe several) joined, without the white space around them. */
function headingOf(text: string, blocks: BlockList, i: number): Heading {
  const ranges = blocks.ranges;
  const first = blocks.first(i);
  const last = blocks.last(i);
  let start = ranges[first]!;
  let end = ranges[last - 1]!;
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  let content = text.slice(start, first + 2 < last ? ranges[first + 1]! : end);
  for (let k = first + 2; k < last; k += 2) content += '\n' + text.slice(ranges[k], k + 2 < last ? ranges[k + 1] : end);
  return { level: blocks.level(i), start, end, lineStart: blocks.lineStart(i), text: content };
}

/** Space, tab, or a line break: what markdown-it trims off a heading's text. */
function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** Whether `offset` starts a line of `text` (after LF, or after a CR that no LF follows). */
function isLineStart(text: string, offset: number): boolean {
  if (offset === 0) return true;
  const before = text.charCodeAt(offset - 1);
  return before === LF || (before === CR && text.charCodeAt(offset) !== LF);
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

/**
 * `text[from, to)` with the excluded ranges (sorted flat pairs) replaced by MASK, as a string
 * (for tools and tests: checks read the masked code units of extract/maskedCodes.ts instead).
 */
export function applyMask(text: string, excluded: readonly number[], from: number, to: number): string {
  if (excluded.length === 0) return from === 0 && to === text.length ? text : text.slice(from, to);
  const parts: string[] = [];
  let at = from;
  for (let i = 0; i < excluded.length; i += 2) {
    const start = Math.max(excluded[i]!, from);
    const end = Math.min(excluded[i + 1]!, to);
    if (end <= start) continue;
    if (start > at) parts.push(text.slice(at, start));
    if (end > at) parts.push(text.slice(Math.max(start, at), end).replace(/[^\r\n]/g, MASK));
    at = Math.max(at, end);
  }
  if (at < to) parts.push(text.slice(at, to));
  return parts.join('');
}
