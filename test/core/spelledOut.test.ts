/**
 * Abbreviations spelled out where they are written (core/extract/spelledOut.ts): the long form's
 * initials give the letters in order; the cheap shape test never turns away one that is.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isSpelledOut, mayBeSpelledOut } from '../../server/src/core/extract/spelledOut';
import { propertyRuns } from '../helpers/propertyRuns';

const codes = (text: string) => Uint16Array.from(text, (c) => c.charCodeAt(0));
/** Whether `abbreviation` (its first occurrence in `text`) is spelled out there, and whether its shape says it may be. */
function at(text: string, abbreviation: string): { spelled: boolean; may: boolean } {
  const start = text.indexOf(abbreviation);
  const end = start + abbreviation.length;
  const masked = codes(text);
  const letters = (abbreviation.endsWith('s') ? abbreviation.slice(0, -1) : abbreviation).toLowerCase();
  return { spelled: isSpelledOut(masked, start, end, letters), may: mayBeSpelledOut(masked, start, end) };
}

describe('an abbreviation spelled out', () => {
  test('its long form before it or in parentheses after it', () => {
    for (const [text, abbreviation] of [
      ['the Doctrine Reference Graph (DRG) holds', 'DRG'],
      ['a Human-in-Charge (HiC) decides', 'HiC'],
      ['a Single Source of Truth (SSOT)', 'SSOT'],
      ['a Conflict-free Replicated Data Type (CRDT)', 'CRDT'],
      ['GitHub Actions (GHA) run it', 'GHA'],
      ['the DRG (doctrine reference graph) holds', 'DRG'],
      ['the DRG  ( the doctrine reference graph ) holds', 'DRG'],
      ['the Work Packages (WPs)', 'WPs'],
    ]) {
      expect(at(text!, abbreviation!), text).toEqual({ spelled: true, may: true });
    }
  });

  test('not: other words, other text in the parentheses, code', () => {
    for (const [text, abbreviation] of [
      ['the synthesized doctrine graph (DRG)', 'DRG'],
      ['the HiC (final decision)', 'HiC'],
      ['the DRG (doctrine, reference, graph)', 'DRG'],
      ['see (DRG) there', 'DRG'],
      ['the DRG is here', 'DRG'],
      ['the DRG (see `x`)', 'DRG'],
    ]) {
      expect(at(text!, abbreviation!).spelled, text).toBe(false);
    }
  });

  test('the shape test never turns one away', () => {
    const word = fc.constantFrom('Doctrine', 'doctrine', 'Reference', 'graph', 'of', 'the', 'Graph-free', 'DRG', 'data', 'Rails', 'x');
    const glue = fc.constantFrom(' ', '  ', '-', ', ', '(', ')', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, glue), { maxLength: 6 }), fc.constantFrom('DRG', 'DRGs', 'DR'), fc.array(fc.tuple(glue, word), { maxLength: 6 }), (before, abbreviation, after) => {
        const text = `${before.map(([w, g]) => w + g).join('')}${abbreviation}${after.map(([g, w]) => g + w).join('')}`;
        const start = before.map(([w, g]) => w + g).join('').length;
        const masked = codes(text);
        const letters = abbreviation.replace(/s$/, '').toLowerCase();
        if (isSpelledOut(masked, start, start + abbreviation.length, letters)) expect(mayBeSpelledOut(masked, start, start + abbreviation.length), text).toBe(true);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
