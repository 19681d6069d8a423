/**
 * Build step: writes the shipped word lists front-coded (dist/data/<list>.coded), as the language
 * server keeps them (see node/codedWordLists.ts), and their hash indexes (dist/data/<list>.index),
 * which the CLI searches (node/wordIndexFiles.ts).
 */

import { join } from 'node:path';
import { writeCodedWordList } from '../node/codedWordLists';
import { packageRoot, readTextInPieces } from '../node/packageFiles';
import { writeWordIndex } from '../node/wordIndexFiles';

for (const list of ['common-words', 'known-words']) {
  const base = join(packageRoot(), 'dist', 'data', list);
  const text = readTextInPieces(`${base}.txt`);
  if (!writeCodedWordList(base, text)) process.stderr.write(`codeWordLists: ${list}.txt holds a character beyond U+00FF; the server codes it at run time\n`);
  writeWordIndex(base, text);
}
