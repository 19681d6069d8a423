/**
 * Masking (SPEC §5), shown as the masked text itself: `█` where terms are never extracted from.
 */

import { describe, expect, test } from 'vitest';
import { applyMask, maskMarkdown, MASK } from '../../server/src/core/markdown/mask';
import { disagreements, visibleMask } from '../helpers/maskOracle';

/** Lines as one text (the cases read as the documents they are). */
const doc = (...lines: string[]) => lines.join('\n');

describe('containers', () => {
  test('a fence in a list item, with a blank line inside, is code; the next item is prose', () => {
    const text = doc('- Step one:', '', '  ```bash', '  npm run build', '', '  npm test', '  ```', '- Step two uses the workspace.');
    expect(visibleMask(text)).toBe(doc('- Step one:', '', '  ███████', '  █████████████', '', '  ████████', '  ███', '- Step two uses the workspace.'));
  });

  test('indented code in an ordered item is code (its content indent is the marker and its spaces)', () => {
    const text = doc('1. Install:', '', '       pip install spec-kitty', '', '2. Run it.');
    expect(visibleMask(text)).toBe(doc('1. Install:', '', '       ██████████████████████', '', '2. Run it.'));
  });

  test('an unclosed fence ends with its list item: the prose after it is prose', () => {
    const text = doc('- An unclosed fence:', '  ```', '  code here', '- Prose after the item.', '', 'And a paragraph.');
    expect(visibleMask(text)).toBe(doc('- An unclosed fence:', '  ███', '  █████████', '- Prose after the item.', '', 'And a paragraph.'));
  });

  test('a block quote: lazy continuation lines are prose, a fence in it is code, and ends with it', () => {
    const text = doc('> A quote with `code`', 'lazy continuation line', '> ```', '> fenced in the quote', 'After the quote.');
    expect(visibleMask(text)).toBe(doc('> A quote with ██████', 'lazy continuation line', '> ███', '> ███████████████████', 'After the quote.'));
  });

  test('a code span over the lines of a quoted paragraph (markdown-it reads them without the markers)', () => {
    expect(visibleMask(doc('> a `code', '> span` b'))).toBe(doc('> a █████', '> █████ b'));
  });

  test('four spaces after a lazy line in a list item: markdown-it ends the item, the line is code', () => {
    expect(visibleMask(doc('1)   item text', '    ```'))).toBe(doc('1)   item text', '    ███'));
  });

  test('nested items with a fence in the inner one', () => {
    const text = doc('- outer', '  - inner', '', '    ~~~', '    zorblax', '    ~~~', '  - next inner', '- next outer');
    expect(visibleMask(text)).toBe(doc('- outer', '  - inner', '', '    ███', '    ███████', '    ███', '  - next inner', '- next outer'));
  });
});

describe('HTML blocks', () => {
  test('a block of kind 6 runs to a blank line; a comment to its end marker', () => {
    const text = doc('<details>', '<summary>Click</summary>', '', 'Prose inside details.', '', '</details>', '', '<!-- a comment', 'over lines --> and more', 'Text after.');
    expect(visibleMask(text)).toBe(doc('█████████', '████████████████████████', '', 'Prose inside details.', '', '██████████', '', '██████████████', '███████████████████████', 'Text after.'));
  });

  test('the seven kinds', () => {
    const text = doc('<script>', 'x', '</script>', 'a', '', '<?php x ?>', 'b', '', '<!DOCTYPE html>', 'c', '', '<![CDATA[ y ]]>', 'd', '', '<span class="x">', 'e', '', '<span> f', '', 'g <b>h</b>');
    expect(visibleMask(text)).toBe(
      doc('████████', '█', '█████████', 'a', '', '██████████', 'b', '', '███████████████', 'c', '', '███████████████', 'd', '', '████████████████', '█', '', '██████ f', '', 'g ███h████'),
    );
  });
});

describe('link reference definitions', () => {
  test('valid ones are masked (label over lines, title on the next line, in a quote); an invalid one is prose', () => {
    const text = doc('[spec]: https://example.com/spec "The spec"', '[multi', 'line]: /url', "  'title'", '[invalid] no colon here', '> [quoted]: /q', '', 'See [the spec][spec] and [multi line] and [unknown][nope].');
    expect(visibleMask(text)).toBe(
      doc('███████████████████████████████████████████', '██████', '███████████', '  ███████', '[invalid] no colon here', '> ████████████', '', 'See [the spec███████ and [multi line█ and [unknown][nope].'),
    );
  });

  test('a definition markdown-it rejects (an unsafe destination) is prose, and its label links nothing', () => {
    expect(visibleMask(doc('[x]: javascript:alert(1)', '', 'See [y][x].'))).toBe(doc('[x]: javascript:alert(1)', '', 'See [y][x].'));
  });
});

