/**
 * `spec-glossary validate [root]` (SPEC §8): checks the workspace's own files, not the specs —
 * every seed glossary (all problems, each at file:line:col), `.kittify/config.yaml`, the
 * missions' `meta.json`, and every line of every event log (a torn or invalid line is reported
 * with its file and line number; nothing is skipped silently) — and the glossary's health against
 * the specs (core/health.ts: unused, shadowed, deprecated in use, synonyms that are terms,
 * `see_also` to nothing), unless `--no-health`. Exit 1 when anything is an error, 0 otherwise
 * (warnings and health findings alone), 2 on usage errors.
 */

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../../core/check/engine';
import { glossaryHealth, isHealthCode, type HealthFinding, type UseSummary } from '../../core/health';
import { EventStore } from '../../node/eventStore';
import { afterItsPath, readWorkspaceText } from '../../node/files';
import { invalidStrictnessOf, metaStrictness } from '../../node/identity';
import { loadCommonWords } from '../../node/packageFiles';
import { configPath, loadWorkspace, type WorkspaceSnapshot } from '../../node/workspace';
import { workspaceUsage } from '../../node/workspaceUsage';
import { EXIT_BLOCKED, EXIT_OK, UsageError } from '../errors';
import { requireWorkspaceRoot } from '../events/workspace';
import { relativePath } from '../output/json';
import { shown } from '../output/terminal';
import { paletteFor } from '../output/text';
import type { CliIo, ParsedCommand } from '../types';

export const VALIDATE_OPTIONS = {
  root: { type: 'string' },
  format: { type: 'string' },
  'no-health': { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

export type ValidationSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface ValidationProblem {
  file: string;
  /** 1-based; 0 when the problem is about the whole file. */
  line: number;
  column: number;
  severity: ValidationSeverity;
  code: string;
  message: string;
  /** Glossary health: the entry's surface and scope, and where specs use it. */
  term?: string;
  scope?: string;
  uses?: UseSummary;
}

export interface HealthCounts {
  /** Specs read to know where terms are used; undefined when term use was not looked at. */
  specs: number | undefined;
  warnings: number;
  information: number;
  hints: number;
}

export interface Validation {
  problems: ValidationProblem[];
  counts: { seeds: number; logs: number; events: number };
  /** Undefined with `--no-health`. */
  health: HealthCounts | undefined;
}

export async function validateCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  if (positionals.length > 1) throw new UsageError(`validate takes one workspace folder (got ${positionals.length})`);
  const format = (values['format'] as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json (got '${format}')`);
  const given = positionals[0] ?? (values['root'] as string | undefined);
  const root = requireWorkspaceRoot(given, io.cwd);
  const validation = await validateWorkspace(root, { health: !values['no-health'], cwd: io.cwd });
  const errors = validation.problems.filter((p) => p.severity === 'error').length;
  io.stdout(format === 'json' ? JSON.stringify(validationJson(validation, io.cwd), null, 2) : validationText(validation, io, !values['no-color']));
  return errors > 0 ? EXIT_BLOCKED : EXIT_OK;
}

/**
 * `file:line:col severity code message` per problem (hints only counted: they are the unused and
 * shadowed entries of the core glossary's copy, often dozens), then a summary of the files'
 * glossary's health and one of the files' problems (last: the exit code follows it).
 */
function validationText({ problems, counts, health }: Validation, io: CliIo, color: boolean): string {
  const palette = paletteFor(io, !color);
  const lines = problems
    .filter((p) => p.severity !== 'hint')
    .map((p) => {
      const where = p.line > 0 ? `${relativePath(io.cwd, p.file)}:${p.line}:${p.column}` : relativePath(io.cwd, p.file);
      // (A reader's message names the file by its absolute path, already said at the start.)
      const message = p.line === 0 ? afterItsPath(p.message, p.file) : p.message;
      return shown`${where} ${palette.severity(p.severity === 'information' || p.severity === 'hint' ? 'low' : p.severity, p.severity)} ${p.code} ${message}`;
    });
  const fileProblems = problems.filter((p) => !isHealthCode(p.code));
  const errors = fileProblems.filter((p) => p.severity === 'error').length;
  const warnings = fileProblems.length - errors;
  if (lines.length > 0) lines.push('');
  // Health first, the files' summary last: the last line is the verdict the exit code follows.
  if (health) lines.push(palette.bold(healthSummary(health)).text);
  lines.push(
    palette.bold(
      `${counts.seeds} glossary file${counts.seeds === 1 ? '' : 's'}, ${counts.logs} event log${counts.logs === 1 ? '' : 's'} (${counts.events} valid event${counts.events === 1 ? '' : 's'}): ` +
        `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
    ).text,
  );
  return lines.join('\n');
}

