/**
 * Runs once before the test files: the in-process tests (core, service, the language server in
 * process) need only the word data of the build (dist/data/), which is written here when the
 * build has not run yet: the word lists, and their hash indexes (which the CLI reads). Tests of
 * the shipped bundles (CLI, a few over stdio, the VS Code package) still need `npm run build`,
 * which `npm test` runs first.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTextInPieces } from '../../server/src/node/packageFiles';
import { readWordIndex, writeWordIndex } from '../../server/src/node/wordIndexFiles';

export default async function setup(): Promise<void> {
  const data = path.resolve(__dirname, '..', '..', 'dist', 'data');
  const written = !['common-words.txt', 'known-words.txt', 'known-words-wide.txt'].every((file) => existsSync(path.join(data, file)));
  if (written) {
    // (A .mjs module shared with scripts/build.mjs, loaded as such.)
    const { writeWordData } = (await import(path.resolve(__dirname, '..', '..', 'scripts', 'wordData.mjs'))) as { writeWordData(dir: string): Promise<void> };
    await writeWordData(data);
  }
  for (const list of ['common-words', 'known-words']) {
    const base = path.join(data, list);
    // (Lists written just now get new indexes: an old index of a list of the same size would pass.)
    if (written || !readWordIndex(base)) writeWordIndex(base, readTextInPieces(`${base}.txt`));
  }
}
