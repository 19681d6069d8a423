/**
 * Replay (SPEC §7): valid events → the glossary state they add on top of the seeds. The result
 * depends only on the *set* of events, never on the order they arrive in, so the same logs give
 * byte-identical state on every machine.
 *
 * Rules (also in docs/events.md):
 * - Replay order is (lamport_clock, timestamp compared as a string, event_id). Copies of one
 *   event (same event_id) count once. Only the three state-changing types matter; the other five
 *   never change the state and are ignored.
 * - GlossarySenseUpdated upserts a sense keyed by (scope, surface, definition, and the mission
 *   for `mission_local`): the latest event of a key gives the sense's content (status,
 *   confidence, provenance), the earliest its position in `addedSenses`. So `update` replaces
 *   the sense an earlier event added with that key, or else adds one (which shadows a seed sense
 *   with that key; the resolver decides), and a re-sent `create` never duplicates a sense. The
 *   event's top-level `scope` is authoritative; a different `new_sense.scope` is reported.
 *   `mission_local` senses keep their mission in `origin.missionId` and apply only to it
 *   (see `sensesForMission`).
 * - GlossaryClarificationResolved pins `selected_sense` for (mission_id, normalized
 *   term_surface); the latest pin wins. It needs no prior Requested (the editor resolves
 *   directly), and closes the Requested with its conflict_id wherever that is in the logs.
 *   The first Resolved of a conflict closes it; later ones are reported (one problem per
 *   conflict) but their pins still apply.
 * - GlossaryClarificationRequested is open until any Resolved has its conflict_id. Repeated
 *   Requested for one conflict keep the first and are reported (one problem per conflict).
 *
 * Speed and memory: `add` folds each event into per-group aggregates (first and last in replay
 * order per sense key, pin key and conflict), so nothing is sorted but the final groups and no
 * parsed event is kept. Because copies of an event are identical, folding them in twice changes
 * nothing. (Two *different* lines sharing an event_id — a corrupted copy — are both folded in;
 * the result is still deterministic.)
 */
import type { GlossaryEvent } from './events/types';
import { normalizeSurface } from './normalize';
import { SCOPE_ORDER, SENSE_STATUSES, type OpenClarification, type Pin, type ReplayProblem, type ReplayState, type ScopeId, type Sense, type SenseRef, type SenseStatus, type Severity } from './types';

export { replayToJson, sensesForMission, type ReplayJson } from './events/replayJson';

/** The replay order key of an event. */
export interface ReplayKey {
  lamport: number;
  timestamp: string;
  eventId: string;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareReplayOrder(a: ReplayKey, b: ReplayKey): number {
  return a.lamport - b.lamport || compareStrings(a.timestamp, b.timestamp) || compareStrings(a.eventId, b.eventId);
}

/**
 * Total order on records: by replay key, then by content. The content only decides between
 * different lines sharing an event_id and clock (a corrupted copy), which keeps even that
 * case independent of input order.
 */
function compareRecords(a: ReplayKey, b: ReplayKey): number {
  const byKey = compareReplayOrder(a, b);
  if (byKey !== 0 || a === b) return byKey;
  return compareStrings(JSON.stringify(a), JSON.stringify(b));
}

function before(a: ReplayKey, b: ReplayKey): boolean {
  return compareRecords(a, b) < 0;
}

// Flat records, one object per event; the final objects are built only for group winners.
// Records keep references into the parsed event (strings, the selected sense, the options
// list); only group winners outlive `add`, so the rest is young garbage.
interface RequestRecord extends ConflictMark {
  stepId: string;
  term: string;
  question: string;
  options: string[];
  urgency: Severity;
}
interface ConflictMark extends ReplayKey {
  missionId: string;
  conflictId: string;
}
interface ResolveRecord extends ReplayKey {
  missionId: string;
  conflictId: string;
  term: string;
  sense: SenseRef;
  actorId: string;
}
interface SenseRecord extends ReplayKey {
  missionId: string;
  surface: string;
  scope: ScopeId;
  definition: string;
  confidence: number;
  status: SenseStatus;
  actorId: string;
  source: string;
}

/** Records sharing a key: the first and last in replay order. */
class Group<T extends ReplayKey> {
  first: T;
  last: T;

  constructor(record: T) {
    this.first = record;
    this.last = record;
  }

