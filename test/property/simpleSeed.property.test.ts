/**
 * The seed fast path (`readSimpleSeed`) reads exactly what the `yaml` library reads — the same
 * nodes, values, scalar types, tags and source ranges — or leaves the file to the library; and a
 * seed read either way gives the same senses and problems. Checked on generated seeds that mix
 * what it reads with what it must leave alone, and on the real core glossaries.
 */

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseSeedFile } from '../../server/src/core/seeds';
import { readSimpleSeed } from '../../server/src/core/simpleSeed';

/** A node as plain data: kind, scalar type, value and tag, flow, ranges, children. */
function shape(node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  if (isScalar(node)) return { scalar: node.type, value: node.value, tag: node.tag, range: node.range };
  if (isSeq(node)) return { seq: node.items.map((item) => shape(item as Node)), flow: node.flow ?? false, range: node.range };
  if (isMap(node)) return { map: node.items.map((pair) => [shape(pair.key as Node), shape(pair.value as Node)]), flow: node.flow ?? false, range: node.range };
  return { other: node.constructor.name };
}

/** Whether the fast path agrees with the library on `source`; true when it leaves it alone. */
function agrees(source: string): boolean {
  const fast = readSimpleSeed(source);
  if (fast === undefined) return true;
  const doc = parseDocument(source, { uniqueKeys: false, prettyErrors: false });
  expect(doc.errors).toEqual([]);
  expect(doc.warnings).toEqual([]);
  expect(shape(fast)).toEqual(shape(doc.contents as Node));
  // The senses and problems read from these nodes are the library's: a document end marker after
  // the last entry (which changes no node when the text ends with a line break) sends the same
  // seed to the library.
  if (!source.endsWith('\n')) return true;
  const viaLibrary = `${source}...\n`;
  expect(readSimpleSeed(viaLibrary)).toBeUndefined();
  expect(parseSeedFile(source, 'seed.yaml', 'team_domain')).toEqual(parseSeedFile(viaLibrary, 'seed.yaml', 'team_domain'));
  return true;
}

const WORDS = ['lane', 'work package', 'status commit', "it's", 'IC-## in plan.md', 'a:b', 'x, y [z] {w}', 'Ünïcode — dash', '(draft)', '.agents/skills/', '$var', 'a "q" b', '041', '12', '0.95', '1.0', '1', '0'];
const ODD_WORDS = ['a: b', 'a #b', 'x:', '- x', '-x', '[x', '{a}', '&a x', '*a', '!t x', '|', '>', '`tick`', '~', 'null', 'true', '.5', '1e3', '0x1F', '-3', '', 'back\\slash', 'tab\tx', 'cr\rx', '#c', "'open"];
const pick = (good: readonly string[], odd: readonly string[]) => fc.oneof({ weight: 40, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
const word = pick(WORDS, ODD_WORDS);
const quoted = fc.tuple(word, fc.constantFrom("'", '"')).map(([w, q]) => (q === "'" ? `'${w.replace(/'/g, "''")}'` : `"${w.replace(/"/g, '')}"`));
const oneLine = fc.oneof({ weight: 12, arbitrary: word }, { weight: 8, arbitrary: quoted }, { weight: 1, arbitrary: fc.constantFrom("'x' y", '"a\\"b"', '"a\\nb"', 'x # comment', '[]', '[a, b,]', '[a, [b]]', '[a, "b"]', '{a: 1}', 'x  ') });

/** A value after `key:` for a key at `indent`: the text, starting with its separator. */
const valueAt = (indent: number, key: string) =>
  fc.oneof(
    { weight: 8, arbitrary: oneLine.map((v) => ` ${v}`) },
    { weight: 2, arbitrary: fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ` [${ws.join(', ')}]`) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom('>', '>', '>', '|', '|', '>-', '|+', '>2'), fc.constantFrom(2, 2, 2, 2, 2, 2, 1, 4), fc.array(fc.tuple(fc.constantFrom('word one', 'two: x', '# hash', '- dash', 'a', 'b c', 'trailing '), fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 2, -1), fc.constantFrom('', '', '', '', '', '', '', '\n')), { minLength: 1, maxLength: 4 }))
        .map(([head, deeper, lines]) => ` ${head}` + lines.map(([text, extra, blankAfter]) => `\n${' '.repeat(Math.max(0, indent + deeper + extra))}${text}${blankAfter}`).join('')),
    },
    {
      weight: key === 'see_also' ? 30 : 1,
      arbitrary: fc
        .tuple(fc.constantFrom(2, 2, 2, 2, 2, 0, 1), fc.array(fc.array(fc.tuple(fc.constantFrom('term', 'tactic', 'path', 'fr', 'description'), oneLine), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }))
        .map(([deeper, items]) => items.map((pairs) => `\n${' '.repeat(indent + deeper)}- ` + pairs.map(([k, v], i) => `${i === 0 ? '' : `\n${' '.repeat(indent + deeper + 2)}`}${k}: ${v}`).join('')).join('')),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' x\n' + ' '.repeat(indent + 2) + 'continued', ' &a x', ' *a', ' !!float 1', ':x', '\n' + ' '.repeat(indent) + '- a') },
  );

