/**
 * Everything extraction needs to know about one document, computed once: front matter, the
 * masked prose, headings, tokens, and which tokens belong to headings.
 */

import { parseFrontMatter, type FrontMatter } from '../markdown/frontMatter';
import { MASK, maskMarkdown, type Heading } from '../markdown/mask';
import { LineIndex } from '../text';
import { tokenize, type Tokens } from './tokens';

export interface DocumentScan {
  text: string;
  lines: LineIndex;
  masked: string;
  headings: Heading[];
  frontMatter: FrontMatter | undefined;
  tokens: Tokens;
  /** Lowercase text of token i, computed once. */
  lower(i: number): string;
  /** 1 for tokens inside a heading. */
  inHeading: Uint8Array;
}

/** Lines and front matter, which decide how the rest of the document is scanned. */
export function readHeader(text: string): { lines: LineIndex; frontMatter: FrontMatter | undefined } {
  const lines = new LineIndex(text);
  return { lines, frontMatter: parseFrontMatter(text, lines) };
}

export function scanDocument(text: string, fields?: readonly string[], header = readHeader(text)): DocumentScan {
  const { lines, frontMatter } = header;
  const masked0 = maskMarkdown(text);
  const masked = fields && fields.length > 0 ? keepSections(masked0.masked, masked0.headings, fields) : masked0.masked;
  const tokens = tokenize(masked);
  const lowerCache: (string | undefined)[] = new Array(tokens.count);
  const inHeading = new Uint8Array(tokens.count);
  let h = 0;
  const headings = masked0.headings;
  for (let i = 0; i < tokens.count && h < headings.length; i++) {
    const at = tokens.start[i]!;
    while (h < headings.length && headings[h]!.end <= at) h++;
    if (h < headings.length && headings[h]!.start <= at) inHeading[i] = 1;
  }
  return {
    text,
    lines,
    masked,
    headings,
    frontMatter,
    tokens,
    inHeading,
    lower: (i) => (lowerCache[i] ??= masked.slice(tokens.start[i]!, tokens.end[i]!).toLowerCase()),
  };
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
