/**
 * `spliceFound` (core/extract/splice.ts) edits the previous check's lists in place when few
 * entries are found again, and copies them otherwise; either way the result must be the entries
 * before the edited stretch, what was found in it, then the later entries moved.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { spliceFound, type Found } from '../../server/src/core/extract/splice';
import { splicedInt32 } from '../../server/src/core/text';
import { propertyRuns } from '../helpers/propertyRuns';

/** What spliceFound must return, made the plain way. */
function expected(previous: Found<string>, from: number, to: number, shift: number, middle: Found<string>): Found<string> {
  const out: Found<string> = { at: [], value: [] };
  previous.at.forEach((at, k) => {
    if (at < from) {
      out.at.push(at);
      out.value.push(previous.value[k]!);
    }
  });
  out.at.push(...middle.at);
  out.value.push(...middle.value);
  previous.at.forEach((at, k) => {
    if (at >= to - shift) {
      out.at.push(at + shift);
      out.value.push(previous.value[k]!);
    }
  });
  return out;
}

const sorted = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

describe('spliceFound', () => {
  test('gives the head, the stretch found again and the moved tail, in place or copied', () => {
    const scenario = fc
      .record({
        positions: fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 120 }).map(sorted),
        from: fc.integer({ min: 0, max: 400 }),
        length: fc.integer({ min: 0, max: 60 }),
        shift: fc.integer({ min: -30, max: 30 }),
        // Sometimes more than are spliced in as arguments (the copying path).
        found: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant(5000)),
      })
      .filter(({ from, length, shift }) => from + length + shift >= from && length - shift >= 0);
    fc.assert(
      fc.property(scenario, ({ positions, from, length, shift, found }) => {
        // The previous stretch [from, to - shift) became [from, to).
        const to = from + length;
        const previous: Found<string> = { at: positions, value: positions.map((p) => `v${p}`) };
        const middle: Found<string> = { at: [], value: [] };
        for (let k = 0; k < found; k++) {
          middle.at.push(from + (length === 0 ? 0 : k % length));
          middle.value.push(`new${k}`);
        }
        middle.at.sort((a, b) => a - b);
        const want = expected({ at: [...previous.at], value: [...previous.value] }, from, to, shift, middle);
        const got = spliceFound(previous, from, to, shift, (f, t, out) => {
          expect([f, t]).toEqual([from, to]);
          out.at.push(...middle.at);
          out.value.push(...middle.value);
        });
        expect(got).toEqual(want);
      }),
      { numRuns: propertyRuns(300), seed: 17 },
    );
  });
});

describe('splicedInt32', () => {
  test('replaces the entries, in place while there is room, and never changes what a new array holds', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 40 }), { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 6, maxLength: 6 }), (inserts, places) => {
        // One array edited again and again, as a document's checkpoints are; a plain array alongside.
        let array: Int32Array = Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
        let plain = [...array];
        inserts.forEach((items, i) => {
          const [a, b] = places[i]!;
          const from = a % (plain.length + 1);
          const to = from + (b % (plain.length - from + 1));
          array = splicedInt32(array, from, to, items);
          plain = [...plain.slice(0, from), ...items, ...plain.slice(to)];
          expect([...array]).toEqual(plain);
        });
      }),
      { numRuns: propertyRuns(300), seed: 18 },
    );
  });
});
