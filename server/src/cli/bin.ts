/** Entry of the `spec-glossary` bin: wires the process's streams to `main`. */

import { describeCode } from '../node/eventStoreErrors';
import { EXIT_USAGE } from './errors';
import { main } from './main';
import { printable } from './output/terminal';
import type { CliIo } from './types';

/**
 * Standard output can go away or fail while a long report is written: the reader of a pipe quits
 * (`check | head`: EPIPE), or the file it goes to fills its disk (ENOSPC). The first is the
 * reader's choice: writing stops, quietly, and the exit code stays the check's. The second would
 * leave a cut-off report that looks complete to nobody: it is said on stderr and the exit code
 * is 2. Either way no stack trace, and no write after it.
 */
let stdoutGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (stdoutGone) return;
  stdoutGone = true;
  if (error.code === 'EPIPE') return;
  process.stderr.write(`spec-glossary: cannot write the output: ${describeCode(error).text}\n`);
  process.exitCode = EXIT_USAGE;
});

/** Writes a chunk; when the stream's buffer is full, resolves once it drained (or failed, or closed). */
function writeStdout(chunk: string): void | Promise<void> {
  if (stdoutGone || process.stdout.write(chunk)) return;
  return new Promise((resolve) => {
    const done = () => {
      process.stdout.off('drain', done).off('error', done).off('close', done);
      resolve();
    };
    process.stdout.on('drain', done).on('error', done).on('close', done);
  });
}

const io: CliIo = {
  cwd: process.cwd(),
  isTTY: Boolean(process.stdout.isTTY),
  stdout: (text) => void writeStdout(text.endsWith('\n') ? text : text + '\n'),
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
  write: writeStdout,
};

main(process.argv.slice(2), io).then(
  (code) => {
    // A failed standard output (above) has already set exit code 2; it stays.
    if (process.exitCode === undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const trace = ((error as Error).stack ?? String(error)).split('\n').map(printable).join('\n');
    process.stderr.write(`spec-glossary: ${trace}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
