/** `spec-glossary <command>`: argument parsing, dispatch and exit codes (0 ok, 1 blocked, 2 usage). */

import { parseArgs } from 'node:util';
import { CHECK_OPTIONS, checkCommand } from './commands/check';
import { ConfigurationError, EXIT_USAGE, UsageError } from './errors';
import type { CliIo, ParsedCommand } from './types';

const USAGE = `Usage: spec-glossary <command> [options]

Commands:
  check [paths...]   Check spec markdown (default: .) against the layered glossaries.
      --format text|json        output format (default text)
      --strictness off|medium|max   override strictness for this run
      --mission ID              treat every document as part of mission ID
      --emit-events             append the pipeline's events to the mission's event log
      --interactive             resolve blocking conflicts at a terminal prompt
      --no-color                plain text output
      --disable-extractor ID    switch an extractor off (repeatable)
      --max-file-size SIZE      skip larger files (default 5MB)

Exit codes: 0 nothing blocked, 1 a document is blocked, 2 usage or configuration error.`;

type Command = { options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>; run: (command: ParsedCommand, io: CliIo) => Promise<number> };

export const COMMANDS: Record<string, Command> = {
  check: { options: CHECK_OPTIONS, run: (c, io) => checkCommand(c, io) },
};

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`spec-glossary: unknown command '${name}'\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    const parsed = parseArgs({ args: [...rest], options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    if (parsed.values['help']) {
      io.stdout(USAGE);
      return 0;
    }
    return await command.run({ name, values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals }, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigurationError || isParseArgsError(error)) {
      io.stderr(`spec-glossary ${name}: ${(error as Error).message}`);
      return EXIT_USAGE;
    }
    io.stderr(`spec-glossary ${name}: ${(error as Error).stack ?? String(error)}`);
    return EXIT_USAGE;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

declare const SPEC_GLOSSARY_VERSION: string | undefined;
const VERSION = typeof SPEC_GLOSSARY_VERSION === 'string' ? SPEC_GLOSSARY_VERSION : 'dev';
