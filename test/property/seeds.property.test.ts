/**
 * Seed loading (SPEC §3) as properties: random mutations of a valid seed glossary never throw,
 * every problem has a position inside the file, and a mutation confined to one entry never costs
 * the other entries (they load exactly as before). Also: 100,000 entries each with a warning load
 * in linear time (problems were once re-counted per entry), and read the same in flow style: at
 * that size in the scale run (`npm run test:scale`, helpers/scale.ts), 10,000 in `npm test`.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSurface } from '../../server/src/core/normalize';
import { isPlaceholderDefinition } from '../../server/src/core/placeholder';
import { parseSeedFile } from '../../server/src/core/seeds';
import type { Range } from '../../server/src/core/types';
import { propertyRuns } from '../helpers/propertyRuns';
import { lspLines } from '../helpers/lspLines';
import { atScale, PROMISED_SCALE } from '../helpers/scale';

/** The entries of the large seeds below. */
const ENTRIES = atScale(100_000, 10_000);

interface Entry {
  surface: string;
  definition: string;
  confidence: number | undefined;
  status: 'active' | 'draft' | 'deprecated' | undefined;
  synonyms: string[];
}

const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split('')), minLength: 2, maxLength: 9 });
const entry = fc.record<Entry>({
  surface: fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
  // A real definition: placeholders ("TODO…", "!") define nothing (SPEC §3), tested elsewhere.
  definition: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((d) => d.trim() !== '' && !isPlaceholderDefinition(d)),
  confidence: fc.option(fc.integer({ min: 0, max: 100 }).map((n) => n / 100), { nil: undefined }),
  status: fc.option(fc.constantFrom('active' as const, 'draft' as const, 'deprecated' as const), { nil: undefined }),
  synonyms: fc.array(word, { maxLength: 2 }),
});

/** One entry as Spec Kitty writes it, one line per field; JSON strings are valid YAML scalars. */
function entryLines(e: Entry): string[] {
  const lines = [`  - surface: ${e.surface}`, `    definition: ${JSON.stringify(e.definition)}`];
  if (e.confidence !== undefined) lines.push(`    confidence: ${e.confidence}`);
  if (e.status !== undefined) lines.push(`    status: ${e.status}`);
  if (e.synonyms.length > 0) lines.push(`    synonyms_to_avoid: [${e.synonyms.join(', ')}]`);
  return lines;
}

function seedText(entries: readonly Entry[], crlf: boolean): string {
  const text = ['# a seed glossary', 'terms:', ...entries.flatMap(entryLines), ''].join('\n');
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}

function expectValidRanges(text: string, ranges: readonly Range[]): void {
  const lines = lspLines(text);
  const offset = (p: Range['start']) => {
    expect(p.line).toBeGreaterThanOrEqual(0);
    expect(p.line).toBeLessThan(lines.length);
    expect(p.character).toBeGreaterThanOrEqual(0);
    // (Up to the \r of a \r\n, where a YAML node's range may end: clients read it as the line's end.)
    const line = lines[p.line]!;
    expect(p.character).toBeLessThanOrEqual(line.length + (text.startsWith('\r\n', line.start + line.length) ? 1 : 0));
    return line.start + p.character;
  };
  for (const range of ranges) expect(offset(range.end)).toBeGreaterThanOrEqual(offset(range.start));
}

const loaded = (e: Entry) => ({ surface: e.surface, definition: e.definition.trim(), confidence: e.confidence ?? 1, status: e.status ?? 'draft', synonymsToAvoid: e.synonyms.map(normalizeSurface) });

