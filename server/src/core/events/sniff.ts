/**
 * Reading one field of a log line without `JSON.parse`, for the two hot paths that need only
 * that field: replay skipping audit-only event types, and the store finding the highest
 * lamport clock in a large log. Both fall back to a full parse when the text is unusual.
 */

import { EVENT_TYPES, MAX_TRUSTED_CLOCK, type EventType } from './types';

const EVENT_TYPE_KEY = '"event_type"';
const EVENT_TYPE_TAIL = 'vent_type"';
const LAMPORT_KEY = '"lamport_clock"';

function skipSpaces(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++i);
  return i;
}

// Known type names by length, to recognise a value in place without slicing it out.
const TYPES_BY_LENGTH = new Map<number, EventType[]>();
for (const type of EVENT_TYPES) {
  const list = TYPES_BY_LENGTH.get(type.length) ?? [];
  list.push(type);
  TYPES_BY_LENGTH.set(type.length, list);
}

/**
 * Position of the first `"event_type"` in `text[from, to)`, or -1. Searches for `vent_type"`:
 * a first character that is rare in JSON makes the native search several times faster than one
 * starting with `"`, which occurs every few characters.
 */
function findEventTypeKey(text: string, from: number, to: number): number {
  let at = text.indexOf(EVENT_TYPE_TAIL, from);
  while (at >= 0 && at < to) {
    // `"event_type"` with an unescaped opening quote (an escaped one would make it part of a string).
    if (at - 2 >= from && text.charCodeAt(at - 1) === 101 /* e */ && text.charCodeAt(at - 2) === 34 /* " */ && text.charCodeAt(at - 3) !== 92 /* \ */) {
      return at - 2;
    }
    at = text.indexOf(EVENT_TYPE_TAIL, at + 1);
  }
  return -1;
}

/** The known type named by the value after the key at `at`, or undefined. */
function typeValueAt(text: string, at: number, to: number): EventType | undefined {
  let i = skipSpaces(text, at + EVENT_TYPE_KEY.length);
  if (text.charCodeAt(i) !== 58 /* : */) return undefined;
  i = skipSpaces(text, i + 1);
  if (text.charCodeAt(i) !== 34 /* " */) return undefined;
  const end = text.indexOf('"', i + 1);
  if (end < 0 || end >= to) return undefined;
  const candidates = TYPES_BY_LENGTH.get(end - i - 1);
  if (candidates === undefined) return undefined;
  for (const type of candidates) if (text.startsWith(type, i + 1)) return type;
  return undefined;
}

/**
 * True when position `at` of the line starting at `from` is directly inside the line's outer
 * object (not in a nested object, e.g. an extension field holding another event).
 */
function isTopLevel(text: string, from: number, at: number): boolean {
  if (text.charCodeAt(from) !== 123 /* { */) return false;
  // Fast path: no other `{` before `at`.
  const brace = text.indexOf('{', from + 1);
  if (brace < 0 || brace > at) return true;
  // Otherwise count nesting, skipping strings (e.g. the `conflicts` list before `event_type`).
  let depth = 1;
  for (let i = from + 1; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Jump to the string's closing quote: the first `"` after an even run of backslashes.
      const open = i;
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0 || i >= at) {
          i = at; // the string runs past `at`: the scan ends there
          break;
        }
        let slashes = 0;
        while (i - slashes - 1 > open && text.charCodeAt(i - slashes - 1) === 92 /* \\ */) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return depth === 1;
}

/**
 * The `event_type` of the JSON line `text[from, to)` when it is a known type read with
 * certainty; undefined when absent, unknown, escaped or not a top-level key, so the caller parses
 * the line instead. Works on positions in a larger text (a whole chunk of a log), because slicing
 * every line out first costs more than the search itself.
 */
export function sniffEventType(text: string, from = 0, to = text.length): EventType | undefined {
  // Inside a JSON string every quote is escaped, so an unescaped `"event_type"` is a key (or a
  // whole string value, which the `:` test in typeValueAt rejects).
  const at = findEventTypeKey(text, from, to);
  if (at < 0) return undefined;
  const type = typeValueAt(text, at, to);
  return type !== undefined && isTopLevel(text, from, at) ? type : undefined;
}

/**
 * True when the line `text[from, to)` certainly holds an event of a type `wants` rejects. The
 * nesting check, the only costly part, runs only for lines about to be skipped: a wanted line is
 * parsed anyway, and parsing is always right.
 */
export function isSniffedUnwanted(text: string, from: number, to: number, wants: (type: EventType) => boolean): boolean {
  const at = findEventTypeKey(text, from, to);
  if (at < 0) return false;
  const type = typeValueAt(text, at, to);
  return type !== undefined && !wants(type) && isTopLevel(text, from, at);
}

/**
 * The integer value after the `"lamport_clock"` key at `at`, or -1 when it is not a trusted clock
 * (not an integer, or beyond MAX_TRUSTED_CLOCK: such a clock is ignored, see types.ts).
 */
function clockValueAt(text: string, at: number): number {
  let i = skipSpaces(text, at + LAMPORT_KEY.length);
  if (text.charCodeAt(i) !== 58 /* : */) return -1;
  i = skipSpaces(text, i + 1);
  let value = 0;
  let digits = 0;
  let c = text.charCodeAt(i);
  while (c >= 48 && c <= 57) {
    value = value * 10 + (c - 48);
    digits++;
    c = text.charCodeAt(++i);
  }
  // A fraction or exponent is not a valid clock; ignore the value rather than misread it.
  return digits > 0 && c !== 46 && c !== 101 && c !== 69 && value <= MAX_TRUSTED_CLOCK ? value : -1;
}

/**
 * The highest trusted clock following any `"lamport_clock":` key in `text`, or -1. Counting every
 * occurrence (even in a torn line or a nested field) can only raise the result, and a next clock
 * above every clock present is all the store needs. Clocks beyond MAX_TRUSTED_CLOCK are ignored,
 * so one hostile line cannot push every later append past the safe integers.
 */
export function maxLamportInText(text: string): number {
  let max = -1;
  for (let at = text.indexOf(LAMPORT_KEY); at >= 0; at = text.indexOf(LAMPORT_KEY, at + LAMPORT_KEY.length)) {
    const value = clockValueAt(text, at);
    if (value > max) max = value;
  }
  return max;
}
