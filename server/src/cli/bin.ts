/** Entry of the `spec-glossary` bin: wires the process's streams to `main`. */

import { EXIT_USAGE } from './errors';
import { main } from './main';
import type { CliIo } from './types';

const io: CliIo = {
  cwd: process.cwd(),
  isTTY: Boolean(process.stdout.isTTY),
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
};

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`spec-glossary: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
