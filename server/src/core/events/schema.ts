/**
 * Required fields of each event type (seed 000, exact wire names) as `Check`s. Only what seed 000
 * lists is required; anything else on a line is tolerated so newer writers stay readable.
 */
import { SCOPE_ORDER, SENSE_STATUSES } from '../types';
import {
  arrayOf,
  bool,
  isoTimestamp,
  nonEmpty,
  nonNegativeInt,
  object,
  oneOf,
  str,
  unitInterval,
  uuid,
  type Check,
  type Shape,
} from './check';
import type { EventType } from './types';

const scope = oneOf(SCOPE_ORDER);
const severity = oneOf(['low', 'medium', 'high']);
const strictness = oneOf(['off', 'medium', 'max']);

export const senseRef: Check = object({ surface: nonEmpty, scope, definition: nonEmpty, confidence: unitInterval });

const conflictFinding = object({
  term: nonEmpty,
  conflict_type: oneOf(['unknown', 'ambiguous', 'inconsistent', 'unresolved_critical']),
  severity,
  confidence: unitInterval,
  candidate_senses: arrayOf(senseRef),
  context: str,
});

const actor = object({
  actor_id: nonEmpty,
  actor_type: oneOf(['human', 'llm', 'service']),
  display_name: str,
});

const provenance = object({ source: nonEmpty, timestamp: isoTimestamp, actor_id: nonEmpty });

const termSense = object({
  surface: nonEmpty,
  scope,
  definition: nonEmpty,
  confidence: unitInterval,
  status: oneOf(SENSE_STATUSES),
});

const scopeRef = object({ scope, version_id: nonEmpty });

/** Assigned by the store when it appends; absent from drafts. */
export const SEALED_SHAPE: Shape = { event_id: uuid, timestamp: isoTimestamp, lamport_clock: nonNegativeInt };

/** Present on every event and every draft besides `event_type`. */
export const COMMON_SHAPE: Shape = { mission_id: nonEmpty, run_id: nonEmpty };

/** The fields specific to each type. */
export const TYPE_SHAPES: Readonly<Record<EventType, Shape>> = {
  GlossaryScopeActivated: { scope_id: scope, glossary_version_id: nonEmpty },
  TermCandidateObserved: {
    term: nonEmpty,
    source_step: nonEmpty,
    actor_id: nonEmpty,
    confidence: unitInterval,
    extraction_method: nonEmpty,
    context: str,
  },
  SemanticCheckEvaluated: {
    step_id: nonEmpty,
    findings: arrayOf(conflictFinding),
    overall_severity: severity,
    confidence: unitInterval,
    effective_strictness: strictness,
    recommended_action: oneOf(['proceed', 'warn', 'block']),
    blocked: bool,
  },
  GlossaryClarificationRequested: {
    question: nonEmpty,
    term: nonEmpty,
    options: arrayOf(str),
    urgency: severity,
    step_id: nonEmpty,
    conflict_id: nonEmpty,
  },
  GlossaryClarificationResolved: {
    conflict_id: nonEmpty,
    term_surface: nonEmpty,
    selected_sense: senseRef,
    actor,
    resolution_mode: oneOf(['interactive', 'async']),
    provenance,
  },
  GlossarySenseUpdated: {
    term_surface: nonEmpty,
    scope,
    new_sense: termSense,
    actor,
    update_type: oneOf(['create', 'update']),
    provenance,
  },
  GenerationBlockedBySemanticConflict: {
    step_id: nonEmpty,
    conflicts: arrayOf(conflictFinding),
    strictness_mode: strictness,
    effective_strictness: strictness,
  },
  StepCheckpointed: {
    step_id: nonEmpty,
    strictness,
    scope_refs: arrayOf(scopeRef),
    input_hash: nonEmpty,
    cursor: nonEmpty,
    retry_token: nonEmpty,
  },
};
