/**
 * Extraction as properties (SPEC §5): on arbitrary markdown and unicode the check never throws;
 * every occurrence range lies inside the document, starts and ends on character boundaries, and
 * covers exactly the text the candidate says was written there, which reads as the term; every
 * finding sits on such an occurrence; and nothing is ever extracted from code (fenced, indented
 * or inline), HTML comments or front matter outside the hint values.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { DocumentReport } from '../../server/src/core/check/check';
import { normalizeSurface } from '../../server/src/core/normalize';
import type { Range } from '../../server/src/core/types';
import { common, engine, glossaryFrom } from '../helpers/core';
import { propertyRuns } from '../helpers/propertyRuns';
import { lspLines } from '../helpers/lspLines';

const glossary = glossaryFrom({
  team_domain: `terms:
  - {surface: zorblax, definition: A flux capacitor, status: active}
  - {surface: zorblax, definition: A review queue, status: active}
  - {surface: flux router, definition: The edge proxy, status: active}
  - {surface: worktree, definition: A git worktree, status: active, synonyms_to_avoid: [work dir]}
  - {surface: legacy thing, definition: Old, status: deprecated}
  - {surface: café, definition: A place, status: active}
`,
});

/** Words and phrases every extractor has something to say about. */
const WORDS = [
  'zorblax', 'Zorblax', 'ZORBLAX', 'zorblaxes', "zorblax's", 'zorblax\u2019s', 'flux router', 'Flux\nrouter', 'flux  router', 'work dir', 'worktree', 'worktrees', 'legacy thing',
  'café', 'CAFÉ', 'API', 'APIs', 'QZX', 'GDPRs', 'fooBar', 'FooBarBaz', 'snake_case_name', 'frobnicator', 'frobnicators', 'Frobnicator', 'pre-existing', 'non-goal',
  '"flux router"', '\u201cquoted thing\u201d', '"zorblax"', 'the', 'and', 'a', 'is', 'not', 'mission', 'workspace', 'FR-001', 'WP03', '#12', './path/to/file.md', 'http://zorblax.example/x',
  'v1.2.3', '2024-01-02', 'e.g.', '—', '…', '\u{1f600}', '\u0301', 'na\u00efve', '\u00a0', 'İstanbul', 'ß', 'ﬁle',
];

/** Markdown syntax in every position: fences, quotes, code spans, HTML, links, lists, tables. */
const SYNTAX = ['# ', '## ', '- ', '* ', '1. ', '> ', '```', '~~~', '`', '``', '"', '\u201c', '\u201d', '<!--', '-->', '<div>', '</div>', '<pre>', '</pre>', '[x](', ')', '](', '<http://a.b>', '**', '_', '|', '---', '***', '\\', '&amp;', '    ', '\t', ':', '{', '}', '[', ']'];

const BREAKS = ['\n', '\n\n', '\r\n', ' ', '  ', '\r'];

const fragment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 3, arbitrary: fc.constantFrom(...SYNTAX) },
  { weight: 3, arbitrary: fc.constantFrom(...BREAKS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
);

const frontMatter = fc.oneof(
  fc.constant(''),
  fc
    .record({
      watch: fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ unit: 'grapheme', maxLength: 10 })), { maxLength: 3 }),
      aliases: fc.array(fc.tuple(fc.constantFrom('ZB', 'fr', 'zb', 'the'), fc.constantFrom('zorblax', 'flux router', 'nothing here')), { maxLength: 2 }),
      exclude: fc.array(fc.constantFrom('api', 'qzx', 'frobnicator'), { maxLength: 2 }),
      extra: fc.string({ unit: 'grapheme', maxLength: 20 }),
    })
    .map(({ watch, aliases, exclude, extra }) => {
      const lines = ['---', `glossary_watch_terms: ${JSON.stringify(watch)}`, `glossary_exclude_terms: ${JSON.stringify(exclude)}`];
      if (aliases.length > 0) lines.push('glossary_aliases:', ...aliases.map(([a, c]) => `  ${a}: ${c}`));
      lines.push(`note: ${JSON.stringify(extra)}`, '---', '');
      return lines.join('\n');
    }),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((raw) => `---\n${raw}\n---\n`),
);

