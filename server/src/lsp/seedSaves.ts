/**
 * Defining a term by editing a glossary file, in any editor: when a seed file of a folder changes
 * on disk (saved from an editor buffer — didSave — or written by any other program and seen by a
 * watcher), the senses it gained or lost since the last time are recorded as Spec Kitty records
 * a custom sense:
 *
 * - a sense added (or a placeholder definition completed) for a term that is flagged (unknown,
 *   or ambiguous without a pin) in an open spec is recorded in that spec's mission log as
 *   `GlossarySenseUpdated` (`create`; status and confidence as the file says), plus one
 *   `GlossaryClarificationResolved` selecting it for every clarification of that mission and
 *   term still open;
 * - a sense the file no longer has while the log keeps it (recorded earlier) is recorded again
 *   as `deprecated` (`update`), so the log never keeps alive what the file removed or changed;
 * - a change that shows a rename this server answered is recorded as that rename (renameSaves.ts),
 *   and the senses it accounts for are not recorded again as gained or lost.
 *
 * Placeholder definitions are no senses (SPEC §3), so a draft is never recorded. What a log
 * already holds is not written again (planned inside the writers' lock, decisionLog.ts), so a
 * save seen twice, a re-save, or two servers watching one workspace record a change once. The
 * first load of a folder only takes the files as they are (nothing was seen change).
 */

import path from 'node:path';
import { GLOSSARY_FILE_SOURCE, logHoldsSense, senseUpdatedEvent, resolvedEvent, type DecisionContext, type RecordedSense } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import { parseSeedFile } from '../core/seeds';
import { SCOPE_ORDER, type ReplayState, type ScopeId, type Sense } from '../core/types';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import { readWorkspaceText, versionIdOf } from '../node/files';
import { seedPath, type WorkspaceSnapshot } from '../node/workspace';
import type { CheckedDocument } from '../service/types';
import { appendPlanned, type EventAppender } from './decisionLog';
import type { Logger } from './logger';
import { senseKey, type RenameSaves } from './renameSaves';

export interface SeedSaveDeps {
  fs: WorkspaceFileSystem;
  logger: Logger;
  runId: string;
  actor: ActorIdentity;
  maxFileBytes(root: string): Promise<number>;
  /** The open markdown documents of a folder, checked against its current snapshot. */
  openSpecs(root: string): Promise<CheckedDocument[]>;
  eventStore(root: string): EventAppender;
  /** After events were written: reload the folder and re-check its documents. */
  recorded(root: string): Promise<void>;
  /** Renames answered and waiting for this save (renameSaves.ts). */
  renames: Pick<RenameSaves, 'seenInSeedChange'>;
  /** True once the server is shutting down: nothing is written any more. */
  stopped(): boolean;
}

/**
 * A seed file as last seen on disk: its text (undefined: no file), and its senses when the
 * folder's snapshot read the same bytes (the snapshot's own: shared, not parsed again). It is
 * parsed here only when it changed and the snapshot holds another version of it (an editor's
 * buffer), so a large glossary costs one read per reload and no parse of its own.
 */
interface Seen {
  text: string | undefined;
  senses?: readonly Sense[] | undefined;
}

/** What changed in one seed file: senses added and removed (by surface and definition). */
export interface SeedChange {
  scope: ScopeId;
  file: string;
  added: Sense[];
  removed: Sense[];
  /** The file's senses before the change. */
  before: readonly Sense[];
  /** And after it. */
  after: readonly Sense[];
}

export class SeedSaveRecorder {
  private readonly seen = new Map<string, Map<ScopeId, Seen>>();
  /** Recording runs one at a time per folder, in the order the changes were seen. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly deps: SeedSaveDeps) {}

  /** After each reload of a folder: compare its seed files on disk with the last time (in order, one at a time). */
  reloaded(root: string, snapshot: WorkspaceSnapshot, first: boolean): Promise<void> {
    const next = this.idle(root).then(async () => {
      const changes = this.changesOnDisk(root, snapshot, await this.deps.maxFileBytes(root), first);
      if (changes.length > 0) await this.record(root, snapshot, changes);
    });
    this.chains.set(root, next.catch(() => undefined));
    return next;
  }

  /** Settles once every change seen so far in the folder is recorded. */
  idle(root: string): Promise<void> {
    return this.chains.get(root) ?? Promise.resolve();
  }

