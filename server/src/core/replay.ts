/**
 * Replay (SPEC §7): valid events → the glossary state they add on top of the seeds. The result
 * depends only on the *set* of events (with their places in their logs), never on the order they
 * arrive in, so the same logs give byte-identical state on every machine.
 *
 * Rules (also in docs/events.md):
 * - Replay order is (effective clock, seq, timestamp as an instant, event_id). A line with a
 *   lamport_clock has it as effective clock and seq 0; a line without one (Spec Kitty writes
 *   none) inherits the highest clock of the lines before it in its file and seq = its line
 *   number, so it keeps its place in file order (see `LogPosition`). Copies of one event (same
 *   event_id) count once; lines without event_id are all distinct. Only the three state-changing
 *   types matter; the other five never change the state and are ignored.
 * - GlossarySenseUpdated upserts a sense keyed by (scope, surface, definition, and the mission
 *   for `mission_local`): the latest event of a key gives the sense's content (status,
 *   confidence, provenance), the earliest its position in `addedSenses`. So `update` replaces
 *   the sense an earlier event added with that key, or else adds one (which shadows a seed sense
 *   with that key; the resolver decides), and a re-sent `create` never duplicates a sense. The
 *   event's top-level `scope` is authoritative; a different `new_sense.scope` is reported.
 *   `mission_local` senses keep their mission in `origin.missionId` and apply only to it
 *   (see `sensesForMission`). A placeholder definition (SPEC §3) adds nothing and is reported.
 * - GlossaryClarificationResolved pins `selected_sense` for (mission_id, normalized
 *   term_surface); the latest pin wins. It needs no prior Requested (the editor resolves
 *   directly), and closes the Requested with its conflict_id wherever that is in the logs.
 *   The first Resolved of a conflict closes it; later ones are reported (one problem per
 *   conflict) but their pins still apply. A selected sense whose scope is not one of the four
 *   (Spec Kitty's CLI writes "unknown" for a candidate built from a request's options) is pinned
 *   in the scope of the event sense with that definition, else in `team_domain`, Spec Kitty's
 *   scope for decisions. A placeholder definition closes the conflict but pins nothing.
 * - GlossaryClarificationRequested is open until any Resolved has its conflict_id. Repeated
 *   Requested for one conflict keep the first and are reported (one problem per conflict).
 *   An open Requested marked as a reopening (events/decisions.ts `reopenQuestion`: the editor's
 *   "Reopen") that comes after the latest pin of its (mission, term) in replay order reopens the
 *   question: the pin no longer applies; the next Resolved pins again and closes it. Any other
 *   request after a pin (Spec Kitty's pipeline asks about every conflict it sees, decided or not)
 *   leaves the pin, which holds "from then on" (SPEC §6).
 * - Spec Kitty's pipeline answers a clarification with a custom definition by writing the
 *   Requested and, on the next line of the same log, a GlossarySenseUpdated, and no Resolved. So
 *   an active sense created or updated for (mission, term) on the line right after a still-open
 *   Requested of that mission and term answers it: the request is closed and the sense is
 *   pinned, exactly as our own custom decision (SenseUpdated + Resolved) would.
 *
 * Speed and memory: `add` folds each event into per-group aggregates (first and last in replay
 * order per sense key, pin key and conflict), so nothing is sorted but the final groups and no
 * parsed event is kept. Because copies of an event are identical, folding them in twice changes
 * nothing. (Two *different* lines sharing an event_id — a corrupted copy — are both folded in;
 * the result is still deterministic.)
 */
import type { LoggedEvent, LoggedEventOfType, LogPosition, WireSenseRef } from './events/types';
import { isReopenQuestion } from './events/decisions';
import { instantOf } from './events/timestamp';
import { normalizeSurface } from './normalize';
import { isPlaceholderDefinition } from './placeholder';
import { isScopeId, SCOPE_ORDER, SENSE_STATUSES, type OpenClarification, type Pin, type ReplayProblem, type ReplayState, type ScopeId, type Sense, type SenseRef, type SenseStatus, type Severity } from './types';

export { replayToJson, sensesForMission, type ReplayJson } from './events/replayJson';

