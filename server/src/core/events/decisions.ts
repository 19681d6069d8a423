/**
 * The events a decision appends, built the same way by the CLI (`resolve`, the `--interactive`
 * prompt, `check --emit-events` deferrals) and the language server (quick fixes): a decision
 * looks the same whoever records it. Pure builders: the caller supplies the mission, run id,
 * actor, time and conflict ids.
 */

import { normalizeSurface } from '../normalize';
import type { ReplayState, ScopeId, Sense, SenseRef, SenseStatus, Severity } from '../types';
import type { ActorIdentity, EventDraftOfType, GlossaryEventDraft } from './types';

export interface DecisionContext {
  missionId: string;
  /** `lsp-<uuid4>` (one per server process) or `cli-<uuid4>` (one per CLI invocation). */
  runId: string;
  actor: ActorIdentity;
  /** ISO 8601 UTC. */
  timestamp: string;
}

export const PROVENANCE_SOURCE = 'user_clarification';

/**
 * Provenance `source` of a sense recorded because a glossary file gained or lost it (saved in any
 * editor, renamed): the record of the file's entry, not a sense of its own. The file stays the
 * truth: such a sense is used only while the file holds the entry (node/workspace.ts), so an
 * entry edited or removed while no server ran (a `git pull`, a script) never leaves its old
 * definition behind as a second sense.
 */
export const GLOSSARY_FILE_SOURCE = 'glossary_file';

/** A sense recorded as a glossary file's entry: no sense of its own (see GLOSSARY_FILE_SOURCE). */
export function isFileRecord(sense: Pick<Sense, 'origin'>): boolean {
  return sense.origin.kind === 'event' && sense.origin.source === GLOSSARY_FILE_SOURCE;
}

/**
 * Provenance `source` of a `mission_local` sense recorded because a spec's Domain Language (or Key
 * Entities, …) section gained an entry through "Define … in this spec's Domain Language": the
 * record of the spec's entry, for Spec Kitty (which reads the log, not the spec) and the audit.
 * The spec stays the truth: every view of the glossary reads the entry from the spec itself
 * (SPEC §3) and none takes this record (node/workspace.ts), so an entry later edited or removed
 * never leaves its old definition behind.
 */
export const SPEC_ENTRY_SOURCE = 'spec_domain_language';

/** A sense recorded as a spec's vocabulary entry (see SPEC_ENTRY_SOURCE). */
export function isSpecEntryRecord(sense: Pick<Sense, 'origin'>): boolean {
  return sense.origin.kind === 'event' && sense.origin.source === SPEC_ENTRY_SOURCE;
}

/** A record of an entry of a file (a glossary file's or a spec's), not a sense of its own. */
export function isEntryRecord(sense: Pick<Sense, 'origin'>): boolean {
  return isFileRecord(sense) || isSpecEntryRecord(sense);
}

export function clarificationQuestion(term: string): string {
  return `What does '${term}' mean in this context?`;
}

/**
 * The question of a request that reopens a decided term (the editor's "Reopen"). Only such a
 * request unpins the term (replay.ts): a pin holds "from then on" (SPEC §6), and Spec Kitty's
 * pipeline, which does not read pins, asks about every conflict it sees, decided or not.
 */
export function reopenQuestion(term: string): string {
  return `Reopened: what does '${term}' mean in this context? It was decided before; pick a sense again.`;
}

/** Whether a request's question is `reopenQuestion`'s (its mark, whatever the term). */
export function isReopenQuestion(question: string): boolean {
  return question.startsWith('Reopened: ');
}

function provenance(ctx: DecisionContext, source = PROVENANCE_SOURCE) {
  return { source, timestamp: ctx.timestamp, actor_id: ctx.actor.actor_id };
}

/** Pins `sense` for (mission, term) and closes the clarification `conflictId`. */
export function resolvedEvent(ctx: DecisionContext, conflictId: string, term: string, sense: SenseRef, mode: 'interactive' | 'async' = 'interactive'): EventDraftOfType<'GlossaryClarificationResolved'> {
  return {
    event_type: 'GlossaryClarificationResolved',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    conflict_id: conflictId,
    term_surface: term,
    selected_sense: { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence },
    actor: ctx.actor,
    resolution_mode: mode,
    provenance: provenance(ctx),
  };
}

/** A custom sense written by the user: created active with confidence 1.0. */
export function senseCreatedEvent(ctx: DecisionContext, term: string, scope: ScopeId, definition: string, source = PROVENANCE_SOURCE): EventDraftOfType<'GlossarySenseUpdated'> {
  return senseUpdatedEvent(ctx, { surface: term, scope, definition, confidence: 1.0, status: 'active' }, 'create', source);
}

/** The sense a glossary entry holds (a GlossarySenseUpdated as Spec Kitty writes for a new or changed sense). */
export interface RecordedSense extends SenseRef {
  status: SenseStatus;
}

/**
 * Whether the log already holds this sense with this status (for mission_local, in that mission):
 * recording it again would add nothing, so a decision planned twice is written once.
 */
