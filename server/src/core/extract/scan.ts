/**
 * Everything extraction needs to know about one document, computed once: front matter, the
 * masked prose, headings, tokens, and which tokens belong to headings.
 */

import { parseFrontMatter, type FrontMatter } from '../markdown/frontMatter';
import type { BlockList } from '../markdown/blockList';
import { documentExclusions, type DocumentExclusions, type Heading } from '../markdown/mask';
import { LineIndex } from '../text';
import type { Lexicon } from './lexicon';
import { maskCodes, spareCodes, writeCodes } from './maskedCodes';
import { tokenize, type ScanBuffers, type Tokens } from './tokens';

export interface DocumentScan {
  text: string;
  lines: LineIndex;
  /** The masked document as code units (see maskedCodes.ts), exactly as long as `text`. */
  masked: Uint16Array;
  frontMatter: FrontMatter | undefined;
  tokens: Tokens;
  /** The words of the tokens (`tokens.word` holds their ids). */
  lexicon: Lexicon;
  /** Lowercase text of token i (interned, never recomputed). */
  lower(i: number): string;
  /** 1 for tokens inside a heading. */
  inHeading: Uint8Array;
  /** Tells scans apart (see `edit`): a symbol of this scan's own. */
  serial: symbol;
  /** Set when this scan was made by re-scanning an edit of the scan numbered `edit.previous`. */
  edit?: ScanEdit;
  /**
   * The document's blocks, when this scan read all of them (a whole-document scan): the units
   * that read the document's structure (its vocabulary sections) need not scan it again.
   */
  blocks: BlockList | undefined;
}

/**
 * How a re-scanned document relates to the scan it was made from: what is the same, what moved.
 * `restart` and `end` are line starts.
 */
export interface ScanEdit {
  /** The `serial` of the scan this one was made from. */
  previous: symbol;
  /** Text [0, restart) is the previous text's; text [end, length) is the previous [end - delta, …). */
  restart: number;
  end: number;
  delta: number;
  /** Tokens [0, before) are the previous ones; [after, count) are the previous [after - shift, …), moved by delta. */
  before: number;
  after: number;
  shift: number;
  /** Lines from `end` on are the previous lines moved down by this many. */
  lineDelta: number;
}

/** A fresh scan serial (for a scan object made by copying another). */
export function nextSerial(): symbol {
  return Symbol('scan');
}

/** Lines and front matter, which decide how the rest of the document is scanned. */
export interface Header {
  lines: LineIndex;
  frontMatter: FrontMatter | undefined;
}

export function readHeader(text: string): Header {
  const lines = new LineIndex(text);
  return { lines, frontMatter: parseFrontMatter(text, lines) };
}

/** The exclusions of `text` (what `maskMarkdown` masks); `remember` keeps what re-masking after an edit needs. */
export function exclusionsOf(text: string, remember: boolean): DocumentExclusions {
  return documentExclusions(text, remember);
}

/**
 * The masked code units of `text` with `excluded` masked, in the backing array `into` lends (which
 * is replaced there by a larger one when it is too small).
 */
export function maskedCodesOf(text: string, excluded: readonly number[], into?: { codes?: Uint16Array | undefined }): Uint16Array {
  let backing = into?.codes;
  if (!backing || backing.length < text.length) {
    backing = spareCodes(text.length);
    if (into) into.codes = backing;
  }
  const masked = backing.length === text.length ? backing : backing.subarray(0, text.length);
  writeCodes(text, masked);
  maskCodes(masked, excluded);
  return masked;
}

/**
 * `into` lends buffers for the tokens, the heading marks and the masked code units; the scan then
 * must not outlive the caller's use of them (see `TokenBuffers`).
 */
export function scanDocument(text: string, lexicon: Lexicon, fields?: readonly string[], header = readHeader(text), into?: ScanBuffers): DocumentScan {
  const { lines, frontMatter } = header;
  const { excluded, headings, blocks } = exclusionsOf(text, false);
  const masked = maskedCodesOf(text, excluded, into);
  if (fields && fields.length > 0) keepSections(masked, headings, fields);
  const tokens = tokenize(masked, text, lexicon, 0, text.length, excluded, into);
  return assembleScan(text, lines, frontMatter, masked, tokens, lexicon, markHeadings(tokens, headings, into?.marks[0]), blocks);
}

/** The scan of already masked and tokenized text (also used by the incremental checker). */
export function assembleScan(text: string, lines: LineIndex, frontMatter: FrontMatter | undefined, masked: Uint16Array, tokens: Tokens, lexicon: Lexicon, inHeading: Uint8Array, blocks?: BlockList): DocumentScan {
  const words = lexicon.words;
  const ids = tokens.word;
  // (`blocks` always set, if only to undefined: every scan object has one shape.)
  return { text, lines, masked, frontMatter, tokens, lexicon, inHeading, lower: (i) => words[ids[i]!]!, serial: nextSerial(), blocks };
}

/**
 * 1 for the tokens [from, to) inside one of `headings`, 0 for the others, written into `marks`
 * (lent, when long enough) or a new array of `length` (at least the token count).
 */
export function markHeadings(tokens: Tokens, headings: readonly Heading[], marks?: Uint8Array, from = 0, to = tokens.count, length = tokens.count): Uint8Array {
  const inHeading = marks && marks.length >= length ? marks.fill(0, from, to) : new Uint8Array(length);
  for (const heading of headings) {
    for (let i = Math.max(from, firstTokenAt(tokens, heading.start)); i < to && tokens.start[i]! < heading.end; i++) inHeading[i] = 1;
  }
  return inHeading;
}

/** Index of the first token starting at or after `offset`. */
export function firstTokenAt(tokens: Tokens, offset: number): number {
  let low = 0;
  let high = tokens.count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (tokens.start[mid]! < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * `glossary_fields: [Heading, ...]`: only the named sections (heading text, case-insensitive,
 * and their sub-sections) are checked; everything else is masked.
 */
function keepSections(masked: Uint16Array, headings: Heading[], fields: readonly string[]): void {
  const wanted = new Set(fields.map((f) => f.trim().toLowerCase()));
  const keep: [number, number][] = [];
  for (let i = 0; i < headings.length; i++) {
    const heading = headings[i]!;
    if (!wanted.has(heading.text.replace(/[*_`]/g, '').trim().toLowerCase())) continue;
    let end = masked.length;
    for (let j = i + 1; j < headings.length; j++) {
      if (headings[j]!.level <= heading.level) {
        end = headings[j]!.lineStart;
        break;
      }
    }
    keep.push([heading.end, end]);
  }
  const hidden: number[] = [];
  let at = 0;
  for (const [start, end] of keep) {
    if (end <= at) continue;
    hidden.push(at, Math.max(start, at));
    at = end;
  }
  hidden.push(at, masked.length);
  maskCodes(masked, hidden);
}
