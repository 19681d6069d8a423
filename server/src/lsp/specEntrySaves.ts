/**
 * "Define 'Term' in this spec's Domain Language" without a definition (every client but VS Code,
 * which asks for one): the entry goes into the spec with a placeholder for the writer to replace.
 * Once the spec is saved with the entry's definition written, the definition is recorded as
 * `GlossarySenseUpdated` (scope mission_local, the spec's mission) plus a
 * `GlossaryClarificationResolved` selecting it for every clarification of the term open then —
 * the same record the quick fix with a definition makes, and what a glossary-file save records
 * (seedSaves.ts). Only entries this server added and that are still waiting are watched (kept in
 * memory, per spec); a save whose entry still has a placeholder keeps waiting, one without the
 * entry forgets it. What the log holds already is not written again (decisionLog.ts). The record
 * (`spec_domain_language`) is the entry's as written then; later edits of the entry are not
 * recorded: the spec is read for what it says now, and Spec Kitty's store, which keeps every sense
 * line as a sense, could not retire the recorded one anyway (docs/events.md).
 */

import path from 'node:path';
import { logHoldsSense, resolvedEvent, senseUpdatedEvent, SPEC_ENTRY_SOURCE, type DecisionContext, type RecordedSense } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import { readVocabulary } from '../core/missionVocabulary/read';
import { entrySense } from '../core/missionVocabulary/senses';
import type { ReplayState } from '../core/types';
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

  /** Whether an entry of `spec` waits for its definition. */
  watching(spec: string): boolean {
    return this.waiting.has(path.resolve(spec));
  }

  /** `spec` was saved with `text`: the entries written by now are recorded. */
  async saved(spec: string, text: string): Promise<void> {
    const file = path.resolve(spec);
    const terms = this.waiting.get(file);
    if (!terms || this.deps.stopped()) return;
    const vocabulary = readVocabulary(text);
    const ready: { term: string; waiting: Waiting; sense: RecordedSense }[] = [];
    for (const [term, waiting] of terms) {
      const sense = entrySense({ file, missionId: waiting.missionId, missionSlug: waiting.missionId, vocabulary }, term);
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
