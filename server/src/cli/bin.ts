/** Entry of the `spec-glossary` bin: runs `main` on the process's streams and sets its exit code. */

import { EXIT_USAGE } from './errors';
import { main } from './main';
import { printable } from './output/terminal';

main(process.argv.slice(2), { cwd: process.cwd(), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const trace = ((error as Error).stack ?? String(error)).split('\n').map(printable).join('\n');
    process.stderr.write(`spec-glossary: ${trace}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
