/**
 * JSON text the way Spec Kitty's Python writes it: `json.dumps(obj, sort_keys=True,
 * ensure_ascii=False)`. Used for event lines (so ours look like Spec Kitty's) and for
 * `input_hash`, where the bytes must match Python's exactly.
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

function dump(value: unknown, out: string[], asFloat: boolean, strict: boolean): void {
  switch (typeof value) {
    case 'string':
      // JSON.stringify escapes exactly what Python does with ensure_ascii=False ("\\", '"',
      // \b \f \n \r \t and other controls as lowercase \u00XX); lone surrogates are escaped
      // here where Python would fail to encode them.
      out.push(JSON.stringify(value));
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
          dump(value[i] === undefined ? null : value[i], out, asFloat, strict);
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
          out.push(JSON.stringify(key), ': ');
          dump(obj[key], out, strict && FLOAT_KEYS.has(key), strict);
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
  dump(value, out, false, false);
  return out.join('');
}

/**
 * One log line for an event: keys sorted recursively, Python's separators, `confidence` values
 * as floats. No trailing newline; the writer joins lines with `\n`. Throws on non-finite numbers.
 */
export function serializeEvent(event: object): string {
  const out: string[] = [];
  dump(event, out, false, true);
  return out.join('');
}