const KEYS = ['surface', 'definition', 'confidence', 'status', 'synonyms_to_avoid', 'see_also', 'introduced_in_mission'];
const ODD_KEYS = ['<<', '__proto__', 'true', 'a b', '1', 'extra', '"q"', 'x.y'];
const entryAt = (dash: number) =>
  fc.array(fc.tuple(pick([...KEYS, 'see_also', 'see_also'], ODD_KEYS), fc.constant(null))  .chain(([key]) => valueAt(dash + 2, key).map((v) => `${key}:${v}`)), { minLength: 1, maxLength: 6 }).map((fields) => `${' '.repeat(dash)}- ` + fields.join(`\n${' '.repeat(dash + 2)}`) + '\n');

const seed = fc
  .tuple(fc.constantFrom('', '# Header\n# more\n\n', '# one\n', '\n', '', '# Header\n\n', '---\n', '# x\n  # y\n'), fc.constantFrom('terms:', 'terms:', 'terms:', 'terms:', 'terms:', 'terms:', 'terms: ', 'terms: []', 'terms: # c'), fc.constantFrom(2, 2, 2, 0, 4), fc.constantFrom('\n', '\n\n', '\n  # c\n', '\n\n  # --- c ---\n\n'))
  .chain(([header, terms, dash, after]) =>
    fc.tuple(fc.array(fc.tuple(entryAt(dash), fc.constantFrom('', '\n', '\n', '\n', '\n', '\n\n', '\n\n', '  \n', '# c\n')), { minLength: 1, maxLength: 4 }), fc.constantFrom('', '', '', '', '', 'other: x\n', '  # tail\n', '# tail\n', '\n# tail\n#\n\n', '# tail\n  # indented\n', '# tail\nother: x\n'), fc.boolean()).map(([entries, tail, trailingNewline]) => {
      const text = header + terms + after + entries.map(([e, sep]) => e + sep).join('') + tail;
      return trailingNewline ? text : text.replace(/\n+$/, '');
    }),
  );

describe('simple seed glossaries', () => {
  it('reads what the yaml library reads, node for node, or leaves it to the library', () => {
    let read = 0;
    fc.assert(
      fc.property(seed, (source) => {
        if (readSimpleSeed(source)) read++;
        return agrees(source);
      }),
      { numRuns: Number(process.env.SIMPLE_SEED_RUNS ?? 8000) },
    );
    // The generator reaches the fast path often enough for this to mean something.
    expect(read).toBeGreaterThan(60);
  });

  it('reads seeds as Spec Kitty writes them, values folded as the library folds them', () => {
    const source = '# Canonical terms\n\nterms:\n\n  - surface: lane\n    definition: >\n      A parallel track\n      of work.\n    confidence: 0.95\n    status: active\n    synonyms_to_avoid: [track, swim lane]\n\n  - surface: base branch\n    definition: |\n      one\n      two\n    see_also:\n      - term: lane\n      - tactic: x\n        path: a/b.yaml\n    introduced_in_mission: "041"\n    confidence: 1.0\n    status: draft\n';
    expect(readSimpleSeed(source)).toBeDefined();
    expect(agrees(source)).toBe(true);
    const read = parseSeedFile(source, 'seed.yaml', 'team_domain');
    expect(read.problems).toEqual([]);
    expect(read.senses.map((s) => [s.surface, s.definition, s.confidence, s.status, s.synonymsToAvoid, s.seeAlso, s.introducedInMission])).toEqual([
      ['lane', 'A parallel track of work.', 0.95, 'active', ['track', 'swim lane'], [], undefined],
      ['base branch', 'one\ntwo', 1, 'draft', [], ['lane'], '041'],
    ]);
  });

  it("reads Spec Kitty's core glossary node for node as the library, and agrees on the bundled one", () => {
    // The bundled glossary writes `see_also: [{term: x}]` (left to the library; the build reads it
    // once anyway: node/bundledGlossary.ts).
    expect(agrees(readFileSync(path.join(__dirname, '../../glossaries/spec_kitty_core.yaml'), 'utf8'))).toBe(true);
    const real = path.join(process.env.SPEC_GLOSSARY_CORPUS ?? '/work/shared/corpus', 'spec-kitty/.kittify/glossaries/spec_kitty_core.yaml');
    if (!existsSync(real)) return;
    const source = readFileSync(real, 'utf8');
    // Written as Spec Kitty writes seeds: the fast path must take it, or it saves nothing.
    expect(readSimpleSeed(source)).toBeDefined();
    expect(agrees(source)).toBe(true);
  });
});
