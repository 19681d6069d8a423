/**
 * What the features say about a mission's decisions on a term: who pinned which sense and when
 * (with the event, so it can be found in the log), and since when a term is deferred.
 */

import type { OpenClarification, Pin } from '../core/types';
import type { CheckedDocument } from './types';
import { missionWithId, shortTimestamp } from './wording';

type Escape = (text: string) => string;

/** "Pinned for mission 001-checkout-flow (01J…) by user:alice on 2026-02-16 12:20 UTC: …" */
export function pinnedSummary(doc: Pick<CheckedDocument, 'missionId' | 'missionSlug'>, pin: Pin, strong: Escape, esc: Escape): string {
  const sense = pin.sense;
  return (
    `${strong('Pinned')} for mission ${esc(missionWithId(doc))} by ${esc(pin.actorId)} on ${shortTimestamp(pin.timestamp)}: ` +
    `"${esc(sense.definition)}" (${sense.scope}).`
  );
}

/** Where the pin is recorded, and how to change it. */
export function pinnedRecord(pin: Pin, esc: Escape): string {
  const event = pin.eventId !== '' ? `event ${esc(pin.eventId)}` : 'a log line without event_id';
  return `Recorded by ${event} (conflict ${esc(pin.conflictId)}). To change it: the quick fixes "Use … instead" or "Reopen … for clarification" on the term.`;
}

/** "Deferred since 2026-02-16 12:05 UTC: …" */
export function deferredLine(doc: Pick<CheckedDocument, 'missionId' | 'missionSlug'>, open: OpenClarification, strong: Escape, esc: Escape): string {
  const event = open.eventId !== '' ? `, event ${esc(open.eventId)}` : '';
  return (
    `${strong('Deferred')} since ${shortTimestamp(open.timestamp)}: a clarification is open for mission ${esc(missionWithId(doc))} ` +
    `(conflict ${esc(open.conflictId)}${event}, urgency ${open.urgency}); pick a sense or define the term to answer it.`
  );
}
