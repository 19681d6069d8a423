// Builds what ships: the word data (generated from npm word lists and cspell dictionaries) and the
// esbuild bundles of the CLI, the language server and the VS Code client.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCodeCaches } from './codeCache.mjs';
import { writeWordData } from './wordData.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');
mkdirSync(join(dist, 'data'), { recursive: true });

await writeWordData(join(dist, 'data'));

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
  { in: 'server/src/lsp/main.ts', out: 'server.js', banner: '#!/usr/bin/env node' },
  { in: 'server/src/cli/bin.ts', out: 'cli.js', banner: '#!/usr/bin/env node' },
];
// What ships is minified for white space and syntax (names are kept, so stack traces stay
// readable): V8 reads the whole bundle before running it, and a third less of it takes ~10 ms
// off the language server's start (SPEC §10: initialize answered within 150 ms).
const shipped = { minifyWhitespace: true, minifySyntax: true };
for (const entry of entries) {
  if (!existsSync(join(root, entry.in))) continue;
  await build({ ...shared, ...shipped, entryPoints: [join(root, entry.in)], outfile: join(dist, entry.out.replace(/\.js$/, '.cjs')), banner: { js: entry.banner } });
  // A small CommonJS launcher keeps the bin names ending in .js while the bundle is CommonJS; it
  // loads the bundle without freeing a large block, with V8's code cache (see launcher.cjs).
  const launcher = readFileSync(join(root, 'scripts', 'launcher.cjs'), 'utf8');
  writeFileSync(join(dist, entry.out), `${entry.banner}\n${launcher}`, { mode: 0o755 });
  requireAscii(join(dist, entry.out.replace(/\.js$/, '.cjs')));
}
// Developer tools (not shipped as bins).
for (const tool of ['noise']) {
  const entry = join(root, `server/src/tools/${tool}.ts`);
  if (existsSync(entry)) await build({ ...shared, entryPoints: [entry], outfile: join(dist, `${tool}.cjs`) });
}
// The benchmark (npm run bench).
if (existsSync(join(root, 'bench/main.ts'))) {
  await build({ ...shared, entryPoints: [join(root, 'bench/main.ts')], outfile: join(dist, 'bench.cjs') });
}
if (existsSync(join(root, 'client/src/extension.ts'))) {
  await build({ ...shared, ...shipped, entryPoints: [join(root, 'client/src/extension.ts')], outfile: join(dist, 'extension.cjs'), external: ['vscode'] });
}
// dist/ is CommonJS so the .js launchers can use require().
writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
// The bundled core glossary, parsed once here (node/bundledGlossary.ts reads it at run time).
await build({ ...shared, sourcemap: false, entryPoints: [join(root, 'server/src/tools/precompileGlossary.ts')], outfile: join(dist, 'tools', 'precompileGlossary.cjs') });
require(join(dist, 'tools', 'precompileGlossary.cjs'));
// The word lists front-coded, as the language server keeps them (node/codedWordLists.ts).
await build({ ...shared, sourcemap: false, entryPoints: [join(root, 'server/src/tools/codeWordLists.ts')], outfile: join(dist, 'tools', 'codeWordLists.cjs') });
require(join(dist, 'tools', 'codeWordLists.cjs'));
// V8's code of each shipped bundle's first run, for the next starts (scripts/launcher.cjs).
await writeCodeCaches(dist);

/**
 * A bundle with one character outside ASCII is held by V8 as a two-byte string, twice its size,
 * for as long as the process runs (its source stays for lazy compilation): 0.9 MB more of the
 * language server's memory (SPEC §10: ≤ 80 MB). esbuild escapes non-ASCII characters in strings,
 * but leaves regular expression literals and tagged templates as written: write those with
 * `\uXXXX` escapes.
 */
function requireAscii(file) {
  const text = readFileSync(file, 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at === -1) return;
  const line = text.slice(0, at).split('\n').length;
  throw new Error(`${file}: a character outside ASCII at line ${line} (after \`${text.slice(Math.max(0, at - 40), at)}\`): write it as a \\u escape in the source (a regular expression or tagged template esbuild keeps as written)`);
}
