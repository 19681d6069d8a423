/** Files shipped inside the package: the bundled core glossary and the word lists. */

import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontCodedCommonWords, sortedCommonWords, type CommonWords, type WordIndexes } from '../core/words';
import { readCodedWordList } from './codedWordLists';
import { readWordIndex } from './wordIndexFiles';

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

const loaded = new Map<boolean, CommonWords>();

/**
 * The shipped word lists, read once per process. `frontCoded`: kept front-coded (half the memory,
 * ~50 ms more to load, once): for the language server, which keeps them for long; the CLI does not.
 */
export function loadCommonWords(frontCoded = false): CommonWords {
  let common = loaded.get(frontCoded);
  if (common) return common;
  const englishBase = wordListBase('common-words');
  const sharedBase = wordListBase('known-words');
  // (Front-coded by the build when it could: read as they are.)
  const englishCoded = frontCoded ? readCodedWordList(englishBase) : undefined;
  const sharedCoded = englishCoded && readCodedWordList(sharedBase);
  if (englishCoded && sharedCoded) {
    common = frontCodedCommonWords(englishCoded, sharedCoded, { common: readApart(englishBase), known: readApart(sharedBase) });
  } else {
    // (A short-lived process reads each list at once; a long-lived one in pieces: readTextInPieces.)
    const english = readWordList(englishBase, !frontCoded);
    const shared = readWordList(sharedBase, !frontCoded);
    // (Not for the front-coded lists, which save memory.)
    const indexes = frontCoded ? undefined : shippedWordIndexes();
    common = sortedCommonWords(english.text, shared.text, { common: english.apart, known: shared.apart }, { frontCoded, ...(indexes ? { indexes } : {}) });
  }
  loaded.set(frontCoded, common);
  return common;
}

/** The hash indexes the build wrote of the shipped lists (node/wordIndexFiles.ts); each undefined when missing or stale. */
export function shippedWordIndexes(): WordIndexes {
  return { common: readWordIndex(wordListBase('common-words')), known: readWordIndex(wordListBase('known-words')) };
}

/** Where the build writes a shipped word list and the files beside it: `<base>.txt`, `.coded`, `.index`. */
function wordListBase(list: 'common-words' | 'known-words'): string {
  return join(packageRoot(), 'dist', 'data', list);
}

/**
 * A word list of the build (`<name>.txt`, UTF-8, one word per line, sorted) and the words it
 * keeps apart (`<name>-wide.txt`: those with a character beyond Latin-1, which would make V8
 * keep the whole list as UTF-16, twice the memory). An older build has no second file.
 * `atOnce`: read the file whole (a short-lived process: ~10 ms sooner at a CLI's start) rather
 * than in pieces (`readTextInPieces`).
 */
export function readWordList(base: string, atOnce = false): { text: string; apart: string[] } {
  const file = `${base}.txt`;
  if (!existsSync(file)) throw new Error(`spec-glossary: ${file} is missing; run \`npm run build\` first`);
  return { text: atOnce ? readFileSync(file, 'utf8') : readTextInPieces(file), apart: readApart(base) };
}

/** The words a list keeps apart (`<base>-wide.txt`; none in an older build). */
function readApart(base: string): string[] {
  const wide = `${base}-wide.txt`;
  return existsSync(wide) ? readFileSync(wide, 'utf8').split('\n').filter(Boolean) : [];
}

/** Bytes read at a time by `readTextInPieces`: below glibc's initial mmap threshold (128 KiB). */
const PIECE_BYTES = 64 * 1024;

/**
 * A UTF-8 file's text (as `readFileSync(file, 'utf8')`), read 64 KiB at a time. A long-running
 * process (the language server) must not free a block of malloc's of more than 128 KiB: glibc
 * then raises its mmap threshold to that block's size and lets every arena keep twice that much
 * free memory instead of giving it back, which cost the server ~10 MB resident for the 1.75 MB
 * word list (node reads a whole file into a buffer that doubles as it grows). The pieces are
 * small blocks malloc reuses; the text itself lives in V8's heap.
 */
export function readTextInPieces(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    for (;;) {
      const read = readSync(fd, piece, 0, PIECE_BYTES, null);
      if (read === 0) break;
      parts.push(decoder.write(read === PIECE_BYTES ? piece : piece.subarray(0, read)));
    }
    parts.push(decoder.end());
    return parts.join('');
  } finally {
    closeSync(fd);
  }
}
