/** Files shipped inside the package: the bundled core glossary and the word lists. */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sortedCommonWords, type CommonWords } from '../core/words';

declare const __dirname: string | undefined;

function moduleDir(): string {
  // Bundled as CommonJS (dist/*.cjs) __dirname exists; under vitest the sources are ES modules.
  if (typeof __dirname === 'string') return __dirname;
  return dirname(fileURLToPath(import.meta.url));
}

let root: string | undefined;

/** The package root: the nearest folder above this module holding glossaries/spec_kitty_core.yaml. */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = moduleDir(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'glossaries', 'spec_kitty_core.yaml')) && existsSync(join(dir, 'package.json'))) return (root = dir);
    if (dirname(dir) === dir) throw new Error('spec-glossary: cannot find the package folder (glossaries/spec_kitty_core.yaml is missing)');
  }
}

export function bundledCoreGlossaryPath(): string {
  return join(packageRoot(), 'glossaries', 'spec_kitty_core.yaml');
}

let common: CommonWords | undefined;

export function loadCommonWords(): CommonWords {
  if (common) return common;
  const file = join(packageRoot(), 'dist', 'data', 'common-words.txt');
  const known = join(packageRoot(), 'dist', 'data', 'known-words.txt');
  for (const f of [file, known]) if (!existsSync(f)) throw new Error(`spec-glossary: ${f} is missing; run \`npm run build\` first`);
  return (common = sortedCommonWords(readFileSync(file, 'utf8'), readFileSync(known, 'utf8')));
}
