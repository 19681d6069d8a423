/**
 * Decisions taken at the CLI (`resolve`, the `--interactive` prompt, non-interactive defer):
 * which senses a term can be pinned to, which clarifications a decision closes, and the event
 * drafts it appends. The drafts come from the builders the language server uses too
 * (core/events/decisions.ts), so a decision looks the same whoever records it.
 */

import { randomUUID } from 'node:crypto';
import { rankSenses, resolveTerm } from '../../core/check/resolve';
import type { GlossaryEventDraft } from '../../core/events/types';
import type { OpenClarification, Pin, ReplayState, ScopeId, SenseRef, Severity } from '../../core/types';
import type { WorkspaceSnapshot } from '../../node/workspace';
import { conflictIdsToClose as idsToClose, requestedEvent, resolvedEvent, senseCreatedEvent } from '../../core/events/decisions';
import { decisionContext, type RunContext } from './runContext';

/** Where a custom definition goes unless told otherwise (as in Spec Kitty, SPEC §8). */
export const DEFAULT_CUSTOM_SCOPE: ScopeId = 'team_domain';

/** `interactive` for an answer at the prompt, `async` for `spec-glossary resolve` (a later decision). */
export type ResolutionMode = 'interactive' | 'async';

export interface TermChoices {
  /** Normalized term. */
  term: string;
  /** The scope whose senses are offered; null when no scope holds the term. */
  scope: ScopeId | null;
  /** Candidate senses in the one order used everywhere: confidence descending, then file order. */
  candidates: SenseRef[];
  /** The mission's current pin of the term, if any. */
  pin?: Pin;
}

/**
 * The senses `--sense N` and the prompt's `1..N` number, for a term in a mission: the candidate
 * senses of its finding when it has one (ambiguous: the deciding scope's non-deprecated senses;
 * a synonym to avoid: the preferred term's senses; only deprecated senses: those), and for a term
 * that already resolves, the non-deprecated senses of its deciding scope (so a pin can still be
 * set or changed). Pins are ignored here: the choice is offered afresh.
 */
export function choicesFor(snapshot: WorkspaceSnapshot, missionId: string, term: string): TermChoices {
  const glossary = snapshot.glossaryFor(missionId);
  const pin = snapshot.pinsFor(missionId).get(term);
  const resolution = resolveTerm(term, glossary, new Map());
  const withPin = <T extends object>(value: T): T & { pin?: Pin } => (pin ? { ...value, pin } : value);
  switch (resolution.kind) {
    case 'ambiguous':
    case 'synonym_to_avoid':
    case 'deprecated_only':
      return withPin({ term, scope: resolution.scope, candidates: resolution.candidates });
    case 'resolved': {
      const live = glossary.sensesOf(term).filter((s) => s.status !== 'deprecated' && s.scope === resolution.scope);
      return withPin({ term, scope: resolution.scope, candidates: rankSenses(live) });
    }
    default:
      return withPin({ term, scope: null, candidates: [] });
  }
}

/** Open clarifications of (mission, term) in a replayed state (a workspace's, or a log's under the writers' lock), oldest first. */
export function openClarificationsOf(state: Pick<ReplayState, 'openClarifications'>, missionId: string, term: string): OpenClarification[] {
  return state.openClarifications.filter((c) => c.missionId === missionId && c.term === term);
}

/**
 * The conflict ids a decision on (mission, term) resolves: every clarification still open for
 * it (each gets its own Resolved, so none stays open after the term is decided), or a new uuid4
 * when none is open.
 */
export function conflictIdsToClose(open: readonly OpenClarification[]): string[] {
  return idsToClose(open, randomUUID);
}

export function pickDrafts(run: RunContext, missionId: string, conflictIds: readonly string[], term: string, sense: SenseRef, mode: ResolutionMode): GlossaryEventDraft[] {
  const ctx = decisionContext(missionId, run);
  return conflictIds.map((id) => resolvedEvent(ctx, id, term, sense, mode));
}

/** A custom definition: GlossarySenseUpdated (create, active, confidence 1.0), then Resolved selecting it. */
export function customDrafts(run: RunContext, missionId: string, conflictIds: readonly string[], term: string, scope: ScopeId, definition: string, mode: ResolutionMode): { drafts: GlossaryEventDraft[]; sense: SenseRef } {
  const ctx = decisionContext(missionId, run);
  const created = senseCreatedEvent(ctx, term, scope, definition);
  const sense: SenseRef = { surface: created.new_sense.surface, scope, definition, confidence: created.new_sense.confidence };
  return { drafts: [created, ...pickDrafts(run, missionId, conflictIds, term, sense, mode)], sense };
}

/** Defer: GlossaryClarificationRequested with the candidate definitions as options, in candidate order. */
export function deferDraft(run: RunContext, missionId: string, term: string, stepId: string, candidates: readonly SenseRef[], urgency: Severity): { draft: GlossaryEventDraft; conflictId: string } {
  const conflictId = randomUUID();
  const draft = requestedEvent(decisionContext(missionId, run), conflictId, term, stepId, candidates.map((c) => c.definition), urgency);
  return { draft, conflictId };
}