/** The replay order key of an event. */
export interface ReplayKey {
  /** The effective clock: the event's lamport_clock, or the one it inherits (`LogPosition`). */
  lamport: number;
  /** 0 for a line with a clock; the line number for a line without one. */
  seq: number;
  timestamp: string;
  /** '' when the line has none. */
  eventId: string;
  /** What tells events apart: the event_id, or for a line without one its place in its log. */
  ident: string;
  /** 1-based line in its log; 0 when unknown. */
  line: number;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 1: ends in `Z`; 2: ends in `+00:00`; 0: no offset; -1: another offset (compare as instants). */
function utcShape(t: string): number {
  const n = t.length;
  const last = t.charCodeAt(n - 1);
  if (last === 90 /* Z */) return 1;
  const sign = t.charCodeAt(n - 6);
  if (sign === 43 /* + */ || sign === 45 /* - */) return sign === 43 && t.endsWith('00:00', n) ? 2 : -1;
  const signNoColon = t.charCodeAt(n - 5);
  return signNoColon === 43 || signNoColon === 45 ? -1 : 0;
}

/**
 * Timestamps compared as instants. Two timestamps of one writer have the same shape and compare
 * as strings (the common case, no parsing); ours (`…Z`, milliseconds) and Spec Kitty's
 * (`…+00:00`, microseconds) differ in shape and are parsed, and so do a `T` and a space between
 * date and time.
 */
export function compareTimestamps(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === b.length && a.charCodeAt(10) === b.charCodeAt(10)) {
    const shape = utcShape(a);
    if (shape >= 0 && shape === utcShape(b)) return compareStrings(a, b);
  }
  const [ams, ans] = instantOf(a);
  const [bms, bns] = instantOf(b);
  return ams < bms ? -1 : ams > bms ? 1 : ans - bns || compareStrings(a, b);
}

export function compareReplayOrder(a: ReplayKey, b: ReplayKey): number {
  return a.lamport - b.lamport || a.seq - b.seq || compareTimestamps(a.timestamp, b.timestamp) || compareStrings(a.eventId, b.eventId) || compareStrings(a.ident, b.ident);
}

