/**
 * Markdown-aware masking: returns a copy of the document, same length and same line breaks, in
 * which everything terms must never be extracted from (front matter, code blocks, inline code,
 * HTML, link destinations, URLs, file paths, requirement ids) is replaced by MASK. Extractors then
 * run plain regular expressions over prose, and every offset still points into the original.
 *
 * A line scanner rather than a full CommonMark parser: it needs to be linear, allocation-light and
 * fast enough for a 1 MB spec in a few milliseconds (see docs/architecture.md).
 */

import { locateFrontMatter } from './frontMatter';
import { maskInline } from './inline';

export const MASK = '\u001f';

export interface Heading {
  level: number;
  /** Offsets of the heading text (without `#` markers). */
  start: number;
  end: number;
  /** Offset of the start of the heading line. */
  lineStart: number;
  text: string;
}

export interface MaskedDocument {
  masked: string;
  headings: Heading[];
  /** Offsets where front matter ends (0 when there is none). */
  bodyStart: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S/;
const RAW_HTML_BLOCK = /^ {0,3}<(pre|script|style|textarea)(?:[\s>]|$)/i;
const HTML_COMMENT_START = /^ {0,3}<!--/;

export function maskMarkdown(text: string): MaskedDocument {
  const excluded: number[] = []; // flat list of [start, end) pairs, in order
  const exclude = (start: number, end: number) => {
    if (end <= start) return;
    const last = excluded.length - 1;
    if (last > 0 && excluded[last]! >= start) excluded[last] = Math.max(excluded[last]!, end);
    else excluded.push(start, end);
  };
  const headings: Heading[] = [];

  let pos = 0;
  const front = locateFrontMatter(text);
  if (text.charCodeAt(0) === 0xfeff) exclude(0, 1);
  if (front) {
    exclude(front.start, front.end);
    pos = front.end;
  }
  const bodyStart = pos;

  let fence: { char: string; length: number } | undefined;
  let rawHtmlCloser: RegExp | undefined;
  let inComment = false;
  let previousBlank = true;
  let inList = false;
  let paragraphStart = -1;
  let paragraphEnd = -1;
  const flushParagraph = () => {
    if (paragraphStart >= 0) maskInline(text, paragraphStart, paragraphEnd, exclude);
    paragraphStart = -1;
  };

  while (pos < text.length) {
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(pos, lineEnd);
    const next = lineEnd + 1;

    if (fence) {
      exclude(pos, lineEnd);
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = undefined;
      pos = next;
      continue;
    }
    if (inComment) {
      const close = line.indexOf('-->');
      exclude(pos, close === -1 ? lineEnd : pos + close + 3);
      if (close !== -1) inComment = false;
      pos = next;
      continue;
    }
    if (rawHtmlCloser) {
      exclude(pos, lineEnd);
      if (rawHtmlCloser.test(line)) rawHtmlCloser = undefined;
      pos = next;
      continue;
    }

    const blank = line.trim().length === 0;
    if (blank) {
      flushParagraph();
      previousBlank = true;
      pos = next;
      continue;
    }

    const fenceOpen = FENCE.exec(line);
    if (fenceOpen && !(fenceOpen[1]![0] === '`' && fenceOpen[2]!.includes('`'))) {
      flushParagraph();
      fence = { char: fenceOpen[1]![0]!, length: fenceOpen[1]!.length };
      exclude(pos, lineEnd);
      previousBlank = false;
      pos = next;
      continue;
    }

    const indented = line.startsWith('    ') || line.startsWith('\t');
    if (indented && paragraphStart < 0 && previousBlank && !inList) {
      exclude(pos, lineEnd); // indented code block
      pos = next;
      continue;
    }

    if (HTML_COMMENT_START.test(line)) {
      flushParagraph();
      const close = line.indexOf('-->');
      exclude(pos, close === -1 ? lineEnd : pos + close + 3);
      if (close === -1) inComment = true;
      else if (pos + close + 3 < lineEnd) maskInline(text, pos + close + 3, lineEnd, exclude);
      previousBlank = false;
      pos = next;
      continue;
    }
    const rawHtml = RAW_HTML_BLOCK.exec(line);
    if (rawHtml) {
      flushParagraph();
      exclude(pos, lineEnd);
      const closer = new RegExp(`</${rawHtml[1]}>`, 'i');
      if (!closer.test(line)) rawHtmlCloser = closer;
      previousBlank = false;
      pos = next;
      continue;
    }
    if (REFERENCE_DEFINITION.test(line)) {
      flushParagraph();
      exclude(pos, lineEnd);
      previousBlank = false;
      pos = next;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      const content = heading[2] ?? '';
      const start = content ? pos + line.indexOf(content, heading[1]!.length) : lineEnd;
      headings.push({ level: heading[1]!.length, start, end: start + content.length, lineStart: pos, text: content });
      maskInline(text, pos, lineEnd, exclude);
      inList = false;
      previousBlank = false;
      pos = next;
      continue;
    }

    if (LIST_ITEM.test(line)) {
      flushParagraph();
      inList = true;
    } else if (previousBlank && !indented) {
      inList = false;
    }
    if (paragraphStart < 0) paragraphStart = pos;
    paragraphEnd = lineEnd;
    previousBlank = false;
    pos = next;
  }
  flushParagraph();

  return { masked: applyMask(text, excluded), headings, bodyStart };
}

function applyMask(text: string, excluded: number[]): string {
  if (excluded.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < excluded.length; i += 2) {
    const start = excluded[i]!;
    const end = excluded[i + 1]!;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(fill(text, Math.max(start, at), end));
    at = Math.max(at, end);
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts.join('');
}

/** MASK for every character in [start, end) except line breaks, which keep lines aligned. */
function fill(text: string, start: number, end: number): string {
  if (end <= start) return '';
  const slice = text.slice(start, end);
  if (slice.indexOf('\n') === -1 && slice.indexOf('\r') === -1) return MASK.repeat(slice.length);
  return slice.replace(/[^\r\n]/g, MASK);
}
