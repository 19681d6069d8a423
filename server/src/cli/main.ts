/**
 * `spec-glossary <command>`: argument parsing, dispatch and exit codes (0 ok, 1 blocked, 2 usage).
 *
 * `main` is the whole CLI as a function: it takes the arguments and a `CliContext` (streams,
 * environment variables, current directory) and resolves with the exit code. It never exits the
 * process and keeps no state between runs (each creates its engine and run id; only the read-only
 * word lists are loaded once per process), so tests call it directly (test/cli/support.ts); the
 * `spec-glossary` bin (bin.ts) passes the process's own.
 */

import { parseArgs } from 'node:util';
import { CANDIDATES_OPTIONS, candidatesCommand } from './commands/candidates';
import { CHECK_OPTIONS, checkCommand } from './commands/check';
import { REPLAY_OPTIONS, replayCommand } from './commands/replay';
import { RESOLVE_OPTIONS, resolveCommand } from './commands/resolve';
import { RESUME_OPTIONS, resumeCommand } from './commands/resume';
import { USES_OPTIONS, usesCommand } from './commands/uses';
import { VALIDATE_OPTIONS, validateCommand } from './commands/validate';
import { ConfigurationError, EXIT_USAGE, FileError, UsageError } from './errors';
import { checkHooks } from './events/checkHooks';
import { printable, shown } from './output/terminal';
import { EventStoreError } from '../node/eventStore';
import { describeCode } from '../node/eventStoreErrors';
import { OutsideWorkspaceError } from '../node/fsSafety';
import { createIo } from './io';
import type { CliContext, CliIo, ParsedCommand } from './types';

const USAGE = `Usage: spec-glossary <command> [options]

Commands:
  check [paths...]   Check spec markdown (default: .) against the layered glossaries.
      --format text|json|sarif  output format (default text; sarif: SARIF 2.1.0 for code scanning)
      --strictness off|medium|max   override strictness for this run
      --mission ID              treat every document as part of mission ID
      --emit-events             append the pipeline's events to the mission's event log
                                (blocking conflicts are deferred as clarification requests)
      --interactive             at a terminal, ask about blocking conflicts (1..N, c, d)
      --no-color                plain text output
      --disable-extractor ID    switch an extractor off (repeatable)
      --max-file-size SIZE      skip larger files (default 5MB)

  candidates [paths...]
                     List the glossary candidates: terms no glossary defines, ranked by the
                     number of documents using them, then occurrences, with examples.
      --format text|json        output format (default text)
      --min-specs N             only terms used in at least N documents (default 1)

  uses <term> [paths...]
                     Where a glossary term is used: every use in the documents (code is never
                     one), uses of its synonyms to avoid marked, then its glossary entries.
      --format text|json        output format (default text)

  resolve <term> --mission ID (--sense N | --custom "definition" [--scope S])
                     Pin a sense of a term for a mission (closes its open clarifications).
      --sense N                 the N-th candidate sense (confidence descending, then file
                                order: as the prompt numbers them and JSON lists them);
                                without --sense or --custom the candidates are listed
      --custom TEXT             a new sense with this definition (scope: team_domain)
      --scope S                 mission_local, team_domain, audience_domain or spec_kitty_core
      --root DIR                the workspace (default: the one around the current directory)

  replay [--mission ID] [--json]
                     Replay the event logs: pins, open clarifications, added senses.
      --root DIR                the workspace (default: the one around the current directory)

  validate [DIR]     Check seed glossaries, .kittify/config.yaml, meta.json files and every
                     event log line (exit 1 on any error), and the glossary's health against
                     the workspace's specs: unused, shadowed, deprecated but used, synonyms to
                     avoid that are terms, see_also to nothing (never changes the exit code).
      --format text|json        output format (default text)
      --no-health               skip the glossary health (reads no spec)
      --root DIR                the workspace (default: the one around the current directory)

  resume --retry-token T [--yes]
                     Re-run the gate of a blocked step from its checkpoint with the current
                     glossary; changed inputs need confirmation (or --yes).
      --root DIR                the workspace (default: the one around the current directory)

Exit codes: 0 ok / nothing blocked, 1 a document is blocked (validate: errors found),
2 usage, configuration or file error.`;

type Command = { options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>; run: (command: ParsedCommand, io: CliIo) => Promise<number> };

export const COMMANDS: Record<string, Command> = {
  check: { options: CHECK_OPTIONS, run: (c, io) => checkCommand(c, io, checkHooks()) },
  candidates: { options: CANDIDATES_OPTIONS, run: candidatesCommand },
  uses: { options: USES_OPTIONS, run: usesCommand },
  resolve: { options: RESOLVE_OPTIONS, run: resolveCommand },
  replay: { options: REPLAY_OPTIONS, run: replayCommand },
  validate: { options: VALIDATE_OPTIONS, run: validateCommand },
  resume: { options: RESUME_OPTIONS, run: resumeCommand },
};

export async function main(argv: readonly string[], context: CliContext): Promise<number> {
  const { io, settle } = createIo(context);
  const code = await run(argv, io);
  // Standard output that could not be written (a full disk) makes it 2 whatever the command said.
  return (await settle()) ? EXIT_USAGE : code;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // (Asked for, it is the answer; without a command it is an error: stderr, as every error.)
    if (!name) {
      io.stderr(USAGE);
      return EXIT_USAGE;
    }
    io.stdout(USAGE);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(shown`spec-glossary: unknown command '${name}'` + `\n\n${USAGE}`);
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
    // One line, whatever the message quotes (a path or mission id with a newline or ESC in it).
    if (error instanceof UsageError || error instanceof ConfigurationError || error instanceof FileError || error instanceof EventStoreError || error instanceof OutsideWorkspaceError || isParseArgsError(error)) {
      const details = error instanceof UsageError && error.details ? `\n${error.details}` : '';
      // (Node's argument parser writes its message on several lines: joined, not shown as "\n".)
      const message = isParseArgsError(error) ? (error as Error).message.replace(/\s*\n\s*/g, ' ') : (error as Error).message;
      io.stderr(shown`spec-glossary ${name}: ${message}` + details);
      return EXIT_USAGE;
    }
    // A system call that failed (a folder that cannot be searched, a disk that is full) is the
    // user's to fix: one line naming the path. Anything else is a bug: its trace, to report.
    const system = error as NodeJS.ErrnoException;
    if (typeof system?.code === 'string' && typeof system.syscall === 'string') {
      const action = SYSCALL_WORDS[system.syscall] ?? system.syscall;
      io.stderr(shown`spec-glossary ${name}: cannot ${action}${system.path ? ` ${system.path}` : ''}: ${describeCode(error).text}`);
      return EXIT_USAGE;
    }
    const trace = ((error as Error).stack ?? String(error)).split('\n').map(printable).join('\n');
    io.stderr(`spec-glossary ${name}: ${trace}`);
    return EXIT_USAGE;
  }
}

/** What a failed system call was doing, in a user's words. */
const SYSCALL_WORDS: Record<string, string> = { realpath: 'read', stat: 'read', lstat: 'read', open: 'open', read: 'read', scandir: 'list', opendir: 'list', mkdir: 'create', write: 'write', rename: 'write', unlink: 'remove' };

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

declare const SPEC_GLOSSARY_VERSION: string | undefined;
const VERSION = typeof SPEC_GLOSSARY_VERSION === 'string' ? SPEC_GLOSSARY_VERSION : 'dev';
