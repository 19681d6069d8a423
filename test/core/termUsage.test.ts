/**
 * Where specs use glossary terms (glossary health): the language server keeps every spec's uses
 * of a folder, so they are kept packed (16 bytes an occurrence), and `usesOf` gives back exactly
 * the ranges the check found, spec by spec in path order.
 */
import { describe, expect, test } from 'vitest';
import { CollectedUsage } from '../../server/src/core/termUsage';
import { check, glossaryFrom } from '../helpers/core';

const glossary = glossaryFrom({ team_domain: 'terms:\n  - surface: work package\n    definition: A unit of work\n  - surface: mission\n    definition: A body of work\n' });

function usesIn(path: string, missionId: string, text: string) {
  const report = check(text, { glossary });
  return { report, uses: CollectedUsage.specUses(path, missionId, report.candidates, (surface) => glossary.has(surface)) };
}

describe('term usage', () => {
  test("a spec's uses are kept as packed numbers: four per occurrence", () => {
    const { report, uses } = usesIn('a.md', 'm1', '# Plan\n\nEach work package of the mission.\n\nWork packages, and one more work package.\n');
    const occurrences = report.candidates.find((c) => c.surface === 'work package')!.occurrences;
    expect(occurrences).toHaveLength(3);
    const packed = uses.uses.get('work package')!;
    expect(packed).toBeInstanceOf(Int32Array);
    expect(packed.byteLength).toBe(16 * 3);
  });

  test('usesOf gives every occurrence as the check found it, specs in the given order', () => {
    const a = usesIn('a.md', 'm1', '# Plan\n\nEach work package of the mission.\n\nWork packages, and one more work package.\n');
    const b = usesIn('b.md', 'm2', 'A mission\nwith a work package.\n');
    const usage = new CollectedUsage([a.uses, b.uses]);
    const expected = [a, b].flatMap(({ report, uses }) => report.candidates.find((c) => c.surface === 'work package')!.occurrences.map((range) => ({ path: uses.path, missionId: uses.missionId, range })));
    expect(usage.usesOf('work package')).toEqual(expected);
    expect(usage.usesOf('work package').map((u) => `${u.path}:${u.range.start.line}:${u.range.start.character}-${u.range.end.character}`)).toEqual(['a.md:2:5-17', 'a.md:4:0-13', 'a.md:4:28-40', 'b.md:1:7-19']);
    expect(usage.usesOf('mission')).toHaveLength(2);
    expect(usage.usesOf('quarkle')).toEqual([]);
    expect(usage.termsWithoutUse(['mission', 'quarkle'])).toEqual(['quarkle']);
  });
});
