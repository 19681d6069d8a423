/**
 * The terminal the CLI prompts on: questions go to stderr (stdout stays the report, whatever its
 * format), answers are read line by line from stdin. Prompting happens only when stdin and stdout
 * are both terminals; `SPEC_GLOSSARY_FORCE_TTY=1` makes piped streams count as a terminal (for
 * scripted sessions and tests that drive the process's stdin).
 */

import { createInterface, type Interface } from 'node:readline';
import type { CliIo } from '../types';

export const FORCE_TTY_ENV = 'SPEC_GLOSSARY_FORCE_TTY';

export function terminalAvailable(io: CliIo): boolean {
  if (io.env[FORCE_TTY_ENV] === '1') return true;
  return Boolean(io.streams.stdin.isTTY && io.streams.stdout.isTTY);
}

export interface Terminal {
  write(text: string): void;
  /** Writes `question` and resolves with the next line, or undefined at end of input. */
  ask(question: string): Promise<string | undefined>;
  close(): void;
}

/**
 * Lines are queued as they arrive, so answers typed (or piped) ahead of a question are kept, and
 * end of input answers every later question with `undefined`.
 */
export function openTerminal(io: CliIo): Terminal {
  const { stdin: input, stderr: output } = io.streams;
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const rl: Interface = createInterface({ input, terminal: false, crlfDelay: Infinity });
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  return {
    write: (text) => void output.write(text),
    ask(question) {
      output.write(question);
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close() {
      rl.close();
      // Let the process exit even if stdin is a terminal that stays open.
      (input as { pause?: () => void }).pause?.();
    },
  };
}