  add(record: T): void {
    if (before(record, this.first)) this.first = record;
    if (before(this.last, record)) this.last = record;
  }
}

function toMark(r: ConflictMark): ConflictMark {
  return { lamport: r.lamport, timestamp: r.timestamp, eventId: r.eventId, missionId: r.missionId, conflictId: r.conflictId };
}

function markOf(e: { lamport_clock: number; timestamp: string; event_id: string }, missionId: string, conflictId: string): ConflictMark {
  return { lamport: e.lamport_clock, timestamp: e.timestamp, eventId: e.event_id, missionId, conflictId };
}

function fold<T extends ReplayKey>(groups: Map<string, Group<T>>, key: string, record: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, new Group(record));
  else group.add(record);
}

/** Maps nested one level per key part: no joined key string is built (and hashed) per event. */
type Nested<V> = Map<string, V>;

function inner<V>(map: Nested<Nested<V>>, key: string): Nested<V> {
  let next = map.get(key);
  if (next === undefined) {
    next = new Map();
    map.set(key, next);
  }
  return next;
}

function* groupsOf<T extends ReplayKey>(map: Nested<unknown>, depth: number): Generator<Group<T>> {
  for (const value of map.values()) {
    if (depth === 1) yield value as Group<T>;
    else yield* groupsOf<T>(value as Nested<unknown>, depth - 1);
  }
}

/** A problem about a conflict, placed in replay order at its latest event. */
function duplicateProblem(last: ConflictMark, message: string): { key: ReplayKey; problem: ReplayProblem } {
  return { key: last, problem: { eventId: last.eventId, missionId: last.missionId, message } };
}

/** Collects events one at a time (e.g. while streaming a log), then builds the state once. */
export interface ReplayAccumulator {
  add(event: GlossaryEvent): void;
  finish(): ReplayState;
}

export function createReplayAccumulator(): ReplayAccumulator {
  return new Accumulator();
}

export function replayEvents(events: Iterable<GlossaryEvent>): ReplayState {
  const acc = new Accumulator();
  for (const event of events) acc.add(event);
  return acc.finish();
}

class Accumulator implements ReplayAccumulator {
  /** By scope, owning mission ('' unless `mission_local`), surface, definition. */
  private senses: Nested<Nested<Nested<Nested<Group<SenseRecord>>>>> = new Map();
  /** By mission, normalized term. */
  private pins: Nested<Nested<Group<ResolveRecord>>> = new Map();
  /** Requests and resolutions by conflict id: one map entry per conflict. */
  private conflicts = new Map<string, Conflict>();
  /** Per-event problems found while adding, by event id (copies report once). */
  private eventProblems = new Map<string, { key: ReplayKey; problem: ReplayProblem }>();
  // Surfaces repeat across events and normalizing costs more than a lookup.
  private normalized = new Map<string, string>();
  /**
   * One string per distinct value of the fields that repeat (missions, actors, sources, step
   * ids). Records that outlive `add` then share these instead of each keeping the copy its
   * parsed event made; equal content, so nothing observable changes, but far fewer objects
   * survive into the old generation (a sixth of replay time was garbage collection).
   */
  private strings = new Map<string, string>();
  // The previous value of each field: consecutive events mostly repeat it, and comparing is
  // cheaper than hashing the new copy for a lookup.
  private lastMission = '';
  private lastActor = '';
  private lastSource = '';
  private lastStep = '';
  private lastConflict: Conflict | undefined;
  private lastSurface: string | undefined;
  private lastNormalized = '';
  private finished = false;

