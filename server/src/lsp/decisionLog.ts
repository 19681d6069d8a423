/**
 * Appending a decision that depends on the log: which clarifications are open, whether the term
 * is pinned to that sense already, whether the sense is recorded. The plan is made against the
 * folder's snapshot first (nothing to do: no lock taken) and made again inside the writers' lock
 * against the mission's log as it is then, so a quick fix applied twice, by two editors or by
 * two servers at once, never closes a conflict already closed or records a sense twice.
 */

import type { GlossaryEvent, GlossaryEventDraft } from '../core/events/types';
import type { ReplayState } from '../core/types';
import type { AppendOptions } from '../node/eventStore';

/** What appends events (the EventStore of a workspace folder). */
export interface EventAppender {
  append(missionId: string, drafts: readonly GlossaryEventDraft[], options?: AppendOptions): Promise<GlossaryEvent[]>;
}

/** The events to write, or none and why (`nothing`: a message for the user). */
export interface DecisionPlan {
  drafts: GlossaryEventDraft[];
  nothing?: string;
}

export interface Appended {
  events: GlossaryEvent[];
  /** Set when nothing was written: why. */
  nothing?: string;
}

export async function appendPlanned(store: EventAppender, missionId: string, known: ReplayState, plan: (state: ReplayState) => DecisionPlan): Promise<Appended> {
  const first = plan(known);
  if (first.drafts.length === 0) return { events: [], nothing: first.nothing ?? 'Nothing to record.' };
  let inside: DecisionPlan | undefined;
  const events = await store.append(missionId, first.drafts, { underLock: (current) => (inside = plan(current)).drafts });
  return events.length > 0 ? { events } : { events, nothing: inside?.nothing ?? 'Nothing to record.' };
}
