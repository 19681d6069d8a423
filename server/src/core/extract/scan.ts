/**
 * Everything extraction needs to know about one document, computed once: front matter, the
 * masked prose, headings, tokens, and which tokens belong to headings.
 */

import { parseFrontMatter, type FrontMatter } from '../markdown/frontMatter';
import { MASK, maskMarkdown, type Heading } from '../markdown/mask';
import { LineIndex } from '../text';
import { sharedLexicon, type Lexicon } from './lexicon';
import { tokenize, type TokenArrays, type Tokens } from './tokens';

export interface DocumentScan {
  text: string;
  lines: LineIndex;
  masked: string;
  headings: Heading[];
  frontMatter: FrontMatter | undefined;
  tokens: Tokens;
  /** The words of the tokens (`tokens.word` holds their ids). */
  lexicon: Lexicon;
  /** Lowercase text of token i (interned, never recomputed). */
  lower(i: number): string;
  /** 1 for tokens inside a heading. */
  inHeading: Uint8Array;
  /** Tells scans apart (see `edit`). */
  serial: number;
  /** Set when this scan was made by re-scanning an edit of the scan numbered `edit.previous`. */
  edit?: ScanEdit;
}

/**
 * How a re-scanned document relates to the scan it was made from: what is the same, what moved.
 * `restart` and `end` are line starts.
 */
export interface ScanEdit {
  previous: number;
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

let serials = 0;

/** A fresh scan serial (for a scan object made by copying another). */
export function nextSerial(): number {
  return ++serials;
}

/** Lines and front matter, which decide how the rest of the document is scanned. */
export function readHeader(text: string): { lines: LineIndex; frontMatter: FrontMatter | undefined } {
  const lines = new LineIndex(text);
  return { lines, frontMatter: parseFrontMatter(text, lines) };
}

/**
 * `into` lends buffers for the tokens and the heading marks; the scan then must not outlive the
 * caller's use of them (see `TokenBuffers`).
 */
export function scanDocument(text: string, fields?: readonly string[], header = readHeader(text), lexicon: Lexicon = sharedLexicon(), into?: TokenArrays & { marks: Uint8Array[] }): DocumentScan {
  const { lines, frontMatter } = header;
  const masked0 = maskMarkdown(text, lines.text === text ? lines.lineStarts() : undefined);
  const masked = fields && fields.length > 0 ? keepSections(masked0.masked, masked0.headings, fields) : masked0.masked;
  const tokens = tokenize(masked, lexicon, 0, masked.length, masked0.excluded, into);
  return assembleScan(text, lines, frontMatter, masked, masked0.headings, tokens, lexicon, into?.marks[0]);
}

/** The scan of already masked and tokenized text (also used by the incremental checker). */
export function assembleScan(
  text: string,
  lines: LineIndex,
  frontMatter: FrontMatter | undefined,
  masked: string,
  headings: Heading[],
  tokens: Tokens,
  lexicon: Lexicon,
  marks?: Uint8Array,
): DocumentScan {
  const inHeading = marks && marks.length >= tokens.count ? marks.fill(0, 0, tokens.count) : new Uint8Array(tokens.count);
  for (const heading of headings) {
    for (let i = firstTokenAt(tokens, heading.start); i < tokens.count && tokens.start[i]! < heading.end; i++) inHeading[i] = 1;
  }
  const words = lexicon.words;
  const ids = tokens.word;
  return { text, lines, masked, headings, frontMatter, tokens, lexicon, inHeading, lower: (i) => words[ids[i]!]!, serial: nextSerial() };
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
function keepSections(masked: string, headings: Heading[], fields: readonly string[]): string {
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
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of keep) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    parts.push(masked.slice(at, from).replace(/[^\r\n]/g, MASK), masked.slice(from, end));
    at = end;
  }
  parts.push(masked.slice(at).replace(/[^\r\n]/g, MASK));
  return parts.join('');
}
