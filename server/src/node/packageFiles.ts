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
  const english = readWordList(file);
  const shared = readWordList(known);
  return (common = sortedCommonWords(english.text, shared.text, { common: english.apart, known: shared.apart }));
}

/**
 * A word list file (UTF-8, one word per line) as one string, with the few words that hold a
 * character beyond Latin-1 left out and given apart: V8 keeps a string with any such character
 * as UTF-16, so eight names ("ondřej") made the 72,000-word list take 1.2 MB instead of 0.6 MB.
 */
export function readWordList(file: string): { text: string; apart: string[] } {
  const bytes = readFileSync(file);
  const apart: string[] = [];
  const kept: Buffer[] = [];
  let from = 0;
  for (let lineStart = 0; lineStart < bytes.length; ) {
    let lineEnd = bytes.indexOf(10, lineStart);
    if (lineEnd < 0) lineEnd = bytes.length;
    // (UTF-8 lead bytes from 0xC4 on start characters from U+0100 on.)
    let wide = false;
    for (let i = lineStart; i < lineEnd && !wide; i++) wide = bytes[i]! >= 0xc4 && bytes[i]! <= 0xf4;
    if (wide) {
      kept.push(bytes.subarray(from, lineStart));
      apart.push(bytes.toString('utf8', lineStart, lineEnd));
      from = lineEnd + 1;
    }
    lineStart = lineEnd + 1;
  }
  if (apart.length === 0) return { text: bytes.toString('utf8'), apart };
  kept.push(bytes.subarray(Math.min(from, bytes.length)));
  return { text: Buffer.concat(kept).toString('utf8'), apart };
}
