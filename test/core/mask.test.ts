import { describe, expect, test } from 'vitest';
import { applyMask, maskMarkdown, MASK } from '../../server/src/core/markdown/mask';

/** applyMask over [from, to) computed piecewise in small windows. */
function maskInWindows(text: string, excluded: readonly number[], from: number, to: number, window = 1000): string {
  let out = '';
  for (let at = from; at < to; at += window) {
    const end = Math.min(to, at + window);
    const inside: number[] = [];
    for (let i = 0; i < excluded.length; i += 2) {
      const s = Math.max(at, excluded[i]!);
      const e = Math.min(end, excluded[i + 1]!);
      if (e > s) inside.push(s, e);
    }
    out += applyMask(text, inside, at, end);
  }
  return out;
}

/** A document of about `size` characters with code spans, links, ids and the given extra characters. */
function documentOf(size: number, extra: string, newline: string): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = `Line ${i} ${extra} uses \`code ${i}\` and [a link](https://example.com/${i}) for FR-${i} in src/a/b${i}.ts.`;
    lines.push(line, i % 7 === 0 ? '```' : '');
    length += line.length + 2;
  }
  return lines.join(newline);
}

describe('applyMask', () => {
  // A whole large document, a region of it, and the same masked window by window: same result.
  test.each([
    ['ASCII, LF', '', '\n'],
    ['Latin-1, CRLF', 'café naïve', '\r\n'],
    ['UTF-16, LF', 'em — dash “quoted” 😀 \ud800 lone', '\n'],
    ['UTF-16, CRLF', '→ arrow', '\r\n'],
  ])('%s', (_name, extra, newline) => {
    const text = documentOf(60_000, extra, newline);
    const { excluded, masked } = maskMarkdown(text);
    expect(excluded.length).toBeGreaterThan(100);
    expect(masked).toBe(maskInWindows(text, excluded, 0, text.length));
    expect(masked.length).toBe(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\n' || c === '\r') expect(masked[i]).toBe(c);
    }
    expect(masked).toContain(MASK);
    // A region, as the incremental checker masks it.
    const from = text.indexOf('\n', 20_000) + 1;
    const to = text.indexOf('\n', 45_000) + 1;
    const region: number[] = [];
    for (let i = 0; i < excluded.length; i += 2) {
      const s = Math.max(from, excluded[i]!);
      const e = Math.min(to, excluded[i + 1]!);
      if (e > s) region.push(s, e);
    }
    expect(applyMask(text, region, from, to)).toBe(maskInWindows(text, region, from, to));
  });
});

describe('maskMarkdown', () => {
  // Cases where the scanner reads headings, list items and ids without the regular expressions
  // that define them (HEADING, LIST_ITEM, IDENTIFIER) or runs the patterns only around inline
  // constructs: the expected values are what those regular expressions give.
  test.each([
    [
      '# Title\n## Sub ##\n### H #x\n#### ###\n####### seven\n#\tTab\t#\t\n# CRLF #\r\n#no space\n   # three\n    # four\n# a\u2028b\n## ## x ##\n#\r\n',
      [],
      [[1, 2, 7, 'Title'], [2, 11, 14, 'Sub'], [3, 22, 26, 'H #x'], [4, 32, 35, '###'], [1, 52, 55, 'Tab'], [1, 61, 65, 'CRLF'], [1, 84, 89, 'three'], [2, 110, 114, '## x'], [1, 120, 120, '']],
    ],
    // Not a list item (ten digits): the indented line is code.
    ['1234567890. ten digits\n\n    indented\n', [24, 36], []],
    ['123456789) nine digits\n\n    indented\n', [], []],
    ['-\tdash\n\n    indented\n', [], []],
    ['+\n\n    indented\n', [], []],
    ['See FR-1](https://x.io/FR-2)FR-3 and `a`FR-4 and <b>v1.2</b> and [x][FR-5].\n', [4, 8, 9, 32, 37, 44, 49, 60, 68, 74], []],
    ['Ids: _FR-1 FR-001 (NFR-2), US1 ABCDEFG1 ABCDEF1 #964 #12a FR-1.md FR-1/a T001x.\n', [11, 17, 19, 24, 27, 30, 40, 47, 48, 52, 58, 65, 66, 70, 73, 78], []],
  ])('%j', (text, excluded, headings) => {
    const masked = maskMarkdown(text);
    expect(masked.excluded).toEqual(excluded);
    expect(masked.headings.map((h) => [h.level, h.start, h.end, h.text])).toEqual(headings);
  });
});
