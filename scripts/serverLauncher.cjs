// dist/server.js: starts the language server bundle (dist/server.cjs). Node's module loader reads
// a file into a buffer that doubles as it grows, and freeing the last one (1 MB for this bundle)
// raises glibc's mmap threshold from 128 KiB to 1 MB for the life of the process: from then on
// every malloc arena (one per thread that allocates: V8's compiler and collector threads) keeps up
// to twice that much freed memory instead of giving it back, ~8 MB of the server's resident set
// (SPEC §10: <= 80 MB). So the bundle is read here in pieces of 64 KiB and compiled as the loader
// would compile it (the same wrapper and arguments, a require of its own), which frees no large
// block. See docs/performance.md.
'use strict';
const { closeSync, openSync, readSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const { StringDecoder } = require('node:string_decoder');
const { compileFunction } = require('node:vm');

const file = path.join(__dirname, 'server.cjs');
const fd = openSync(file, 'r');
const parts = [];
try {
  const piece = Buffer.allocUnsafeSlow(64 * 1024);
  const decoder = new StringDecoder('utf8');
  for (let read; (read = readSync(fd, piece, 0, piece.length, null)) > 0; ) parts.push(decoder.write(piece.subarray(0, read)));
  parts.push(decoder.end());
} finally {
  closeSync(fd);
}
// (A shebang line is a comment to the loader, not to compileFunction.)
const source = parts.join('').replace(/^#!.*/, '');
const bundle = { exports: {}, filename: file, id: file, loaded: false };
compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file }).call(bundle.exports, bundle.exports, createRequire(file), bundle, file, __dirname);
bundle.loaded = true;
