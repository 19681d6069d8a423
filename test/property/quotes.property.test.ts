/**
 * Quoted phrases in a full check come from the quote characters the tokenizer lists
 * (`quotedSpans`), not from a regex search: on any masked text they must be exactly the matches of
 * the pattern the incremental path still runs.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotedSpans } from '../../server/src/core/extract/extractors';
import { propertyRuns } from '../helpers/propertyRuns';

const QUOTED = /"([^"\n\u001f]{1,160})"|\u201c([^\u201c\u201d\n\u001f]{1,160})\u201d/g;
// (Runs of 159–161 characters put the 160-character limit within reach.)
const PIECES = ['"', '\u201c', '\u201d', 'a', 'word', ' ', '\n', '\r', '\u001f', 'x'.repeat(60), 'y'.repeat(159), 'y'.repeat(160), 'y'.repeat(161)];

describe('quoted spans', () => {
  it('are the matches of the quoted-phrase pattern', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }), (pieces) => {
        const text = pieces.join('');
        const codes = Uint16Array.from(text, (c) => c.charCodeAt(0));
        const quotes: number[] = [];
        for (let i = 0; i < text.length; i++) if ('"\u201c\u201d'.includes(text[i]!)) quotes.push(i);
        const spans: string[] = [];
        quotedSpans(codes, quotes, (open, close) => spans.push(`${open}-${close + 1}`));
        const expected = [...text.matchAll(QUOTED)].map((m) => `${m.index}-${m.index + m[0].length}`);
        expect(spans).toEqual(expected);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
