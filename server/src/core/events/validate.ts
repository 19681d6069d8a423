/**
 * Runtime validation of events read from a log and of drafts about to be appended. Errors are
 * "field.path: what is wrong" strings, so a message can name the exact field.
 */
import { describe, explainFields, isPlainObject, testFields, type Entries } from './check';
import { COMMON_SHAPE, READ_ENVELOPE_SHAPE, READ_TYPE_SHAPES, SEALED_SHAPE, TYPE_SHAPES } from './schema';
import { EVENT_TYPES, SEALED_FIELDS, type EventType, type GlossaryEvent, type GlossaryEventDraft } from './types';

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: string[] };

// Precomputed once: the per-event work is then a flat loop over [field, check] pairs.
const FULL: ReadonlyMap<string, Entries> = new Map(
  EVENT_TYPES.map((type) => [type, Object.entries({ ...SEALED_SHAPE, ...COMMON_SHAPE, ...TYPE_SHAPES[type] })]),
);
const DRAFT: ReadonlyMap<string, Entries> = new Map(
  EVENT_TYPES.map((type) => [type, Object.entries({ ...COMMON_SHAPE, ...TYPE_SHAPES[type] })]),
);
const READ: ReadonlyMap<string, Entries> = new Map(
  EVENT_TYPES.map((type) => [type, Object.entries({ ...READ_ENVELOPE_SHAPE, ...READ_TYPE_SHAPES[type] })]),
);

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && FULL.has(value);
}

function entriesFor(value: unknown, table: ReadonlyMap<string, Entries>, errors: string[]): Entries | undefined {
  if (!isPlainObject(value)) {
    errors.push(`event: expected a JSON object, got ${describe(value)}`);
    return undefined;
  }
  const type = value['event_type'];
  if (type === undefined) {
    errors.push('event_type: required field is missing');
    return undefined;
  }
  const entries = typeof type === 'string' ? table.get(type) : undefined;
  if (entries === undefined) errors.push(`event_type: unknown event type ${describe(type)}`);
  return entries;
}

/** Validates a sealed event (as read from a log, or about to be written). */
export function validateEvent(value: unknown): Validation<GlossaryEvent> {
  const errors: string[] = [];
  const entries = entriesFor(value, FULL, errors);
  if (entries === undefined) return { ok: false, errors };
  const obj = value as Record<string, unknown>;
  if (testFields(obj, entries)) return { ok: true, value: value as GlossaryEvent };
  explainFields(obj, entries, '', errors);
  return { ok: false, errors };
}

/**
 * Validates a line read from a log against what any writer may put there (SPEC §7 "Reading":
 * Spec Kitty's lines included). The value is not yet normalized: see `toLoggedEvent`.
 */
export function validateLogged(value: unknown): Validation<Record<string, unknown>> {
  const errors: string[] = [];
  const entries = entriesFor(value, READ, errors);
  if (entries === undefined) return { ok: false, errors };
  const obj = value as Record<string, unknown>;
  if (testFields(obj, entries)) return { ok: true, value: obj };
  explainFields(obj, entries, '', errors);
  return { ok: false, errors };
}

/** Validates a draft: every field but the ones the store assigns, which must be absent. */
export function validateDraft(value: unknown): Validation<GlossaryEventDraft> {
  const errors: string[] = [];
  const entries = entriesFor(value, DRAFT, errors);
  if (entries !== undefined) {
    const obj = value as Record<string, unknown>;
    for (const field of SEALED_FIELDS) {
      if (obj[field] !== undefined) errors.push(`${field}: assigned by the event store, leave it out of drafts`);
    }
    if (!testFields(obj, entries)) explainFields(obj, entries, '', errors);
  }
  return errors.length === 0 ? { ok: true, value: value as GlossaryEventDraft } : { ok: false, errors };
}