  add(event: GlossaryEvent): void {
    if (this.finished) throw new Error('replay accumulator already finished');
    // Written out field by field (no spreads or closures): this runs once per event of a
    // million-event replay.
    switch (event.event_type) {
      case 'GlossaryClarificationRequested': {
        const conflict = this.conflict(event.conflict_id);
        if (conflict.resolutionFirst !== undefined) {
          conflict.addRequest(markOf(event, this.mission(event.mission_id), conflict.id));
          return;
        }
        const record: RequestRecord = {
          lamport: event.lamport_clock,
          timestamp: event.timestamp,
          eventId: event.event_id,
          missionId: this.mission(event.mission_id),
          conflictId: conflict.id,
          stepId: (this.lastStep = this.repeated(event.step_id, this.lastStep)),
          term: this.normalize(event.term),
          question: event.question,
          options: event.options,
          urgency: severityOf(event.urgency),
        };
        conflict.addRequest(record);
        return;
      }
      case 'GlossaryClarificationResolved': {
        const conflict = this.conflict(event.conflict_id);
        const record: ResolveRecord = {
          lamport: event.lamport_clock,
          timestamp: event.timestamp,
          eventId: event.event_id,
          missionId: this.mission(event.mission_id),
          conflictId: conflict.id,
          term: this.normalize(event.term_surface),
          sense: event.selected_sense,
          actorId: (this.lastActor = this.repeated(event.actor.actor_id, this.lastActor)),
        };
        conflict.addResolution(markOf(event, record.missionId, conflict.id));
        fold(inner(this.pins, record.missionId), record.term, record);
        return;
      }
      case 'GlossarySenseUpdated': {
        const sense = event.new_sense;
        const record: SenseRecord = {
          lamport: event.lamport_clock,
          timestamp: event.timestamp,
          eventId: event.event_id,
          missionId: this.mission(event.mission_id),
          surface: this.normalize(sense.surface),
          scope: scopeOf(event.scope),
          definition: sense.definition,
          confidence: sense.confidence,
          status: statusOf(sense.status),
          actorId: (this.lastActor = this.repeated(event.actor.actor_id, this.lastActor)),
          source: (this.lastSource = this.repeated(event.provenance.source, this.lastSource)),
        };
        // Keyed by event id so copies report once; among differing copies the first in order wins.
        const reported = sense.scope !== event.scope ? this.eventProblems.get(record.eventId) : undefined;
        if (sense.scope !== event.scope && (reported === undefined || before(record, reported.key))) {
          this.eventProblems.set(record.eventId, {
            key: record,
            problem: {
              eventId: record.eventId,
              missionId: record.missionId,
              message: `new_sense.scope ${sense.scope} differs from the event's scope ${event.scope}; the event's scope is used`,
            },
          });
        }
        const owner = record.scope === 'mission_local' ? record.missionId : '';
        const bySurface = inner(inner(inner(this.senses, record.scope), owner), record.surface);
        const group = bySurface.get(record.definition);
        if (group === undefined) bySurface.set(record.definition, new Group(record));
        else {
          record.definition = group.first.definition; // the same text: keep one copy
          group.add(record);
        }
        return;
      }
      default:
        return; // audit-only event types never change the state
    }
  }

  finish(): ReplayState {
    this.finished = true;
    const problems = [...this.eventProblems.values()];
    const open: RequestRecord[] = [];
    for (const conflict of this.conflicts.values()) {
      const { resolutionFirst, resolutionLast, requestFirst, requestLast } = conflict;
      if (resolutionFirst !== undefined && conflict.resolutionIds !== undefined) {
        problems.push(duplicateProblem(resolutionLast!, `conflict ${conflict.id} was resolved by ${conflict.resolutionIds.size} events; the first (${resolutionFirst.eventId}) closed it, the later ones (latest ${resolutionLast!.eventId}) still pin their senses`));
      }
      if (requestFirst === undefined) continue;
      if (conflict.requestIds !== undefined) {
        problems.push(duplicateProblem(requestLast!, `conflict ${conflict.id} was requested by ${conflict.requestIds.size} events; the first (${requestFirst.eventId}) is kept`));
      }
      // Never resolved, so never slimmed: `requestFirst` is a full record.
      if (resolutionFirst === undefined) open.push(requestFirst as RequestRecord);
    }
    problems.sort((a, b) => compareReplayOrder(a.key, b.key) || compareStrings(a.problem.message, b.problem.message));

    const state: ReplayState = {
      addedSenses: [...groupsOf<SenseRecord>(this.senses, 4)].sort((a, b) => compareRecords(a.first, b.first)).map((g) => toSense(g.last)),
      pins: [...groupsOf<ResolveRecord>(this.pins, 2)].map((g) => g.last).sort(compareRecords).map(toPin),
      openClarifications: open.sort(compareRecords).map(toOpen),
      problems: problems.map((p) => p.problem),
    };
    for (const map of [this.senses, this.pins, this.conflicts, this.eventProblems, this.normalized, this.strings]) {
      map.clear();
    }
    this.lastConflict = undefined;
    return state;
  }

  private normalize(text: string): string {
    // Consecutive events are often about one term (requested, resolved, sense updated).
    if (text === this.lastSurface) return this.lastNormalized;
    let result = this.normalized.get(text);
    if (result === undefined) {
      result = normalizeSurface(text);
      this.normalized.set(text, result);
    }
    this.lastSurface = text;
    return (this.lastNormalized = result);
  }

  private intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /** A log holds one mission's events, so the previous mission id almost always matches. */
  private mission(id: string): string {
    return (this.lastMission = this.repeated(id, this.lastMission));
  }