/** Mutations confined to one entry's lines: wrong types, missing or repeated keys, junk keys, comments. */
const WRONG_VALUES = ['[a, b]', '{x: 1}', '7', 'true', '""', '~', "'  '", '-1.5', '"high"', '[[]]', '!!binary aGVsbG8=', '&anchor x', '*nope', '"\\u0000"', '2024-01-01', '0x1F', '.nan'];
const FIELDS = ['surface', 'definition', 'confidence', 'status', 'synonyms_to_avoid', 'see_also', 'introduced_in_mission'];
const localMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('value' as const), field: fc.constantFrom(...FIELDS), value: fc.constantFrom(...WRONG_VALUES) }),
  fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom('surface', 'definition') }),
  fc.record({ kind: fc.constant('repeat' as const), field: fc.constantFrom('surface', 'definition', 'status') }),
  fc.record({ kind: fc.constant('unknown' as const), key: fc.constantFrom('extra', 'Surface', 'défini', '"quoted key"', '? complex') }),
  fc.record({ kind: fc.constant('comment' as const), text: fc.string({ unit: 'grapheme', maxLength: 20 }).map((t) => t.replace(/[\r\n]/g, ' ')) }),
);

type Mutation =
  | { kind: 'value'; field: string; value: string }
  | { kind: 'drop'; field: string }
  | { kind: 'repeat'; field: string }
  | { kind: 'unknown'; key: string }
  | { kind: 'comment'; text: string };

function mutateEntry(lines: string[], mutation: Mutation): string[] {
  const out = [...lines];
  const find = (field: string) => out.findIndex((l) => l.replace(/^ {2}- /, '    ').startsWith(`    ${field}:`));
  switch (mutation.kind) {
    case 'value': {
      const at = find(mutation.field);
      const prefix = at === 0 ? '  - ' : '    ';
      const line = `${prefix}${mutation.field}: ${mutation.value}`;
      if (at >= 0) out[at] = line;
      else out.push(`    ${mutation.field}: ${mutation.value}`);
      break;
    }
    case 'drop': {
      const at = find(mutation.field);
      if (at === 0) out[0] = out[0]!.replace(/^ {2}- \w+: .*$/, '  - status: active');
      else if (at > 0) out.splice(at, 1);
      break;
    }
    case 'repeat': {
      const at = find(mutation.field);
      if (at >= 0) out.push(out[at]!.replace(/^ {2}- /, '    '));
      break;
    }
    case 'unknown':
      out.push(`    ${mutation.key}: something`);
      break;
    case 'comment':
      out.splice(1, 0, `    # ${mutation.text}`);
      break;
  }
  return out;
}