  /** Compares (and remembers) each seed file; synchronous, so two reloads never report one change twice. */
  private changesOnDisk(root: string, snapshot: WorkspaceSnapshot, maxBytes: number, first: boolean): SeedChange[] {
    let files = this.seen.get(root);
    const fresh = files === undefined || first;
    if (files === undefined) this.seen.set(root, (files = new Map()));
    const changes: SeedChange[] = [];
    for (const scope of SCOPE_ORDER) {
      const file = seedPath(root, scope);
      const outcome = readWorkspaceText(root, file, maxBytes, this.deps.fs);
      if (!outcome.ok && !outcome.missing) continue; // unreadable now: wait until it can be read
      const text = outcome.ok ? outcome.text : undefined;
      const last = files.get(scope);
      if (last !== undefined && last.text === text) {
        // (Senses the snapshots no longer hold — an editor's buffer of the file read instead — are let go: parsed if needed.)
        if (last.senses !== undefined && !snapshot.seeds.some((s) => s.seed.senses === last.senses)) last.senses = undefined;
        continue;
      }
      const loaded = outcome.ok ? loadedSenses(snapshot, file, outcome.bytes) : undefined;
      if (fresh || last === undefined) {
        files.set(scope, { text, senses: loaded });
        continue;
      }
      const now = loaded ?? sensesOf(text, file, scope);
      if (now === undefined) continue; // broken YAML: judged once it parses again (against the last good text)
      files.set(scope, { text, senses: loaded });
      const before = last.senses ?? sensesOf(last.text, file, scope) ?? [];
      const key = (s: Sense) => `${s.surface}\u0000${s.definition}`;
      const had = new Set(before.map(key));
      const has = new Set(now.map(key));
      const added = now.filter((s) => !had.has(key(s)) && s.status !== 'deprecated');
      const removed = before.filter((s) => !has.has(key(s)));
      if (added.length > 0 || removed.length > 0) changes.push({ scope, file, added, removed, before, after: now });
    }
    return changes;
  }

  private async record(root: string, snapshot: WorkspaceSnapshot, changes: readonly SeedChange[]): Promise<void> {
    if (this.deps.stopped()) return;
    const plans = new Map<string, ((state: ReplayState) => GlossaryEventDraft[])[]>();
    const plan = (missionId: string, step: (state: ReplayState) => GlossaryEventDraft[]) => {
      const list = plans.get(missionId);
      if (list) list.push(step);
      else plans.set(missionId, [step]);
    };

    // Added senses, for the missions of the open specs where their term was flagged before.
    const specs = changes.some((c) => c.added.length > 0) ? await this.deps.openSpecs(root) : [];
    const missions = new Map<string, CheckedDocument>();
    for (const spec of specs) if (!missions.has(spec.missionId)) missions.set(spec.missionId, spec);
    const renamed: string[] = [];
    for (const change of changes) {
      // A rename answered by this server, now saved: recorded as the rename (renameSaves.ts); the
      // senses it accounts for are no plain additions or removals.
      const renames = this.deps.renames.seenInSeedChange(root, change, snapshot);
      for (const [missionId, steps] of renames.steps) for (const step of steps) plan(missionId, step);
      renamed.push(...renames.names);
      const key = (s: Sense) => senseKey(s.surface, s.definition);
      for (const sense of change.added) {
        if (renames.added.has(key(sense))) continue;
        for (const [missionId] of missions) {
          const uses = specs.some((s) => s.missionId === missionId && s.report.candidates.some((c) => c.surface === sense.surface));
          if (!uses || !flaggedBefore(snapshot, missionId, sense.surface, change)) continue;
          const recorded: RecordedSense = { surface: sense.surface, scope: change.scope, definition: sense.definition, confidence: sense.confidence, status: sense.status };
          plan(missionId, (state) => this.recordAdded(state, missionId, recorded));
        }
      }
      // Removed senses the log keeps: deprecated in the log of the mission that recorded them.
      for (const sense of change.removed) {
        if (renames.removed.has(key(sense))) continue;
        for (const kept of snapshot.replay.addedSenses) {
          if (kept.origin.kind !== 'event' || kept.scope !== change.scope || kept.surface !== sense.surface || kept.definition !== sense.definition || kept.status === 'deprecated') continue;
          const missionId = kept.origin.missionId;
          const gone: RecordedSense = { surface: kept.surface, scope: kept.scope, definition: kept.definition, confidence: kept.confidence, status: 'deprecated' };
          const source = kept.origin.source; // (the sense's own: a custom sense stays one, deprecated)
          plan(missionId, (state) => (logHoldsSense(state, missionId, gone) ? [] : [senseUpdatedEvent(this.context(missionId), gone, 'update', source)]));
        }
      }
    }
    let wrote = false;
    for (const [missionId, steps] of plans) {
      if (this.deps.stopped()) return;
      const build = (state: ReplayState) => ({ drafts: steps.flatMap((step) => step(state)) });
      try {
        const { events } = await appendPlanned(this.deps.eventStore(root), missionId, snapshot.replay, build);
        if (events.length > 0) {
          wrote = true;
          this.deps.logger.info(`recorded a glossary file change${renamed.length > 0 ? ` (the rename ${renamed.join(', ')})` : ''}: ${events.map((e) => e.event_type).join(', ')} in the log of mission ${missionId}`);
        }
      } catch (error) {
        this.deps.logger.error(`recording a glossary file change for mission ${missionId} failed`, error);
      }
    }
    if (wrote) await this.deps.recorded(root);
  }

