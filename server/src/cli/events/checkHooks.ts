/**
 * What `check` does beyond checking (SPEC §8), plugged into the check command's hooks:
 * - refuses an unusable `.kittify/config.yaml` or an unreadable document (exit 2);
 * - `--emit-events`: appends the pipeline's events, per mission one atomic write;
 * - `--interactive` at a terminal: asks about blocking conflicts (at most 3, highest severity
 *   first), records the answers, re-checks and reports the new result;
 * - non-interactive `--emit-events` (or conflicts not asked about) defers every blocking conflict
 *   with a GlossaryClarificationRequested, unless one is already open for that mission and term;
 * - `--format sarif`.
 */

import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { resolutionsAgainst, withoutRequestsAlreadyOpen } from '../../core/events/decisions';
import type { GlossaryEventDraft } from '../../core/events/types';
import { SEVERITY_RANK } from '../../core/types';
import { eventLogPath } from '../../node/eventStore';
import type { CheckCommandHooks } from '../commands/check';
import { FileError } from '../errors';
import { relativePath } from '../output/json';
import { sarifOutput } from '../output/sarif';
import { shown } from '../output/terminal';
import type { CheckRun, CheckedDocument, ReportedRun } from '../runCheck';
import type { CliIo, ParsedCommand } from '../types';
import { lineText, type TermConflict } from './conflicts';
import { conflictIdsToClose, customDrafts, DEFAULT_CUSTOM_SCOPE, deferDraft, openClarificationsOf, pickDrafts } from './decisions';
import { documentEvents, scopeActivations } from './pipelineEvents';
import { askConflict, type PromptConflict } from './prompt';
import { newRunContext, type RunContext } from './runContext';
import { openTerminal, terminalAvailable } from './terminal';
import { appendOrFail, assertUsableConfig, assertUsableGlossaries, rootOption } from './workspace';

/** At most this many conflicts are asked about per run (seed 001: "cap to 3"). */
export const MAX_PROMPTS = 3;

interface DocEntry {
  doc: CheckedDocument;
  pipeline: GlossaryEventDraft[];
  clarifications: GlossaryEventDraft[];
  retryToken?: string;
}

interface MissionGroup {
  root: string;
  missionId: string;
  writable: boolean;
  entries: DocEntry[];
}

interface BlockingItem {
  group: MissionGroup;
  entry: DocEntry;
  conflict: TermConflict;
  order: number;
}

/** A blocked document's retry token, printed once the check is over. */
type Checkpoint = { absolutePath: string; root: string; retryToken: string };

type RecordMode = { emit: boolean; interactive: boolean };

export function checkHooks(): CheckCommandHooks {
  const notes: string[] = [];
  const checkpoints: Checkpoint[] = [];
  return {
    formats: { sarif: sarifOutput },
    // (Decisions are recorded from the documents' texts and whole reports.)
    needsDocuments: (command) => command.values['emit-events'] === true || command.values['interactive'] === true,
    async beforeOutput(run, command, io, recheck) {
      for (const snapshot of run.snapshots) {
        assertUsableConfig(snapshot, io.cwd);
        assertUsableGlossaries(snapshot, io.cwd);
      }
      assertReadable(run);
      const emit = command.values['emit-events'] === true;
      let interactive = false;
      if (command.values['interactive'] === true) {
        interactive = terminalAvailable(io);
        if (!interactive) {
          io.stderr(`spec-glossary check: --interactive needs a terminal on stdin and stdout; not prompting${emit ? ' (blocking conflicts are deferred)' : ''}.`);
        }
      }
      if (!emit && !interactive) return undefined;
      const decided = await recordEvents(wholeRun(run), io, { emit, interactive }, notes, checkpoints);
      return decided ? recheck() : undefined;
    },
    async afterCheck(run, _command: ParsedCommand, io: CliIo) {
      const stillBlocked = new Set(run.documents.filter((d) => d.report.blocked).map((d) => d.absolutePath));
      for (const cp of checkpoints) {
        if (stillBlocked.has(cp.absolutePath)) notes.push(resumeNote(cp, io));
      }
      if (notes.length > 0) io.stderr(notes.join('\n'));
      return undefined;
    },
  };
}

/** How to resume a blocked document from its checkpoint, as a command to paste. */
function resumeNote(cp: Checkpoint, io: CliIo): string {
  return shown`${relativePath(io.cwd, cp.absolutePath)} is blocked; resume with: spec-glossary resume --retry-token ${cp.retryToken}${rootOption(cp.root, io.cwd)}`;
}

