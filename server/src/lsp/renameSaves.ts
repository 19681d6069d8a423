/**
 * A rename of a glossary term is recorded once it is saved, never when it is answered: the
 * editor applies a rename's WorkspaceEdit to buffers (or discards it, or fails to apply it), and
 * only a save says the files changed. Each rename the server answered waits here (in memory, per
 * folder) until a save shows it:
 *
 * - a rename of entries of a glossary file: when that file changes on disk (seedSaves.ts asks on
 *   every change it sees) with every renamed entry now under the new surface, same definition,
 *   and none left under the old one;
 * - a rename of a term only the event log defines (no entry to save): when a file of the edit is
 *   saved showing it — a spec using the new name where it used the term (read by the engine as it
 *   reads specs: the new name gained, and the term lost, at least as many uses as the edit changed
 *   there), or the glossary file whose `see_also` references it changed, naming the new one.
 *
 * What is then recorded is what the rename recorded when it was answered before (issue #21):
 * `GlossarySenseUpdated` `create` of every renamed sense that is not deprecated, under the new
 * surface (an entry's confidence and status as the saved file says), in the log of the mission the
 * rename was asked from (a sense only the log holds: the mission that recorded it), and `update`
 * with `status: deprecated` of each sense of the old surface the log keeps alive, in the log of the
 * mission that recorded it; and, for each mission that pinned a renamed sense under the old
 * name, a `GlossaryClarificationResolved` pinning it under the new one, in that mission's log.
 * Planned inside the writers' lock against the log (decisionLog.ts), so a
 * save seen twice, a second server or a CLI writing meanwhile never makes it twice. A rename never
 * saved leaves nothing; a server restarted between the answer and the save no longer knows it (the
 * save is then an ordinary glossary-file change, seedSaves.ts).
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Engine } from '../core/check/engine';
import { GLOSSARY_FILE_SOURCE, isEntryRecord, logHoldsSense, PROVENANCE_SOURCE, resolvedEvent, senseUpdatedEvent, type DecisionContext, type RecordedSense } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import type { ReplayState, ScopeId, Sense, SenseRef } from '../core/types';
import type { WorkspaceSnapshot } from '../node/workspace';
import { seeAlsoTerms } from '../service/seedSurfaces';
import { termOccurrences } from '../service/termRename';
import { appendPlanned, type EventAppender } from './decisionLog';
import type { Logger } from './logger';

/** A rename the server answered, as it waits for its save. */
export interface AnsweredRename {
  root: string;
  term: string;
  newSurface: string;
  scope: ScopeId;
  /** The mission of the spec it was asked from (`default` from a glossary file). */
  missionId: string;
  /** The senses renamed, as they were when it was answered. */
  senses: readonly Sense[];
  /** The glossary file whose entries it renames; none when every sense is one only the log holds. */
  seedFile?: string;
  /** Only without `seedFile`: each file the edit changes, how many uses, and how it read before. */
  files?: ReadonlyMap<string, FileBefore>;
}

export interface FileBefore {
  /** A spec's prose uses, or a glossary file's `see_also` references. */
  kind: 'spec' | 'seeAlso';
  /** Uses of the term the edit changes in this file. */
  edits: number;
  /** Uses of the term and of the new name in the file's text when the rename was answered. */
  termUses: number;
  newUses: number;
}

/** How a file's text uses the term and the new name (as `FileBefore` counts them). */
export function usesIn(engine: Engine, kind: FileBefore['kind'], text: string, term: string, newSurface: string): { termUses: number; newUses: number } {
  if (kind === 'seeAlso') {
    const references = seeAlsoTerms(text);
    return { termUses: references.filter((r) => r.surface === term).length, newUses: references.filter((r) => r.surface === newSurface).length };
  }
  const uses = termOccurrences(engine, text, [term, newSurface]);
  return { termUses: uses.get(term)!.length, newUses: uses.get(newSurface)!.length };
}

/** A glossary file's change as seedSaves.ts sees it (its senses before and after). */
export interface SeenSeedChange {
  scope: ScopeId;
  file: string;
  before: readonly Sense[];
  after: readonly Sense[];
}

/** What a glossary file's change records as renames: the steps per mission, and the senses they account for. */
export interface RenamesSeen {
  steps: Map<string, ((state: ReplayState) => GlossaryEventDraft[])[]>;
  /** `surface\0definition` of the file's senses added and removed by the renames (not recorded again as plain changes). */
  added: Set<string>;
  removed: Set<string>;
  /** For the log: `'old' → 'new'` per rename. */
  names: string[];
}

