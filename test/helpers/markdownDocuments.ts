/**
 * fast-check arbitraries of markdown documents that nest CommonMark's constructs: list items
 * (bullet and ordered, any content indent) and block quotes holding paragraphs (with lazy
 * continuation lines), fenced code (closed, unclosed, ended by its container), indented code,
 * HTML blocks of all seven kinds, link reference definitions (valid, invalid, over several
 * lines), GFM tables (code spans and escaped pipes in cells), setext and ATX headings, thematic
 * breaks; and inline code spans, links, images, autolinks and HTML in the prose.
 */

import fc from 'fast-check';

const word = fc.constantFrom('alpha', 'Beta', 'gamma', 'delta', 'zorblax', 'flux', 'router', 'café', 'x', 'API', 'FR-001', 'a_b', 'x*y', '2', 'naïve');
const label = fc.constantFrom('foo', 'Foo', 'bar baz', 'x', 'ref', 'FOO', 'Bar  Baz', 'ẞ');
const destination = fc.constantFrom('/url', 'http://example.com/a_(b)', '<my dest>', 'javascript:alert(1)', '', 'a b', '<a\\>b>', 'https://x.io/#frag', 'file:///tmp/x', '/path\\)x', '(nested)');
const title = fc.constantFrom('', ' "title"', " 'single'", ' (paren)', ' "multi\nline"', ' "unclosed', ' "a" junk');

/** One piece of inline content. */
const inlinePiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: word },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('`', '``', '```'), word, fc.constantFrom('`', '``', '', ' `')).map(([open, w, close]) => `${open}${w}${close}`) },
  { weight: 2, arbitrary: fc.tuple(word, destination, title, fc.boolean()).map(([text, dest, t, image]) => `${image ? '!' : ''}[${text}](${dest}${t})`) },
  { weight: 1, arbitrary: fc.tuple(word, label, fc.constantFrom('full', 'collapsed', 'shortcut')).map(([text, l, kind]) => (kind === 'full' ? `[${text}][${l}]` : kind === 'collapsed' ? `[${l}][]` : `[${l}]`)) },
  { weight: 1, arbitrary: fc.constantFrom('<http://a.b/c>', '<mailto:a@b.c>', '<a@b.co>', '<span class="x">', '</span>', '<!-- note -->', '<?pi?>', '<!DOC x>', '<![CDATA[x]]>', '<a\nhref="x">', '<not a tag', '< x >') },
  { weight: 1, arbitrary: fc.constantFrom('\\`', '\\[', '\\]', '\\<', '\\\\', '*em*', '_em_', '**strong**', '&amp;', '&#96;', '|', '\\|', '[', ']', '(', ')', '!', '[x', 'a]', '![', '](') },
);

const inline = fc.array(inlinePiece, { minLength: 1, maxLength: 7 }).map((pieces) => pieces.join(' '));

/** A block: its lines (without line breaks). */
type Lines = string[];

const paragraph: fc.Arbitrary<Lines> = fc.array(inline, { minLength: 1, maxLength: 3 });

