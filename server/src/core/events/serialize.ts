/**
 * JSON text the way Spec Kitty's Python writes it, in two variants:
 * - event lines: `json.dumps(obj, sort_keys=True)` — Python's default `ensure_ascii=True`, so
 *   every character outside printable ASCII is a `\uXXXX` escape (surrogate pairs as two) and
 *   the bytes are pure ASCII: Spec Kitty opens logs with the locale's encoding, and reads our lines
 *   in any locale (SPEC §7 "Writing");
 * - `input_hash`: `json.dumps(obj, sort_keys=True, ensure_ascii=False)`, where the bytes must match
 *   Python's exactly (SPEC §7).
 *
 * Numbers: JS has no int/float distinction, so a number prints as a Python int when it is an
 * integer and as Python's `repr(float)` otherwise (same shortest round-trip digits as JS; only the
 * switch to exponent notation differs, which `pythonFloatRepr` reproduces). Fields we know are
 * floats on the wire (`confidence`) are printed with `pythonFloatRepr` even when integral, so
 * `confidence: 1` is written `1.0` as Python writes it. Both parse to the same number.
 */

/** Keys whose values Spec Kitty declares `float`. */
const FLOAT_KEYS: ReadonlySet<string> = new Set(['confidence']);

/** Python's `repr(x)` for a float. */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac === '' ? '0' : frac}`;
}

function intRepr(n: number): string {
  // String() switches to exponent notation from 1e21; Python ints never do.
  return Math.abs(n) < 1e21 ? String(n === 0 ? 0 : n) : BigInt(n).toString();
}

/** Python's `sort_keys` order: by code point (JS `sort()` compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (0xD800-0xDFFF) stands for a code point above every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

// Everything Python's ensure_ascii escapes beyond what JSON.stringify does: DEL and every code
// unit above it (a character above U+FFFF is a surrogate pair in JS: two escapes, as in Python).
// JSON.stringify has already escaped lone surrogates, so they never reach this.
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[\u007f-\uffff]/g;

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/** A JSON string literal; with `ascii`, escaped as Python's `ensure_ascii=True` does. */
function quote(text: string, ascii: boolean): string {
  const json = JSON.stringify(text);
  return ascii ? json.replace(NON_ASCII, escapeUnit) : json;
}

interface DumpMode {
  /** Throw on non-finite numbers and print `confidence` values as floats (event lines). */
  strict: boolean;
  /** Escape to ASCII (event lines). */
  ascii: boolean;
}

function dump(value: unknown, out: string[], asFloat: boolean, mode: DumpMode): void {
  const strict = mode.strict;
  switch (typeof value) {
    case 'string':
      // JSON.stringify escapes exactly what Python does with ensure_ascii=False ("\\", '"',
      // \b \f \n \r \t and other controls as lowercase \u00XX); lone surrogates are escaped
      // here where Python would fail to encode them. `ascii` adds Python's ensure_ascii escapes.
      out.push(quote(value, mode.ascii));
      return;
    case 'number':
      if (strict && !Number.isFinite(value)) throw new TypeError(`cannot write ${value} in JSON`);
      out.push(asFloat || !Number.isInteger(value) ? pythonFloatRepr(value) : intRepr(value));
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) {
        out.push('null');
      } else if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(', ');
          dump(value[i] === undefined ? null : value[i], out, asFloat, mode);
        }
        out.push(']');
      } else {
        const obj = value as Record<string, unknown>;
        const keys = Object.keys(obj)
          .filter((k) => obj[k] !== undefined)
          .sort(compareCodePoints);
        out.push('{');
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          if (i > 0) out.push(', ');
          out.push(quote(key, mode.ascii), ': ');
          dump(obj[key], out, strict && FLOAT_KEYS.has(key), mode);
        }
        out.push('}');
      }
      return;
    default:
      throw new TypeError(`cannot write a ${typeof value} in JSON`);
  }
}

/**
 * Python's `json.dumps(value, sort_keys=True, ensure_ascii=False)`. Properties whose value is
 * `undefined` are left out (as `JSON.stringify` does); NaN and infinities print as Python does.
 */
export function pythonJsonDumps(value: unknown): string {
  const out: string[] = [];
  dump(value, out, false, { strict: false, ascii: false });
  return out.join('');
}

/**
 * One log line for an event, as Python's `json.dumps(event, sort_keys=True)` writes it: keys
 * sorted recursively, Python's separators, `confidence` values as floats, pure ASCII (`\uXXXX`
 * escapes, lowercase hex). No trailing newline; the writer joins lines with `\n`. Throws on
 * non-finite numbers.
 */
export function serializeEvent(event: object): string {
  const out: string[] = [];
  dump(event, out, false, { strict: true, ascii: true });
  return out.join('');
}
