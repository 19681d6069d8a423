/** Where a workspace's specs use its terms (node/workspaceUsage.ts), on an in-memory workspace. */

import { describe, expect, test } from 'vitest';
import { loadWorkspace } from '../../server/src/node/workspace';
import { isWalkedSpec, workspaceUsage } from '../../server/src/node/workspaceUsage';
import { engine } from '../helpers/core';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';

const ROOT = '/ws';
const TEAM = `terms:
  - surface: work package
    definition: A unit of work
    status: active
  - surface: mission_id
    definition: The id of a mission
    status: active
  - surface: mission
    definition: A feature being built
    status: active
  - surface: quarkle
    definition: Nothing uses it
    status: active
`;

async function usageOf(files: Record<string, string>, team = TEAM) {
  const fs = new MemoryFileSystem({ [`${ROOT}/.kittify/glossaries/team_domain.yaml`]: team, ...Object.fromEntries(Object.entries(files).map(([p, t]) => [`${ROOT}/${p}`, t])) });
  const snapshot = await loadWorkspace(ROOT, { fs, replay: fs.replay });
  return (await workspaceUsage(snapshot, { engine }))!;
}

describe('workspace usage', () => {
  test('prose uses by spec, in path order, with their lines; hidden folders and node_modules are not specs', async () => {
    const usage = await usageOf({
      'specs/b.md': '# B\n\nThe Work-Packages wait.\n',
      'specs/a.md': '# A\n\nOne work package.\n\nAnother work package.\n',
      '.kittify/notes.md': 'A work package.\n',
      'node_modules/x/readme.md': 'A work package.\n',
    });
    expect(usage.documents).toBe(2);
    expect(usage.usesOf('work package').map((u) => `${u.path}:${u.range.start.line + 1}`)).toEqual(['specs/a.md:3', 'specs/a.md:5', 'specs/b.md:3']);
  });

  test('terms only written in code are found in the raw text; a word inside an identifier is not the word', async () => {
    const usage = await usageOf({ 'a.md': '# A\n\nSet `mission_id` in `meta.json`:\n\n```\nwork_packages: []\n```\n' });
    expect(usage.usesOf('mission_id')).toEqual([]);
    expect(usage.writtenOutsideProse('mission_id')).toBe(true);
    expect(usage.writtenOutsideProse('work package')).toBe(true); // work_packages in code
    expect(usage.writtenOutsideProse('mission')).toBe(false); // only inside mission_id
    expect(usage.writtenOutsideProse('quarkle')).toBe(false);
  });

  test('the same with many terms left to look for (one pass over the words instead of a search per word)', async () => {
    const many = TEAM + Array.from({ length: 100 }, (_, i) => `  - surface: zq${i} widget\n    definition: Filler ${i}\n    status: active\n`).join('');
    const usage = await usageOf({ 'a.md': '# A\n\nSet `mission_id`:\n\n```\nwork_packages: [zq7-widgets]\n```\n' }, many);
    expect(['mission_id', 'work package', 'zq7 widget', 'mission', 'quarkle', 'zq8 widget'].map((t) => usage.writtenOutsideProse(t))).toEqual([true, true, true, false, false, false]);
  });

  test('isWalkedSpec: what `check .` reads', () => {
    expect(isWalkedSpec(ROOT, `${ROOT}/kitty-specs/a/spec.md`)).toBe(true);
    expect(isWalkedSpec(ROOT, `${ROOT}/.kittify/x.md`)).toBe(false);
    expect(isWalkedSpec(ROOT, `${ROOT}/a/node_modules/x.md`)).toBe(false);
    expect(isWalkedSpec(ROOT, `/elsewhere/x.md`)).toBe(false);
    expect(isWalkedSpec(ROOT, `${ROOT}/notes.txt`)).toBe(false);
  });
});
