/**
 * `check --format json|sarif` is written in pieces (server/src/cli/output/jsonStream.ts) so that
 * any number of findings prints. Its output must stay byte-identical to the single
 * `JSON.stringify(value, null, 2)` it replaced: for any JSON value, with any of its arrays and
 * objects streamed at any depth, the pieces joined are exactly that text.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces, streamArray, StreamedArray, StreamedObject, streamObject } from '../../server/src/cli/output/jsonStream';
import { propertyRuns } from '../helpers/propertyRuns';

/** `value` with the arrays and objects that `pick` chooses turned into streamed ones. */
function streamSome(value: unknown, pick: () => boolean): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => streamSome(item, pick));
    // A streamed array's items may sit in a plain array only if none of them is streamed.
    const nested = items.some((item) => item instanceof StreamedArray || item instanceof StreamedObject);
    return nested || pick() ? streamArray(generate(items)) : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, streamSome(v, pick)] as const);
    const nested = entries.some(([, v]) => v instanceof StreamedArray || v instanceof StreamedObject);
    if (!nested && !pick()) return value;
    // Not Object.fromEntries: a `__proto__` key must stay an own property, as in the JSON value.
    return new StreamedObject(entries);
  }
  return value;
}

/** Items handed out lazily, as the findings are. */
function* generate<T>(items: readonly T[]): Generator<T> {
  yield* items;
}

describe('streamed JSON', () => {
  it('joins to JSON.stringify(value, null, 2) for any value and any choice of streamed parts', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.infiniteStream(fc.boolean()), (value, choices) => {
        const iterator = choices[Symbol.iterator]();
        const streamed = streamSome(value, () => iterator.next().value as boolean);
        expect([...jsonPieces(streamed)].join('')).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('writes empty streamed arrays and objects as [] and {}, leaves out undefined properties, writes null for undefined items', () => {
    const value = streamObject({ a: streamArray([]), b: new StreamedObject([]), c: undefined, d: streamArray([undefined, 1, { x: [] }]), e: 'é\u001b\n' });
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify({ a: [], b: {}, c: undefined, d: [undefined, 1, { x: [] }], e: 'é\u001b\n' }, null, 2));
  });

  it('refuses a streamed value hidden inside a plain one (JSON.stringify would print it as {})', () => {
    expect(() => [...jsonPieces(streamArray([{ inner: streamArray([1]) }]))]).toThrow(/must sit inside/);
  });
});
