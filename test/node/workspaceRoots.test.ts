/** `WorkspaceRootFinder` answers as `findWorkspaceRoot` for every folder, in any order asked. */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findWorkspaceRoot, WorkspaceRootFinder } from '../../server/src/node/workspace';

describe('WorkspaceRootFinder', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'sg-roots-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  // An outer workspace holding an inner one, and a tree with none.
  const folders = ['outer/.kittify', 'outer/kitty-specs/001/deep', 'outer/kitty-specs/002', 'outer/inner/.kittify', 'outer/inner/kitty-specs/003', 'none/a/b'];
  for (const folder of folders) mkdirSync(path.join(base, folder), { recursive: true });
  const asked = ['outer/kitty-specs/001/deep', 'outer/kitty-specs/001', 'outer/inner/kitty-specs/003', 'outer/kitty-specs/002', 'outer/inner', 'outer', 'none/a/b', 'none/a', 'outer/inner/kitty-specs'].map((f) => path.join(base, f));

  it('finds what findWorkspaceRoot finds, asked deep first or shallow first', () => {
    for (const order of [asked, [...asked].reverse()]) {
      const finder = new WorkspaceRootFinder();
      for (const folder of order) expect(finder.rootOf(folder)).toBe(findWorkspaceRoot(folder));
    }
    expect(new WorkspaceRootFinder().rootOf(path.join(base, 'outer/inner/kitty-specs/003'))).toBe(path.join(base, 'outer/inner'));
    expect(new WorkspaceRootFinder().rootOf(path.join(base, 'outer/kitty-specs/001/deep'))).toBe(path.join(base, 'outer'));
  });
});
