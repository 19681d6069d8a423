/**
 * The events an editor decision appends (SPEC §7: the editor emits only decision events). Pure
 * builders: the caller supplies the mission, run id, actor, clock and conflict id.
 */

import type { ActorIdentity, EventDraftOfType } from '../core/events/types';
import type { ScopeId, SenseRef, Severity } from '../core/types';

export interface DecisionContext {
  missionId: string;
  /** `lsp-<uuid4>`, one per server process. */
  runId: string;
  actor: ActorIdentity;
  /** ISO 8601 UTC. */
  timestamp: string;
}

export const PROVENANCE_SOURCE = 'user_clarification';

export function clarificationQuestion(term: string): string {
  return `What does '${term}' mean in this context?`;
}

function provenance(ctx: DecisionContext) {
  return { source: PROVENANCE_SOURCE, timestamp: ctx.timestamp, actor_id: ctx.actor.actor_id };
}

export function resolvedEvent(ctx: DecisionContext, conflictId: string, term: string, sense: SenseRef): EventDraftOfType<'GlossaryClarificationResolved'> {
  return {
    event_type: 'GlossaryClarificationResolved',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    conflict_id: conflictId,
    term_surface: term,
    selected_sense: { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence },
    actor: ctx.actor,
    resolution_mode: 'interactive',
    provenance: provenance(ctx),
  };
}

/** A custom sense written by the user: created active with confidence 1.0. */
export function senseCreatedEvent(ctx: DecisionContext, term: string, scope: ScopeId, definition: string): EventDraftOfType<'GlossarySenseUpdated'> {
  return {
    event_type: 'GlossarySenseUpdated',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    term_surface: term,
    scope,
    new_sense: { surface: term, scope, definition, confidence: 1.0, status: 'active' },
    actor: ctx.actor,
    update_type: 'create',
    provenance: provenance(ctx),
  };
}

export function requestedEvent(ctx: DecisionContext, conflictId: string, term: string, stepId: string, options: readonly string[], urgency: Severity): EventDraftOfType<'GlossaryClarificationRequested'> {
  return {
    event_type: 'GlossaryClarificationRequested',
    mission_id: ctx.missionId,
    run_id: ctx.runId,
    question: clarificationQuestion(term),
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