/** The run with its documents whole, as `needsDocuments` asked of the check command. */
function wholeRun(run: ReportedRun): CheckRun {
  if (!run.documents.every((doc): doc is CheckedDocument => 'text' in doc)) throw new Error('spec-glossary check: recording decisions needs the checked documents whole (needsDocuments)');
  return run as CheckRun;
}

/** Explicitly checked files that cannot be read at all are an error, not a silent skip. */
function assertReadable(run: ReportedRun): void {
  for (const skipped of run.skipped) {
    try {
      accessSync(skipped.absolutePath, constants.R_OK);
    } catch (error) {
      throw new FileError(`cannot read ${skipped.absolutePath}: ${(error as Error).message}`);
    }
  }
}

/**
 * Records a run's events: groups the documents by mission, asks about blocking conflicts at the
 * terminal, defers the rest, writes each mission's events. True when an answer decided a term
 * (the caller then checks again).
 */
async function recordEvents(run: CheckRun, io: CliIo, mode: RecordMode, notes: string[], checkpoints: Checkpoint[]): Promise<boolean> {
  const ctx = newRunContext();
  const { groups, blocking } = groupByMission(run, io, mode, ctx, notes);
  let asked = { answered: new Set<BlockingItem>(), decided: false };
  if (mode.interactive && blocking.length > 0) asked = await askAboutConflicts(blocking, io, mode, ctx);
  const { answered, decided } = asked;
  if (mode.emit) {
    for (const item of blocking) if (!answered.has(item)) defer(item, ctx);
  }
  // Each mission's log takes its lines in one append; one log that cannot be written does not
  // stop the others. What was recorded is said before the failure (exit 2).
  const failed: string[] = [];
  for (const group of groups.values()) {
    try {
      await writeGroupEvents(group, io, mode, ctx, notes, checkpoints);
    } catch (error) {
      if (!(error instanceof FileError)) throw error;
      failed.push(error.message);
    }
  }
  if (failed.length > 0) {
    // (The report is not printed: the command fails. What the written logs allow is said.)
    for (const cp of checkpoints) notes.push(resumeNote(cp, io));
    if (notes.length > 0) io.stderr(notes.join('\n'));
    // (One line each, as the last is printed: a message joined with a line break would be shown
    // escaped, as one line.)
    for (const message of failed.slice(0, -1)) io.stderr(shown`spec-glossary check: ${message}`);
    throw new FileError(failed.at(-1)!);
  }
  return decided;
}

/** The checked documents by workspace and mission, with their events, and the blocking conflicts (one per mission and term). */
function groupByMission(run: CheckRun, io: CliIo, mode: RecordMode, ctx: RunContext, notes: string[]): { groups: Map<string, MissionGroup>; blocking: BlockingItem[] } {
  const groups = new Map<string, MissionGroup>();
  const blocking: BlockingItem[] = [];
  const seen = new Set<string>();
  for (const doc of run.documents) {
    // `glossary_check: disabled` (front matter or config): no pipeline ran, so there is nothing to record.
    if (!doc.report.checked) continue;
    const root = doc.snapshot.root;
    const missionId = doc.identity.missionId;
    const key = `${root}\u0000${missionId}`;
    let group = groups.get(key);
    if (!group) {
      const writable = existsSync(path.join(root, '.kittify'));
      if (!writable) notes.push(shown`${relativePath(io.cwd, doc.absolutePath)}: not inside a Spec Kitty workspace (no .kittify/ folder above it); no events recorded for it`);
      groups.set(key, (group = { root, missionId, writable, entries: [] }));
    }
    const events = documentEvents(doc, ctx);
    const entry: DocEntry = { doc, pipeline: mode.emit ? events.drafts : [], clarifications: [] };
    if (mode.emit && events.retryToken && group.writable) entry.retryToken = events.retryToken;
    group.entries.push(entry);
    if (!group.writable) continue;
    for (const conflict of events.conflicts) {
      if (!conflict.blocking) continue;
      const termKey = `${key}\u0000${conflict.term}`;
      if (seen.has(termKey)) continue; // one decision per mission and term
      seen.add(termKey);
      blocking.push({ group, entry, conflict, order: blocking.length });
    }
  }
  return { groups, blocking };
}