/** The replay key of an event read at `position` (without one: its own clock, or 0). */
export function replayKeyOf(event: Pick<LoggedEvent, 'lamport_clock' | 'timestamp' | 'event_id' | 'mission_id'>, position?: LogPosition): ReplayKey {
  const line = position?.line ?? 0;
  const eventId = event.event_id ?? '';
  return {
    lamport: position?.clock ?? event.lamport_clock ?? 0,
    seq: position?.seq ?? 0,
    timestamp: event.timestamp,
    eventId,
    ident: eventId !== '' ? eventId : `line ${line} of the log of ${event.mission_id}`,
    line,
  };
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
  sense: WireSenseRef;
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
  return { lamport: r.lamport, seq: r.seq, timestamp: r.timestamp, eventId: r.eventId, ident: r.ident, line: r.line, missionId: r.missionId, conflictId: r.conflictId };
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

function problemAt(key: ReplayKey, missionId: string, message: string): ReplayProblem {
  return { eventId: key.eventId, missionId, message, ...(key.line > 0 ? { line: key.line } : {}) };
}

/** A problem about a conflict, placed in replay order at its latest event. */
function duplicateProblem(last: ConflictMark, message: string): { key: ReplayKey; problem: ReplayProblem } {
  return { key: last, problem: problemAt(last, last.missionId, message) };
}

/** How an event is named in a problem message: its id, or its line. */
function nameOf(key: ReplayKey): string {
  return key.eventId !== '' ? key.eventId : key.ident;
}

/** Collects events one at a time (e.g. while streaming a log), then builds the state once. */
export interface ReplayAccumulator {
  /** `position`: where the event was read (`EventLogParser`); without it, its own clock orders it. */
  add(event: LoggedEvent, position?: LogPosition): void;
  finish(): ReplayState;
}

export function createReplayAccumulator(): ReplayAccumulator {
  return new Accumulator();
}

/** An event with the place it was read at. */
export interface PositionedEvent {
  event: LoggedEvent;
  position: LogPosition;
}

export function replayEvents(events: Iterable<LoggedEvent | PositionedEvent>): ReplayState {
  const acc = new Accumulator();
  for (const item of events) {
    if ('event_type' in item) acc.add(item);
    else acc.add(item.event, item.position);
  }
  return acc.finish();
}

class Accumulator implements ReplayAccumulator {
  /** By scope, owning mission ('' unless `mission_local`), surface, definition. */
  private senses: Nested<Nested<Nested<Nested<Group<SenseRecord>>>>> = new Map();
  /** By mission, normalized term. */
  private pins: Nested<Nested<Group<ResolveRecord>>> = new Map();
  /** Active senses on lines without a clock, by mission and line: answers to open requests (Spec Kitty). */
  private answers = new Map<string, Map<number, SenseRecord>>();
  /** Requests and resolutions by conflict id: one map entry per conflict. */
  private conflicts = new Map<string, Conflict>();
  /** Per-event problems found while adding, by event identity (copies report once). */
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

  add(event: LoggedEvent, position?: LogPosition): void {
    if (this.finished) throw new Error('replay accumulator already finished');
    // Written out field by field (no spreads, closures or added properties: each record is one
    // literal of a fixed shape): this runs once per event of a million-event replay. So the
    // replay key goes to the steps below as plain values, not as an object made per event.
    const lamport = position !== undefined ? position.clock : (event.lamport_clock ?? 0);
    const seq = position !== undefined ? position.seq : 0;
    const line = position !== undefined ? position.line : 0;
    const eventId = event.event_id ?? '';
    const missionId = this.mission(event.mission_id);
    const ident = eventId !== '' ? eventId : `line ${line} of the log of ${missionId}`;
    const timestamp = event.timestamp;
    switch (event.event_type) {
      case 'GlossaryClarificationRequested':
        return this.addRequested(event, lamport, seq, timestamp, eventId, ident, line, missionId);
      case 'GlossaryClarificationResolved':
        return this.addResolved(event, lamport, seq, timestamp, eventId, ident, line, missionId);
      case 'GlossarySenseUpdated':
        return this.addSenseUpdated(event, lamport, seq, timestamp, eventId, ident, line, missionId);
      default:
        return; // audit-only event types never change the state
    }
  }

  private addRequested(event: LoggedEventOfType<'GlossaryClarificationRequested'>, lamport: number, seq: number, timestamp: string, eventId: string, ident: string, line: number, missionId: string): void {
    const conflict = this.conflict(event.conflict_id);
    if (conflict.resolutionFirst !== undefined) {
      conflict.addRequest({ lamport, seq, timestamp, eventId, ident, line, missionId, conflictId: conflict.id });
      return;
    }
    const record: RequestRecord = {
      lamport,
      seq,
      timestamp,
      eventId,
      ident,
      line,
      missionId,
      conflictId: conflict.id,
      stepId: (this.lastStep = this.repeated(event.step_id, this.lastStep)),
      term: this.normalize(event.term),
      question: event.question,
      options: event.options,
      urgency: severityOf(event.urgency),
    };
    conflict.addRequest(record);
  }

  private addResolved(event: LoggedEventOfType<'GlossaryClarificationResolved'>, lamport: number, seq: number, timestamp: string, eventId: string, ident: string, line: number, missionId: string): void {
    const conflict = this.conflict(event.conflict_id);
    const record: ResolveRecord = {
      lamport,
      seq,
      timestamp,
      eventId,
      ident,
      line,
      missionId,
      conflictId: conflict.id,
      term: this.normalize(event.term_surface),
      sense: event.selected_sense,
      actorId: (this.lastActor = this.repeated(event.actor.actor_id, this.lastActor)),
    };
    conflict.addResolution({ lamport, seq, timestamp, eventId, ident, line, missionId, conflictId: conflict.id });
    if (isPlaceholderDefinition(event.selected_sense.definition, record.term)) {
      this.reportOnce(record, missionId, `the selected sense of '${record.term}' has a placeholder definition ("${event.selected_sense.definition}"); the conflict is closed but nothing is pinned`);
      return;
    }
    fold(inner(this.pins, missionId), record.term, record);
  }

  private addSenseUpdated(event: LoggedEventOfType<'GlossarySenseUpdated'>, lamport: number, seq: number, timestamp: string, eventId: string, ident: string, line: number, missionId: string): void {
    const sense = event.new_sense;
    const record: SenseRecord = {
      lamport,
      seq,
      timestamp,
      eventId,
      ident,
      line,
      missionId,
      surface: this.normalize(sense.surface),
      scope: scopeOf(event.scope),
      definition: sense.definition,
      confidence: sense.confidence,
      status: statusOf(sense.status) ?? 'draft',
      actorId: (this.lastActor = this.repeated(event.actor.actor_id, this.lastActor)),
      source: (this.lastSource = this.repeated(event.provenance.source, this.lastSource)),
    };
    if (statusOf(sense.status) === undefined) {
      this.reportOnce(record, missionId, `new_sense.status '${sense.status}' of '${record.surface}' is not active, draft or deprecated; it is read as draft, as Spec Kitty reads it`);
    }
    if (sense.scope !== event.scope) {
      this.reportOnce(record, missionId, `new_sense.scope ${sense.scope} differs from the event's scope ${event.scope}; the event's scope is used`);
    }
    if (isPlaceholderDefinition(sense.definition, record.surface)) {
      this.reportOnce(record, missionId, `the definition of '${record.surface}' is a placeholder ("${sense.definition}"); the sense is not added until it is written`);
      return;
    }
    this.foldSense(record);
    // A sense on a line without a clock may be Spec Kitty's answer to the request on the line
    // before it (see pairAnswers); our own senses always come with a Resolved.
    if (record.status === 'active' && seq > 0) this.noteAnswer(record);
  }

  private foldSense(record: SenseRecord): void {
    const owner = record.scope === 'mission_local' ? record.missionId : '';
    const bySurface = inner(inner(inner(this.senses, record.scope), owner), record.surface);
    const group = bySurface.get(record.definition);
    if (group === undefined) bySurface.set(record.definition, new Group(record));
    else {
      record.definition = group.first.definition; // the same text: keep one copy
      group.add(record);
    }
  }

  private noteAnswer(record: SenseRecord): void {
    let byLine = this.answers.get(record.missionId);
    if (byLine === undefined) this.answers.set(record.missionId, (byLine = new Map()));
    byLine.set(record.line, record);
  }

  /** A problem about one event; copies of the event report it once (the first in order wins). */
  private reportOnce(key: ReplayKey, missionId: string, message: string): void {
    const id = `${key.ident}\u0000${message}`;
    const reported = this.eventProblems.get(id);
    if (reported === undefined || before(key, reported.key)) this.eventProblems.set(id, { key, problem: problemAt(key, missionId, message) });
  }

  finish(): ReplayState {
    this.finished = true;
    const problems = [...this.eventProblems.values()];
    let open: RequestRecord[] = [];
    for (const conflict of this.conflicts.values()) {
      const { resolutionFirst, resolutionLast, requestFirst, requestLast } = conflict;
      if (resolutionFirst !== undefined && conflict.resolutionIds !== undefined) {
        problems.push(duplicateProblem(resolutionLast!, `conflict ${conflict.id} was resolved by ${conflict.resolutionIds.size} events; the first (${nameOf(resolutionFirst)}) closed it, the later ones (latest ${nameOf(resolutionLast!)}) still pin their senses`));
      }
      if (requestFirst === undefined) continue;
      if (conflict.requestIds !== undefined) {
        problems.push(duplicateProblem(requestLast!, `conflict ${conflict.id} was requested by ${conflict.requestIds.size} events; the first (${nameOf(requestFirst)}) is kept`));
      }
      // Never resolved, so never slimmed: `requestFirst` is a full record.
      if (resolutionFirst === undefined) open.push(requestFirst as RequestRecord);
    }
    open.sort(compareRecords);
    const answered = this.pairAnswers(open);
    if (answered.size > 0) open = open.filter((r) => !answered.has(r));
    problems.sort((a, b) => compareReplayOrder(a.key, b.key) || compareStrings(a.problem.message, b.problem.message));

    const addedSenses = [...groupsOf<SenseRecord>(this.senses, 4)].sort((a, b) => compareRecords(a.first, b.first)).map((g) => toSense(g.last));
    const latestPins = new Map<string, ResolveRecord>();
    for (const group of groupsOf<ResolveRecord>(this.pins, 2)) latestPins.set(`${group.last.missionId}\u0000${group.last.term}`, group.last);
    for (const pin of answered.values()) {
      const id = `${pin.missionId}\u0000${pin.term}`;
      const known = latestPins.get(id);
      if (known === undefined || before(known, pin)) latestPins.set(id, pin);
    }
    // Reopening: a clarification of (mission, term) requested after the pin as a reopening and
    // still open asks the question again, so the term is no longer pinned until it is answered.
    // Any other request leaves the pin (SPEC §6: resolved "from then on"): Spec Kitty's pipeline
    // asks about every conflict it sees, decided or not.
    for (const request of open) {
      if (!isReopenQuestion(request.question)) continue;
      const id = `${request.missionId}\u0000${request.term}`;
      const pin = latestPins.get(id);
      if (pin !== undefined && before(pin, request)) latestPins.delete(id);
    }
    const state: ReplayState = {
      addedSenses,
      pins: [...latestPins.values()].sort(compareRecords).map((r) => toPin(r, addedSenses)),
      openClarifications: open.map(toOpen),
      problems: problems.map((p) => p.problem),
    };
    for (const map of [this.senses, this.pins, this.answers, this.conflicts, this.eventProblems, this.normalized, this.strings]) {
      map.clear();
    }
    this.lastConflict = undefined;
    return state;
  }

  /**
   * Spec Kitty's custom answers: its pipeline writes a request and, on the very next line of the
   * same log, the sense it was answered with (and no Resolved). Such a sense answers that request
   * only; a sense written after a Resolved (its CLI's custom definition) or anywhere else answers
   * nothing. Returns the answered requests with the pin each answer makes.
   */
  private pairAnswers(open: readonly RequestRecord[]): Map<RequestRecord, ResolveRecord> {
    const answered = new Map<RequestRecord, ResolveRecord>();
    for (const request of open) {
      if (request.line === 0) continue;
      const answer = this.answers.get(request.missionId)?.get(request.line + 1);
      if (answer === undefined || answer.surface !== request.term) continue;
      answered.set(request, {
        lamport: answer.lamport,
        seq: answer.seq,
        timestamp: answer.timestamp,
        eventId: answer.eventId,
        ident: answer.ident,
        line: answer.line,
        missionId: request.missionId,
        conflictId: request.conflictId,
        term: request.term,
        sense: { surface: answer.surface, scope: answer.scope, definition: answer.definition, confidence: answer.confidence },
        actorId: answer.actorId,
      });
    }
    return answered;
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
 * (first and last in replay order, distinct events when more than one) but inline: one object
 * per conflict instead of three, for the ~100,000 conflicts of a large replay.
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
    if (record.ident !== first.ident || this.requestIds !== undefined) {
      this.requestIds ??= new Set([first.ident]);
      this.requestIds.add(record.ident);
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
    if (mark.ident !== first.ident || this.resolutionIds !== undefined) {
      this.resolutionIds ??= new Set([first.ident]);
      this.resolutionIds.add(mark.ident);
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

/** The status as one of ours (an interned string), or undefined for a word Spec Kitty reads as draft. */
function statusOf(status: string): SenseStatus | undefined {
  for (const known of SENSE_STATUSES) if (known === status) return known;
  return undefined;
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

/**
 * The scope a pin names. Another writer may name none of the four ("unknown"): the scope of the
 * event sense of that term and definition the mission sees, else team_domain (where Spec Kitty
 * puts every decision it records).
 */
function pinScope(r: ResolveRecord, added: readonly Sense[]): ScopeId {
  if (isScopeId(r.sense.scope)) return scopeOf(r.sense.scope);
  const match = added.find(
    (s) => s.surface === r.term && s.definition === r.sense.definition && (s.scope !== 'mission_local' || (s.origin.kind === 'event' && s.origin.missionId === r.missionId)),
  );
  return match?.scope ?? 'team_domain';
}

function toPin(r: ResolveRecord, added: readonly Sense[]): Pin {
  const s = r.sense;
  const sense: SenseRef = { surface: s.surface, scope: pinScope(r, added), definition: s.definition, confidence: s.confidence };
  const guessed = isScopeId(s.scope) ? {} : { scopeGuessed: true as const };
  return { missionId: r.missionId, term: r.term, sense, ...guessed, conflictId: r.conflictId, eventId: r.eventId, actorId: r.actorId, timestamp: r.timestamp };
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
