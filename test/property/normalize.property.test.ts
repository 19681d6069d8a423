/**
 * Normalization (SPEC §4) as properties: idempotent on any input, the result is in normal form
 * (what seed validation demands of a surface), and only the last word of a phrase changes.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNormalized, normalizeSurface, singularize } from '../../server/src/core/normalize';
import { propertyRuns } from '../helpers/propertyRuns';

/** Words that exercise the plural rules: endings -ies, -sses, -xes, -ches, -shes, -ss, -us, -is, -os, -as, -s. */
const pluralish = fc
  .tuple(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split('')), minLength: 0, maxLength: 8 }), fc.constantFrom('', 's', 'es', 'ies', 'sses', 'xes', 'ches', 'shes', 'ss', 'us', 'is', 'os', 'as', 'y', 'sss', 'iess', 'ieses'))
  .map(([stem, end]) => stem + end);

const phrase = fc
  .array(fc.tuple(fc.oneof(pluralish, pluralish.map((w) => w.toUpperCase()), fc.string({ unit: 'grapheme', maxLength: 6 })), fc.constantFrom(' ', '  ', '\t', '\n', ' \u00a0', '\u2003')), { maxLength: 5 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const anything = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), phrase);

/** SPEC §4's rules as written, phrase by phrase (normalizeSurface takes a shortcut for one word). */
function byTheRules(text: string): string {
  const words = text.toLowerCase().trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return '';
  words[words.length - 1] = singularize(words[words.length - 1]!);
  return words.join(' ');
}

describe('normalization properties', () => {
  it('follows the rules on any text, one word or many', () => {
    fc.assert(
      fc.property(fc.oneof(anything, pluralish, pluralish.map((w) => w.toUpperCase())), (text) => {
        expect(normalizeSurface(text)).toBe(byTheRules(text));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('is idempotent on any text (unicode, whitespace of every kind, plural endings)', () => {
    fc.assert(
      fc.property(anything, (text) => {
        const once = normalizeSurface(text);
        expect(normalizeSurface(once)).toBe(once);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('produces normal form: what seed validation accepts as a surface', () => {
    fc.assert(
      fc.property(anything, (text) => {
        expect(isNormalized(normalizeSurface(text))).toBe(true);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('singularize is idempotent and never lengthens a word', () => {
    fc.assert(
      fc.property(fc.oneof(pluralish, fc.string({ maxLength: 12 })), (word) => {
        const lower = word.toLowerCase();
        const once = singularize(lower);
        expect(singularize(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(lower.length);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('is case-insensitive for ASCII and changes only the last word of a phrase', () => {
    fc.assert(
      fc.property(fc.array(pluralish.filter((w) => w.length > 0), { minLength: 1, maxLength: 4 }), fc.boolean(), (words, shout) => {
        const text = words.map((w) => (shout ? w.toUpperCase() : w)).join(' ');
        const normalized = normalizeSurface(text);
        expect(normalized).toBe(normalizeSurface(text.toLowerCase()));
        const out = normalized.split(' ');
        expect(out.slice(0, -1)).toEqual(words.slice(0, -1));
        expect(out.at(-1)).toBe(singularize(words.at(-1)!));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
