/**
 * Plain data shared by every part of the core. Field names that leave the process (events, JSON
 * output) follow seed 000/001 exactly; in-memory names are camelCase.
 */

export const SCOPE_ORDER = ['mission_local', 'team_domain', 'audience_domain', 'spec_kitty_core'] as const;
export type ScopeId = (typeof SCOPE_ORDER)[number];

export function isScopeId(value: unknown): value is ScopeId {
  return typeof value === 'string' && (SCOPE_ORDER as readonly string[]).includes(value);
}

export type SenseStatus = 'active' | 'draft' | 'deprecated';
export const SENSE_STATUSES: readonly SenseStatus[] = ['active', 'draft', 'deprecated'];

export type ConflictType = 'unknown' | 'ambiguous' | 'inconsistent' | 'unresolved_critical';
export type Severity = 'low' | 'medium' | 'high';
export type Strictness = 'off' | 'medium' | 'max';
export type RecommendedAction = 'proceed' | 'warn' | 'block';

export type ExtractionMethod =
  | 'glossary_match'
  | 'metadata_hint'
  | 'quoted_phrase'
  | 'acronym'
  | 'casing_pattern'
  | 'repeated_noun';

/** Zero-based LSP position; `character` counts UTF-16 code units. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Where a sense came from: a seed file entry or an event in a log. */
export type SenseOrigin =
  | {
      kind: 'seed';
      /** Absolute path (or virtual path in tests) of the seed file. */
      file: string;
      /** Range of the list item in the seed file. */
      range: Range;
      /** Zero-based index of the entry in the file's `terms` list. */
      index: number;
      /** Where the entry's fields are written (diagnostics on one item, e.g. a `see_also` target). */
      fields?: SeedFieldRanges;
    }
  | {
      kind: 'event';
      /** '' when the event's line has none (Spec Kitty's CLI writes none). */
      eventId: string;
      missionId: string;
      actorId: string;
      timestamp: string;
      /** Provenance `source` of the event, e.g. "user_clarification". */
      source: string;
    }
  | { kind: 'bundled'; file: string; range: Range; index: number; fields?: SeedFieldRanges }
  | {
      /** An entry of a mission document's own vocabulary section (SPEC §3, core/missionVocabulary/). */
      kind: 'spec';
      /** Absolute path of the document. */
      file: string;
      /** The entry's term where the sense was read (the document may have moved it since). */
      range: Range;
      missionId: string;
      /** The mission as people name it, for provenance ("<mission slug> spec.md:<line>"). */
      missionSlug: string;
    };

/**
 * Where a seed entry writes its surface and each item of its lists, aligned with the sense's
 * `synonymsToAvoid` and `seeAlso` (a merged or aliased value: where the merge or alias is written).
 */
export interface SeedFieldRanges {
  surface: Range;
  synonymsToAvoid: Range[];
  seeAlso: Range[];
}

/** One meaning of a surface in one scope (seed 001 TermSense). */
export interface Sense {
  surface: string;
  scope: ScopeId;
  definition: string;
  confidence: number;
  status: SenseStatus;
  synonymsToAvoid: string[];
  seeAlso: string[];
  introducedInMission?: string;
  origin: SenseOrigin;
}

/** Seed 000 SenseRef: the wire shape of a candidate sense. */
export interface SenseRef {
  surface: string;
  scope: ScopeId;
  definition: string;
  confidence: number;
}

export function toSenseRef(sense: Sense): SenseRef {
  return { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence };
}

/** A problem found while reading a seed file, config or event log. */
export interface SourceProblem {
  code: string;
  message: string;
  severity: 'error' | 'warning';
  range: Range;
}

/** A term extracted from a document, with every occurrence. */
export interface TermCandidate {
  /** Normalized surface. */
  surface: string;
  method: ExtractionMethod;
  confidence: number;
  occurrences: Range[];
  /** Text as written at each occurrence (same order as `occurrences`). */
  texts: string[];
}

/** One finding = one occurrence of a conflicting term (SPEC §8 JSON shape, camelCase). */
export interface Finding {
  term: string;
  conflictType: ConflictType;
  severity: Severity;
  confidence: number;
  extractionMethod: ExtractionMethod;
  /** Deciding scope; null when no scope holds the term. */
  scope: ScopeId | null;
  range: Range;
  candidateSenses: SenseRef[];
  /** Human message, used by CLI text output and LSP diagnostics. */
  message: string;
  /** For `inconsistent` caused by a synonym to avoid: the surface to use instead. */
  replacement?: string;
  /** Why the finding is inconsistent (synonym, deprecated, contradiction). */
  reason?: 'synonym_to_avoid' | 'deprecated_only' | 'contradiction';
  /** Number of senses in the deciding scope (non-deprecated). */
  senseCount: number;
}

export const SEVERITY_RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3 };

/** A mission's chosen sense for a term, from a GlossaryClarificationResolved event. */
export interface Pin {
  missionId: string;
  /** Normalized term surface. */
  term: string;
  sense: SenseRef;
  /**
   * The deciding event named no scope of the four (Spec Kitty's CLI writes "unknown" for a
   * candidate built from a request's options): `sense.scope` is replay's guess, and whoever knows
   * the glossary takes the scope and confidence of its sense with that definition instead.
   */
  scopeGuessed?: true;
  conflictId: string;
  /** '' when the deciding event's line has none. */
  eventId: string;
  actorId: string;
  timestamp: string;
}

/** A GlossaryClarificationRequested not yet closed by a Resolved with its conflict_id. */
export interface OpenClarification {
  conflictId: string;
  missionId: string;
  stepId: string;
  term: string;
  question: string;
  options: string[];
  urgency: Severity;
  eventId: string;
  timestamp: string;
}

/**
 * What replaying the event logs adds on top of the seed files. The resolver combines it with
 * the seed senses; `spec-glossary replay` prints it.
 */
export interface ReplayState {
  /** Senses created or updated by GlossarySenseUpdated, in replay order. */
  addedSenses: Sense[];
  /** Latest pin per (mission, term), in replay order. */
  pins: Pin[];
  openClarifications: OpenClarification[];
  /** Inconsistencies among the events, in replay order (always set by core/replay.ts). */
  problems?: ReplayProblem[];
}

/**
 * Something inconsistent found while replaying valid events (a second Resolved for one
 * conflict, a repeated Requested, …). Reported, never fatal. Added for core/replay.ts.
 */
export interface ReplayProblem {
  /** '' when the event's line has none (Spec Kitty's CLI writes none). */
  eventId: string;
  missionId: string;
  message: string;
  /** 1-based line in the mission's log, when known. */
  line?: number;
}
