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

  it('reads the plurals the glossary walk reads: kept by normalization ("schemas", "canvases") and irregular ("criteria")', () => {
    const plurals = writtenTermsSearch(['schema', 'reasons canvas', 'acceptance criterion', 'status'])!;
    expect(sorted(plurals.termsIn('`schemas`, the `reasons_canvases` and `acceptance_criteria`; statuses.'))).toEqual(['acceptance criterion', 'reasons canvas', 'schema', 'status']);
    expect(sorted(plurals.termsIn('schemata, statusbar'))).toEqual([]);
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

describe('writtenTermsSearch on a seed of thousands of long surfaces', () => {
  // As the benchmark's 3.6 MB seed (issue 19): made-up words, 8–20 to a surface. Its search took
  // minutes to make (every term tried for every first word), and its first words were more than
  // the trie's table could number.
  let state = 20261207;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  const word = () => Array.from({ length: 4 + Math.floor(random() * 7) }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]).join('');
  const terms = Array.from({ length: 18_000 }, () => Array.from({ length: 8 + Math.floor(random() * 13) }, word).join(' '));

  it('is made in seconds and finds the terms written, in code as in prose', () => {
    const started = Date.now();
    const big = writtenTermsSearch(terms)!;
    expect(Date.now() - started).toBeLessThan(20_000); // ~0.3 s here
    const written = terms.filter((_, i) => i % 997 === 0);
    const text = written.map((term, i) => (i % 2 === 0 ? `Uses \`${term.replace(/ /g, '_').toUpperCase()}\` here.` : `The ${term} is used.`)).join('\n');
    expect(sorted(big.termsIn(text))).toEqual(sorted(written));
    expect(big.termsIn(`${terms[1]!.split(' ').slice(0, 3).join(' ')} and nothing more`)).toEqual([]);
  });
});

describe('writtenTermsSearch reads the text as written when lowercasing changes only ASCII capitals', () => {
  // The same text read through its lowercased copy: a surrogate pair at the end (lowercased as a
  // pair) makes the search read the copy.
  const viaCopy = (text: string, known?: ReadonlySet<string>) => sorted(search.termsIn(`${text} \u{1F600}`, known));

  it('finds in any ASCII case what the lowercased copy holds', () => {
    for (const text of ['MISSION_ID and Work-Packages', 'The Mission Run; WORK PACKAGES', 'Lanes and LANE', 'a ZQ7-WIDGETS list, Review.py', 'SUBMISSION _Mission Missionary']) {
      expect(sorted(search.termsIn(text))).toEqual(viaCopy(text));
      expect(viaCopy(text)).toEqual(sorted(search.termsIn(text.toLowerCase())));
    }
    expect(sorted(search.termsIn('MISSION_ID and Work-Packages'))).toEqual(['mission id', 'work', 'work package']);
  });

  it('reads the lowercased copy when another letter changes (a capital outside ASCII, a sign that lowercases to ASCII)', () => {
    // (K, the Kelvin sign, lowercases to an ASCII k; Σ lowercases by its place in the word.)
    expect(sorted(search.termsIn('CAFÉ lane'))).toEqual(['café', 'lane']);
    expect(sorted(search.termsIn('\u212Aelvin \u212Aey WID\u212AET'))).toEqual(sorted(search.termsIn('kelvin key widket')));
    expect(sorted(search.termsIn('ΣΚΟΠΟΣ MISSION id'))).toEqual(['mission', 'mission id']);
  });

  it('passes over a run only where it cannot find a term not yet known or found', () => {
    const known = new Set(['mission']);
    // "mission" known: its runs are read only for "mission id" / "mission run" (joiners, then an i or r).
    for (const text of ['mission. Mission is; MISSION—ID; mission\u00a0id', 'the mission, the Mission-Run', 'missions run; mission_ids', 'mission mission is mission in', 'Mission\u2014run MISSION_', 'mission_\u00e9t\u00e9 mission']) {
      expect(sorted(search.termsIn(text, known))).toEqual(viaCopy(text, known));
    }
    expect(sorted(search.termsIn('mission. Mission is; MISSION—ID; mission\u00a0id', known))).toEqual(['mission id']);
    expect(sorted(search.termsIn('the mission, the Mission-Run', known))).toEqual(['mission run']);
    expect(search.termsIn('mission mission is mission in', known)).toEqual([]);
  });
});
