import { describe, expect, test } from 'vitest';
import { applyMask, maskMarkdown, MASK } from '../../server/src/core/markdown/mask';

/** applyMask over [from, to) computed piecewise in small windows (the path that joins slices). */
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
  // Large documents are masked in a byte buffer, small ones by joining slices: same result.
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