describe('tables', () => {
  test('cells past the header\'s columns are dropped (markdown-it, GFM): masked, never read as prose; a row with fewer cells is read as it is', () => {
    const text = doc('| term | meaning |', '|---|---|', '| one | two | charlie mission | more |', '| x |', '| a \\| b | c | d |');
    expect(visibleMask(text)).toBe(doc('| term | meaning |', '|---|---|', '| one | two | ██████████████████████ |', '| x |', '| a \\| b | c | █ |'));
    expect(disagreements(text)).toEqual([]);
  });

  test('cells are prose; code spans in cells are code; an escaped pipe stays in its cell', () => {
    const text = doc('| Term | Meaning |', '|------|---------|', '| Work package | A `unit` of work |', '| Pipe | `a \\| b` |');
    expect(visibleMask(text)).toBe(doc('| Term | Meaning |', '|------|---------|', '| Work package | A ██████ of work |', '| Pipe | ████████ |'));
  });

  test('a pipe inside a code span still splits cells (GFM): no code span there', () => {
    const text = doc('| a | b |', '|---|---|', '| `x | y` |');
    expect(visibleMask(text)).toBe(text);
  });
});

describe('headings and breaks', () => {
  test('setext and ATX headings, thematic breaks', () => {
    const text = doc('Setext heading', '==============', '', 'Sub heading', '---', '', '***', '', '## ATX `code` ##', 'Paragraph.');
    const masked = maskMarkdown(text);
    expect(masked.masked.replaceAll(MASK, '█')).toBe(doc('Setext heading', '==============', '', 'Sub heading', '---', '', '***', '', '## ATX ██████ ##', 'Paragraph.'));
    expect(masked.headings.map((h) => [h.level, h.text, text.slice(h.start, h.end)])).toEqual([
      [1, 'Setext heading', 'Setext heading'],
      [2, 'Sub heading', 'Sub heading'],
      [2, 'ATX `code`', 'ATX `code`'],
    ]);
  });

  test('ATX headings as markdown-it reads them', () => {
    const text = '# Title\n## Sub ##\n### H #x\n#### ###\n####### seven\n#\tTab\t#\t\n# CRLF #\r\n#no space\n   # three\n    # four\n## ## x ##\n#\r\n';
    expect(maskMarkdown(text).headings.map((h) => [h.level, h.text])).toEqual([
      [1, 'Title'],
      [2, 'Sub'],
      [3, 'H #x'],
      [4, ''],
      [1, 'Tab'],
      [1, 'CRLF'],
      [1, 'three'],
      [2, '## x'],
      [1, ''],
    ]);
  });
});

describe('inline', () => {
  test('code spans, links, images, autolinks and HTML', () => {
    const text = 'Use `npm test`, [the guide](https://x.io/guide "Guide"), ![a logo](logo.png), <https://x.io> and <b>bold</b>.';
    expect(visibleMask(text)).toBe('Use ██████████, [the guide█████████████████████████████, ![a logo███████████, ██████████████ and ███bold████.');
  });

  test('what is not a link stays prose: a bracket alone, an unsafe destination, a space in it', () => {
    const text = 'See FR-1](x) and [a](javascript:alert) and [b](c d) and `unclosed.';
    expect(visibleMask(text, { proseExclusions: false })).toBe(text);
  });

  test('thousands of brackets in a row (or a deeply nested array pasted as prose) are read as markdown-it reads them, without overflowing the stack', () => {
    const cases = ['[', '![', '[ ', '[x'].map((unit) => `The workspace here.\n\n${unit.repeat(6000)}\n`);
    cases.push(`Data: ${'['.repeat(3000)}1${']'.repeat(3000)} and more.\n`, `${'['.repeat(90)}a${']'.repeat(90)}(u)\n`, `[a ${'[b '.repeat(90)}${'] '.repeat(90)}](u)\n`);
    for (const text of cases) expect(disagreements(text), text.slice(0, 40)).toEqual([]);
    // Beyond markdown-it's nesting limit its reading depends on its token cache; masking only has to stay up.
    expect(() => maskMarkdown(`${'['.repeat(150)}a${']'.repeat(150)}(u)\n`)).not.toThrow();
    // Links and images nested thousands deep, each closed.
    for (const unit of ['![', '[', '![a ']) expect(() => maskMarkdown(`${unit.repeat(5000)}x${'](u)'.repeat(5000)}`)).not.toThrow();
    for (const unit of ['![', '[', '![a ']) expect(disagreements(`${unit.repeat(60)}x${'](u)'.repeat(60)}\n`)).toEqual([]);
  });

  test('100 KB of brackets never closed, or of links nested 20,000 deep, are masked at once (one scan per bracket took minutes)', () => {
    // Past markdown-it's nesting limit only staying up is asked; here all of it is prose but the
    // links' destinations.
    expect(visibleMask('['.repeat(100_000))).toBe('['.repeat(100_000));
    expect(visibleMask(`x ${'!['.repeat(50_000)}`)).toBe(`x ${'!['.repeat(50_000)}`);
    const nested = `${'['.repeat(20_000)}x${'](u)'.repeat(20_000)}`;
    expect(visibleMask(nested, { proseExclusions: false })).toMatch(/^\[+x\]\(u\)/);
  });

  test('escapes: an escaped backtick opens no code span (the next one does)', () => {
    expect(visibleMask('a \\`b` c `d`')).toBe('a \\`b█████d`');
  });
});

