import { describe, expect, test } from 'vitest';
import { parseSeedFile } from '../../server/src/core/seeds';

const parse = (text: string) => parseSeedFile(text, 'team_domain.yaml', 'team_domain');

describe('seed glossary loading (SPEC §3)', () => {
  test('reads every field with defaults and a source range per entry', () => {
    const seed = parse(`terms:
  - surface: workspace
    definition: Git worktree directory for a work package
    confidence: 0.9
    status: active
    synonyms_to_avoid: [work dir]
    see_also: [{term: worktree}]
    introduced_in_mission: "041"
  - surface: lane
    definition: A column of the kanban board
`);
    expect(seed.problems).toEqual([]);
    expect(seed.senses).toHaveLength(2);
    const [workspace, lane] = seed.senses;
    expect(workspace).toMatchObject({
      surface: 'workspace',
      scope: 'team_domain',
      definition: 'Git worktree directory for a work package',
      confidence: 0.9,
      status: 'active',
      synonymsToAvoid: ['work dir'],
      seeAlso: ['worktree'],
      introducedInMission: '041',
    });
    expect(workspace!.origin).toMatchObject({ kind: 'seed', index: 0, range: { start: { line: 1, character: 4 } } });
    expect(lane).toMatchObject({ confidence: 1.0, status: 'draft', synonymsToAvoid: [], seeAlso: [] });
    expect(lane!.origin).toMatchObject({ index: 1, range: { start: { line: 8, character: 4 } } });
  });

  test('the same surface listed twice gives two senses', () => {
    const seed = parse(`terms:
  - {surface: workspace, definition: Git worktree, status: active}
  - {surface: workspace, definition: VS Code workspace file, status: active}
`);
    expect(seed.senses.map((s) => s.definition)).toEqual(['Git worktree', 'VS Code workspace file']);
  });

  test('one bad entry never drops the others; errors point at the offending node', () => {
    const seed = parse(`terms:
  - surface: good
    definition: A fine entry
  - surface: Bad Surface
    definition: not normalized
  - surface: blank
    definition: "   "
  - surface: boolconf
    definition: Confidence is a boolean
    confidence: true
  - surface: strconf
    definition: Confidence is a string
    confidence: "high"
  - surface: outofrange
    definition: Confidence too big
    confidence: 1.5
  - surface: badstatus
    definition: Unknown status
    status: retired
  - definition: no surface
  - just a string
  - surface: last
    definition: Still loaded
`);
    expect(seed.senses.map((s) => s.surface)).toEqual(['good', 'last']);
    const byCode = (code: string) => seed.problems.filter((p) => p.code === code);
    expect(byCode('glossary.surface-not-normalized')[0]!.range.start).toEqual({ line: 3, character: 13 });
    expect(byCode('glossary.surface-not-normalized')[0]!.message).toContain("'bad surface'");
    expect(byCode('glossary.invalid-definition')[0]!.range.start).toEqual({ line: 6, character: 16 });
    expect(byCode('glossary.invalid-confidence')).toHaveLength(3);
    expect(byCode('glossary.invalid-confidence')[0]!.range.start).toEqual({ line: 9, character: 16 });
    expect(byCode('glossary.invalid-status')[0]!.range.start.line).toBe(18);
    expect(byCode('glossary.missing-surface')).toHaveLength(1);
    expect(byCode('glossary.invalid-entry')[0]!.range.start.line).toBe(20);
    expect(seed.problems.every((p) => p.severity === 'error')).toBe(true);
  });

  test('duplicate keys in an entry are reported on that entry only', () => {
    const seed = parse(`terms:
  - surface: twice
    definition: one
    definition: two
  - surface: fine
    definition: ok
`);
    expect(seed.parsed).toBe(true);
    expect(seed.senses.map((s) => s.surface)).toEqual(['fine']);
    expect(seed.problems[0]).toMatchObject({ code: 'glossary.duplicate-key', range: { start: { line: 3, character: 4 } } });
  });

  test('an unknown key is an error (Spec Kitty refuses the whole file); spec-glossary still reads the entry', () => {
    const seed = parse(`terms:\n  - surface: x\n    definition: y\n    colour: blue\n`);
    expect(seed.senses).toHaveLength(1);
    expect(seed.problems).toMatchObject([{ code: 'glossary.unknown-key', severity: 'error', message: expect.stringContaining('Spec Kitty refuses the whole file'), range: { start: { line: 3, character: 4 } } }]);
  });

  test('an unparseable file is reported and marked unparsed', () => {
    const seed = parse(`terms:\n  - surface: x\n    definition: [unclosed\n`);
    expect(seed.parsed).toBe(false);
    expect(seed.senses).toEqual([]);
    expect(seed.problems[0]!.code).toBe('glossary.parse-error');
  });

  test('one unclosed bracket typed mid-file: one error, not one per line after it', () => {
    const seed = parse('terms:\n  - surface: worktree\n    definition: a\n  - surface: [swimlane\n    definition: A lane\n    status: active\n  - surface: lane\n    definition: b\n');
    expect(seed.problems).toHaveLength(1);
    expect(seed.problems[0]).toMatchObject({ code: 'glossary.parse-error', severity: 'error', message: expect.stringMatching(/^YAML syntax error: .+ \(the parser reports \d+ more after it, most likely caused by this one\)$/) });
  });

  test('empty file, empty terms and a non-list terms', () => {
    expect(parse('').senses).toEqual([]);
    expect(parse('terms:\n').problems).toEqual([]);
    expect(parse('terms: nope\n').problems[0]!.code).toBe('glossary.invalid-terms');
    expect(parse('- a\n- b\n').problems[0]!.code).toBe('glossary.invalid-root');
  });
});
