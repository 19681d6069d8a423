/**
 * The markdown walk joins folder and entry names by hand (`childPath`): the same paths as
 * `path.join`, and the same files found from a folder named in any spelling.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { childPath, collectMarkdownUnder } from '../../server/src/node/markdownFiles';

describe('childPath', () => {
  it('is path.join for a normalized folder and a name it could list', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9 ._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
    const folder = fc.tuple(fc.constantFrom('', '/', './', '../', 'C:'), fc.array(segment, { maxLength: 4 }), fc.boolean()).map(([head, parts, trailing]) => path.normalize(head + parts.join('/') + (trailing ? '/' : '')));
    fc.assert(fc.property(folder, segment, (dir, name) => childPath(dir, name) === path.join(dir, name)), { numRuns: 2000 });
  });

  it('keeps the root and the current folder as join does', () => {
    expect(childPath('/', 'a.md')).toBe(path.join('/', 'a.md'));
    expect(childPath('.', 'a.md')).toBe('a.md');
  });
});

describe('collectMarkdownUnder', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sg-md-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const file of ['kitty-specs/001-a/spec.md', 'kitty-specs/001-a/plan.markdown', 'kitty-specs/002-b/spec.md', 'docs/x.mdx', 'docs/notes.txt', 'node_modules/p/readme.md', '.hidden/h.md', 'top.md']) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '# x\n');
  }
  const expected = ['docs/x.mdx', 'kitty-specs/001-a/plan.markdown', 'kitty-specs/001-a/spec.md', 'kitty-specs/002-b/spec.md', 'top.md'].map((f) => path.join(root, f));

  it('finds the same files from the folder written with a trailing separator or dot segments', () => {
    for (const spelling of [root, root + path.sep, path.join(root, 'docs') + path.sep + '..', root + path.sep + '.']) {
      const out = new Set<string>();
      collectMarkdownUnder(spelling, out);
      expect([...out].sort()).toEqual(expected);
    }
  });

  it('gives relative paths from a relative folder, as path.join would', () => {
    const out = new Set<string>();
    collectMarkdownUnder(path.relative(process.cwd(), path.join(root, 'kitty-specs')), out);
    expect([...out].sort()).toEqual(['001-a/plan.markdown', '001-a/spec.md', '002-b/spec.md'].map((f) => path.join(path.relative(process.cwd(), path.join(root, 'kitty-specs')), f)));
  });
});