  /** The sense (unless the log holds it already) and a Resolved for each clarification open now. */
  private recordAdded(state: ReplayState, missionId: string, sense: RecordedSense): GlossaryEventDraft[] {
    const ctx = this.context(missionId);
    const drafts: GlossaryEventDraft[] = logHoldsSense(state, missionId, sense) ? [] : [senseUpdatedEvent(ctx, sense, 'create', GLOSSARY_FILE_SOURCE)];
    for (const open of state.openClarifications) {
      if (open.missionId === missionId && open.term === sense.surface) drafts.push(resolvedEvent(ctx, open.conflictId, sense.surface, sense));
    }
    return drafts;
  }

  private context(missionId: string): DecisionContext {
    return { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
  }

  forget(root: string): void {
    this.seen.delete(root);
  }
}

/** The senses the snapshot read from these bytes of a seed file (none: it read another version, or could not parse it). */
function loadedSenses(snapshot: WorkspaceSnapshot, file: string, bytes: Uint8Array | string): readonly Sense[] | undefined {
  const loaded = snapshot.seeds.find((s) => s.path === file && !s.bundled && !s.stale);
  return loaded && loaded.versionId === versionIdOf(bytes) ? loaded.seed.senses : undefined;
}

/** The senses of a seed file's text (none for no file); undefined when it does not parse. */
function sensesOf(text: string | undefined, file: string, scope: ScopeId): readonly Sense[] | undefined {
  if (text === undefined) return [];
  const parsed = parseSeedFile(text, file, scope);
  return parsed.parsed ? parsed.senses : undefined;
}

/**
 * Whether `term` was flagged for the mission before the change: not pinned, and no usable sense
 * (unknown) or two active senses in the first scope holding one (ambiguous) — with the changed
 * file's senses as they were before.
 */
export function flaggedBefore(snapshot: WorkspaceSnapshot, missionId: string, term: string, change: Pick<SeedChange, 'file' | 'before'>): boolean {
  if (snapshot.pinsFor(missionId).has(term)) return false;
  const file = path.resolve(change.file);
  const others = snapshot.glossaryFor(missionId).sensesOf(term).filter((s) => !(s.origin.kind === 'seed' && path.resolve(s.origin.file) === file));
  // One sense per scope and definition (the log may hold a record of an entry the file had).
  const unique = new Map<string, Sense>();
  for (const s of [...change.before.filter((b) => b.surface === term), ...others]) {
    const key = `${s.scope}\u0000${s.definition}`;
    if (!unique.has(key)) unique.set(key, s);
  }
  const senses = [...unique.values()].sort((a, b) => SCOPE_ORDER.indexOf(a.scope) - SCOPE_ORDER.indexOf(b.scope));
  const live = senses.filter((s) => s.status !== 'deprecated');
  if (live.length === 0) return true;
  const scope = live[0]!.scope;
  return live.filter((s) => s.scope === scope && s.status === 'active').length >= 2;
}
