/**
 * The streams of one CLI run turned into what commands write to (`CliIo`), for the real process
 * and for tests alike.
 *
 * Standard output can go away or fail while a long report is written: the reader of a pipe quits
 * (`check | head`: EPIPE), or the file it goes to fills its disk (ENOSPC). The first is the
 * reader's choice: writing stops, quietly, and the exit code stays the check's. The second would
 * leave a cut-off report that looks complete to nobody: it is said on stderr and the exit code
 * is 2. Either way no stack trace, and no write after it.
 */

import { describeCode } from '../node/eventStoreErrors';
import type { CliContext, CliIo } from './types';

export interface RunIo {
  io: CliIo;
  /**
   * Resolves once every write to standard output has completed or failed; true when the output
   * could not be written (not counting a reader that went away), which makes the exit code 2.
   */
  settle(): Promise<boolean>;
}

export function createIo(context: CliContext): RunIo {
  const { stdout, stderr } = context;
  let gone = false;
  let failed = false;
  let lastWrite: Promise<void> = Promise.resolve();

  const fail = (error: NodeJS.ErrnoException | null | undefined) => {
    if (!error || gone) return;
    gone = true;
    if (error.code === 'EPIPE') return;
    failed = true;
    stderr.write(`spec-glossary: cannot write the output: ${describeCode(error).text}\n`);
  };
  // A write's callback hears of its failure first; the stream's 'error' event follows (and must
  // have a listener, or it would end the process).
  stdout.on('error', fail);

  /** Writes a chunk; when the stream's buffer is full, resolves once it drained (or failed, or closed). */
  const write = (chunk: string): void | Promise<void> => {
    if (gone) return;
    let accepted = true;
    lastWrite = new Promise<void>((resolve) => {
      accepted = stdout.write(chunk, (error?: Error | null) => {
        fail(error as NodeJS.ErrnoException | null | undefined);
        resolve();
      });
    });
    if (accepted || gone) return;
    return new Promise((resolve) => {
      const done = () => {
        stdout.off('drain', done).off('error', done).off('close', done);
        resolve();
      };
      stdout.on('drain', done).on('error', done).on('close', done);
    });
  };

  const withNewline = (text: string) => (text.endsWith('\n') ? text : text + '\n');
  const io: CliIo = {
    cwd: context.cwd,
    env: context.env,
    isTTY: Boolean(stdout.isTTY),
    streams: { stdin: context.stdin, stdout, stderr },
    stdout: (text) => void write(withNewline(text)),
    stderr: (text) => void stderr.write(withNewline(text)),
    write,
  };
  return {
    io,
    async settle() {
      await lastWrite;
      return failed;
    },
  };
}
