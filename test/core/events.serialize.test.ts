import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonFloatRepr, pythonJsonDumps, serializeEvent } from '../../server/src/core/events/serialize';
import { isIsoTimestamp, isoTimestamp } from '../../server/src/core/events/timestamp';
import { validateEvent } from '../../server/src/core/events/validate';
import { computeInputHash, sha256Hex } from '../../server/src/core/hash';
import { EXAMPLE_LOG } from '../fixtures/events/factory';

describe('pythonJsonDumps / computeInputHash', () => {
  it('hashes the SPEC example exactly like Spec Kitty', () => {
    expect(pythonJsonDumps({ description: 'The workspace contains files' })).toBe('{"description": "The workspace contains files"}');
    expect(computeInputHash({ description: 'The workspace contains files' })).toBe(
      '4765e44eb2155da88dcadd2849b2695a09a05ccf2a1eb9ac4a6adc5f1526de2e',
    );
  });

  // Expected strings and hashes produced by CPython 3: json.dumps(obj, sort_keys=True, ensure_ascii=False).
  it('matches Python on nested values, unicode and numbers', () => {
    const value = {
      z: [1, 2.5, { b: null, a: true }],
      a: 'ünïcødé — “quotes” 日本語 😀',
      m: { y: 1.0e-5, x: 10 ** 16, w: 0.1, v: -3 },
    };
    expect(pythonJsonDumps(value)).toBe(
      '{"a": "ünïcødé — “quotes” 日本語 😀", "m": {"v": -3, "w": 0.1, "x": 10000000000000000, "y": 1e-05}, "z": [1, 2.5, {"a": true, "b": null}]}',
    );
    expect(computeInputHash(value)).toBe('04bd2673bb0316364b009761294637a344394a77c787e107238fafde1ccf2037');
  });

  it('escapes control characters and sorts keys by code point as Python does', () => {
    const value = { ctrl: 'tab\tnl\n"q" back\\ \u0001 \u007f \u2028', '\u{1F600}': 1, '\uff00': 2, e: [], o: {} };
    expect(pythonJsonDumps(value)).toBe('{"ctrl": "tab\\tnl\\n\\"q\\" back\\\\ \\u0001 \u007f \u2028", "e": [], "o": {}, "\uff00": 2, "\u{1F600}": 1}');
    expect(computeInputHash(value)).toBe('00c9adaa3057f37d9b19c55da97cf245460753c7f98708b96d686c30d4b0cdbc');
  });

  it('prints floats like Python repr', () => {
    const cases: Array<[number, string]> = [
      [0.1, '0.1'],
      [1e-5, '1e-05'],
      [0.0001, '0.0001'],
      [1.5e-7, '1.5e-07'],
      [1e16, '1e+16'],
      [123456789012345.6, '123456789012345.6'],
      [1e22, '1e+22'],
      [-2.5e-10, '-2.5e-10'],
      [0.30000000000000004, '0.30000000000000004'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [1234.5, '1234.5'],
      [1, '1.0'],
      [0, '0.0'],
    ];
    for (const [n, text] of cases) expect(pythonFloatRepr(n), String(n)).toBe(text);
  });

  it('sha256Hex hashes UTF-8 bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('serializeEvent', () => {
  const lines = readFileSync(EXAMPLE_LOG, 'utf8').split('\n').filter((l) => l !== '');

  it('every line of events.example.jsonl validates', () => {
    expect(lines).toHaveLength(8);
    for (const line of lines) {
      const result = validateEvent(JSON.parse(line));
      expect(result.ok ? [] : result.errors, line.slice(0, 80)).toEqual([]);
    }
  });

  it('re-serializes each example line byte for byte (sorted keys, Python separators, 1.0 floats)', () => {
    for (const line of lines) expect(serializeEvent(JSON.parse(line))).toBe(line);
  });

  it('sorts keys recursively whatever the input order, with no trailing newline', () => {
    const text = serializeEvent({ b: { d: 1, c: [{ z: 1, y: 2 }] }, a: 'x', confidence: 1 });
    expect(text).toBe('{"a": "x", "b": {"c": [{"y": 2, "z": 1}], "d": 1}, "confidence": 1.0}');
    expect(JSON.parse(text)).toEqual({ a: 'x', b: { d: 1, c: [{ z: 1, y: 2 }] }, confidence: 1 });
  });

  // Expected strings from CPython 3: json.dumps(obj, sort_keys=True) (ensure_ascii is True by default).
  it('writes pure ASCII as Python json.dumps does by default: \\uXXXX in lowercase hex, surrogate pairs as two escapes, DEL escaped', () => {
    const value = { z: 'ünïcødé — “quotes” 日本語 😀', a: '\u007f\u0000\t"\\ \u2028', é: 1 };
    const line = serializeEvent(value);
    expect(line).toBe(
      '{"a": "\\u007f\\u0000\\t\\"\\\\ \\u2028", "z": "\\u00fcn\\u00efc\\u00f8d\\u00e9 \\u2014 \\u201cquotes\\u201d \\u65e5\\u672c\\u8a9e \\ud83d\\ude00", "\\u00e9": 1}',
    );
    expect(line).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(line)).toEqual(value);
    // A lone surrogate (no UTF-8 form) is escaped too, as Python does.
    expect(serializeEvent({ a: '\ud800x' })).toBe('{"a": "\\ud800x"}');
    // The input hash keeps Python's ensure_ascii=False (SPEC §7): non-ASCII as is.
    expect(pythonJsonDumps({ a: 'é' })).toBe('{"a": "é"}');
  });

  it('refuses non-finite numbers', () => {
    expect(() => serializeEvent({ confidence: NaN })).toThrow(/NaN/);
  });
});

describe('timestamps', () => {
  it('writes ISO 8601 UTC with milliseconds and Z', () => {
    expect(isoTimestamp(new Date(Date.UTC(2026, 1, 16, 12, 0, 0, 5)))).toBe('2026-02-16T12:00:00.005Z');
    expect(isoTimestamp()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('reads the ISO forms Python writes and rejects others', () => {
    // (Python's datetime.fromisoformat reads them all: str(datetime) has a space for the T.)
    for (const ok of ['2026-02-16T12:00:00.000Z', '2026-02-16T12:00:00', '2026-02-16T12:00:00.123456+00:00', '2026-02-16T12:00:00-0530', '2026-02-16 12:00:02+00:00', '2026-02-16 12:00:02.5', '2026-02-16T12:00', '2026-02-16']) {
      expect(isIsoTimestamp(ok), ok).toBe(true);
    }
    for (const bad of ['2026-13-16T12:00:00Z', '16/02/2026 12:00', '2026-02-16T25:00:00Z', '2026-02-16_12:00', '2026-02-16 ', '']) {
      expect(isIsoTimestamp(bad), bad).toBe(false);
    }
  });
});
