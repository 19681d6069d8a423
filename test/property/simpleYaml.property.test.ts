/**
 * The front matter fast path (`readSimpleMapping`) reads exactly what the `yaml` library reads —
 * the same nodes, values, scalar types and source ranges, the same plain data — or leaves the
 * text to the library. Checked on generated front matter that mixes what it reads with what it
 * must leave alone, and on every front matter of the calibration corpora (when present).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { locateFrontMatter } from '../../server/src/core/markdown/frontMatter';
import { readSimpleMapping, simpleMappingData } from '../../server/src/core/markdown/simpleYaml';

/** A node as plain data: kind, scalar type and value, ranges, children. */
function shape(node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  if (isScalar(node)) return { scalar: node.type, value: node.value, range: node.range };
  if (isSeq(node)) return { seq: node.items.map((item) => shape(item as Node)), range: node.range };
  if (isMap(node)) return { map: node.items.map((pair) => [shape(pair.key as Node), shape(pair.value as Node)]), range: node.range };
  return { other: node.constructor.name };
}

/** Whether the fast path agrees with the library on `source`; true when it leaves it alone. */
function agrees(source: string): boolean {
  const fast = readSimpleMapping(source);
  if (fast === undefined) return true;
  const doc = parseDocument(source, { uniqueKeys: false, prettyErrors: false });
  expect(doc.errors).toEqual([]);
  expect(doc.warnings).toEqual([]);
  expect(shape(fast)).toEqual(shape(doc.contents as Node));
  expect(simpleMappingData(fast)).toEqual(doc.toJS());
  return true;
}

/** Pieces the fast path reads, and pieces it must leave to the library (or read as the library does). */
const GOOD_KEYS = ['title', 'status', 'mission_id', 'step_id', 'glossary_watch_terms', 'related', 'doc-status', '_x', 'x2'];
const OTHER_KEYS = ['true', 'Null', '__proto__', '<<', 'a b', '1', '"q"', 'k:', '-k', 'x.y', ' title'];
const GOOD_PLAIN = ['C# code', 'see (#2773) here', 'Accepted', 'Foo bar', "it's", 'a:b', 'a#b', 'x, y [z] {w}', '12', '007', '2026-08-02', '01KN2371WSJ7573ZG5D21WP82S', 'docs/a.md', '.gitignore', '(draft)', '$var', 'Ünïcode — dash', '日本語', 'emoji 🚀', 'x  ', 'a "q" b', "a 'q' b", 'a -b', 'a: '.trim() + 'b'];
const OTHER_PLAIN = [
  'a: b', 'a #b', 'C# code', '[x, y]', 'x #', '#x', '{a: 1}', '& anchor', '*alias', '!tag', '| block', '> folded', '%d', '@at', '`tick`', '- dash', '-x', '? q', ':c', 'end:', '~', 'null', 'NULL',
  'true', 'False', '-3', '+4', '1.5', '1e3', '.5', '0x1F', '0o17', '.inf', '-.Inf', '.nan', 'tab\there', 'back\\slash', 'a\u0007b', '---', '...', '', ' ', 'a\u2028b', 'x\u0085y',
];
/** 'Single quoted' values wrapped over lines as YAML writers wrap long titles (and ways not to). */
const WRAPPED = ["'ADR: a b,\n  c d'", "'a  \n   b'", "'it''s a\n  long ''one'''", "'a\n  b\n  c'   ", "'x: y\n    - z'"];
/** Plain values wrapped over more indented lines (and ways that are not plain continuations). */
const PLAIN_WRAPPED = ['CLI Auth Session \n  Storage', 'a\n  b\n  c', 'x\n    y  ', '12\n  13', 'true\n  x', 'C#\n  (#12) d', 'a\n   - b', 'a\n  [b] {c}'];
const ODD_PLAIN_WRAPPED = ['a\n  b: c', 'a\n  #c', 'a\n  b #c', 'a\n\n  b', 'a\n  b:', 'a\n  "q"', "a\n  'q'", 'a\n  *b', 'a: b\n  c', 'a #b\n  c', 'a\n  b\n c', 'a\n  b\n  c\n  d\n  e\n  f\n  g\n  h\n  i\n  j'];
const ODD_WRAPPED = ["'a\n\n  b'", "'a\nb'", "'\n  b'", "'a\n  '", "'a\n  b' c", "'a\n  b\n", "'a\n  b'\n  c", "'a\n  b\\'", "'a\n\tb'"];
const GOOD_QUOTED = ["'see #12'", '"#x # y"', "'ADR: x — y'", "'it''s'", "''", '"plain"', '"x"  ', "'a: b'", '"it\'s"', "'[x]'", "'12'"];
const OTHER_QUOTED = ['"a\\"b"', '"a\\nb"', "'open", '"open', "'x' y", "'x' # c", "'a # b'"];

