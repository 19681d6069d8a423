import { afterEach, describe, expect, it, test } from 'vitest';
import { formatCandidates } from '../../server/src/cli/commands/candidates';
import { tempWorkspace, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../helpers/workspace';
import { cli } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

function setup(): TempWorkspace {
  return (ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    'kitty-specs/001-sync/spec.md': '# Sync\n\nThe quarkle feeds the zorblax.\nThe quarkle rests. The quarkle wakes.\n',
    'kitty-specs/002-merge/spec.md': '# Merge\n\nThe merge asks the quarkle.\nThe QZX rules apply to the workspace.\n',
    'kitty-specs/003-lanes/spec.md': '# Lanes\n\nA "quarkle" is not a blorf.\n',
  }));
}

describe('spec-glossary candidates', () => {
  test('JSON: the shape of SPEC §8, most-used first, paths relative to the current directory', async () => {
    setup();
    const result = await cli(['candidates', '--format', 'json'], ws.root);
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(Object.keys(out)).toEqual(['candidates']);
    expect(out.candidates[0]).toEqual({
      term: 'quarkle',
      specs: 3,
      occurrences: 5,
      examples: [
        { path: 'kitty-specs/001-sync/spec.md', line: 3 },
        { path: 'kitty-specs/002-merge/spec.md', line: 3 },
        { path: 'kitty-specs/003-lanes/spec.md', line: 3 },
      ],
      definitions: [],
    });
    expect(out.candidates.map((c: { term: string }) => c.term)).toEqual(['quarkle', 'qzx']);
    // The ambiguous `workspace` is defined (twice): no candidate.
    expect(result.stdout).not.toContain('"workspace"');
  });

  test('--min-specs, a path argument, and the text form', async () => {
    setup();
    const json = await cli(['candidates', 'kitty-specs', '--format', 'json', '--min-specs', '2'], ws.root);
    expect(JSON.parse(json.stdout).candidates.map((c: { term: string }) => c.term)).toEqual(['quarkle']);
    const text = await cli(['candidates'], ws.root);
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^\s+3 specs\s+5×\s+quarkle\s+kitty-specs\/001-sync\/spec\.md:3, kitty-specs\/002-merge\/spec\.md:3, kitty-specs\/003-lanes\/spec\.md:3$/);
    expect(text.stdout).toContain('2 glossary candidates in 3 documents');
  });

  test('bad arguments exit 2 with a message and print nothing', async () => {
    setup();
    for (const args of [['--format', 'sarif'], ['--min-specs', '0'], ['--min-specs', 'many'], ['no-such-folder']]) {
      const result = await cli(['candidates', ...args], ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^spec-glossary candidates: /);
    }
  });
});

describe('formatCandidates (text output)', () => {
  it("counts as 'more' only the specs neither listed nor defining the term, and says when a defined term has no use yet", () => {
    const definition = { mission: '025-log', path: 'kitty-specs/025-log/spec.md', line: 231, definition: 'A logical clock' };
    const text = formatCandidates(
      [
        { term: 'lamportclock', specs: 2, occurrences: 2, examples: [{ path: 'kitty-specs/032-sync/spec.md', line: 25 }], definitions: [definition] },
        { term: 'clockstorage', specs: 1, occurrences: 1, examples: [], definitions: [{ ...definition, line: 233, definition: 'Where the clock is kept' }] },
        { term: 'worktree', specs: 5, occurrences: 9, examples: [1, 2, 3].map((n) => ({ path: `kitty-specs/00${n}/spec.md`, line: n })), definitions: [] },
      ],
      12,
    ).split('\n');
    expect(text[0]).toMatch(/^ {3}2 specs {5}2× {2}lamportclock {2}kitty-specs\/032-sync\/spec\.md:25$/);
    expect(text[2]).toMatch(/^ {3}1 spec {6}1× {2}clockstorage {2}\(no use outside its definition\)$/);
    expect(text[4]).toMatch(/worktree {6}kitty-specs\/001\/spec\.md:1, kitty-specs\/002\/spec\.md:2, kitty-specs\/003\/spec\.md:3, … \(2 more\)$/);
  });
});
