import { describe, expect, it } from 'vitest';
import { writtenTermsSearch } from '../../server/src/node/writtenTerms';

const TERMS = ['mission', 'mission id', 'mission run', 'work package', 'work', 'lane', 'review.py', 'café', 'zq7 widget'];
const search = writtenTermsSearch(TERMS)!;
const sorted = (terms: string[]) => [...terms].sort();

describe('writtenTermsSearch', () => {
  it('finds terms written anywhere: any case, joined by spaces, _ or -, the last word plural', () => {
    expect(sorted(search.termsIn('Set `MISSION_ID` and the Work-Packages; a zq7_widgets list.'))).toEqual(['mission id', 'work', 'work package', 'zq7 widget']);
    expect(sorted(search.termsIn('a Café lane'))).toEqual(['café', 'lane']);
  });

  it('never starts or ends a run inside a word or identifier', () => {
    expect(search.termsIn('submission missionary _mission lanes_x workflow')).toEqual([]);
    expect(search.termsIn('mission_id_extra')).toEqual([]);
  });

  it('leaves out the terms the caller knows, and finds the same others as without them', () => {
    const text = 'The mission and its mission run; `work_package` ids; the mission_id field; a lane.';
    const all = sorted(search.termsIn(text));
    expect(all).toEqual(['lane', 'mission', 'mission id', 'mission run', 'work package']);
    for (const known of [[], ['mission'], ['mission', 'mission run'], ['mission', 'mission id', 'mission run'], TERMS]) {
      expect(sorted(search.termsIn(text, new Set(known)))).toEqual(all.filter((t) => !known.includes(t)));
    }
  });

  it('reads runs outside ASCII: letters, spaces (joiners), other signs (not)', () => {
    expect(sorted(search.termsIn('the mission\u00a0id and the mission\u2014run'))).toEqual(['mission', 'mission id']);
    expect(sorted(search.termsIn('Ärger: mission ünd work\u2003package'))).toEqual(['mission', 'work', 'work package']);
    // (Lowercasing İ makes the text longer: the search reads word by word then.)
    expect(sorted(search.termsIn('İ MISSION-RUN, work'))).toEqual(['mission', 'mission run', 'work']);
  });
});
