/** `spec-glossary check [paths…]` (SPEC §8). */

import { isStrictness } from '../../core/policy';
import { parseByteSize } from '../../shared/protocol';
import { EXTRACTOR_IDS } from '../../core/extract/extractors';
import { EXIT_BLOCKED, EXIT_OK, UsageError } from '../errors';
import { collectMarkdownFiles } from '../files';
import { writeChunked } from '../output/chunks';
import { jsonOutput } from '../output/json';
import { formatProblems, formatSkipped, paletteFor, PLAIN, textOutput } from '../output/text';
import { runCheck, runReportedCheck, type FileProblem, type ReportedRun } from '../runCheck';
import type { CliIo, ParsedCommand } from '../types';

export interface CheckCommandHooks {
  /**
   * Extra output formats (SARIF) and the event emitter plug in here. A format yields its output in
   * pieces (ending with a newline), written as they come: never one string of every finding.
   */
  formats?: Record<string, (run: ReportedRun, cwd: string) => Iterable<string>>;
  /**
   * Whether the hooks read the checked documents whole (their text, their whole reports) for this
   * command: then the run keeps them (`runCheck`). Otherwise it keeps of each only what is printed
   * (`runReportedCheck`).
   */
  needsDocuments?: (command: ParsedCommand) => boolean;
  /**
   * Runs after the check, before anything is printed. May return another run (e.g. the result of
   * `recheck()` after decisions were recorded at a prompt): that one is printed and decides the
   * exit code. The run (and a recheck's) is a `CheckRun` when `needsDocuments` says so.
   */
  beforeOutput?: (run: ReportedRun, command: ParsedCommand, io: CliIo, recheck: () => Promise<ReportedRun>) => Promise<ReportedRun | void>;
  afterCheck?: (run: ReportedRun, command: ParsedCommand, io: CliIo) => Promise<number | void>;
}

export const CHECK_OPTIONS = {
  format: { type: 'string' },
  strictness: { type: 'string' },
  mission: { type: 'string' },
  'emit-events': { type: 'boolean' },
  interactive: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'disable-extractor': { type: 'string', multiple: true },
  'max-file-size': { type: 'string' },
} as const;

export async function checkCommand(command: ParsedCommand, io: CliIo, hooks: CheckCommandHooks = {}): Promise<number> {
  const { values, positionals } = command;
  const format = (values['format'] as string | undefined) ?? 'text';
  const formats = ['text', 'json', ...Object.keys(hooks.formats ?? {})];
  if (!formats.includes(format)) throw new UsageError(`--format must be one of ${formats.join(', ')} (got '${format}')`);
  const strictness = values['strictness'] as string | undefined;
  if (strictness !== undefined && !isStrictness(strictness)) throw new UsageError(`--strictness must be off, medium or max (got '${strictness}')`);
  const mission = values['mission'] as string | undefined;
  if (mission !== undefined && mission.trim() === '') throw new UsageError('--mission needs a mission id');
  const disabled = (values['disable-extractor'] as string[] | undefined) ?? [];
  for (const id of disabled) if (!(EXTRACTOR_IDS as readonly string[]).includes(id)) throw new UsageError(`--disable-extractor: unknown extractor '${id}' (known: ${EXTRACTOR_IDS.join(', ')})`);
  const maxFileBytes = parseSize(values['max-file-size'] as string | undefined);

  const links: FileProblem[] = [];
  const files = collectMarkdownFiles(positionals.length > 0 ? positionals : ['.'], io.cwd, (link) => links.push(notFollowed(link)));
  const settings = { ...(strictness ? { strictness } : {}), ...(mission ? { mission: mission.trim() } : {}), disabledExtractors: disabled };
  const check = hooks.needsDocuments?.(command) ? runCheck : runReportedCheck;
  const first = await check(files, settings, maxFileBytes);
  const replaced = hooks.beforeOutput ? await hooks.beforeOutput(first, command, io, () => check(files, settings, maxFileBytes)) : undefined;
  const run = replaced ?? first;

  const palette = format === 'text' ? paletteFor(io, values['no-color'] === true) : PLAIN;
  const problems = [...links, ...run.problems];
  if (problems.length > 0) io.stderr(formatProblems(problems, io.cwd, palette));
  // (Text lists skipped specs on stdout, SARIF as notifications; JSON's object has no place for
  // them, and a pipeline must not pass over a spec that was never checked in silence.)
  if (format === 'json' && run.skipped.length > 0) io.stderr(formatSkipped(run.skipped, io.cwd));
  const output = format === 'text' ? textOutput(run, io.cwd, palette) : format === 'json' ? jsonOutput(run, io.cwd) : hooks.formats![format]!(run, io.cwd);
  await writeChunked(output, io.write);

  const hookCode = hooks.afterCheck ? await hooks.afterCheck(run, command, io) : undefined;
  if (typeof hookCode === 'number') return hookCode;
  return run.documents.some((d) => d.report.blocked) ? EXIT_BLOCKED : EXIT_OK;
}

/** A symbolic link met while walking a folder, for stderr: a gate does not pass over it in silence. */
export function notFollowed(link: string): FileProblem {
  return { file: link, message: 'is a symbolic link: not followed (a link may lead out of the workspace); name what it leads to, to check it', severity: 'warning' };
}

function parseSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = parseByteSize(value);
  if (bytes === undefined) throw new UsageError(`--max-file-size must be a size such as 5MB (got '${value}')`);
  return bytes;
}