export function logHoldsSense(state: ReplayState, missionId: string, sense: RecordedSense): boolean {
  return state.addedSenses.some(
    (s) =>
      s.scope === sense.scope &&
      s.surface === sense.surface &&
      s.definition === sense.definition &&
      s.status === sense.status &&
      (s.scope !== 'mission_local' || (s.origin.kind === 'event' && s.origin.missionId === missionId)),
  );
}

/**
 * Whether the log holds this sense, active, as one of its own (a custom definition; for
 * mission_local, in that mission): a definition given again adds nothing. The record of a glossary
 * file's or a spec's entry does not count (it is no sense of its own: the definition is recorded).
 */
export function logHoldsOwnSense(state: ReplayState, missionId: string, sense: Pick<SenseRef, 'scope' | 'surface' | 'definition'>): boolean {
  return state.addedSenses.some(
    (s) =>
      s.scope === sense.scope &&
      s.surface === sense.surface &&
      s.definition === sense.definition &&
      s.status === 'active' &&
      !isEntryRecord(s) &&
      (s.scope !== 'mission_local' || (s.origin.kind === 'event' && s.origin.missionId === missionId)),
  );
}

/**
 * A sense as the user wrote it in a glossary file: `create` for a sense the log does not hold
 * yet, `update` for one it holds (a changed status, e.g. deprecated when the entry was removed).
 * `source`: GLOSSARY_FILE_SOURCE for the record of a file's entry; an update of a sense the log
 * holds keeps that sense's own.
 */
export function senseUpdatedEvent(ctx: DecisionContext, sense: RecordedSense, updateType: 'create' | 'update', source = PROVENANCE_SOURCE): EventDraftOfType<'GlossarySenseUpdated'> {
  return {
    event_type: 'GlossarySenseUpdated',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    term_surface: sense.surface,
    scope: sense.scope,
    new_sense: { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence, status: sense.status },
    actor: ctx.actor,
    update_type: updateType,
    provenance: provenance(ctx, source),
  };
}

export function requestedEvent(ctx: DecisionContext, conflictId: string, term: string, stepId: string, options: readonly string[], urgency: Severity, reopens = false): EventDraftOfType<'GlossaryClarificationRequested'> {
  return {
    event_type: 'GlossaryClarificationRequested',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    question: reopens ? reopenQuestion(term) : clarificationQuestion(term),
    term,
    options: [...options],
    urgency,
    step_id: stepId,
    conflict_id: conflictId,
  };
}

/**
 * The conflict ids a decision on (mission, term) resolves: every clarification still open for it
 * (each gets its own Resolved, so none stays open once the term is decided), or a new one.
 */
export function conflictIdsToClose(open: readonly { conflictId: string }[], newId: () => string): string[] {
  return open.length > 0 ? open.map((c) => c.conflictId) : [newId()];
}

/**
 * `drafts` with their decisions planned again against `current` (the log as replayed inside the
 * writers' lock; `plannedOpen`: the conflict ids that were open when the drafts were made). Each
 * (mission, term) decided closes the clarifications open for it now, each once (seed 002's
 * pairing rule), not one another writer closed meanwhile; when none is open now, a decision made
 * to close some that were is recorded under a conflict id of its own (`newId`), and one made with
 * its own id stays as it is.
 */
export function resolutionsAgainst(drafts: readonly GlossaryEventDraft[], current: Pick<ReplayState, 'openClarifications'>, plannedOpen: ReadonlySet<string>, newId: () => string): GlossaryEventDraft[] {
  const out: GlossaryEventDraft[] = [];
  const decided = new Set<string>();
  for (const draft of drafts) {
    if (draft.event_type !== 'GlossaryClarificationResolved') {
      out.push(draft);
      continue;
    }
    const term = normalizeSurface(draft.term_surface);
    const key = `${draft.mission_id}\u0000${term}`;
    // (The first Resolved of a (mission, term) stands for all of them: they differ by conflict id only.)
    if (decided.has(key)) continue;
    decided.add(key);
    const planned = drafts.flatMap((d) => (d.event_type === 'GlossaryClarificationResolved' && d.mission_id === draft.mission_id && normalizeSurface(d.term_surface) === term ? [d.conflict_id] : []));
    const openNow = current.openClarifications.filter((c) => c.missionId === draft.mission_id && c.term === term).map((c) => c.conflictId);
    const ids = openNow.length > 0 ? openNow : planned.some((id) => plannedOpen.has(id)) ? [newId()] : planned;
    for (const id of ids) out.push({ ...draft, conflict_id: id });
  }
  return out;
}

/**
 * `drafts` without the clarification requests whose (mission, term) already has one open in
 * `current` (the log as replayed inside the writers' lock): one open question per term, however
 * many `check --emit-events` run at once.
 */
export function withoutRequestsAlreadyOpen(drafts: readonly GlossaryEventDraft[], current: Pick<ReplayState, 'openClarifications'>): GlossaryEventDraft[] {
  const open = new Set(current.openClarifications.map((c) => `${c.missionId}\u0000${c.term}`));
  return drafts.filter((d) => d.event_type !== 'GlossaryClarificationRequested' || !open.has(`${d.mission_id}\u0000${normalizeSurface(d.term)}`));
}
