import { describe, expect, test } from 'vitest';
import { rankCandidates, type CandidateSource } from '../../server/src/core/candidates';
import type { ConflictType } from '../../server/src/core/types';

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 3 } });
const finding = (term: string, line: number, conflictType: ConflictType = 'unknown') => ({ term, conflictType, range: at(line) });

const sources: CandidateSource[] = [
  { path: 'specs/a.md', missionId: 'a', findings: [finding('quarkle', 4), finding('quarkle', 2), finding('zorblax', 9), finding('lane', 1, 'ambiguous')] },
  { path: 'specs/b.md', missionId: 'b', findings: [finding('quarkle', 7), finding('blorf', 3), finding('blorf', 5), finding('blorf', 8), finding('work dir', 2, 'inconsistent')] },
  { path: 'specs/c.md', missionId: 'c', findings: [finding('quarkle', 1), finding('quarkle', 3), finding('quarkle', 6), finding('zorblax', 2, 'unresolved_critical')] },
];

describe('glossary candidates (core)', () => {
  test('undefined terms only, ranked by documents using them, then occurrences, then term', () => {
    const ranked = rankCandidates(sources);
    expect(ranked.map((c) => [c.term, c.specs, c.occurrences])).toEqual([
      ['quarkle', 3, 6],
      ['zorblax', 2, 2],
      ['blorf', 1, 3],
    ]);
  });

  test('examples: one per document at its first use (1-based), the most-used documents first', () => {
    const quarkle = rankCandidates(sources)[0]!;
    expect(quarkle.examples).toEqual([
      { path: 'specs/c.md', line: 2 },
      { path: 'specs/a.md', line: 3 },
      { path: 'specs/b.md', line: 8 },
    ]);
    expect(rankCandidates(sources, { maxExamples: 1 })[0]!.examples).toEqual([{ path: 'specs/c.md', line: 2 }]);
    expect(quarkle.definitions).toEqual([]);
  });

  test('--min-specs keeps the terms used in at least that many documents', () => {
    expect(rankCandidates(sources, { minSpecs: 2 }).map((c) => c.term)).toEqual(['quarkle', 'zorblax']);
    expect(rankCandidates(sources, { minSpecs: 4 })).toEqual([]);
  });

  test("missions' own definitions are attached, and a term only its own mission defines is a candidate", () => {
    const ranked = rankCandidates(sources, {
      definitions: [
        { term: 'zorblax', mission: 'a', path: 'specs/a.md', line: 12, definition: 'A sync daemon' },
        { term: 'gnarl', mission: 'b', path: 'specs/b.md', line: 30, definition: 'A merge queue' },
      ],
    });
    expect(ranked.find((c) => c.term === 'zorblax')).toMatchObject({ specs: 2, definitions: [{ mission: 'a', path: 'specs/a.md', line: 12, definition: 'A sync daemon' }] });
    // (The entry is where the term is written in its spec: one spec, one occurrence.)
    expect(ranked.find((c) => c.term === 'gnarl')).toEqual({ term: 'gnarl', specs: 1, occurrences: 1, examples: [], definitions: [{ mission: 'b', path: 'specs/b.md', line: 30, definition: 'A merge queue' }] });
    expect(ranked.find((c) => c.term === 'zorblax')!.occurrences).toBe(rankCandidates(sources).find((c) => c.term === 'zorblax')!.occurrences + 1);
  });

  test('no documents, no candidates', () => {
    expect(rankCandidates([])).toEqual([]);
  });
});

describe('rare words add up across documents', () => {
  const rare = (surface: string, count: number, line: number, lower = count) => ({ surface, count, lower, capital: 0, line });

  test('an abbreviation documents spell out (not reported there) counts as an undefined term, beside its findings elsewhere', () => {
    const ranked = rankCandidates([
      { path: 'a.md', missionId: 'a', findings: [finding('qzi', 4), finding('qzi', 6)] },
      { path: 'b.md', missionId: 'b', findings: [], spelledOut: [{ surface: 'qzi', count: 3, line: 1 }] },
      { path: 'c.md', missionId: 'c', findings: [], spelledOut: [{ surface: 'hiq', count: 1, line: 0 }] },
    ]);
    expect(ranked.map((c) => [c.term, c.specs, c.occurrences, c.examples])).toEqual([
      ['qzi', 2, 5, [{ path: 'b.md', line: 2 }, { path: 'a.md', line: 5 }]],
      ['hiq', 1, 1, [{ path: 'c.md', line: 1 }]],
    ]);
  });

  test('a word no document repeats is a candidate once two documents use it three times in all', () => {
    const ranked = rankCandidates([
      { path: 'a.md', missionId: 'a', findings: [], rareWords: [rare('gnarl', 2, 4)] },
      { path: 'b.md', missionId: 'b', findings: [], rareWords: [rare('gnarl', 1, 0), rare('blip', 2, 1)] },
      { path: 'c.md', missionId: 'c', findings: [], rareWords: [rare('blip', 1, 9)] },
    ]);
    expect(ranked.map((c) => [c.term, c.specs, c.occurrences, c.examples])).toEqual([
      ['blip', 2, 3, [{ path: 'b.md', line: 2 }, { path: 'c.md', line: 10 }]],
      ['gnarl', 2, 3, [{ path: 'a.md', line: 5 }, { path: 'b.md', line: 1 }]],
    ]);
  });

  test('too few uses, one document only, or never written in lowercase (a name): no candidate', () => {
    expect(rankCandidates([{ path: 'a.md', missionId: 'a', findings: [], rareWords: [rare('gnarl', 2, 4)] }, { path: 'b.md', missionId: 'b', findings: [], rareWords: [] }])).toEqual([]);
    expect(rankCandidates([{ path: 'a.md', missionId: 'a', findings: [], rareWords: [rare('gnarl', 2, 4), rare('zed', 1, 1)] }, { path: 'b.md', missionId: 'b', findings: [], rareWords: [rare('zed', 1, 1)] }])).toEqual([]);
    expect(rankCandidates([{ path: 'a.md', missionId: 'a', findings: [], rareWords: [rare('stefo', 2, 1, 0)] }, { path: 'b.md', missionId: 'b', findings: [], rareWords: [rare('stefo', 2, 1, 0)] }])).toEqual([]);
  });

  test('the rare uses of a term reported elsewhere count for it', () => {
    const ranked = rankCandidates([
      { path: 'a.md', missionId: 'a', findings: [finding('quarkle', 1), finding('quarkle', 2), finding('quarkle', 3)] },
      { path: 'b.md', missionId: 'b', findings: [], rareWords: [rare('quarkle', 1, 6)] },
    ]);
    expect(ranked).toEqual([{ term: 'quarkle', specs: 2, occurrences: 4, examples: [{ path: 'a.md', line: 2 }, { path: 'b.md', line: 7 }], definitions: [] }]);
  });
});
