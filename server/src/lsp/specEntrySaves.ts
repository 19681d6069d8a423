/**
 * "Define 'Term' in this spec's Domain Language" without a definition (every client but VS Code,
 * which asks for one): the entry goes into the spec with a placeholder for the writer to replace.
 * Once the spec is saved with the entry's definition written, the definition is recorded as
 * `GlossarySenseUpdated` (scope mission_local, the spec's mission) plus a
 * `GlossaryClarificationResolved` selecting it for every clarification of the term open then —
 * the same record the quick fix with a definition makes, and what a glossary-file save records
 * (seedSaves.ts). Only entries this server added and that are still waiting are watched (kept in
 * memory, per spec); a save whose entry still has a placeholder keeps waiting, one without the
 * entry forgets it. What the log holds already is not written again (decisionLog.ts). Once
 * recorded, a later save of the spec without that definition deprecates the record (`entriesSaved`).
 */

import path from 'node:path';
import { isSpecEntryRecord, logHoldsSense, resolvedEvent, senseUpdatedEvent, SPEC_ENTRY_SOURCE, type DecisionContext, type RecordedSense } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import { readVocabulary } from '../core/missionVocabulary/read';
import { vocabularySenses } from '../core/missionVocabulary/senses';
import type { ReplayState, Sense } from '../core/types';
import type { VocabularySource } from '../core/missionVocabulary/types';
import type { WorkspaceSnapshot } from '../node/workspace';
import { appendPlanned, type EventAppender } from './decisionLog';
import type { Logger } from './logger';

export interface SpecEntryDeps {
  logger: Logger;
  runId: string;
  actor: ActorIdentity;
  eventStore(root: string): EventAppender;
  /** The folder's current snapshot (its replayed log). */
  snapshot(root: string): Promise<WorkspaceSnapshot>;
  /** After events were written: reload the folder and re-check its documents. */
  recorded(root: string): Promise<void>;
  stopped(): boolean;
  /** The vocabularies of the mission's other specs (a mission may have more than one spec.md). */
  otherSpecs(root: string, spec: string, missionId: string): readonly VocabularySource[];
}

/** A save of a spec: its file, folder and text as saved, and its mission (none: only its waiting entries are looked at). */
export interface SpecSave {
  spec: string;
  root: string;
  missionId?: string;
  text: string;
}

interface Waiting {
  root: string;
  missionId: string;
}

/** At most this many entries wait per spec (a client repeating the command cannot grow it without bound). */
const MAX_WAITING_PER_SPEC = 256;

export class SpecEntrySaves {
  /** By spec path, then normalized term. */
  private readonly waiting = new Map<string, Map<string, Waiting>>();
  /**
   * By spec path: the save being recorded. A spec's saves are recorded one after the other, each
   * once the one before has written its events and the folder was read again, so a quick second
   * save (auto-save while typing) is compared with what the first one recorded.
   */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(private readonly deps: SpecEntryDeps) {}

  /** An entry with a placeholder definition was added to `spec` for `term` of mission `missionId`. */
  added(spec: string, root: string, missionId: string, term: string): void {
    const file = path.resolve(spec);
    let terms = this.waiting.get(file);
    if (!terms) this.waiting.set(file, (terms = new Map()));
    terms.delete(term);
    terms.set(term, { root, missionId });
    if (terms.size > MAX_WAITING_PER_SPEC) {
      const oldest = terms.keys().next();
      if (!oldest.done) terms.delete(oldest.value);
    }
  }

  /**
   * A spec was saved: the definitions of its waiting entries written by now are recorded
   * (`saved`), then the records the spec no longer gives are deprecated (`entriesSaved`), after
   * any earlier save of the same spec is recorded.
   */
  fileSaved(save: SpecSave): Promise<void> {
    const file = path.resolve(save.spec);
    const before = this.recording.get(file) ?? Promise.resolve();
    const done = before.then(async () => {
      await this.saved(file, save.text);
      if (save.missionId !== undefined) await this.entriesSaved(save.root, save.missionId, file, save.text);
    });
    const settled = done.catch((error: unknown) => this.deps.logger.error(`recording the entries of ${file} as saved failed`, error));
    this.recording.set(file, settled);
    void settled.then(() => {
      if (this.recording.get(file) === settled) this.recording.delete(file);
    });
    return settled;
  }

  /** Whether an entry of `spec` waits for its definition. */
  watching(spec: string): boolean {
    return this.waiting.has(path.resolve(spec));
  }