  /** The shared copy of `text`, trying the field's previous value before the table. */
  private repeated(text: string, last: string): string {
    return text === last ? last : this.intern(text);
  }

  private conflict(id: string): Conflict {
    // A Resolved usually follows its Requested: a comparison saves the lookup.
    if (this.lastConflict !== undefined && id === this.lastConflict.id) return this.lastConflict;
    let conflict = this.conflicts.get(id);
    if (conflict === undefined) {
      conflict = new Conflict(id);
      this.conflicts.set(id, conflict);
    }
    return (this.lastConflict = conflict);
  }
}

/**
 * The requests and resolutions of one conflict id, each side kept as a `Group` would keep it
 * (first and last in replay order, distinct event ids when more than one) but inline: one
 * object per conflict instead of three, for the ~100,000 conflicts of a large replay.
 */
class Conflict {
  /**
   * Full records only while the conflict may still be open; once a Resolved is seen they are
   * slimmed to marks, so memory follows the open clarifications, not every request ever made.
   */
  requestFirst: RequestRecord | ConflictMark | undefined = undefined;
  requestLast: RequestRecord | ConflictMark | undefined = undefined;
  requestIds: Set<string> | undefined = undefined;
  /** Slim records: a conflict's resolutions matter here only for closing and reporting. */
  resolutionFirst: ConflictMark | undefined = undefined;
  resolutionLast: ConflictMark | undefined = undefined;
  resolutionIds: Set<string> | undefined = undefined;

  /** `id` is the first copy of the conflict id seen; records share it. */
  constructor(readonly id: string) {}

  addRequest(record: RequestRecord | ConflictMark): void {
    const first = this.requestFirst;
    if (first === undefined) {
      this.requestFirst = this.requestLast = record;
      return;
    }
    if (record.eventId !== first.eventId || this.requestIds !== undefined) {
      this.requestIds ??= new Set([first.eventId]);
      this.requestIds.add(record.eventId);
    }
    if (before(record, first)) this.requestFirst = record;
    if (before(this.requestLast!, record)) this.requestLast = record;
  }

  addResolution(mark: ConflictMark): void {
    const first = this.resolutionFirst;
    if (first === undefined) {
      this.resolutionFirst = this.resolutionLast = mark;
      // The first resolution closes the conflict: its requests are slimmed to marks.
      if (this.requestFirst !== undefined) {
        const slim = toMark(this.requestFirst);
        this.requestLast = this.requestLast === this.requestFirst ? slim : toMark(this.requestLast!);
        this.requestFirst = slim;
      }
      return;
    }
    if (mark.eventId !== first.eventId || this.resolutionIds !== undefined) {
      this.resolutionIds ??= new Set([first.eventId]);
      this.resolutionIds.add(mark.eventId);
    }
    if (before(mark, first)) this.resolutionFirst = mark;
    if (before(this.resolutionLast!, mark)) this.resolutionLast = mark;
  }
}

// The few values these fields can take (validation guarantees one of them), as constants.
function scopeOf(scope: ScopeId): ScopeId {
  for (const known of SCOPE_ORDER) if (known === scope) return known;
  return scope;
}

function statusOf(status: SenseStatus): SenseStatus {
  for (const known of SENSE_STATUSES) if (known === status) return known;
  return status;
}

const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high'];
function severityOf(severity: Severity): Severity {
  for (const known of SEVERITIES) if (known === severity) return known;
  return severity;
}

function toSense(r: SenseRecord): Sense {
  return {
    surface: r.surface,
    scope: r.scope,
    definition: r.definition,
    confidence: r.confidence,
    status: r.status,
    synonymsToAvoid: [],
    seeAlso: [],
    origin: { kind: 'event', eventId: r.eventId, missionId: r.missionId, actorId: r.actorId, timestamp: r.timestamp, source: r.source },
  };
}

function toPin(r: ResolveRecord): Pin {
  const s = r.sense;
  const sense: SenseRef = { surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence };
  return { missionId: r.missionId, term: r.term, sense, conflictId: r.conflictId, eventId: r.eventId, actorId: r.actorId, timestamp: r.timestamp };
}

function toOpen(r: RequestRecord): OpenClarification {
  return {
    conflictId: r.conflictId,
    missionId: r.missionId,
    stepId: r.stepId,
    term: r.term,
    question: r.question,
    options: [...r.options],
    urgency: r.urgency,
    eventId: r.eventId,
    timestamp: r.timestamp,
  };
}
