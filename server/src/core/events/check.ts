/**
 * A tiny structural validator, hand written so the core has no runtime dependency and checking
 * a million events stays cheap. Each `Check` has two modes: `test` answers valid/invalid without
 * allocating (the hot path: almost every line is valid), and `explain` runs only for an invalid
 * value to produce "path: problem" messages naming the field.
 */
import { isIsoTimestamp } from './timestamp';

export type Shape = Readonly<Record<string, Check>>;
export type Entries = ReadonlyArray<readonly [string, Check]>;

// What a check tests. One class and a switch (instead of a closure per check) keeps the calls in
// the validation loop monomorphic: validation runs on every state event of a replay.
const STR = 0;
const NON_EMPTY = 1;
const BOOL = 2;
const NON_NEGATIVE_INT = 3;
const UNIT_INTERVAL = 4;
const UUID = 5;
const ISO_TIMESTAMP = 6;
const ONE_OF = 7;
const ARRAY_OF = 8;
const OBJECT = 9;
const OPTIONAL = 10;
const ANY_OF = 11;
const WHOLE_NUMBER = 12;

export class Check {
  /** @internal use the constructors below (`str`, `oneOf`, `object`, ...). */
  constructor(
    private readonly kind: number,
    /** For leaves: what a valid value is, for messages. */
    private readonly expected: string,
    private readonly allowed: ReadonlySet<string> | undefined,
    private readonly item: Check | undefined,
    private readonly entries: Entries | undefined,
    private readonly alternatives: readonly Check[] | undefined = undefined,
  ) {}

  /** True for `optional(...)`: an absent field (undefined) is valid. */
  get isOptional(): boolean {
    return this.kind === OPTIONAL;
  }

  test(v: unknown): boolean {
    switch (this.kind) {
      case STR:
        return typeof v === 'string';
      case NON_EMPTY:
        return typeof v === 'string' && v.length > 0 && (v.charCodeAt(0) > 32 || v.trim() !== '');
      case BOOL:
        return typeof v === 'boolean';
      case NON_NEGATIVE_INT:
        return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
      case UNIT_INTERVAL:
        return typeof v === 'number' && v >= 0 && v <= 1;
      case UUID:
        return typeof v === 'string' && isUuid(v);
      case ISO_TIMESTAMP:
        return typeof v === 'string' && isIsoTimestamp(v);
      case WHOLE_NUMBER:
        return typeof v === 'number' && Number.isInteger(v) && v >= 0;
      case OPTIONAL:
        return v === undefined || this.item!.test(v);
      case ANY_OF: {
        const alternatives = this.alternatives!;
        for (let i = 0; i < alternatives.length; i++) if (alternatives[i]!.test(v)) return true;
        return false;
      }
      case ONE_OF:
        return typeof v === 'string' && this.allowed!.has(v);
      case ARRAY_OF: {
        if (!Array.isArray(v)) return false;
        const item = this.item!;
        for (let i = 0; i < v.length; i++) if (!item.test(v[i])) return false;
        return true;
      }
      default: // OBJECT
        return isPlainObject(v) && testFields(v, this.entries!);
    }
  }

  explain(v: unknown, path: string, errors: string[]): void {
    if (this.kind === OPTIONAL) {
      if (v !== undefined) this.item!.explain(v, path, errors);
    } else if (this.kind === ARRAY_OF) {
      if (!Array.isArray(v)) errors.push(`${path}: expected an array, got ${describe(v)}`);
      else for (let i = 0; i < v.length; i++) this.item!.explain(v[i], `${path}[${i}]`, errors);
    } else if (this.kind === OBJECT) {
      if (!isPlainObject(v)) errors.push(`${path}: expected an object, got ${describe(v)}`);
      else explainFields(v, this.entries!, path, errors);
    } else if (!this.test(v)) {
      errors.push(`${path}: expected ${this.expected}, got ${describe(v)}`);
    }
  }
}

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

function leaf(kind: number, expected: string): Check {
  return new Check(kind, expected, undefined, undefined, undefined);
}

export const str = leaf(STR, 'a string');

/** Identifiers and names: a string with something in it. */
export const nonEmpty = leaf(NON_EMPTY, 'a non-empty string');

export const bool = leaf(BOOL, 'a boolean');

export const nonNegativeInt = leaf(NON_NEGATIVE_INT, 'a non-negative integer');

/** Confidence values: a finite number in 0..1 (booleans and numeric strings are not numbers here). */
export const unitInterval = leaf(UNIT_INTERVAL, 'a number between 0 and 1');

export const uuid = leaf(UUID, 'a uuid');

export const isoTimestamp = leaf(ISO_TIMESTAMP, 'an ISO 8601 timestamp');

/** A non-negative integer, however large (reading a clock; whether it is usable is decided later). */
export const wholeNumber = leaf(WHOLE_NUMBER, 'a non-negative integer');

/** The empty string and nothing else (Spec Kitty's CLI writes `"timestamp": ""` in provenance). */
export const emptyString = new Check(ONE_OF, 'an empty string', new Set(['']), undefined, undefined);

/** A field that may be absent; when present it must pass `item`. */
export function optional(item: Check): Check {
  return new Check(OPTIONAL, '', undefined, item, undefined);
}

/** A value passing any one of `alternatives`; `expected` names them all for messages. */
export function anyOf(expected: string, ...alternatives: Check[]): Check {
  return new Check(ANY_OF, expected, undefined, undefined, undefined, alternatives);
}

export function oneOf(values: readonly string[]): Check {
  return new Check(ONE_OF, `one of ${values.join('|')}`, new Set(values), undefined, undefined);
}

export function arrayOf(item: Check): Check {
  return new Check(ARRAY_OF, '', undefined, item, undefined);
}

/** True when every required field is present and valid; fields not listed are tolerated (forward compatibility). */
export function testFields(obj: Record<string, unknown>, entries: Entries): boolean {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const value = obj[entry[0]];
    if (value === undefined ? !entry[1].isOptional : !entry[1].test(value)) return false;
  }
  return true;
}

export function explainFields(obj: Record<string, unknown>, entries: Entries, path: string, errors: string[]): void {
  for (const [key, check] of entries) {
    const fieldPath = path === '' ? key : `${path}.${key}`;
    const value = obj[key];
    if (value === undefined) {
      if (!check.isOptional) errors.push(`${fieldPath}: required field is missing`);
    } else check.explain(value, fieldPath, errors);
  }
}

export function object(shape: Shape): Check {
  return new Check(OBJECT, '', undefined, undefined, Object.entries(shape));
}
