/**
 * The full walk of a word trie (which first picks the tokens where a match may start, see
 * `SurfaceTrie.startCandidates`) takes exactly the matches of the plain greedy walk: try every
 * token in turn, take the longest match there, go on after it.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../server/src/core/extract/lexicon';
import { scanDocument } from '../../server/src/core/extract/scan';
import { SharedRootLookups, SurfaceTrie, type TrieMatch } from '../../server/src/core/extract/trie';
import { WalkBuffer, walkAll } from '../../server/src/core/extract/walk';
import { propertyRuns } from '../helpers/propertyRuns';

/** Phrases whose first words are everywhere ("the", "to"), plurals, acronyms, punctuation joins. */
const PHRASES = ['the section', 'the section head', 'to be confirmed', 'a', 'work package', 'spec-driven', 'ci/cd', 'api', 'lane', 'the', 'of the plan', 'status'];
const WORDS = ['the', 'The', 'a', 'to', 'be', 'confirmed', 'section', 'sections', 'head', 'work', 'package', 'packages', 'spec', 'driven', 'ci', 'cd', 'API', 'APIs', 'lane', 'lanes', 'of', 'plan', 'status', 'other'];
const GAPS = [' ', ' ', ' ', '  ', '\n', '\n\n', '-', '/', ', ', '. ', '"', '`x` '];

function greedy(trie: SurfaceTrie, text: string, skip: Uint8Array, accept: (match: TrieMatch) => boolean, lexicon = new Lexicon()): string[] {
  const scan = scanDocument(text, lexicon);
  const out: string[] = [];
  const match: TrieMatch = { surface: '', id: -1, first: 0, last: 0 };
  for (let i = 0; i < scan.tokens.count; i++) {
    if (skip[i] || !trie.matchInto(scan.tokens, i, scan.masked, scan.text, scan.lexicon, match) || !accept(match)) continue;
    out.push(`${match.first}-${match.last}:${match.surface}#${match.id}`);
    i = match.last;
  }
  return out;
}

describe('trie walk', () => {
  it('takes the same matches as trying every token', () => {
    fc.assert(
      fc.property(
        fc.subarray(PHRASES, { minLength: 1 }),
        fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { maxLength: 60 }),
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.constantFrom(...PHRASES),
        (phrases, pieces, skipped, refused) => {
          const trie = new SurfaceTrie();
          for (const phrase of phrases) trie.add(phrase, phrase);
          const text = pieces.map(([word, gap]) => word + gap).join('');
          const scan = scanDocument(text, new Lexicon());
          const skip = new Uint8Array(scan.tokens.count);
          skipped.forEach((s, i) => i < skip.length && (skip[i] = s ? 1 : 0));
          const accept = (match: TrieMatch) => match.surface !== refused;
          const { walk } = walkAll(trie, scan, { skip, accept }, new WalkBuffer());
          const found = Array.from(walk.first, (first, k) => `${first}-${walk.last[k]}:${trie.surfaceName(walk.id[k]!)}#${walk.id[k]}`);
          expect(found).toEqual(greedy(trie, text, skip, accept));
          for (let k = 0; k < walk.id.length; k++) expect(walk.id[k]).toBe(trie.surfaceId(trie.surfaceName(walk.id[k]!)));
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('with root lookups shared by one trie after another (as the tries of proposed surfaces are), the same matches again', () => {
    // One lexicon and one set of shared lookups for every run: each trie takes them from the last.
    const lexicon = new Lexicon();
    const shared = new SharedRootLookups();
    fc.assert(
      fc.property(fc.subarray(PHRASES, { minLength: 1 }), fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { maxLength: 60 }), (phrases, pieces) => {
        const sharing = new SurfaceTrie(shared);
        const own = new SurfaceTrie();
        for (const phrase of phrases) {
          sharing.add(phrase, phrase);
          own.add(phrase, phrase);
        }
        const text = pieces.map(([word, gap]) => word + gap).join('');
        const scan = scanDocument(text, lexicon);
        const none = new Uint8Array(scan.tokens.count);
        const { walk } = walkAll(sharing, scan, { skip: none, accept: () => true }, new WalkBuffer());
        const found = Array.from(walk.first, (first, k) => `${first}-${walk.last[k]}:${sharing.surfaceName(walk.id[k]!)}#${walk.id[k]}`);
        expect(found).toEqual(greedy(own, text, none, () => true, lexicon));
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