  /** `spec` was saved with `text`: the entries written by now are recorded. */
  private async saved(spec: string, text: string): Promise<void> {
    const file = path.resolve(spec);
    const terms = this.waiting.get(file);
    if (!terms || this.deps.stopped()) return;
    const vocabulary = readVocabulary(text);
    const ready: { term: string; waiting: Waiting; sense: RecordedSense }[] = [];
    for (const [term, waiting] of terms) {
      const sense = vocabularySenses([{ file, missionId: waiting.missionId, missionSlug: waiting.missionId, vocabulary }]).senses.find((s) => s.surface === term && s.seeAlso.length === 0);
      if (sense) {
        ready.push({ term, waiting, sense: { surface: term, scope: 'mission_local', definition: sense.definition, confidence: sense.confidence, status: 'active' } });
        terms.delete(term);
      } else if (!vocabulary.problems.some((p) => p.surface === term)) {
        terms.delete(term); // the entry is gone: nothing to wait for
      }
    }
    if (terms.size === 0) this.waiting.delete(file);
    const roots = new Set<string>();
    for (const { waiting, sense } of ready) {
      if (this.deps.stopped()) return;
      try {
        const snapshot = await this.deps.snapshot(waiting.root);
        const { events } = await appendPlanned(this.deps.eventStore(waiting.root), waiting.missionId, snapshot.replay, (state) => ({ drafts: this.record(state, waiting.missionId, sense) }));
        if (events.length > 0) {
          roots.add(waiting.root);
          this.deps.logger.info(`recorded the definition of '${sense.surface}' written in ${file}: ${events.map((e) => e.event_type).join(', ')} in the log of mission ${waiting.missionId}`);
        }
      } catch (error) {
        this.deps.logger.error(`recording the definition of '${sense.surface}' written in ${file} failed`, error);
      }
    }
    for (const root of roots) await this.deps.recorded(root);
  }

  /**
   * A spec of mission `missionId` was saved with `text`: each record of an entry of the mission's
   * specs (SPEC_ENTRY_SOURCE) that its log keeps active and whose definition no spec of the
   * mission gives now (the entry removed, its definition changed or made a placeholder again) is
   * recorded as deprecated, so the log's audit says the spec dropped it. A changed definition is
   * not recorded as a new sense: Spec Kitty's store adds every sense line as a sense of its own
   * (a deprecation does not retire the sense it names), so a second active definition would make
   * the term ambiguous for it. The server's own views read the spec itself and take none of these
   * records (node/workspace.ts `eventSenses`).
   */
  private async entriesSaved(root: string, missionId: string, spec: string, text: string): Promise<void> {
    if (this.deps.stopped()) return;
    const snapshot = await this.deps.snapshot(root);
    // (Most saves: no entry of this mission is recorded active.)
    if (!snapshot.replay.addedSenses.some((s) => isActiveEntryRecordOf(s, missionId))) return;
    const file = path.resolve(spec);
    // What every spec of the mission defines now: this one as saved, the others as they are.
    const given = new Map<string, Set<string>>();
    const sources = [{ file, missionId, missionSlug: missionId, vocabulary: readVocabulary(text) }, ...this.deps.otherSpecs(root, file, missionId)];
    for (const source of sources) {
      for (const sense of vocabularySenses([source]).senses) {
        if (sense.seeAlso.length > 0) continue;
        const definitions = given.get(sense.surface);
        if (definitions) definitions.add(sense.definition);
        else given.set(sense.surface, new Set([sense.definition]));
      }
    }
    const ctx: DecisionContext = { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
    const plan = (state: ReplayState): GlossaryEventDraft[] =>
      state.addedSenses
        .filter((kept) => isActiveEntryRecordOf(kept, missionId) && !given.get(kept.surface)?.has(kept.definition))
        .map((kept) => senseUpdatedEvent(ctx, { surface: kept.surface, scope: 'mission_local', definition: kept.definition, confidence: kept.confidence, status: 'deprecated' }, 'update', SPEC_ENTRY_SOURCE));
    try {
      const { events } = await appendPlanned(this.deps.eventStore(root), missionId, snapshot.replay, (state) => ({ drafts: plan(state) }));
      if (events.length === 0) return;
      this.deps.logger.info(`recorded, on a save of ${file}, the entries no spec of mission ${missionId} gives now: ${events.length} ${events.length === 1 ? 'sense' : 'senses'} deprecated in its log`);
      await this.deps.recorded(root);
    } catch (error) {
      this.deps.logger.error(`recording, on a save of ${file}, the entries no spec of mission ${missionId} gives now failed`, error);
    }
  }

  /** The sense (unless the mission's log holds it already) and a Resolved for each clarification of the term open now. */
  private record(state: ReplayState, missionId: string, sense: RecordedSense): GlossaryEventDraft[] {
    const ctx: DecisionContext = { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
    const held = logHoldsSense(state, missionId, sense);
    const drafts: GlossaryEventDraft[] = held ? [] : [senseUpdatedEvent(ctx, sense, 'create', SPEC_ENTRY_SOURCE)];
    for (const open of state.openClarifications) {
      if (open.missionId === missionId && open.term === sense.surface) drafts.push(resolvedEvent(ctx, open.conflictId, sense.surface, sense));
    }
    return drafts;
  }
}

/** An active record of an entry of mission `missionId`'s spec (see SPEC_ENTRY_SOURCE). */
function isActiveEntryRecordOf(sense: Sense, missionId: string): boolean {
  return isSpecEntryRecord(sense) && sense.status === 'active' && sense.scope === 'mission_local' && sense.origin.kind === 'event' && sense.origin.missionId === missionId;
}
