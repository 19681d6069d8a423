/**
 * Wire types of the eight glossary events (seed 000, SPEC §7). Field names are snake_case and
 * spelled exactly as Spec Kitty writes them, because these objects are serialized as they are;
 * `events.example.jsonl` shows one line of each type.
 */
import type { ConflictType, ScopeId, SenseRef, SenseStatus, Severity, Strictness, RecommendedAction } from '../types';

export type { SenseRef } from '../types';

export const EVENT_TYPES = [
  'GlossaryScopeActivated',
  'TermCandidateObserved',
  'SemanticCheckEvaluated',
  'GlossaryClarificationRequested',
  'GlossaryClarificationResolved',
  'GlossarySenseUpdated',
  'GenerationBlockedBySemanticConflict',
  'StepCheckpointed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type ActorType = 'human' | 'llm' | 'service';
export type ResolutionMode = 'interactive' | 'async';
export type UpdateType = 'create' | 'update';

/** Fields every event carries (seed 000 rule 5 plus the store-assigned identity and clock). */
export interface EventEnvelope {
  event_type: EventType;
  /** uuid4, assigned by the store. */
  event_id: string;
  /** ISO 8601 UTC, assigned by the store (`Date#toISOString`). */
  timestamp: string;
  /** Non-negative integer, one more than the highest in the mission's log. */
  lamport_clock: number;
  mission_id: string;
  run_id: string;
}

export interface ConflictFinding {
  term: string;
  conflict_type: ConflictType;
  severity: Severity;
  confidence: number;
  candidate_senses: SenseRef[];
  context: string;
}

export interface ActorIdentity {
  actor_id: string;
  actor_type: ActorType;
  display_name: string;
}

export interface Provenance {
  source: string;
  timestamp: string;
  actor_id: string;
}

export interface TermSense {
  surface: string;
  scope: ScopeId;
  definition: string;
  confidence: number;
  status: SenseStatus;
}

export interface ScopeRef {
  scope: ScopeId;
  version_id: string;
}

export interface GlossaryScopeActivated extends EventEnvelope {
  event_type: 'GlossaryScopeActivated';
  scope_id: ScopeId;
  glossary_version_id: string;
}

export interface TermCandidateObserved extends EventEnvelope {
  event_type: 'TermCandidateObserved';
  term: string;
  source_step: string;
  actor_id: string;
  confidence: number;
  /** Our extractors write an `ExtractionMethod`; other writers may use other names, so any string is read. */
  extraction_method: string;
  context: string;
}

export interface SemanticCheckEvaluated extends EventEnvelope {
  event_type: 'SemanticCheckEvaluated';
  step_id: string;
  findings: ConflictFinding[];
  overall_severity: Severity;
  confidence: number;
  effective_strictness: Strictness;
  recommended_action: RecommendedAction;
  blocked: boolean;
}

export interface GlossaryClarificationRequested extends EventEnvelope {
  event_type: 'GlossaryClarificationRequested';
  question: string;
  term: string;
  options: string[];
  urgency: Severity;
  step_id: string;
  conflict_id: string;
}

export interface GlossaryClarificationResolved extends EventEnvelope {
  event_type: 'GlossaryClarificationResolved';
  conflict_id: string;
  term_surface: string;
  selected_sense: SenseRef;
  actor: ActorIdentity;
  resolution_mode: ResolutionMode;
  provenance: Provenance;
}

export interface GlossarySenseUpdated extends EventEnvelope {
  event_type: 'GlossarySenseUpdated';
  term_surface: string;
  scope: ScopeId;
  new_sense: TermSense;
  actor: ActorIdentity;
  update_type: UpdateType;
  provenance: Provenance;
}

export interface GenerationBlockedBySemanticConflict extends EventEnvelope {
  event_type: 'GenerationBlockedBySemanticConflict';
  step_id: string;
  conflicts: ConflictFinding[];
  strictness_mode: Strictness;
  effective_strictness: Strictness;
}

export interface StepCheckpointed extends EventEnvelope {
  event_type: 'StepCheckpointed';
  step_id: string;
  strictness: Strictness;
  scope_refs: ScopeRef[];
  input_hash: string;
  cursor: string;
  retry_token: string;
}

export type GlossaryEvent =
  | GlossaryScopeActivated
  | TermCandidateObserved
  | SemanticCheckEvaluated
  | GlossaryClarificationRequested
  | GlossaryClarificationResolved
  | GlossarySenseUpdated
  | GenerationBlockedBySemanticConflict
  | StepCheckpointed;

/** The event with the given `event_type`. */
export type EventOfType<T extends EventType> = Extract<GlossaryEvent, { event_type: T }>;

/** Fields the store assigns when it appends (identity, time, clock). */
export const SEALED_FIELDS = ['event_id', 'timestamp', 'lamport_clock'] as const;
export type SealedField = (typeof SEALED_FIELDS)[number];

// Distributive so that each member of the union keeps its own discriminated fields.
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as callers build it, before the store seals it with id, timestamp and clock. */
export type GlossaryEventDraft = DistributiveOmit<GlossaryEvent, SealedField>;
export type EventDraftOfType<T extends EventType> = Extract<GlossaryEventDraft, { event_type: T }>;

// ---------------------------------------------------------------------------------------------
// Reading (SPEC §7 "Reading"): a log may hold lines of other writers, Spec Kitty above all, which
// leave out what only we write. `LoggedEvent` is an event as the reader hands it on: the fields
// below may be absent, `mission_id` is always set (from the log's file name when the line has
// none), and a finding's `term` is always a string (Spec Kitty writes `{"surface_text": …}`).
// ---------------------------------------------------------------------------------------------

/** Fields a line of another writer may leave out. */
export type ForeignOptionalField = 'event_id' | 'lamport_clock' | 'run_id';

/** A sense reference as another writer may write it: Spec Kitty's CLI writes `"scope": "unknown"`. */
export interface WireSenseRef {
  surface: string;
  scope: string;
  definition: string;
  confidence: number;
}

/** Strictness as read: Spec Kitty writes `"None"` when its pipeline had not resolved one yet. */
export type ReadStrictness = Strictness | 'None';

export interface LoggedFinding extends Omit<ConflictFinding, 'candidate_senses'> {
  candidate_senses: WireSenseRef[];
}

type Logged<E extends GlossaryEvent, Over = unknown> = Omit<E, ForeignOptionalField | keyof Over> &
  Over & { event_id?: string; lamport_clock?: number; run_id?: string };

export type LoggedEvent =
  | Logged<GlossaryScopeActivated>
  | Logged<TermCandidateObserved>
  | Logged<SemanticCheckEvaluated, { findings: LoggedFinding[]; effective_strictness: ReadStrictness }>
  | Logged<GlossaryClarificationRequested>
  | Logged<GlossaryClarificationResolved, { selected_sense: WireSenseRef }>
  | Logged<GlossarySenseUpdated>
  | Logged<GenerationBlockedBySemanticConflict, { conflicts: LoggedFinding[]; effective_strictness: ReadStrictness; strictness_mode: ReadStrictness }>
  | Logged<StepCheckpointed>;

export type LoggedEventOfType<T extends EventType> = Extract<LoggedEvent, { event_type: T }>;

/**
 * Where a line sits in replay order (SPEC §7; docs/events.md "Order"): a line with a clock has
 * `clock` = its lamport_clock and `seq` 0; a line without one inherits the highest clock of the
 * lines before it in its file and `seq` = its line number, so it keeps its place in file order.
 */
export interface LogPosition {
  clock: number;
  seq: number;
  /** 1-based line number in the log (for messages). */
  line: number;
}

/**
 * Clocks above this are not trusted (no writer reaches them by counting; a hand edit or a hostile
 * line does): such a line is read as if it had no clock, with a warning, and the next clock we
 * write ignores it, so one line cannot make every later append overflow (issue 19).
 */
export const MAX_TRUSTED_CLOCK = 2 ** 52;

/** Event types whose events change the replayed glossary state; the others are audit-only. */
export const STATE_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'GlossaryClarificationRequested',
  'GlossaryClarificationResolved',
  'GlossarySenseUpdated',
]);
