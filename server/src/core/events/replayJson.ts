/**
 * The JSON printed by `spec-glossary replay --mission M --json`: snake_case like every other
 * name that leaves the process, keys in a fixed order, arrays in replay order.
 *
 * {
 *   "mission_id": "M" | null,                  // null: every mission
 *   "senses": {                                 // senses added by events, per scope, in SCOPE_ORDER
 *     "mission_local":   [Sense], "team_domain": [Sense], "audience_domain": [Sense], "spec_kitty_core": [Sense]
 *   },                                          // Sense = {surface, scope, definition, confidence, status,
 *                                               //          event_id, mission_id, actor_id, timestamp, source}
 *   "pins": [{mission_id, term, selected_sense: {surface, scope, definition, confidence},
 *             conflict_id, event_id, actor_id, timestamp}],
 *   "open_clarifications": [{mission_id, conflict_id, term, question, options, urgency, step_id,
 *                            event_id, timestamp}],
 *   "problems": [{event_id, mission_id, line, message}]    // line: in the mission's log, or null
 * }
 *
 * `event_id` is null for an event whose line has none (Spec Kitty's CLI writes none).
 * With a mission, `mission_local` senses, pins, open clarifications and problems are those of
 * that mission; senses of the other scopes are shared by all missions and always listed.
 */
import { SCOPE_ORDER, type ReplayState, type ScopeId, type Sense, type SenseRef } from '../types';

export interface ReplaySenseJson {
  surface: string;
  scope: ScopeId;
  definition: string;
  confidence: number;
  status: string;
  event_id: string | null;
  mission_id: string | null;
  actor_id: string | null;
  timestamp: string | null;
  source: string | null;
}

export interface ReplayJson {
  mission_id: string | null;
  senses: Record<ScopeId, ReplaySenseJson[]>;
  pins: Array<{
    mission_id: string;
    term: string;
    selected_sense: SenseRef;
    conflict_id: string;
    event_id: string | null;
    actor_id: string;
    timestamp: string;
  }>;
  open_clarifications: Array<{
    mission_id: string;
    conflict_id: string;
    term: string;
    question: string;
    options: string[];
    urgency: string;
    step_id: string;
    event_id: string | null;
    timestamp: string;
  }>;
  problems: Array<{ event_id: string | null; mission_id: string; line: number | null; message: string }>;
}

/** Senses that apply to `missionId`: every non-`mission_local` sense plus that mission's own. */
export function sensesForMission(senses: readonly Sense[], missionId: string): Sense[] {
  return senses.filter(
    (s) => s.scope !== 'mission_local' || (s.origin.kind === 'event' ? s.origin.missionId === missionId : true),
  );
}

function senseJson(sense: Sense): ReplaySenseJson {
  const event = sense.origin.kind === 'event' ? sense.origin : undefined;
  return {
    surface: sense.surface,
    scope: sense.scope,
    definition: sense.definition,
    confidence: sense.confidence,
    status: sense.status,
    event_id: event?.eventId || null,
    mission_id: event?.missionId ?? null,
    actor_id: event?.actorId ?? null,
    timestamp: event?.timestamp ?? null,
    source: event?.source ?? null,
  };
}

export function replayToJson(state: ReplayState, missionId?: string): ReplayJson {
  const ofMission = <T extends { missionId: string }>(items: readonly T[]): T[] =>
    missionId === undefined ? [...items] : items.filter((item) => item.missionId === missionId);
  const senses = missionId === undefined ? state.addedSenses : sensesForMission(state.addedSenses, missionId);
  const byScope = Object.fromEntries(SCOPE_ORDER.map((scope) => [scope, [] as ReplaySenseJson[]])) as Record<ScopeId, ReplaySenseJson[]>;
  for (const sense of senses) byScope[sense.scope].push(senseJson(sense));
  return {
    mission_id: missionId ?? null,
    senses: byScope,
    pins: ofMission(state.pins).map((p) => ({
      mission_id: p.missionId,
      term: p.term,
      selected_sense: { surface: p.sense.surface, scope: p.sense.scope, definition: p.sense.definition, confidence: p.sense.confidence },
      conflict_id: p.conflictId,
      event_id: p.eventId || null,
      actor_id: p.actorId,
      timestamp: p.timestamp,
    })),
    open_clarifications: ofMission(state.openClarifications).map((o) => ({
      mission_id: o.missionId,
      conflict_id: o.conflictId,
      term: o.term,
      question: o.question,
      options: [...o.options],
      urgency: o.urgency,
      step_id: o.stepId,
      event_id: o.eventId || null,
      timestamp: o.timestamp,
    })),
    problems: ofMission(state.problems ?? []).map((p) => ({ event_id: p.eventId || null, mission_id: p.missionId, line: p.line ?? null, message: p.message })),
  };
}
