/**
 * `spec-glossary validate [root]` (SPEC §8): checks the workspace's own files, not the specs —
 * every seed glossary (all problems, each at file:line:col), `.kittify/config.yaml`, the
 * missions' `meta.json`, and every line of every event log (a torn or invalid line is reported
 * with its file and line number; nothing is skipped silently). Exit 1 when anything is an error,
 * 0 otherwise (warnings alone), 2 on usage errors.
 */

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { EventStore } from '../../node/eventStore';
import { readWorkspaceText } from '../../node/files';
import { configPath, loadWorkspace } from '../../node/workspace';
import { EXIT_BLOCKED, EXIT_OK, UsageError } from '../errors';
import { requireWorkspaceRoot } from '../events/workspace';
import { relativePath } from '../output/json';
import { shown } from '../output/terminal';
import { ANSI, PLAIN } from '../output/text';
import type { CliIo, ParsedCommand } from '../types';

export const VALIDATE_OPTIONS = {
  root: { type: 'string' },
  'no-color': { type: 'boolean' },
} as const;

export interface ValidationProblem {
  file: string;
  /** 1-based; 0 when the problem is about the whole file. */
  line: number;
  column: number;
  severity: 'error' | 'warning';
  code: string;
  message: string;
}

export async function validateCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  if (positionals.length > 1) throw new UsageError(`validate takes one workspace folder (got ${positionals.length})`);
  const given = positionals[0] ?? (values['root'] as string | undefined);
  const root = requireWorkspaceRoot(given, io.cwd);
  const { problems, counts } = await validateWorkspace(root);

  const palette = io.isTTY && !values['no-color'] && !io.env['NO_COLOR'] ? ANSI : PLAIN;
  const lines = problems.map((p) => {
    const where = p.line > 0 ? `${relativePath(io.cwd, p.file)}:${p.line}:${p.column}` : relativePath(io.cwd, p.file);
    return shown`${where} ${palette.severity(p.severity, p.severity)} ${p.code} ${p.message}`;
  });
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (lines.length > 0) lines.push('');
  lines.push(
    palette.bold(
      `${counts.seeds} glossary file${counts.seeds === 1 ? '' : 's'}, ${counts.logs} event log${counts.logs === 1 ? '' : 's'} (${counts.events} valid event${counts.events === 1 ? '' : 's'}): ` +
        `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
    ).text,
  );
  io.stdout(lines.join('\n'));
  return errors > 0 ? EXIT_BLOCKED : EXIT_OK;
}

export async function validateWorkspace(root: string): Promise<{ problems: ValidationProblem[]; counts: { seeds: number; logs: number; events: number } }> {
  const problems: ValidationProblem[] = [];
  const snapshot = await loadWorkspace(root);
  const workspaceSeeds = snapshot.seeds.filter((s) => !s.bundled);
  for (const seed of workspaceSeeds) {
    for (const p of seed.seed.problems) problems.push({ file: seed.path, line: p.range.start.line + 1, column: p.range.start.character + 1, severity: p.severity, code: p.code, message: p.message });
  }
  for (const p of snapshot.configProblems) problems.push({ file: configPath(root), line: p.range.start.line + 1, column: p.range.start.character + 1, severity: p.severity, code: p.code, message: p.message });
  for (const p of snapshot.fileProblems) problems.push({ file: p.file, line: 0, column: 0, severity: 'error', code: 'file.unreadable', message: p.message });
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
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  return { problems, counts: { seeds: workspaceSeeds.length, logs: logs.length, events: events.length } };
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
    const id = (data as Record<string, unknown>)['mission_id'];
    if (id !== undefined && !(typeof id === 'string' && id.trim() !== '') && !(typeof id === 'number' && Number.isFinite(id))) {
      out.push({ file, line: 0, column: 0, severity: 'warning', code: 'meta.invalid-mission-id', message: `mission_id must be a non-empty string (got ${JSON.stringify(id)}); the folder name is used instead` });
    }
  }
  return out;
}