export interface RenameSaveDeps {
  logger: Logger;
  runId: string;
  actor: ActorIdentity;
  engine(): Engine;
  eventStore(root: string): EventAppender;
  snapshot(root: string): Promise<WorkspaceSnapshot>;
  /** After events were written: reload the folder and re-check its documents. */
  recorded(root: string): Promise<void>;
  stopped(): boolean;
}

/** At most this many renames wait per folder (the oldest is forgotten: a client repeating renames cannot grow it without bound). */
const MAX_WAITING_PER_FOLDER = 64;

export const senseKey = (surface: string, definition: string): string => `${surface}\u0000${definition}`;

export class RenameSaves {
  /** By folder, oldest first. */
  private readonly waiting = new Map<string, AnsweredRename[]>();
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RenameSaveDeps) {}

  /** A rename was answered: it waits for its save. The same rename answered again replaces the earlier one. */
  answered(rename: AnsweredRename): void {
    const list = (this.waiting.get(rename.root) ?? []).filter((r) => !(r.term === rename.term && r.newSurface === rename.newSurface && r.scope === rename.scope));
    list.push(rename);
    if (list.length > MAX_WAITING_PER_FOLDER) list.shift();
    this.waiting.set(rename.root, list);
  }

  /**
   * The renames a glossary file's change shows saved (each forgotten then), and their records: for
   * seedSaves.ts, which appends them with the change's other records (one append per mission).
   */
  seenInSeedChange(root: string, change: SeenSeedChange, snapshot: WorkspaceSnapshot): RenamesSeen {
    const seen: RenamesSeen = { steps: new Map(), added: new Set(), removed: new Set(), names: [] };
    const list = this.waiting.get(root);
    if (!list) return seen;
    const file = path.resolve(change.file);
    const after = new Set(change.after.map((s) => senseKey(s.surface, s.definition)));
    for (const rename of [...list]) {
      if (rename.seedFile === undefined || rename.scope !== change.scope || path.resolve(rename.seedFile) !== file) continue;
      const written = rename.senses.filter((s) => s.origin.kind === 'seed');
      const saved = written.every((s) => !after.has(senseKey(rename.term, s.definition)) && after.has(senseKey(rename.newSurface, s.definition)));
      if (!saved) continue;
      list.splice(list.indexOf(rename), 1);
      for (const s of written) {
        seen.added.add(senseKey(rename.newSurface, s.definition));
        seen.removed.add(senseKey(rename.term, s.definition));
      }
      // An entry's confidence and status as the saved file now says.
      const renamed = rename.senses.map((s) => (s.origin.kind === 'seed' ? (change.after.find((a) => a.surface === rename.newSurface && a.definition === s.definition) ?? s) : s));
      this.plan(rename, renamed, snapshot, seen.steps);
      seen.names.push(`'${rename.term}' → '${rename.newSurface}'`);
    }
    if (list.length === 0) this.waiting.delete(root);
    return seen;
  }

  /** Whether a rename of a term only the log defines waits for a save of this file. */
  watching(file: string): boolean {
    const resolved = path.resolve(file);
    for (const list of this.waiting.values()) if (list.some((r) => r.files?.has(resolved))) return true;
    return false;
  }

  /** A file was saved with `text` (or changed on disk): the renames it shows applied are recorded (one save at a time, in order). */
  fileSaved(file: string, text: string | (() => Promise<string | undefined>)): Promise<void> {
    const next = this.chain.then(async () => {
      const saved = typeof text === 'string' ? text : await text();
      if (saved !== undefined) await this.recordSaved(file, saved);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Settles once every file save seen so far is recorded. */
  idle(): Promise<void> {
    return this.chain;
  }

  private async recordSaved(file: string, text: string): Promise<void> {
    if (this.deps.stopped()) return;
    const resolved = path.resolve(file);
    for (const [root, list] of this.waiting) {
      const shown = list.filter((r) => {
        const before = r.files?.get(resolved);
        if (!before) return false;
        const now = usesIn(this.deps.engine(), before.kind, text, r.term, r.newSurface);
        return before.termUses - now.termUses >= before.edits && now.newUses - before.newUses >= before.edits;
      });
      if (shown.length === 0) continue;
      const rest = list.filter((r) => !shown.includes(r));
      if (rest.length > 0) this.waiting.set(root, rest);
      else this.waiting.delete(root);
      try {
        const snapshot = await this.deps.snapshot(root);
        const steps = new Map<string, ((state: ReplayState) => GlossaryEventDraft[])[]>();
        for (const rename of shown) this.plan(rename, rename.senses, snapshot, steps);
        let wrote = false;
        for (const [missionId, planned] of steps) {
          if (this.deps.stopped()) return;
          const { events } = await appendPlanned(this.deps.eventStore(root), missionId, snapshot.replay, (state) => ({ drafts: planned.flatMap((step) => step(state)) }));
          if (events.length > 0) wrote = true;
        }
        const names = shown.map((r) => `'${r.term}' → '${r.newSurface}'`).join(', ');
        if (!wrote) this.deps.logger.info(`the rename ${names}, saved in ${file}, is in the log already`);
        else {
          this.deps.logger.info(`recorded the rename ${names}, saved in ${file}`);
          await this.deps.recorded(root);
        }
      } catch (error) {
        this.deps.logger.error(`recording the rename saved in ${file} failed`, error);
      }
    }
  }

  /** A rename's records, per mission, each planned against the log as it is inside the writers' lock. */
  private plan(rename: AnsweredRename, senses: readonly Sense[], snapshot: WorkspaceSnapshot, steps: Map<string, ((state: ReplayState) => GlossaryEventDraft[])[]>): void {
    const add = (mission: string, step: (state: ReplayState) => GlossaryEventDraft[]) => {
      const list = steps.get(mission);
      if (list) list.push(step);
      else steps.set(mission, [step]);
    };
    for (const sense of senses) {
      if (sense.status === 'deprecated') continue;
      const owner = sense.origin.kind === 'event' && sense.origin.missionId !== '' ? sense.origin.missionId : rename.missionId;
      const renamed: RecordedSense = { surface: rename.newSurface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence, status: sense.status };
      // (A file's entry renamed is recorded as the file's, unless the log holds it as a sense of
      // its own too, a custom definition: that stays one, as does a sense only the log holds.)
      const ownSense = (k: Sense) => k.origin.kind === 'event' && !isEntryRecord(k) && k.scope === sense.scope && (k.surface === rename.term || k.surface === sense.surface) && k.definition === sense.definition && k.status !== 'deprecated';
      const source = sense.origin.kind === 'event' ? sense.origin.source : snapshot.replay.addedSenses.some(ownSense) ? PROVENANCE_SOURCE : GLOSSARY_FILE_SOURCE;
      add(owner, (state) => (logHoldsSense(state, owner, renamed) ? [] : [senseUpdatedEvent(this.context(owner), renamed, 'create', source)]));
    }
    // The old surface's senses the log keeps alive: deprecated, in the log of the mission that recorded each.
    for (const kept of snapshot.replay.addedSenses) {
      if (kept.origin.kind !== 'event' || kept.status === 'deprecated' || kept.surface !== rename.term || !senses.some((s) => s.scope === kept.scope && s.definition === kept.definition)) continue;
      const owner = kept.origin.missionId !== '' ? kept.origin.missionId : rename.missionId;
      const gone: RecordedSense = { surface: kept.surface, scope: kept.scope, definition: kept.definition, confidence: kept.confidence, status: 'deprecated' };
      const source = kept.origin.source;
      add(owner, (state) => (logHoldsSense(state, owner, gone) ? [] : [senseUpdatedEvent(this.context(owner), gone, 'update', source)]));
    }
    // Each mission's decision on the old name follows the rename: a pin of a renamed sense is
    // pinned again under the new name (a Resolved in that mission's log), so a term the mission
    // had settled is not ambiguous again there.
    for (const pin of snapshot.replay.pins) {
      if (pin.term !== rename.term) continue;
      // (A mission's own sense in a log is that mission's: another mission's pin of the same words is of its own sense.)
      const theirs = (s: Sense) => s.scope !== 'mission_local' || s.origin.kind !== 'event' || s.origin.missionId === pin.missionId;
      const sense = senses.find((s) => s.status !== 'deprecated' && s.definition === pin.sense.definition && (pin.scopeGuessed || s.scope === pin.sense.scope) && theirs(s));
      if (!sense) continue;
      const moved: SenseRef = { surface: rename.newSurface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence };
      const pinned = (state: ReplayState) => state.pins.some((p) => p.missionId === pin.missionId && p.term === rename.newSurface && p.sense.scope === moved.scope && p.sense.definition === moved.definition);
      add(pin.missionId, (state) => (pinned(state) ? [] : [resolvedEvent(this.context(pin.missionId), randomUUID(), rename.newSurface, moved)]));
    }
  }

  private context(missionId: string): DecisionContext {
    return { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
  }
}
