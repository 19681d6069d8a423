/** The workspace a CLI command works on, and the failures that end it with exit code 2. */

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { GlossaryEvent, GlossaryEventDraft } from '../../core/events/types';
import { appendEvents, eventLogPath, EventStoreError, type AppendOptions } from '../../node/eventStore';
import { namingFileAs } from '../../node/files';
import { missionOfArgument } from '../../node/identity';
import { OutsideWorkspaceError } from '../../node/fsSafety';
import { configPath, findWorkspaceRoot, seedPath, type WorkspaceSnapshot } from '../../node/workspace';
import { ConfigurationError, FileError, UsageError } from '../errors';
import { relativePath } from '../output/json';
import { shellWord, shown } from '../output/terminal';
import type { CliIo } from '../types';

/** Codes of config.yaml problems that make the file unusable (the rest are warnings with a fallback). */
const FATAL_CONFIG_CODES = new Set(['config.parse-error', 'config.invalid-root', 'config.invalid-glossary']);

/**
 * The workspace root (the folder holding `.kittify/`) at or above `given` (default: the current
 * directory). Commands that read or write the event log need one: exit 2 without.
 */
export function requireWorkspaceRoot(given: string | undefined, cwd: string): string {
  const start = path.resolve(cwd, given ?? '.');
  if (!existsSync(start)) throw new UsageError(`${given ?? start}: no such file or directory`);
  const root = findWorkspaceRoot(statSync(start).isDirectory() ? start : path.dirname(start));
  if (!root) throw new UsageError(`no Spec Kitty workspace at or above ${start} (no .kittify/ folder); run it inside one or pass --root`);
  return root;
}

/**
 * The mission `--mission` names (node/identity.ts `missionOfArgument`): a folder name stands for
 * the id its meta.json gives, which stderr says.
 */
export function missionArgument(root: string, given: string, io: CliIo): { missionId: string; known: boolean } {
  const mission = missionOfArgument(root, given, { logExists: (id) => existsSync(eventLogPath(root, id)) });
  if (mission.missionId !== given) io.stderr(shown`--mission ${given}: the mission in kitty-specs/${given.replace(/[\\/]+$/, '')}/ is ${mission.missionId} (its meta.json).`);
  return mission;
}

/**
 * `.kittify/config.yaml` that cannot be used (not YAML, not a mapping) or cannot be read (a
 * folder, a FIFO, binary, too large) is a configuration error: a CI gate must not go on without
 * the team's strictness and ignore list.
 */
export function assertUsableConfig(snapshot: WorkspaceSnapshot, cwd: string): void {
  const file = relativePath(cwd, configPath(snapshot.root));
  const unreadable = snapshot.fileProblems.find((p) => p.file === configPath(snapshot.root) && !p.read);
  if (unreadable) {
    throw new ConfigurationError(`invalid configuration: ${namingFileAs(unreadable.message, unreadable.file, file)}`);
  }
  const fatal = snapshot.configProblems.filter((p) => FATAL_CONFIG_CODES.has(p.code) && p.severity === 'error');
  if (fatal.length === 0) return;
  const where = (p: (typeof fatal)[number]) => `${file}:${p.range.start.line + 1}:${p.range.start.character + 1}`;
  // (The file is named once, by its place: its messages, made for its own diagnostics, begin with it.)
  const said = (p: (typeof fatal)[number]) => p.message.replace(/^\.kittify\/config\.yaml /, '');
  throw new ConfigurationError(`invalid configuration: ${fatal.map((p) => `${where(p)}: ${said(p)}`).join('; ')}`);
}

/**
 * A glossary file that is there but gives no sense — YAML that does not parse, not a list of
 * entries, binary, too large, unreadable — is a configuration error for the commands that decide
 * (`check`'s gate, `resume`, `resolve`'s numbering of senses): its scope's senses would be
 * missing, so an ambiguity could pass. Named with its first problem; `validate` lists them all.
 */
export function assertUsableGlossaries(snapshot: WorkspaceSnapshot, cwd: string): void {
  const unusable = snapshot.unusableScopes();
  if (unusable.length === 0) return;
  const said = unusable.map((scope) => {
    const file = seedPath(snapshot.root, scope);
    const shownFile = relativePath(cwd, file);
    const problem = snapshot.seeds.find((s) => s.scope === scope)?.seed.problems.find((p) => p.severity === 'error');
    if (problem) return `${shownFile}:${problem.range.start.line + 1}:${problem.range.start.character + 1}: ${problem.message}`;
    return namingFileAs(snapshot.fileProblems.find((p) => p.file === file)?.message ?? 'it cannot be read', file, shownFile);
  });
  const files = unusable.length === 1 ? 'the file' : 'the files';
  throw new ConfigurationError(
    `unusable glossary: ${said.join('; ')}. The senses of ${unusable.join(', ')} are missing, so no gate can pass on this glossary: fix ${files} (spec-glossary validate lists every problem); nothing was reported or recorded.`,
  );
}

/**
 * What a command we suggest needs to find `root` from the current directory: nothing when it is
 * the workspace around it, else ` --root <root>` (relative to it, ready to paste).
 */
export function rootOption(root: string, cwd: string): string {
  if (findWorkspaceRoot(cwd) === root) return '';
  const relative = path.relative(cwd, root).split(path.sep).join('/');
  return ` --root ${shellWord(relative === '' ? '.' : relative)}`;
}

/** Appends in one write; a refused or failed write is a FileError naming the log (exit 2). */
export async function appendOrFail(root: string, missionId: string, drafts: readonly GlossaryEventDraft[], options: AppendOptions = {}): Promise<GlossaryEvent[]> {
  try {
    return await appendEvents(root, missionId, drafts, options);
  } catch (error) {
    if (error instanceof EventStoreError || error instanceof OutsideWorkspaceError) throw new FileError(`no events recorded: ${error.message}`);
    throw error;
  }
}