const markdown = fc.tuple(frontMatter, fc.array(fragment, { maxLength: 120 })).map(([front, parts]) => front + parts.join(''));

/** The text of a range, its positions read as LSP counts lines (`\n`, `\r\n`, a lone `\r`). */
function sliceRange(text: string, range: Range): string {
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
  const start = offset(range.start);
  const end = offset(range.end);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/**
 * The text as written reads as the term: same normalized words, give or take a possessive, an
 * acronym plural or an alias; a hint value in front matter is a YAML scalar (maybe quoted, escaped).
 */
function readsAs(written: string, surface: string, aliases: ReadonlyMap<string, string>, inFrontMatter: boolean): boolean {
  if (inFrontMatter) {
    try {
      const value = parseYaml(written) as unknown;
      if ((typeof value === 'string' || typeof value === 'number') && normalizeSurface(String(value)) === surface) return true;
    } catch {
      // not a scalar on its own: compare the text itself below
    }
  }
  // (A term across a line break in a block quote is written with the next line's `>` markers.)
  written = written.replace(/\r?\n[ \t>]*/g, ' ');
  const plain = written.replace(/['\u2019]s$/i, '');
  // Punctuation around a surface ("“quoted thing”" as a watch term) is not part of the words matched.
  const bare = surface.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  for (const term of [surface, bare]) {
    if (normalizeSurface(plain) === term || normalizeSurface(written) === term) return true;
    if (plain.toLowerCase() === term || plain.toLowerCase() === `${term}s`) return true;
  }
  return aliases.get(written.toLowerCase().trim()) === surface || aliases.get(plain.toLowerCase().trim()) === surface;
}

/** Lines taken by the front matter block (0 when there is none). */
function frontMatterLines(text: string): number {
  const lines = text.split('\n');
  if (!/^\ufeff?---[ \t]*\r?$/.test(lines[0] ?? '')) return 0;
  const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)[ \t]*\r?$/.test(l));
  return close === -1 ? 0 : close + 1;
}

function checkInvariants(text: string, report: DocumentReport): void {
  const aliases = new Map<string, string>();
  const raw = report.frontMatter?.['glossary_aliases'];
  if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (typeof v === 'string') aliases.set(k.toLowerCase().trim(), normalizeSurface(v));
  const occurrenceKeys = new Set<string>();
  for (const candidate of report.candidates) {
    expect(candidate.occurrences.length).toBe(candidate.texts.length);
    expect(candidate.occurrences.length).toBeGreaterThan(0);
    candidate.occurrences.forEach((range, i) => {
      const written = sliceRange(text, range);
      expect(written).toBe(candidate.texts[i]);
      const inFrontMatter = report.frontMatter !== undefined && range.start.line < frontMatterLines(text); // a hint value
      expect(readsAs(written, candidate.surface, aliases, inFrontMatter), `'${written}' read as '${candidate.surface}' (${candidate.method})`).toBe(true);
      const start = lspLines(text)[range.start.line]!.start + range.start.character;
      const end = start + written.length;
      expect(isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)), 'starts inside a surrogate pair').toBe(false);
      expect(isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1)), 'ends inside a surrogate pair').toBe(false);
      occurrenceKeys.add(JSON.stringify([candidate.surface, range]));
    });
  }
  for (const finding of report.findings) expect(occurrenceKeys.has(JSON.stringify([finding.term, finding.range])), `finding '${finding.term}' on an occurrence`).toBe(true);
}