const pick = <T>(good: readonly T[], other: readonly T[]) => fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...other) });
const scalarText = fc.oneof(pick(GOOD_PLAIN, OTHER_PLAIN), pick(GOOD_QUOTED, OTHER_QUOTED));
const wrapped = fc.oneof(pick(WRAPPED, ODD_WRAPPED), pick(PLAIN_WRAPPED, ODD_PLAIN_WRAPPED));
const listItem = fc.oneof({ weight: 12, arbitrary: scalarText }, { weight: 1, arbitrary: fc.constantFrom('- nested', 'k: v', 'k:', '[a]', '') });
const value = fc.oneof(
  { weight: 12, arbitrary: scalarText.map((v) => ` ${v}`) },
  { weight: 3, arbitrary: wrapped.map((v) => ` ${v}`) },
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('', '', '  ', '    ', ' '), fc.array(listItem, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([indent, items, blank]) => items.map((item, i) => `\n${blank && i === 1 ? '\n' : ''}${indent}- ${item}`).join('')) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', ' x\n  continued', ' [a, b]', ' {a: 1}', '\n  nested: map', ' x # comment', ' |\n  block', ' &a x', ' *a', '\r', ':x', '\n- a\n  b', '\n  - a\n - b', '\n  - a\n  x: 1') },
);
const entry = fc.tuple(pick(GOOD_KEYS, OTHER_KEYS), value, fc.constantFrom('', '', '', '\n', ' ', '\n\n')).map(([key, v, after]) => `${key}:${v}\n${after}`);
const frontMatter = fc.tuple(fc.constantFrom('', '', '', '', '\n', '  '), fc.array(entry, { minLength: 0, maxLength: 6 }), fc.boolean()).map(([before, entries, trailingNewline]) => {
  const text = before + entries.join('');
  return trailingNewline ? text : text.replace(/\n$/, '');
});

describe('simple YAML front matter', () => {
  it('reads what the yaml library reads, node for node, or leaves it to the library', () => {
    let read = 0;
    fc.assert(
      fc.property(frontMatter, (source) => {
        if (readSimpleMapping(source)) read++;
        return agrees(source);
      }),
      { numRuns: Number(process.env.SIMPLE_YAML_RUNS ?? 5000) },
    );
    // The generator reaches the fast path often enough for this to mean something.
    expect(read).toBeGreaterThan(500);
  });

  it('reads a title wrapped over lines in single quotes, folded as the library folds it', () => {
    const source = "title: 'ADR: Write-Branch Resolution (Write-Surface\n  Twin) it''s'\nstatus: Accepted\n";
    const fast = readSimpleMapping(source);
    expect(fast).toBeDefined();
    expect(agrees(source)).toBe(true);
    expect(simpleMappingData(fast!)).toEqual({ title: "ADR: Write-Branch Resolution (Write-Surface Twin) it's", status: 'Accepted' });
  });

  it('reads a plain title wrapped over lines, and a # that is not a comment, as the library does', () => {
    const source = "title: CLI Auth Uses Encrypted File-Only Session \n  Storage\ndescription: 'One public pack (catalog #16), not secret.'\nlang: C# and F#\nnote: x # a comment\n";
    expect(readSimpleMapping(source)).toBeUndefined(); // (a comment: the library's)
    const read = source.replace(' # a comment', '');
    const fast = readSimpleMapping(read);
    expect(fast).toBeDefined();
    expect(agrees(read)).toBe(true);
    expect(simpleMappingData(fast!)).toEqual({ title: 'CLI Auth Uses Encrypted File-Only Session Storage', description: 'One public pack (catalog #16), not secret.', lang: 'C# and F#', note: 'x' });
  });

  it('reads the examples real specs have', () => {
    const source = "title: 'ADR: Charter — Wheel'\ndescription: 'It''s `src/charter`.'\nstatus: Accepted\ndate: '2026-08-02'\nrelated:\n- docs/a.md\n- docs/b.md\nn: 12\n";
    const fast = readSimpleMapping(source);
    expect(fast).toBeDefined();
    expect(simpleMappingData(fast!)).toEqual({ title: 'ADR: Charter — Wheel', description: "It's `src/charter`.", status: 'Accepted', date: '2026-08-02', related: ['docs/a.md', 'docs/b.md'], n: 12 });
    agrees(source);
  });

  it('agrees with the library on every front matter of the calibration corpora', () => {
    const corpus = path.resolve(__dirname, '../../../shared/corpus');
    const alt = path.resolve(__dirname, '../../../../shared/corpus');
    const dir = existsSync(corpus) ? corpus : alt;
    if (!existsSync(dir)) return;
    let seen = 0;
    let fast = 0;
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.md')) {
          const text = readFileSync(full, 'utf8');
          const located = locateFrontMatter(text);
          if (!located) continue;
          const source = text.slice(located.bodyStart, located.bodyEnd);
          seen++;
          if (readSimpleMapping(source)) fast++;
          agrees(source);
        }
      }
    };
    walk(dir);
    expect(seen).toBeGreaterThan(100);
    // Most real front matter takes the fast path.
    expect(fast / seen).toBeGreaterThan(0.8);
  });
});
