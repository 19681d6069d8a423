/**
 * Required fields of each event type (seed 000, exact wire names) as `Check`s, in two flavours:
 *
 * - **write**: what we write and validate before appending — every seed-000 field, strictly.
 * - **read**: what a log line may hold (SPEC §7 "Reading"). It accepts every line Spec Kitty's
 *   code writes: `event_id`, `lamport_clock`, `mission_id`, `run_id` may be missing, provenance
 *   timestamps may be empty, a finding's `term` may be `{"surface_text": …}`, strictness may be
 *   `"None"`, a selected or candidate sense may name a scope outside the four (its CLI writes
 *   `"unknown"` for a candidate built from a request's options), a new sense's status may be a
 *   word other than active, draft and deprecated (read as draft, as Spec Kitty's reader does).
 *
 * Only what seed 000 lists is checked; anything else on a line is tolerated so newer writers
 * (and Spec Kitty's extra fields such as `semantic_check_event_id`) stay readable.
 */
import { SCOPE_ORDER, SENSE_STATUSES } from '../types';
import {
  anyOf,
  arrayOf,
  bool,
  emptyString,
  isoTimestamp,
  nonEmpty,
  nonNegativeInt,
  object,
  oneOf,
  optional,
  str,
  unitInterval,
  uuid,
  wholeNumber,
  type Check,
  type Shape,
} from './check';
import type { EventType } from './types';

const scope = oneOf(SCOPE_ORDER);
const severity = oneOf(['low', 'medium', 'high']);
const strictness = oneOf(['off', 'medium', 'max']);
const conflictType = oneOf(['unknown', 'ambiguous', 'inconsistent', 'unresolved_critical']);

export const senseRef: Check = object({ surface: nonEmpty, scope, definition: nonEmpty, confidence: unitInterval });

const actor = object({
  actor_id: nonEmpty,
  actor_type: oneOf(['human', 'llm', 'service']),
  display_name: str,
});


const scopeRef = object({ scope, version_id: nonEmpty });

/** What differs between writing and reading; the rest of every shape is shared. */
interface Flavour {
  /** A sense reference inside a finding or a resolution. */
  senseRef: Check;
  /** A finding's `term`. */
  term: Check;
  /** `effective_strictness` (and `strictness_mode` of a block). */
  reportedStrictness: Check;
  provenanceTimestamp: Check;
  /** `new_sense.status`. */
  senseStatus: Check;
}

const WRITE: Flavour = { senseRef, term: nonEmpty, reportedStrictness: strictness, provenanceTimestamp: isoTimestamp, senseStatus: oneOf(SENSE_STATUSES) };

const READ: Flavour = {
  senseRef: object({ surface: nonEmpty, scope: nonEmpty, definition: nonEmpty, confidence: unitInterval }),
  term: anyOf('a non-empty string or {"surface_text": …}', nonEmpty, object({ surface_text: nonEmpty })),
  reportedStrictness: oneOf(['off', 'medium', 'max', 'None']),
  provenanceTimestamp: anyOf('an ISO 8601 timestamp or ""', isoTimestamp, emptyString),
  // (Spec Kitty reads a status it does not know as draft; so does replay, with a warning.)
  senseStatus: nonEmpty,
};

function typeShapes(f: Flavour): Readonly<Record<EventType, Shape>> {
  const finding = object({ term: f.term, conflict_type: conflictType, severity, confidence: unitInterval, candidate_senses: arrayOf(f.senseRef), context: str });
  const provenance = object({ source: nonEmpty, timestamp: f.provenanceTimestamp, actor_id: nonEmpty });
  const termSense = object({ surface: nonEmpty, scope, definition: nonEmpty, confidence: unitInterval, status: f.senseStatus });
  return {
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
      findings: arrayOf(finding),
      overall_severity: severity,
      confidence: unitInterval,
      effective_strictness: f.reportedStrictness,
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
      selected_sense: f.senseRef,
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
      conflicts: arrayOf(finding),
      strictness_mode: f.reportedStrictness,
      effective_strictness: f.reportedStrictness,
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
}

/** Assigned by the store when it appends; absent from drafts. */
export const SEALED_SHAPE: Shape = { event_id: uuid, timestamp: isoTimestamp, lamport_clock: nonNegativeInt };

/** Present on every event and every draft besides `event_type`. */
export const COMMON_SHAPE: Shape = { mission_id: nonEmpty, run_id: nonEmpty };

/** The fields specific to each type, as we write them. */
export const TYPE_SHAPES: Readonly<Record<EventType, Shape>> = typeShapes(WRITE);

/**
 * Envelope of a line read from a log. `timestamp` is required (every writer stamps its lines);
 * a clock may be any non-negative integer here, the reader decides whether it is trusted
 * (`MAX_TRUSTED_CLOCK`). An empty `mission_id` counts as absent.
 */
export const READ_ENVELOPE_SHAPE: Shape = {
  event_id: optional(nonEmpty),
  timestamp: isoTimestamp,
  lamport_clock: optional(wholeNumber),
  mission_id: optional(str),
  run_id: optional(str),
};

/** The fields specific to each type, as a log line may hold them. */
export const READ_TYPE_SHAPES: Readonly<Record<EventType, Shape>> = typeShapes(READ);