/** Asks at the terminal about the most severe blocking conflicts; which were answered, and whether a term got decided. */
async function askAboutConflicts(blocking: BlockingItem[], io: CliIo, mode: RecordMode, ctx: RunContext): Promise<{ answered: Set<BlockingItem>; decided: boolean }> {
  const answered = new Set<BlockingItem>();
  let decided = false;
  const asked = [...blocking].sort((a, b) => SEVERITY_RANK[b.conflict.wire.severity] - SEVERITY_RANK[a.conflict.wire.severity] || a.order - b.order).slice(0, MAX_PROMPTS);
  const terminal = openTerminal(io);
  try {
    terminal.write(
      `${blocking.length} blocking conflict${blocking.length === 1 ? '' : 's'}` +
        (blocking.length > asked.length ? `; asking about the ${asked.length} most severe` : '') +
        '. Answer with a number to pick a sense, c for a custom definition, d to defer.\n',
    );
    for (const [i, item] of asked.entries()) {
      const answer = await askConflict(terminal, promptFor(item, io.cwd), i + 1, asked.length);
      if (answer.kind === 'eof') {
        terminal.write(`\nNo more input; the remaining conflicts are ${mode.emit ? 'deferred' : 'left as they are'}.\n`);
        break;
      }
      answered.add(item);
      decided = recordAnswer(item, answer, ctx) || decided;
    }
    if (decided) terminal.write('\nRe-checking with your answers…\n');
  } finally {
    terminal.close();
  }
  return { answered, decided };
}

/** Appends a mission's events to its log (nothing outside a Spec Kitty workspace), and notes what was written. */
async function writeGroupEvents(group: MissionGroup, io: CliIo, mode: RecordMode, ctx: RunContext, notes: string[], checkpoints: Checkpoint[]): Promise<void> {
  if (!group.writable) return;
  const drafts: GlossaryEventDraft[] = [];
  if (mode.emit) drafts.push(...scopeActivations(group.entries[0]!.doc.snapshot, group.missionId, ctx));
  for (const entry of group.entries) drafts.push(...entry.pipeline, ...entry.clarifications);
  if (drafts.length === 0) return;
  // "Already open?" is asked again inside the writers' lock: another `check --emit-events` may
  // have requested the same clarification since this run read the logs, and another writer may
  // have answered one an answer here closes (`resolve` while the prompt waited).
  const plannedOpen = new Set(group.entries[0]!.doc.snapshot.replay.openClarifications.map((c) => c.conflictId));
  const written = await appendOrFail(group.root, group.missionId, drafts, { underLock: (current) => resolutionsAgainst(withoutRequestsAlreadyOpen(drafts, current), current, plannedOpen, randomUUID) });
  if (written.length === 0) return;
  notes.push(`recorded ${written.length} event${written.length === 1 ? '' : 's'} in ` + shown`${relativePath(io.cwd, eventLogPath(group.root, group.missionId))}`);
  for (const entry of group.entries) if (entry.retryToken) checkpoints.push({ absolutePath: entry.doc.absolutePath, root: group.root, retryToken: entry.retryToken });
}

function promptFor(item: BlockingItem, cwd: string): PromptConflict {
  const { conflict, entry } = item;
  const first = conflict.first;
  return {
    term: conflict.term,
    conflictType: first.conflictType,
    severity: first.severity,
    where: `${relativePath(cwd, entry.doc.absolutePath)}:${first.range.start.line + 1}:${first.range.start.character + 1}`,
    line: lineText(entry.doc.text, first.range),
    scope: first.scope,
    senseCount: first.senseCount,
    candidates: first.candidateSenses,
    customScope: DEFAULT_CUSTOM_SCOPE,
  };
}

/** Adds the answer's events to its document's entry; true when the term got decided. */
function recordAnswer(item: BlockingItem, answer: Exclude<Awaited<ReturnType<typeof askConflict>>, { kind: 'eof' }>, ctx: RunContext): boolean {
  const { group, entry, conflict } = item;
  const open = openClarificationsOf(entry.doc.snapshot.replay, group.missionId, conflict.term);
  switch (answer.kind) {
    case 'pick':
      entry.clarifications.push(...pickDrafts(ctx, group.missionId, conflictIdsToClose(open), conflict.term, answer.sense, 'interactive'));
      return true;
    case 'custom':
      entry.clarifications.push(...customDrafts(ctx, group.missionId, conflictIdsToClose(open), conflict.term, DEFAULT_CUSTOM_SCOPE, answer.definition, 'interactive').drafts);
      return true;
    case 'defer':
      defer(item, ctx);
      return false;
  }
}

/** GlossaryClarificationRequested for a blocking conflict, unless one is already open for its mission and term. */
function defer(item: BlockingItem, ctx: RunContext): void {
  const { group, entry, conflict } = item;
  if (openClarificationsOf(entry.doc.snapshot.replay, group.missionId, conflict.term).length > 0) return;
  const { draft } = deferDraft(ctx, group.missionId, conflict.term, entry.doc.identity.stepId, conflict.first.candidateSenses, conflict.wire.severity);
  entry.clarifications.push(draft);
}