const leaf: fc.Arbitrary<Lines> = fc.oneof(
  { weight: 6, arbitrary: paragraph },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 7 }), inline, fc.constantFrom('', ' #', ' ##  ')).map(([level, text, close]) => ['#'.repeat(level) + ' ' + text + close]) },
  { weight: 1, arbitrary: fc.tuple(paragraph, fc.constantFrom('===', '---', '  ==', '- -')).map(([lines, underline]) => [...lines, underline]) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('```', '~~~', '````', '```ts', '~~~ `x`', '``` a`b'), fc.array(fc.oneof(inline, fc.constantFrom('```', '~~~~', '', '    indented')), { maxLength: 4 }), fc.constantFrom('same', 'longer', 'none', 'other'))
      .map(([open, body, close]) => {
        const fence = open.replace(/[^`~].*$/, '');
        const closing = close === 'same' ? fence : close === 'longer' ? fence + fence[0] : close === 'other' ? (fence[0] === '`' ? '~~~' : '```') : undefined;
        return [open, ...body, ...(closing === undefined ? [] : [closing])];
      }),
  },
  { weight: 1, arbitrary: fc.array(inline, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((l, i) => (i === 1 ? '' : '    ' + l))) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom('<div>', '<pre>', '<!-- c', '<?x', '<!X y', '<![CDATA[', '<span a="b">', '</div>', '<script>', '<details>'), fc.array(inline, { maxLength: 2 }), fc.constantFrom('', '-->', '?>', '>', ']]>', '</pre>', '</script>')).map(([open, body, close]) => [open, ...body, ...(close ? [close] : [])]),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(label, destination, title, fc.constantFrom('one line', 'dest next line', 'label over lines', 'title next line', 'no colon', 'trailing junk')).map(([l, dest, t, form]): Lines => {
      switch (form) {
        case 'dest next line':
          return [`[${l}]:`, `  ${dest}${t}`];
        case 'label over lines':
          return [`[${l}`, `more]: ${dest}${t}`];
        case 'title next line':
          return [`[${l}]: ${dest}`, t.trim() || '"t"'];
        case 'no colon':
          return [`[${l}] ${dest}`];
        case 'trailing junk':
          return [`[${l}]: ${dest} junk`];
        default:
          return [`[${l}]: ${dest}${t}`];
      }
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.array(inline, { minLength: 1, maxLength: 4 }), { minLength: 0, maxLength: 3 }), fc.constantFrom('|', ''), fc.boolean())
      .map(([columns, rows, edge, mismatch]) => {
        const row = (cells: string[]) => edge + cells.join(' | ') + edge;
        const header = row(Array.from({ length: columns }, (_, i) => `h${i} \`c|d\``));
        const delimiter = edge + Array.from({ length: columns + (mismatch ? 1 : 0) }, () => '---').join('|') + edge;
        return [header, delimiter, ...rows.map((cells) => row(cells.map((c) => c.replace(/\|/g, '\\|'))))];
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom('***', '- - -', '___', '---').map((line) => [line]) },
);

/** A container's prefixes: the first line's and the others' (a lazy line keeps none). */
const listMarker = fc.constantFrom('-', '*', '+', '1.', '2)', '10.', '1)');
const container = fc.oneof(
  fc.tuple(listMarker, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 3 })).map(([marker, spaces, indent]) => ({ first: ' '.repeat(indent) + marker + ' '.repeat(spaces), rest: ' '.repeat(indent + marker.length + Math.min(spaces, 4)) })),
  fc.constantFrom({ first: '> ', rest: '> ' }, { first: '>', rest: '>' }, { first: ' > ', rest: '> ' }),
);

const block: fc.Arbitrary<Lines> = fc.letrec<{ block: Lines; blocks: Lines }>((tie) => ({
  block: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.tuple(container, tie('blocks'), fc.array(fc.boolean(), { maxLength: 8 })).map(([prefix, lines, lazy]) => lines.map((line, i) => (i === 0 ? prefix.first + line : line === '' ? (lazy[i % 8] ? '' : prefix.rest.trimEnd()) : (lazy[i % lazy.length] ?? false) ? line : prefix.rest + line)))),
  blocks: fc.array(fc.tuple(tie('block'), fc.boolean()), { minLength: 1, maxLength: 4 }).map((parts) => parts.flatMap(([lines, blank], i) => (i > 0 && blank ? ['', ...lines] : lines))),
})).block;

/** A document: blocks, separated by blank lines or not, with LF or CRLF line breaks and maybe tabs for spaces. */
export const markdownDocument: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.tuple(block, fc.boolean()), { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\n', '\r\n'), fc.boolean())
  .map(([parts, newline, tabs]) => {
    const lines = parts.flatMap(([lines, blank], i) => (i > 0 && blank ? ['', ...lines] : lines));
    const text = lines.join('\n') + '\n';
    return (tabs ? text.replace(/^( {4})/gm, '\t') : text).replace(/\n/g, newline);
  });
