import { afterEach, describe, expect, test } from 'vitest';
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
