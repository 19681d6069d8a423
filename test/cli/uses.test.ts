import { afterEach, describe, expect, test } from 'vitest';
import { tempWorkspace, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../helpers/workspace';
import { cli } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

function setup(): TempWorkspace {
  return (ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    'kitty-specs/001-sync/spec.md': '# Sync\n\nEach Worktree is cheap; one work dir per lane.\nRun `git worktree add`.\n',
    'kitty-specs/002-merge/spec.md': '# Merge\n\nNo such thing here.\n',
  }));
}

describe('spec-glossary uses', () => {
  test('text: every use as written (a synonym to avoid marked, code never), the entries, a summary', async () => {
    setup();
    const result = await cli(['uses', 'worktrees'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      'kitty-specs/001-sync/spec.md:3:6  Worktree',
      "kitty-specs/001-sync/spec.md:3:29  work dir  (synonym to avoid: 'work dir')",
      'defined in team_domain (active, .kittify/glossaries/team_domain.yaml:10): A git worktree checked out for one work package',
      expect.stringMatching(/^defined in spec_kitty_core \(active, bundled core glossary:\d+\): An additional Git working directory/),
      "2 uses of 'worktree' in 1 of 2 documents (1 of a synonym to avoid).",
    ]);
  });

  test('JSON, a path argument, an undefined term and a missing one', async () => {
    setup();
    const json = JSON.parse((await cli(['uses', 'worktree', 'kitty-specs/001-sync', '--format', 'json'], ws.root)).stdout);
    expect(json.term).toBe('worktree');
    expect(json.uses).toEqual([
      { path: 'kitty-specs/001-sync/spec.md', range: { start: { line: 2, character: 5 }, end: { line: 2, character: 13 } }, text: 'Worktree' },
      { path: 'kitty-specs/001-sync/spec.md', range: { start: { line: 2, character: 28 }, end: { line: 2, character: 36 } }, text: 'work dir', synonym_to_avoid: 'work dir' },
    ]);
    expect(json.entries.map((e: { scope: string }) => e.scope)).toEqual(['team_domain', 'spec_kitty_core']);
    expect((await cli(['uses', 'frobnicator'], ws.root)).stdout.trim()).toBe("'frobnicator' is not defined in any glossary of these 2 documents.");
    const usage = await cli(['uses'], ws.root);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('uses needs a term');
  });
});