describe('SPEC §5 exclusions in prose', () => {
  test('ids, paths and URLs', () => {
    const text = 'Ids: _FR-1 FR-001 (NFR-2), US1 ABCDEFG1 ABCDEF1 #964 #12a FR-1.md FR-1/a T001x, see https://x.io/a and src/app/main.py.';
    expect(visibleMask(text)).toBe('Ids: _FR-1 ██████ (█████), ███ ABCDEFG1 ███████ ████ #12a ███████ ████/a █████, see ██████████████ and ███████████████.');
  });

  test('Windows paths: a drive, two backslashes, or one before a file with a known extension; an escape or one backslash between words is prose', () => {
    const text = 'Open src\\golf\\x.py and C:\\hotel\\x and docs\\delta\\readme.md or dir\\name.md.';
    expect(visibleMask(text)).toBe('Open █████████████ and ██████████ and ████████████████████ or ███████████.');
    const prose = 'An escaped \\*star\\* and snake\\_case, and\\or, the C:\\ drive.';
    expect(visibleMask(prose)).toBe(prose);
  });

  test('in table cells and headings too', () => {
    const text = doc('## FR-001 in src/a/b.ts', '', '| id | file |', '|---|---|', '| FR-002 | docs/guide/x.md |');
    expect(visibleMask(text)).toBe(doc('## ██████ in ██████████', '', '| id | file |', '|---|---|', '| ██████ | ███████████████ |'));
  });
});

describe('front matter and byte order mark', () => {
  test('front matter is masked; the body after it is read from its first line', () => {
    const text = doc('---', 'title: x', '---', '# Heading', 'Prose `code`.');
    expect(visibleMask(text)).toBe(doc('███', '████████', '███', '# Heading', 'Prose ██████.'));
  });

  test('a document opening with a rule, a blank line and prose is no front matter: rule, paragraph, rule (as markdown-it reads it)', () => {
    for (const text of [doc('---', '', 'zorbbo para between rules', '', '---', 'After.'), doc('---', '', '- an item', '---')]) {
      expect(visibleMask(text), text).toBe(text);
      expect(disagreements(text)).toEqual([]);
    }
    // A mapping after a blank line is still front matter, and so is a sentence right after the `---` (with its warning).
    expect(visibleMask(doc('---', '', 'title: x', '---', 'Body.'))).toBe(doc('███', '', '████████', '███', 'Body.'));
    expect(visibleMask(doc('---', 'just a sentence', '---', 'Body.'))).toBe(doc('███', '███████████████', '███', 'Body.'));
  });

  test('a byte order mark is masked and does not hide a heading', () => {
    const masked = maskMarkdown('\ufeff# Title\n');
    expect(masked.masked).toBe(`${MASK}# Title\n`);
    expect(masked.headings.map((h) => h.text)).toEqual(['Title']);
  });
});

/** applyMask over [from, to) computed piecewise in small windows. */
function maskInWindows(text: string, excluded: readonly number[], from: number, to: number, window = 1000): string {
  let out = '';
  for (let at = from; at < to; at += window) out += applyMask(text, excluded, at, Math.min(to, at + window));
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
  // A whole large document, and the same masked window by window: the same text, line breaks kept.
  test.each([
    ['ASCII, LF', '', '\n'],
    ['Latin-1, CRLF', 'café naïve', '\r\n'],
    ['UTF-16, LF', 'em — dash “quoted” 😀 \ud800 lone', '\n'],
    ['UTF-16, CRLF', '→ arrow', '\r\n'],
  ])('%s', (_name, extra, newline) => {
    const text = documentOf(60_000, extra, newline);
    const { excluded, masked } = maskMarkdown(text);
    expect(masked).toBe(maskInWindows(text, excluded, 0, text.length));
    expect(masked.length).toBe(text.length);
    // Line breaks kept, every other character kept or masked (one assertion: one per character
    // cost seconds).
    const changed: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if ((c === '\n' || c === '\r' || masked[i] !== MASK) && masked[i] !== c) changed.push(i);
    }
    expect(changed).toEqual([]);
    expect(masked).toContain(MASK);
    const from = text.indexOf('\n', 20_000) + 1;
    const to = text.indexOf('\n', 45_000) + 1;
    expect(applyMask(text, excluded, from, to)).toBe(masked.slice(from, to));
  });
});
