/**
 * `spec-glossary resume --retry-token T [--yes]` (seed 000 ResumeMiddleware, SPEC §8): loads the
 * StepCheckpointed with that token, finds the step's document again (cli/events/stepInputs.ts),
 * compares its inputs' hash with the checkpoint's, and re-runs the check and the generation gate
 * with the checkpoint's strictness and the glossary as it is now (seeds + every event, so pins
 * recorded since the checkpoint apply). Exit 0 when the step is no longer blocked, 1 when it
 * still is, 2 when the token is unknown, the document is gone, or changed inputs were not
 * confirmed. Writes nothing (the checkpoint already exists).
 */

import { compareReplayOrder, replayKeyOf, type ReplayKey } from '../../core/replay';
import type { LoggedEventOfType } from '../../core/events/types';
import { EventStore, eventLogDir } from '../../node/eventStore';
import { EXIT_BLOCKED, EXIT_OK, FileError, UsageError } from '../errors';
import { documentConflicts } from '../events/conflicts';
import { CHECKPOINT_CURSOR } from '../events/pipelineEvents';
import { findStepDocuments, stepInputHash, type StepDocument } from '../events/stepInputs';
import { openTerminal, terminalAvailable } from '../events/terminal';
import { assertUsableConfig, assertUsableGlossaries, requireWorkspaceRoot, rootOption } from '../events/workspace';
import { relativePath } from '../output/json';
import { shellWord, shown } from '../output/terminal';
import { formatProblems, formatText, paletteFor } from '../output/text';
import { runCheck, type CheckedDocument } from '../runCheck';
import type { CliIo, ParsedCommand } from '../types';

export const RESUME_OPTIONS = {
  'retry-token': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  root: { type: 'string' },
  'no-color': { type: 'boolean' },
} as const;

type Checkpoint = LoggedEventOfType<'StepCheckpointed'>;

export async function resumeCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (usage: resume --retry-token T [--yes])`);
  const token = (values['retry-token'] as string | undefined)?.trim();
  if (!token) throw new UsageError('--retry-token T is required (check --emit-events prints it when a step is blocked)');
  const root = requireWorkspaceRoot(values['root'] as string | undefined, io.cwd);

  const checkpoint = await resumableCheckpoint(root, token, io);
  const doc = stepDocument(root, checkpoint, io);
  const docPath = relativePath(io.cwd, doc.absolutePath);
  const notes: string[] = [shown`Resuming step '${checkpoint.step_id}' of mission ${checkpoint.mission_id} (${docPath}) from checkpoint ${token} at ${checkpoint.cursor}, strictness ${checkpoint.strictness}.`];
  if (doc.inputHash !== checkpoint.input_hash && !(await confirmChangedInputs(doc, checkpoint, docPath, values['yes'] === true, io, notes))) {
    // (On a line of its own: the answer may have been the end of input, after the prompt.)
    io.stderr('\nspec-glossary resume: not resumed: the inputs changed and the change was not confirmed.');
    return 2;
  }

  const run = await runCheck([doc.absolutePath], { strictness: checkpoint.strictness, mission: checkpoint.mission_id });
  for (const snapshot of run.snapshots) {
    assertUsableConfig(snapshot, io.cwd);
    assertUsableGlossaries(snapshot, io.cwd);
  }
  const checked = run.documents[0];
  if (!checked) throw new FileError(`cannot read ${docPath}: ${run.skipped[0]?.reason ?? 'skipped'}`);
  // The check recomputes from the current file; if it changed between the hash and the read, say so.
  if (stepInputHash(root, checked.absolutePath, checked.text) !== doc.inputHash) notes.push(shown`${docPath} changed while resuming; the latest text was checked.`);
  notes.push(...scopeChanges(checkpoint, checked));

  const palette = paletteFor(io, values['no-color'] === true);
  if (notes.length > 0) io.stderr(notes.join('\n'));
  if (run.problems.length > 0) io.stderr(formatProblems(run.problems, io.cwd, palette));
  io.stdout([formatText(run, io.cwd, palette), ...outcomeLines(checkpoint, checked, root, io.cwd)].join('\n'));
  return checked.report.blocked ? EXIT_BLOCKED : EXIT_OK;
}

/** The checkpoint of `token`, when it exists and is at a cursor that can be resumed. */
async function resumableCheckpoint(root: string, token: string, io: CliIo): Promise<Checkpoint> {
  const { checkpoint, unread } = await findCheckpoint(root, token);
  // (The token may be on a line that could not be read: said, so "no checkpoint" is not taken as the whole story.)
  const why = unread > 0 ? ` (${unread} line${unread === 1 ? '' : 's'} of the logs could not be read, perhaps its own: spec-glossary validate says why)` : '';
  if (!checkpoint) throw new UsageError(`no StepCheckpointed with retry token ${token} in the event logs in ${relativePath(io.cwd, eventLogDir(root))}${why}`);
  if (checkpoint.cursor !== CHECKPOINT_CURSOR) throw new UsageError(`checkpoint ${token} is at cursor '${checkpoint.cursor}'; only '${CHECKPOINT_CURSOR}' can be resumed`);
  return checkpoint;
}

/** The step's document: the one with the checkpoint's inputs, or the only one of the step. */
function stepDocument(root: string, checkpoint: Checkpoint, io: CliIo): StepDocument {
  const candidates = findStepDocuments(root, checkpoint.mission_id, checkpoint.step_id, checkpoint.input_hash, io.cwd);
  if (candidates.length === 0) {
    throw new FileError(
      `no document of the workspace is step '${checkpoint.step_id}' of mission ${checkpoint.mission_id} (gone, or named otherwise: a document's step is its file name, or \`step_id:\` in its front matter)`,
    );
  }
  const unchanged = candidates.filter((d) => d.inputHash === checkpoint.input_hash);
  const doc = unchanged.length === 1 ? unchanged[0]! : candidates.length === 1 ? candidates[0]! : undefined;
  if (!doc) {
    throw new UsageError(
      `step '${checkpoint.step_id}' of mission ${checkpoint.mission_id} matches ${candidates.length} documents and none (or several) has the checkpoint's inputs: ` +
        candidates.map((d) => relativePath(io.cwd, d.absolutePath)).join(', '),
    );
  }
  return doc;
}

