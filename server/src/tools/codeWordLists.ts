/**
 * Build step: writes the shipped word lists front-coded (dist/data/<list>.coded), as the language
 * server keeps them (see node/codedWordLists.ts).
 */

import { join } from 'node:path';
import { writeCodedWordList } from '../node/codedWordLists';
import { packageRoot, readTextInPieces } from '../node/packageFiles';

for (const list of ['common-words', 'known-words']) {
  const base = join(packageRoot(), 'dist', 'data', list);
  if (!writeCodedWordList(base, readTextInPieces(`${base}.txt`))) process.stderr.write(`codeWordLists: ${list}.txt holds a character beyond U+00FF; the server codes it at run time\n`);
}
