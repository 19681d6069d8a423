/**
 * A tiny structural validator, hand written so the core has no runtime dependency and checking
 * a million events stays cheap. Each `Check` has two modes: `test` answers valid/invalid without
 * allocating (the hot path: almost every line is valid), and `explain` runs only for an invalid
 * value to produce "path: problem" messages naming the field.
 */
import { isIsoTimestamp } from './timestamp';

export interface Check {
  test(value: unknown): boolean;
  explain(value: unknown, path: string, errors: string[]): void;
}
export type Shape = Readonly<Record<string, Check>>;
export type Entries = ReadonlyArray<readonly [string, Check]>;

/** 8-4-4-4-12 hex digits, any case. A loop, not a regex: it runs for every event read. */
export function isUuid(v: string): boolean {
  if (v.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = v.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45 /* - */) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) {
      return false;
    }
  }
  return true;
}

/** Short description of a wrong value for an error message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function leaf(expected: string, test: (value: unknown) => boolean): Check {
  return {
    test,
    explain(value, path, errors) {
      if (!test(value)) errors.push(`${path}: expected ${expected}, got ${describe(value)}`);
    },
  };
}

export const str = leaf('a string', (v) => typeof v === 'string');

/** Identifiers and names: a string with something in it. */
export const nonEmpty = leaf('a non-empty string', (v) => typeof v === 'string' && v.length > 0 && (v.charCodeAt(0) > 32 || v.trim() !== ''));

export const bool = leaf('a boolean', (v) => typeof v === 'boolean');

export const nonNegativeInt = leaf('a non-negative integer', (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

/** Confidence values: a finite number in 0..1 (booleans and numeric strings are not numbers here). */
export const unitInterval = leaf('a number between 0 and 1', (v) => typeof v === 'number' && v >= 0 && v <= 1);

export const uuid = leaf('a uuid', (v) => typeof v === 'string' && isUuid(v));

export const isoTimestamp = leaf('an ISO 8601 timestamp', (v) => typeof v === 'string' && isIsoTimestamp(v));

export function oneOf(values: readonly string[]): Check {
  const allowed = new Set(values);
  return leaf(`one of ${values.join('|')}`, (v) => typeof v === 'string' && allowed.has(v));
}

export function arrayOf(item: Check): Check {
  return {
    test(v) {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (!item.test(v[i])) return false;
      return true;
    },
    explain(v, path, errors) {
      if (!Array.isArray(v)) errors.push(`${path}: expected an array, got ${describe(v)}`);
      else for (let i = 0; i < v.length; i++) item.explain(v[i], `${path}[${i}]`, errors);
    },
  };
}

/** True when every required field is present and valid; fields not listed are tolerated (forward compatibility). */
export function testFields(obj: Record<string, unknown>, entries: Entries): boolean {
  for (let i = 0; i < entries.length; i++) {
    const [key, check] = entries[i]!;
    const value = obj[key];
    if (value === undefined || !check.test(value)) return false;
  }
  return true;
}

export function explainFields(obj: Record<string, unknown>, entries: Entries, path: string, errors: string[]): void {
  for (const [key, check] of entries) {
    const fieldPath = path === '' ? key : `${path}.${key}`;
    const value = obj[key];
    if (value === undefined) errors.push(`${fieldPath}: required field is missing`);
    else check.explain(value, fieldPath, errors);
  }
}

export function object(shape: Shape): Check {
  const entries = Object.entries(shape);
  return {
    test: (v) => isPlainObject(v) && testFields(v, entries),
    explain(v, path, errors) {
      if (!isPlainObject(v)) errors.push(`${path}: expected an object, got ${describe(v)}`);
      else explainFields(v, entries, path, errors);
    },
  };
}