/**
 * Whether to resume although the inputs changed: yes with --yes (noted), else asked at a
 * terminal (the notes so far printed first), else a usage error.
 */
async function confirmChangedInputs(doc: StepDocument, checkpoint: Checkpoint, docPath: string, yes: boolean, io: CliIo, notes: string[]): Promise<boolean> {
  const what = shown`Inputs changed since the checkpoint (${docPath}: input_hash ${checkpoint.input_hash.slice(0, 12)}\u2026 \u2192 ${doc.inputHash.slice(0, 12)}\u2026).`;
  if (yes) {
    notes.push(`${what} Proceeding (--yes).`);
    return true;
  }
  if (!terminalAvailable(io)) {
    throw new UsageError(`${what} Not resuming without confirmation: re-run with --yes to resume with the changed inputs, or run check again for a new checkpoint.`);
  }
  io.stderr([...notes.splice(0), what].join('\n'));
  const terminal = openTerminal(io);
  const answer = await terminal.ask('Proceed? [y/N] ');
  terminal.close();
  return /^\s*y(es)?\s*$/i.test(answer ?? '');
}

/** Notes on the glossary scopes that changed, went or came since the checkpoint. */
function scopeChanges(checkpoint: Checkpoint, checked: CheckedDocument): string[] {
  const notes: string[] = [];
  const current = new Map(checked.snapshot.scopeRefs().map((r) => [r.scope, r.version_id]));
  for (const ref of checkpoint.scope_refs) {
    const now = current.get(ref.scope);
    if (now === undefined) notes.push(shown`Glossary scope ${ref.scope} is no longer loaded (was version ${ref.version_id}).`);
    else if (now !== ref.version_id) notes.push(shown`Glossary scope ${ref.scope} changed since the checkpoint (version ${ref.version_id} \u2192 ${now}).`);
  }
  for (const scope of current.keys()) if (!checkpoint.scope_refs.some((r) => r.scope === scope)) notes.push(shown`Glossary scope ${scope} was added since the checkpoint.`);
  return notes;
}

/** What the gate says now: still blocked (by which conflicts, and how to go on), or passed. */
function outcomeLines(checkpoint: Checkpoint, checked: CheckedDocument, root: string, cwd: string): string[] {
  if (!checked.report.blocked) return [shown`Gate passed: step '${checkpoint.step_id}' of mission ${checkpoint.mission_id} is no longer blocked; generation may proceed.`];
  const blocking = documentConflicts(checked).filter((c) => c.blocking);
  // (A term with candidate senses is settled by picking one; one with none, by defining it.)
  const resolve = (term: string) => `spec-glossary resolve ${shellWord(term)} --mission ${shellWord(checkpoint.mission_id)}${rootOption(root, cwd)}`;
  const how = blocking.map((c) => (c.wire.candidate_senses.length > 0 ? `${resolve(c.term)} --sense N` : `${resolve(c.term)} --custom "definition"`));
  return [
    `Still blocked by ${blocking.length} conflict${blocking.length === 1 ? '' : 's'}: ` + shown`${blocking.map((c) => `${c.term} (${c.wire.conflict_type}, ${c.wire.severity})`).join(', ')}.`,
    ...how.map((line, i) => shown`${i === 0 ? 'Resolve with: ' : '              '}${line}${i === how.length - 1 ? ', then resume again.' : ''}`),
  ];
}

/** The StepCheckpointed with `token`; copies of it (same token) resolve to the first in replay order. */
async function findCheckpoint(root: string, token: string): Promise<{ checkpoint: Checkpoint | undefined; unread: number }> {
  let found: { event: Checkpoint; key: ReplayKey } | undefined;
  const problems = await new EventStore(root).stream(
    (event, _file, _line, position) => {
      if (event.event_type !== 'StepCheckpointed' || event.retry_token !== token) return;
      const key = replayKeyOf(event, position);
      if (!found || compareReplayOrder(key, found.key) < 0) found = { event, key };
    },
    { wants: (type) => type === 'StepCheckpointed' },
  );
  return { checkpoint: found?.event, unread: problems.filter((p) => p.severity !== 'warning' && p.line > 0).length };
}
