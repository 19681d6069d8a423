/**
 * How the features name things for a person: a timestamp without its milliseconds, a mission by
 * its folder name under `kitty-specs/` (its id beside it where there is room, as on hover).
 */

import { missionName } from '../core/check/wording';
import type { CheckedDocument } from './types';

/** `2026-02-16T12:05:00.000Z` → `2026-02-16 12:05 UTC`; another shape is shown as it is. */
export function shortTimestamp(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]00:?00)$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** The document's mission as people name it (`001-checkout-flow`). */
export function missionOf(doc: Pick<CheckedDocument, 'missionId' | 'missionSlug'>): string {
  return missionName(doc.missionId, doc.missionSlug);
}

/** The mission with its id when the two differ: `001-checkout-flow (01JQ3W8K5V2N7R4T6Y9B0CXDEF)`. */
export function missionWithId(doc: Pick<CheckedDocument, 'missionId' | 'missionSlug'>): string {
  const name = missionOf(doc);
  return name === doc.missionId ? name : `${name} (${doc.missionId})`;
}
