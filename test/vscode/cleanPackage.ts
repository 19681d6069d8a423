/**
 * The .vsix of the extension as a person would build it from a fresh clone: `npm run package` on
 * a copy of the files git tracks or would track (no dist/, node_modules linked in), so that the
 * package holds nothing the working tree built before. Built once per `npm run test:vscode`
 * (globalSetup.ts), for the package's own checks (vsix.test.ts) and for the VS Code session,
 * which installs it (vscode.test.ts).
 */

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/workspace';

/** Builds the .vsix of a clean copy of the repository made in `work`; returns its path or throws why not. */
export function packageCleanCopy(work: string): string {
  const clone = path.join(work, 'clone');
  for (const file of sourceFiles()) {
    const from = path.join(REPO, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    copyFileSync(from, path.join(clone, file));
  }
  if (existsSync(path.join(clone, 'dist'))) throw new Error('the copy must not start with a build');
  symlinkSync(path.join(REPO, 'node_modules'), path.join(clone, 'node_modules'), 'dir');

  const vsix = path.join(work, 'spec-glossary.vsix');
  const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: clone, encoding: 'utf8', timeout: 120_000 });
  if (packaged.status !== 0) throw new Error(`npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  return vsix;
}

/** What a clean clone holds: the files git tracks or would track (no dist/, node_modules/, .vsix). */
function sourceFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' });
  if (listed.status === 0) return listed.stdout.split('\0').filter(Boolean);
  // Not a git checkout: the same by hand, skipping what .gitignore lists.
  const skip = new Set(['.git', 'node_modules', 'dist', 'coverage', '.vitest-tmp']);
  const walk = (dir: string): string[] =>
    readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (skip.has(entry.name) || entry.name.endsWith('.vsix') || entry.name === 'tsconfig.tsbuildinfo') return [];
      return entry.isDirectory() ? walk(relative) : [relative];
    });
  return walk('');
}
