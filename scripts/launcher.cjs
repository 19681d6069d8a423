// dist/server.js and dist/cli.js: start their bundle (dist/server.cjs, dist/cli.cjs), with V8's
// compiled code of an earlier run when the build left one that fits (SPEC section 10: the language server
// answers `initialize` within 150 ms; the CLI is a whole process per run in CI and pipelines).
//
// - The bundle is read in pieces of 64 KiB. Node's module loader reads a file into a buffer that
//   doubles as it grows, and freeing the last one (1 MB for the server's bundle) raises glibc's
//   mmap threshold from 128 KiB to 1 MB for the life of the process: from then on every malloc
//   arena (one per thread that allocates: V8's compiler and collector threads) keeps up to twice
//   that much freed memory instead of giving it back, ~8 MB of the server's resident set (SPEC
//   section 10: <= 80 MB). It is compiled as the loader would (the same wrapper and arguments, a require
//   of its own).
// - Compiling the bundle and then, lazily, each function it runs on the way to its first answer
//   took ~25 ms of the server's start. `npm run build` runs each bundle once (scripts/codeCache.mjs:
//   an LSP session up to a spec's diagnostics, a check) and keeps V8's code of that run in
//   `<bundle>.cache`; a later start takes it instead of compiling. It is used only by the Node it
//   was made with (its header says which, and the SHA-1 of the bundle it was made from); V8 itself
//   refuses code made under other flags (so a server started with `--inspect` compiles as usual).
//   The cache is read into pages V8 maps itself, not malloc's, for the reason of the first point.
// - The language server's young generation keeps its first size from the start (lsp/heapSizing.ts
//   says why): reading and compiling the bundle survived enough to grow it twice (1 -> 4 MB of
//   semi-spaces) before the bundle's own first line could set the flag. Set here, before both; the
//   server's cache is made under the same flag (V8 refuses code made under other flags).
// - The language server's optimizing compiler inlines half as much bytecode into a function
//   (460 instead of 920 in all): its jobs run on V8's worker threads, each allocating from a
//   malloc arena of its own, and the large graphs of heavy inlining left up to ~1 MB of freed
//   memory in each arena (the large zones they free also raise glibc's trim threshold). With 200
//   specs open ~1.7 MB less resident at publication, ~2 MB 3 s later; keystrokes measured
//   within the noise (docs/performance.md).
// - The CLI's optimizing compiler inlines a third as much (300): a check of a few hundred specs is
//   over before heavy inlining pays for its compiling, which kept V8's compiler threads busy for
//   ~0.5 s of CPU. 400 real specs, alternating runs: ~1.06 -> ~0.93 s, CPU -17%; 3,000 specs the
//   same time, slightly less CPU (docs/performance.md).
// See docs/performance.md.
'use strict';
const { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { createRequire } = require('node:module');
const path = require('node:path');
const { StringDecoder } = require('node:string_decoder');
const { Script } = require('node:vm');

const file = __filename.replace(/\.js$/, '.cjs');
const cacheFile = `${file}.cache`;
const PIECE = 64 * 1024;
/**
 * The V8 flags the language server sets while it runs (lsp/heapSizing.ts, lsp/collectorMode.ts,
 * lsp/memory.ts), back at V8's defaults. V8 stamps the code it caches with the flags of the moment
 * and a start (where they are the defaults) refuses code of other flags, so they are put back
 * before the code of a training run is taken. (test/cli/launcher.test.ts holds this list to the
 * flags the source sets.)
 */
const V8_DEFAULTS_OF_FLAGS_SET_AT_RUN_TIME = ['--semi-space-growth-factor=2', '--heap-growing-percent=0', '--incremental-marking-soft-trigger=0', '--no-compact-on-every-full-gc', '--no-expose-gc'];

/**
 * V8 flags a bin starts with, set before its bundle is read (see above; they stay set while it
 * runs and when its code cache is written).
 */
const V8_FLAGS_AT_START =
  {
    'server.cjs': ['--semi-space-growth-factor=1', '--max-inlined-bytecode-size-cumulative=460'],
    'cli.cjs': ['--max-inlined-bytecode-size-cumulative=300'],
  }[path.basename(file)] ?? [];

if (V8_FLAGS_AT_START.length > 0) {
  const { setFlagsFromString } = require('node:v8');
  for (const flag of V8_FLAGS_AT_START) setFlagsFromString(flag);
}
const { source, sha1 } = readBundle(file);
const stamp = `spec-glossary code cache ${process.version} ${process.arch} ${sha1}\n`;
const cachedData = readCodeCache(cacheFile, stamp);
// (A shebang line is a comment to the loader, not to a script; the wrapper keeps the bundle's lines.)
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source.replace(/^#!.*/, '')}\n})`, { filename: file, cachedData });
if (process.env.SPEC_GLOSSARY_CODE_CACHE_REPORT === '1') process.stderr.write(`spec-glossary code cache: ${cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'}\n`);
if (process.env.SPEC_GLOSSARY_WRITE_CODE_CACHE === '1') process.on('exit', () => writeCodeCache(script, cacheFile, stamp));
const bundle = { exports: {}, filename: file, id: file, loaded: false };
script.runInThisContext().call(bundle.exports, bundle.exports, createRequire(file), bundle, file, __dirname);
bundle.loaded = true;

/** The bundle's text and the SHA-1 of its bytes, read in pieces. */
function readBundle(name) {
  const fd = openSync(name, 'r');
  try {
    const parts = [];
    const hash = createHash('sha1');
    const piece = Buffer.allocUnsafeSlow(PIECE);
    const decoder = new StringDecoder('utf8');
    for (let read; (read = readSync(fd, piece, 0, piece.length, null)) > 0; ) {
      hash.update(piece.subarray(0, read));
      parts.push(decoder.write(piece.subarray(0, read)));
    }
    parts.push(decoder.end());
    return { source: parts.join(''), sha1: hash.digest('hex') };
  } finally {
    closeSync(fd);
  }
}

/** V8's code in `name` when its header is `stamp` (this Node, this bundle), else undefined. */
function readCodeCache(name, stamp) {
  let fd;
  try {
    fd = openSync(name, 'r');
  } catch {
    return undefined; // (no cache: the bundle compiles as usual)
  }
  try {
    const head = Buffer.alloc(stamp.length);
    if (readSync(fd, head, 0, head.length, 0) !== head.length || head.toString('latin1') !== stamp) return undefined;
    const size = fstatSync(fd).size - stamp.length;
    if (size <= 0) return undefined;
    const data = pagesOutsideMalloc(size);
    for (let at = 0, read; at < size; at += read) {
      read = readSync(fd, data, at, Math.min(PIECE, size - at), stamp.length + at);
      if (read === 0) return undefined; // (the file shrank while it was read)
    }
    return data;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * `size` bytes that are not malloc's: a WebAssembly memory, which V8 maps from the system itself
 * and unmaps once collected, so reading the cache (1 MB for the server's bundle) neither raises
 * glibc's mmap threshold when freed (see above) nor has to be kept for the life of the process.
 */
function pagesOutsideMalloc(size) {
  const WASM_PAGE = 64 * 1024;
  return new Uint8Array(new WebAssembly.Memory({ initial: Math.ceil(size / WASM_PAGE) }).buffer, 0, size);
}

/** Writes V8's code of this run (flags back as a start sets them first, see above), atomically. */
function writeCodeCache(compiled, name, stamp) {
  const { setFlagsFromString } = require('node:v8');
  for (const flag of [...V8_DEFAULTS_OF_FLAGS_SET_AT_RUN_TIME, ...V8_FLAGS_AT_START]) setFlagsFromString(flag);
  const temporary = `${name}.${process.pid}`;
  writeFileSync(temporary, Buffer.concat([Buffer.from(stamp, 'latin1'), compiled.createCachedData()]));
  renameSync(temporary, name);
}