describe('seed loading properties', () => {
  it('a mutation confined to one entry never costs the other entries; every problem is inside the file', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 2, maxLength: 8 }), fc.nat(), localMutation, fc.boolean(), (entries, pick, mutation, crlf) => {
        const victim = pick % entries.length;
        const lines = ['# a seed glossary', 'terms:'];
        entries.forEach((e, i) => lines.push(...(i === victim ? mutateEntry(entryLines(e), mutation) : entryLines(e))));
        const text = (lines.join('\n') + '\n').replace(/\n/g, crlf ? '\r\n' : '\n');
        const seed = parseSeedFile(text, 'team_domain.yaml', 'team_domain');
        expectValidRanges(text, [...seed.problems.map((p) => p.range), ...seed.senses.map((s) => (s.origin as { range: Range }).range)]);
        expect(seed.parsed, JSON.stringify(seed.problems)).toBe(true);
        const others = entries.filter((_, i) => i !== victim).map(loaded);
        const got = seed.senses.filter((s) => (s.origin as { index: number }).index !== victim).map((s) => ({ surface: s.surface, definition: s.definition, confidence: s.confidence, status: s.status, synonymsToAvoid: s.synonymsToAvoid }));
        expect(got).toEqual(others);
        // Every problem points into the mutated entry.
        const from = entryStartLine(lines, victim);
        const to = victim + 1 < entries.length ? entryStartLine(lines, victim + 1) : lines.length;
        for (const problem of seed.problems) {
          expect(problem.range.start.line, problem.message).toBeGreaterThanOrEqual(from);
          expect(problem.range.start.line, problem.message).toBeLessThan(to);
        }
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('garbage anywhere (insertion, deletion, truncation, binary, BOM): never throws, every position valid, a broken file is reported as such', () => {
    const garbage = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom(':', '- ', '  ', '\t', '[', '{', '"', "'", '#', '&a', '*a', '!!', '|', '>', '---', '...', '\n', '\r\n', '\u0000', '\ufeff', '%YAML 1.2\n'));
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), garbage, fc.nat(20)), { minLength: 1, maxLength: 4 }), fc.option(fc.nat(), { nil: undefined }), fc.boolean(), (entries, edits, cut, crlf) => {
        let text = seedText(entries, crlf);
        for (const [at, insert, remove] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + remove);
        }
        if (cut !== undefined) text = text.slice(0, cut % (text.length + 1));
        const seed = parseSeedFile(text, 'team_domain.yaml', 'team_domain');
        expectValidRanges(text, [...seed.problems.map((p) => p.range), ...seed.senses.map((s) => (s.origin as { range: Range }).range)]);
        for (const problem of seed.problems) expect(problem.message.trim()).not.toBe('');
        if (!seed.parsed) {
          expect(seed.senses).toEqual([]);
          expect(seed.problems.some((p) => p.code === 'glossary.parse-error')).toBe(true);
        }
        // Whatever loads is well-formed.
        for (const sense of seed.senses) {
          expect(sense.surface).toBe(sense.surface.toLowerCase().trim());
          expect(sense.definition.trim()).not.toBe('');
          expect(sense.confidence).toBeGreaterThanOrEqual(0);
          expect(sense.confidence).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: propertyRuns(250) },
    );
  });

  it(`${ENTRIES.toLocaleString('en')} entries, each with an unknown key, load ${PROMISED_SCALE ? 'in linear time' : '(in linear time: npm run test:scale)'}`, () => {
    // Written as Spec Kitty writes seeds (simpleSeed.ts reads them), so the time is the entries' own.
    let text = 'terms:\n';
    for (let i = 0; i < ENTRIES; i++) text += `  - surface: term${i}\n    definition: d${i}\n    extra: 1\n`;
    const started = Date.now();
    const seed = parseSeedFile(text, 'team_domain.yaml', 'team_domain');
    expect(seed.senses).toHaveLength(ENTRIES);
    expect(seed.problems).toHaveLength(ENTRIES);
    expect(seed.problems[ENTRIES - 1]).toMatchObject({ code: 'glossary.unknown-key', severity: 'error', range: { start: { line: 3 * ENTRIES, character: 4 } } });
    // 100,000 take ~1 s here; the quadratic re-counting took 66 s (0.7 s for 10,000: the scale run is what catches it).
    expect(Date.now() - started).toBeLessThan(40_000);
  });

  it('the same entries in flow style, which the yaml library reads: the same senses and problems, at their places', () => {
    // (A fifth as many: the library takes ~35 µs an entry; the count's cost is the test above.)
    const entries = ENTRIES / 5;
    const last = entries - 1;
    let text = 'terms:\n';
    for (let i = 0; i < entries; i++) text += `  - {surface: term${i}, definition: d${i}, extra: 1}\n`;
    const seed = parseSeedFile(text, 'team_domain.yaml', 'team_domain');
    expect(seed.senses).toHaveLength(entries);
    expect(seed.senses[last]).toMatchObject({ surface: `term${last}`, definition: `d${last}` });
    expect(seed.problems).toHaveLength(entries);
    expect(seed.problems[last]).toMatchObject({ code: 'glossary.unknown-key', severity: 'error', range: { start: { line: entries, character: `  - {surface: term${last}, definition: d${last}, `.length } } });
  });
});

/** Line index (0-based) where the `victim`-th entry starts in `lines`. */
function entryStartLine(lines: readonly string[], victim: number): number {
  let seen = -1;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.startsWith('  - ') && ++seen === victim) return i;
  return -1;
}