describe('extraction properties', () => {
  it('arbitrary markdown and unicode: never throws; ranges inside the document, on character boundaries, covering text that reads as the term', () => {
    fc.assert(
      fc.property(markdown, fc.boolean(), (text, critical) => {
        const report = engine.checkDocument(critical ? `---\ncritical_step: true\n---\n${text}` : text, { glossary, common });
        checkInvariants(critical ? `---\ncritical_step: true\n---\n${text}` : text, report);
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('random unicode text, including lone surrogates and control characters, never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary-ascii', maxLength: 300 })), (text) => {
        checkInvariants(text, engine.checkDocument(text, { glossary, common }));
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  // Documents made of blocks whose code parts are known: nothing may be extracted from them.
  type Segment = { text: string; code: boolean };
  const proseWord = fc.constantFrom(...WORDS.filter((w) => !/[`~<>\n\r\\[\]#*_|-]/.test(w) && !w.startsWith('http')));
  const codeWord = fc.constantFrom('zorblax', 'flux router', 'API', 'fooBar', 'snake_case_name', 'frobnicator', '"flux router"', 'work dir', 'café');
  const sentence = fc.array(fc.oneof({ weight: 4, arbitrary: proseWord.map((w): Segment => ({ text: w, code: false })) }, { weight: 1, arbitrary: codeWord.map((w): Segment => ({ text: '`' + w + '`', code: true })) }), { minLength: 1, maxLength: 12 });
  const paragraph = sentence.map((segments): Segment[] => [...segments.flatMap((s, i) => (i === 0 ? [s] : [{ text: ' ', code: false }, s])), { text: '\n\n', code: false }]);
  const fenced = fc.tuple(fc.constantFrom('```', '~~~', '````', '```ts'), fc.array(fc.array(codeWord, { maxLength: 6 }).map((ws) => ws.join(' ')), { maxLength: 4 })).map(([fence, lines]): Segment[] => [
    { text: `${fence}\n${lines.map((l) => l + '\n').join('')}${fence.replace(/ts$/, '')}`, code: true },
    { text: '\n\n', code: false },
  ]);
  const indented = fc.array(fc.array(codeWord, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' ')), { minLength: 1, maxLength: 3 }).map((lines): Segment[] => [
    { text: lines.map((l) => `    ${l}`).join('\n'), code: true },
    { text: '\n\n', code: false },
  ]);
  const comment = fc.array(codeWord, { minLength: 1, maxLength: 4 }).map((ws): Segment[] => [
    { text: `<!-- ${ws.join(' ')} -->`, code: true },
    { text: '\n\n', code: false },
  ]);
  const heading = sentence.map((segments): Segment[] => [{ text: '## ', code: false }, ...segments.flatMap((s, i) => (i === 0 ? [s] : [{ text: ' ', code: false }, s])), { text: '\n\n', code: false }]);
  const document = fc.tuple(fc.array(fc.oneof(paragraph, paragraph, fenced, indented, comment, heading), { minLength: 1, maxLength: 10 }), fc.boolean(), fc.boolean());

  it('nothing is extracted from fenced, indented or inline code, or HTML comments (LF and CRLF)', () => {
    fc.assert(
      fc.property(document, ([blocks, crlf, withFront]) => {
        const segments: Segment[] = [{ text: withFront ? '---\ntitle: zorblax flux router API\n---\n' : '', code: true }, ...blocks.flat()];
        const code: [number, number][] = [];
        let text = '';
        for (const segment of segments) {
          const part = crlf ? segment.text.replace(/\n/g, '\r\n') : segment.text;
          if (segment.code) code.push([text.length, text.length + part.length]);
          text += part;
        }
        const report = engine.checkDocument(text, { glossary, common });
        checkInvariants(text, report);
        const lineStarts = [0];
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
        for (const candidate of report.candidates) {
          for (const range of candidate.occurrences) {
            const start = lineStarts[range.start.line]! + range.start.character;
            const end = lineStarts[range.end.line]! + range.end.character;
            const inside = code.find(([s, e]) => start < e && end > s);
            expect(inside, `'${candidate.surface}' (${candidate.method}) extracted from code ${JSON.stringify(inside && text.slice(inside[0], inside[1]))}`).toBeUndefined();
          }
        }
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});

describe('regressions the properties found', () => {
  it('a fence opened on a CRLF line is a fence (blank lines inside included)', () => {
    const text = 'Intro.\r\n\r\n```ts\r\n\r\nzorblax\r\n```\r\n\r\nAfter.\r\n';
    expect(engine.checkDocument(text, { glossary, common }).candidates).toEqual([]);
  });

  it('a phrase with letters the tokenizer does not know ("A一") never matches the word it starts with', () => {
    const text = 'He said "A一" and A went on. A thing.\n';
    const report = engine.checkDocument(text, { glossary, common });
    checkInvariants(text, report);
    expect(report.candidates.flatMap((c) => c.texts)).not.toContain('A');
  });
});
