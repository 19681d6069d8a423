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
    // A synonym to avoid: its uses are the preferred term's (listed above with it).
    expect((await cli(['uses', 'work dir'], ws.root)).stdout.trim()).toBe("'work dir' is a synonym to avoid of 'worktree': its uses are listed by spec-glossary uses worktree.");
    const usage = await cli(['uses'], ws.root);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('uses needs a term');
  });

  test('a plural the glossary walk reads as a term names that term: "Cafés", "scenarios", "acceptance criteria"', async () => {
    ws = tempWorkspace({
      '.kittify/glossaries/team_domain.yaml': 'terms:\n  - surface: café\n    definition: A place to meet\n    status: active\n  - surface: scenario\n    definition: One path through a feature\n    status: active\n',
      'kitty-specs/001-sync/spec.md': '# Sync\n\nTwo Cafés and one café; each scenario, all scenarios.\n\nThe acceptance criteria hold.\n',
    });
    const cafes = JSON.parse((await cli(['uses', 'Cafés', '--format', 'json'], ws.root)).stdout);
    expect(cafes.term).toBe('café');
    expect(cafes.uses.map((u: { text: string }) => u.text)).toEqual(['Cafés', 'café']);
    const scenarios = JSON.parse((await cli(['uses', 'scenarios', '--format', 'json'], ws.root)).stdout);
    expect(scenarios.term).toBe('scenario');
    expect(scenarios.uses.map((u: { text: string }) => u.text)).toEqual(['scenario', 'scenarios']);
    const criteria = JSON.parse((await cli(['uses', 'acceptance criteria', '--format', 'json'], ws.root)).stdout);
    expect(criteria.term).toBe('acceptance criterion');
    expect(criteria.uses.map((u: { text: string }) => u.text)).toEqual(['acceptance criteria']);
    // A word no glossary holds is named as written (normalized), plural or not.
    expect((await cli(['uses', 'Widgetés'], ws.root)).stdout.trim()).toBe("'widgetés' is not defined in any glossary of this document.");
  });

  test("a term one mission's spec defines: its uses in the other missions too, marked, as candidates counts them", async () => {
    ws = tempWorkspace({
      'kitty-specs/001-sync/spec.md': '# Sync\n\n## Domain Language\n\n- **Merge train**: the queue of lanes merged in order\n\n## Flow\n\nThe merge train waits.\n',
      'kitty-specs/002-merge/spec.md': '# Merge\n\nA Merge-Train runs nightly; `merge train` in code is no use.\n',
      'kitty-specs/003-docs/spec.md': '# Docs\n\nOne coord here, one coord there.\n',
    });
    const text = await cli(['uses', 'merge trains'], ws.root);
    expect(text.status).toBe(0);
    expect(text.stdout.trim().split('\n')).toEqual([
      'kitty-specs/001-sync/spec.md:9:5  merge train',
      'kitty-specs/002-merge/spec.md:3:3  Merge-Train  (not in the glossary of mission 002-merge)',
      'defined in mission_local (active, kitty-specs/001-sync/spec.md:5): the queue of lanes merged in order',
      "2 uses of 'merge train' in 2 of 3 documents (1 where the mission's glossary does not hold it).",
    ]);
    const json = JSON.parse((await cli(['uses', 'merge train', '--format', 'json'], ws.root)).stdout);
    expect(json.uses.map((u: { path: string; text: string; not_in_glossary_of?: string }) => [u.path, u.text, u.not_in_glossary_of])).toEqual([
      ['kitty-specs/001-sync/spec.md', 'merge train', undefined],
      ['kitty-specs/002-merge/spec.md', 'Merge-Train', '002-merge'],
    ]);
    const candidates = JSON.parse((await cli(['candidates', '--format', 'json'], ws.root)).stdout);
    expect(candidates.candidates.find((c: { term: string }) => c.term === 'merge train')).toMatchObject({ specs: 2 });
    // A word no glossary holds: its uses are listed, unmarked (it is outside every glossary).
    expect(JSON.parse((await cli(['uses', 'coord', '--format', 'json'], ws.root)).stdout).uses.map((u: object) => Object.keys(u))).toEqual([['path', 'range', 'text'], ['path', 'range', 'text']]);
    expect((await cli(['uses', 'coord'], ws.root)).stdout.trim().split('\n')).toEqual([
      'kitty-specs/003-docs/spec.md:3:5  coord',
      'kitty-specs/003-docs/spec.md:3:21  coord',
      "'coord' is not defined in any glossary of these 3 documents; 2 uses of 'coord' in 1 of 3 documents.",
    ]);
  });
});