function healthSummary(health: HealthCounts): string {
  const read = health.specs === undefined ? 'term use not looked at: glossary_match is switched off' : `${health.specs} spec${health.specs === 1 ? '' : 's'} read`;
  const hints = health.hints > 0 ? `, ${health.hints} hint${health.hints === 1 ? '' : 's'} (not listed; --format json lists them)` : '';
  return `Glossary health (${read}): ${health.warnings} warning${health.warnings === 1 ? '' : 's'}, ${health.information} information${hints}.`;
}

/** `--format json`: every problem (hints too), paths relative to the current directory. */
function validationJson({ problems, counts, health }: Validation, cwd: string): unknown {
  const fileProblems = problems.filter((p) => !isHealthCode(p.code));
  return {
    problems: problems.map((p) => ({
      path: relativePath(cwd, p.file),
      line: p.line,
      column: p.column,
      severity: p.severity,
      code: p.code,
      message: p.message,
      ...(p.term !== undefined ? { term: p.term } : {}),
      ...(p.scope !== undefined ? { scope: p.scope } : {}),
      ...(p.uses !== undefined ? { uses: p.uses } : {}),
    })),
    summary: {
      glossary_files: counts.seeds,
      event_logs: counts.logs,
      events: counts.events,
      errors: fileProblems.filter((p) => p.severity === 'error').length,
      warnings: fileProblems.filter((p) => p.severity === 'warning').length,
      health: health ? { specs: health.specs ?? null, warnings: health.warnings, information: health.information, hints: health.hints } : null,
    },
  };
}

export interface ValidateOptions {
  /** Also report the glossary's health against the specs (default true). */
  health?: boolean;
  /** Paths in health messages are relative to this folder (default: the workspace). */
  cwd?: string;
}

export async function validateWorkspace(root: string, options: ValidateOptions = {}): Promise<Validation> {
  const problems: ValidationProblem[] = [];
  const snapshot = await loadWorkspace(root);
  const workspaceSeeds = snapshot.seeds.filter((s) => !s.bundled);
  for (const seed of workspaceSeeds) {
    for (const p of seed.seed.problems) problems.push({ file: seed.path, line: p.range.start.line + 1, column: p.range.start.character + 1, severity: p.severity, code: p.code, message: p.message });
  }
  for (const p of snapshot.configProblems) problems.push({ file: configPath(root), line: p.range.start.line + 1, column: p.range.start.character + 1, severity: p.severity, code: p.code, message: p.message });
  // (A file left out is an error here; one read with its bad bytes replaced, a warning.)
  for (const p of snapshot.fileProblems) problems.push({ file: p.file, line: 0, column: 0, severity: p.read || p.code ? 'warning' : 'error', code: p.code ?? 'file.unreadable', message: p.message });
  problems.push(...validateMetaFiles(root));

  // Every line of every log, all event types (replay reads only the state-changing ones).
  const store = new EventStore(root);
  const logs = await store.listLogs();
  const { events, problems: logProblems } = await store.readAll();
  for (const p of logProblems) problems.push({ file: p.file, line: p.line, column: p.line > 0 ? 1 : 0, severity: p.severity ?? 'error', code: p.code ?? 'events.invalid-line', message: p.message });
  // Valid events that do not add up (a conflict resolved twice, …): warnings, as replay keeps going.
  for (const p of snapshot.replay.problems ?? []) {
    const line = p.line ?? 0;
    problems.push({ file: store.logPath(p.missionId), line, column: line > 0 ? 1 : 0, severity: 'warning', code: 'events.inconsistent', message: p.eventId ? `event ${p.eventId}: ${p.message}` : p.message });
  }
  const health = options.health === false ? undefined : await healthOf(snapshot, options.cwd ?? root, problems);
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  return { problems, counts: { seeds: workspaceSeeds.length, logs: logs.length, events: events.length }, health };
}

