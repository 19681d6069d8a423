/**
 * Runs once before the test files: the in-process tests (core, service, the language server in
 * process) need only the common-word list of the build, which is written here when the build has
 * not run yet. Tests of the shipped bundles (CLI, a few over stdio, the VS Code package) still
 * need `npm run build`, which `npm test` runs first.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';

export default async function setup(): Promise<void> {
  const file = path.resolve(__dirname, '..', '..', 'dist', 'data', 'common-words.txt');
  if (existsSync(file)) return;
  // (A .mjs module shared with scripts/build.mjs, loaded as such.)
  const { writeCommonWords } = (await import(path.resolve(__dirname, '..', '..', 'scripts', 'commonWords.mjs'))) as { writeCommonWords(file: string): void };
  writeCommonWords(file);
}
