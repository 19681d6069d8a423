/**
 * Event timestamps. We write ISO 8601 UTC with milliseconds and `Z`
 * (`2026-02-16T12:00:00.000Z`, what `Date#toISOString` gives); we read the ISO 8601 dates and
 * date-times Spec Kitty's Python may write and read back with `datetime.fromisoformat`:
 * `isoformat()` with microseconds, `+00:00` or no offset, `str(datetime)` (a space for the `T`,
 * what `json.dumps(default=str)` writes for a datetime), minutes without seconds, a date alone.
 */

// Anchored, no backtracking: cheap enough to run on every event of a large log. Its groups are
// the parts `instantOf` reads: year, month, day, hour, minute, second, fraction, offset.
const ISO_DATE_TIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d|60)(?:[.,](\d{1,9}))?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

function digitsAt(value: string, positions: readonly number[]): boolean {
  for (const i of positions) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const CANONICAL_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];

/** Our own format, checked without a regex (it is on every event read); ranges as in the regex. */
function isCanonical(v: string): boolean {
  return (
    v.length === 24 &&
    v.charCodeAt(4) === 45 &&
    v.charCodeAt(7) === 45 &&
    v.charCodeAt(10) === 84 /* T */ &&
    v.charCodeAt(13) === 58 &&
    v.charCodeAt(16) === 58 &&
    v.charCodeAt(19) === 46 &&
    v.charCodeAt(23) === 90 /* Z */ &&
    digitsAt(v, CANONICAL_DIGITS) &&
    inRange(v, 5, 1, 12) &&
    inRange(v, 8, 1, 31) &&
    inRange(v, 11, 0, 23) &&
    inRange(v, 14, 0, 59) &&
    inRange(v, 17, 0, 60)
  );
}

function inRange(v: string, at: number, min: number, max: number): boolean {
  const n = (v.charCodeAt(at) - 48) * 10 + (v.charCodeAt(at + 1) - 48);
  return n >= min && n <= max;
}

export function isIsoTimestamp(value: string): boolean {
  return isCanonical(value) || ISO_DATE_TIME.test(value);
}

/**
 * An instant as [milliseconds since the epoch, nanoseconds below the millisecond]; [-Infinity, 0]
 * for a text that is no timestamp. Without an offset a time is UTC; a date alone is its midnight.
 */
export function instantOf(timestamp: string): [number, number] {
  const m = ISO_DATE_TIME.exec(timestamp);
  if (m === null) return [-Infinity, 0];
  const fraction = (m[7] ?? '').padEnd(9, '0');
  let ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) + Number(fraction.slice(0, 3));
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z') {
    const digits = zone.replace(':', '');
    const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
    ms -= (digits[0] === '-' ? -1 : 1) * minutes * 60_000;
  }
  return [ms, Number(fraction.slice(3))];
}

/** The timestamp we write for `date` (default: now). */
export function isoTimestamp(date: Date = new Date()): string {
  return date.toISOString();
}