/**
 * The glossary's health: every spec of the workspace (the files `check .` reads from the root) is
 * checked to know where each term is used, then core/health.ts judges the entries. A spec that
 * cannot be read is a warning (its uses are not counted).
 */
async function healthOf(snapshot: WorkspaceSnapshot, cwd: string, problems: ValidationProblem[]): Promise<HealthCounts> {
  const engine = createEngine({ commonWords: loadCommonWords() });
  const usage = await workspaceUsage(snapshot, {
    engine,
    batch: 0,
    pathOf: (file) => relativePath(cwd, file),
    onSkipped: (file, reason) => problems.push({ file, line: 0, column: 0, severity: 'warning', code: 'file.unreadable', message: `not read for glossary health: ${reason}` }),
  });
  const senses = [...snapshot.seeds.flatMap((s) => s.seed.senses), ...snapshot.eventSenses, ...(usage?.missionSenses ?? [])];
  const findings = glossaryHealth({ senses, ...(usage ? { usage } : {}), fileLabel: (file) => relativePath(cwd, file) });
  const counts: HealthCounts = { specs: usage?.documents, warnings: 0, information: 0, hints: 0 };
  for (const finding of findings) {
    problems.push(healthProblem(finding));
    if (finding.severity === 'warning') counts.warnings++;
    else if (finding.severity === 'information') counts.information++;
    else counts.hints++;
  }
  return counts;
}

function healthProblem(finding: HealthFinding): ValidationProblem {
  return {
    file: finding.file,
    line: finding.range.start.line + 1,
    column: finding.range.start.character + 1,
    severity: finding.severity,
    code: finding.code,
    message: finding.message,
    term: finding.term,
    scope: finding.scope,
    ...(finding.uses ? { uses: finding.uses } : {}),
  };
}

/** `kitty-specs/<mission>/meta.json`: valid JSON, an object, `mission_id` a string when present. */
function validateMetaFiles(root: string): ValidationProblem[] {
  const out: ValidationProblem[] = [];
  let missions: string[];
  try {
    missions = readdirSync(path.join(root, 'kitty-specs'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return out;
  }
  for (const mission of missions) {
    const file = path.join(root, 'kitty-specs', mission, 'meta.json');
    const outcome = readWorkspaceText(root, file, 1024 * 1024);
    if (!outcome.ok) {
      if (!outcome.missing) out.push({ file, line: 0, column: 0, severity: 'error', code: 'meta.unreadable', message: outcome.reason });
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(outcome.text);
    } catch (error) {
      out.push({ file, line: 0, column: 0, severity: 'error', code: 'meta.parse-error', message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      out.push({ file, line: 0, column: 0, severity: 'error', code: 'meta.invalid-root', message: 'meta.json must hold a JSON object' });
      continue;
    }
    const invalidStrictness = invalidStrictnessOf(metaStrictness(data as Record<string, unknown>));
    if (invalidStrictness) out.push({ file, line: 0, column: 0, severity: 'warning', code: 'config.invalid-strictness', message: invalidStrictness });
    const id = (data as Record<string, unknown>)['mission_id'];
    if (id !== undefined && !(typeof id === 'string' && id.trim() !== '') && !(typeof id === 'number' && Number.isFinite(id))) {
      out.push({ file, line: 0, column: 0, severity: 'warning', code: 'meta.invalid-mission-id', message: `mission_id must be a non-empty string (got ${JSON.stringify(id)}); the folder name is used instead` });
    }
  }
  return out;
}
