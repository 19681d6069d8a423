import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { indexWords } from '../../server/src/core/wordIndex';
import { createCommonWords, isClipping, isCommonWord, isFamiliarWord, isKnownWord, parseCommonWords, sortedCommonWords, type CommonWords } from '../../server/src/core/words';
import { packageRoot, readWordList } from '../../server/src/node/packageFiles';

/** The ways a sorted list is searched: in place, front-coded (the server), with its hash index (the CLI). */
const SEARCHES = ['plain', 'front-coded', 'indexed'] as const;

function searched(text: string, known: string, search: (typeof SEARCHES)[number]): CommonWords {
  if (search === 'front-coded') return sortedCommonWords(text, known, {}, { frontCoded: true });
  if (search === 'indexed') return sortedCommonWords(text, known, {}, { indexes: { common: indexWords(text), ...(known ? { known: indexWords(known) } : {}) } });
  return sortedCommonWords(text, known);
}

describe('common words', () => {
  test('the shipped sorted list answers exactly as a set of its words does', () => {
    const text = readFileSync(`${packageRoot()}/dist/data/common-words.txt`, 'utf8');
    const sorted = sortedCommonWords(text);
    const set = parseCommonWords(text);
    const words = text.split('\n').filter(Boolean);
    expect(words.length).toBeGreaterThan(50_000);
    // One assertion over the list, not one per word (60,000 of them took seconds).
    expect(words.filter((word) => !sorted.has(word))).toEqual([]);
    const probes = ['', 'a', 'zzzzzz', 'abbé', 'Abbé', 'mission', 'lane', 'worktree', 'frontmatter', 'aardvarksx', 'abandon ', 'xylophones', '\u00e9t\u00e9'];
    for (const probe of probes) expect(sorted.has(probe), probe).toBe(set.has(probe));
    expect(isCommonWord(sorted, 'Missions')).toBe(isCommonWord(set, 'Missions'));
  });

  test.each(SEARCHES)('any sorted list answers `has` and `startsWord` as a set of its words does (%s)', (search) => {
    // Short words of few letters share long prefixes; some share more than a character can count.
    const long = 'x'.repeat(300);
    const word = fc.oneof(fc.stringMatching(/^[abcé]{1,5}$/), fc.stringMatching(/^[ab]{0,3}$/).map((tail) => long + tail));
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 80 }), fc.array(word, { maxLength: 20 }), fc.integer({ min: 0, max: 305 }), (words, probes, minLength) => {
        const list = [...words].sort();
        const sorted = searched(list.map((w) => `${w}\n`).join(''), '', search);
        const set = createCommonWords(list);
        const all = ['', 'a', 'zz', long, long.slice(1), ...probes, ...list, ...list.map((w) => w.slice(0, -1)), ...list.map((w) => `${w}a`)];
        // The probes answered wrongly, in one assertion (one per probe was most of the test's time).
        expect(all.filter((probe) => sorted.has(probe) !== list.includes(probe) || sorted.startsWord!(probe, minLength) !== set.startsWord!(probe, minLength))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test.each(['front-coded', 'indexed'] as const)('the shipped lists %s answer as the plain ones', (search) => {
    const text = readFileSync(`${packageRoot()}/dist/data/common-words.txt`, 'utf8');
    const known = readFileSync(`${packageRoot()}/dist/data/known-words.txt`, 'utf8');
    const plain = sortedCommonWords(text, known);
    const other = searched(text, known, search);
    const words = [...text.split('\n'), ...known.split('\n')].filter(Boolean);
    expect(words.filter((w) => plain.has(w) !== other.has(w) || plain.knows!(w) !== other.knows!(w))).toEqual([]);
    const probes = words.filter((_, i) => i % 997 === 0).flatMap((w) => [w, `${w}s`, w.slice(0, -1), w.toUpperCase(), `${w}\n${w}`, `\n${w}`]);
    expect(probes.filter((w) => plain.has(w) !== other.has(w) || plain.knows!(w) !== other.knows!(w) || plain.startsWord!(w, w.length + 2) !== other.startsWord!(w, w.length + 2))).toEqual([]);
  });

  test('an indexed list is searched by its index: an index of another text of the same shape answers for that text', () => {
    // (Why the build writes a list and its index together: node/wordIndexFiles.ts.)
    const indexed = sortedCommonWords('abc\nxyz\n', '', {}, { indexes: { common: indexWords('abd\nxyz\n') } });
    expect(['abc', 'abd', 'xyz'].map((w) => indexed.has(w))).toEqual([false, false, true]);
    expect(['abc', 'abd', 'xyz'].map((w) => sortedCommonWords('abc\nxyz\n').has(w))).toEqual([true, false, true]);
  });

  test('a list beyond Latin-1 stays plain when asked to be front-coded; an indexed one answers the same', () => {
    for (const search of ['front-coded', 'indexed'] as const) {
      const wide = searched('caf\u00e9\nna\u00efve\n\u0101bc\n', '', search);
      expect(['caf\u00e9', 'na\u00efve', '\u0101bc', 'abc'].map((w) => wide.has(w))).toEqual([true, true, true, false]);
    }
  });

  test.each(SEARCHES)('answers stay right once more words were asked about than are remembered (%s)', (search) => {
    const listed = Array.from({ length: 3000 }, (_, i) => `w${String(i).padStart(5, '0')}`);
    const sorted = searched(listed.map((w) => `${w}\n`).join(''), '', search);
    // Twice over more words (listed and not) than the memo keeps, then the first ones again.
    for (let round = 0; round < 2; round++) {
      const wrong: string[] = [];
      for (let i = 0; i < 6000; i++) {
        const probe = `w${String(i).padStart(5, '0')}`;
        if (sorted.has(probe) !== i < 3000) wrong.push(probe);
      }
      expect(wrong).toEqual([]);
    }
  });

  test.each(SEARCHES)('a small sorted list: first, last, between and outside (%s)', (search) => {
    const sorted = searched('apple\nbanana\ncherry\n', '', search);
    expect(['apple', 'banana', 'cherry'].map((w) => sorted.has(w))).toEqual([true, true, true]);
    expect(['', 'aardvark', 'apples', 'b', 'cherryx', 'zebra', 'apple\nbanana', 'nana', '\n'].some((w) => sorted.has(w))).toBe(false);
    // Without the final line break it is read as any list.
    expect(sortedCommonWords('banana\napple').has('apple')).toBe(true);
  });
});

describe('inflections, derivations and British spellings count as the listed word (inflection.ts)', () => {
  const small = createCommonWords(['target', 'activate', 'configure', 'behavior', 'query', 'route', 'normal', 'center', 'catalog', 'license', 'travel', 'swap', 'live', 'optional', 'canonical', 'decision', 'review']);

  test('verb and noun endings, prefixes and chains of them', () => {
    for (const word of ['retargeted', 'retargeting', 'activatable', 'unconfigured', 'queryable', 'routable', 'swappable', 'liveness', 'optionality', 'canonicalization', 'decisioning', 'unreviewed', 'reviewers']) {
      expect(isCommonWord(small, word), word).toBe(true);
    }
  });

  test('British spellings', () => {
    for (const word of ['behavioural', 'behaviourally', 'normalise', 'normalisation', 'centre', 'catalogue', 'licence', 'travelled', 'travelling']) expect(isCommonWord(small, word), word).toBe(true);
  });

  test('words that are no form of a listed word, and short words, are not', () => {
    for (const word of ['zorblaxed', 'quarkle', 'tar', 'targ', 'revivew', 'routexy']) expect(isCommonWord(small, word), word).toBe(false);
  });

  test('the shipped lists: common English with British spellings; software vocabulary and names are known, not English', () => {
    const text = readFileSync(`${packageRoot()}/dist/data/common-words.txt`, 'utf8');
    const known = readFileSync(`${packageRoot()}/dist/data/known-words.txt`, 'utf8');
    const lists = sortedCommonWords(text, known);
    for (const word of ['artefact', 'behavioural', 'retargeted', 'colour', 'hardcoded']) expect(isCommonWord(lists, word), word).toBe(true);
    for (const word of ['allowlist', 'docstring', 'frozenset', 'kanban', 'posix', 'jira']) {
      expect(isCommonWord(lists, word), word).toBe(false);
      expect(isKnownWord(lists, word), word).toBe(true);
      expect(isFamiliarWord(lists, word), word).toBe(true);
    }
    for (const word of ['quarkle', 'zorblax', 'qzx']) expect(isFamiliarWord(lists, word), word).toBe(false);
  });
});

describe('clippings', () => {
  const lists = createCommonWords(['coordinate', 'coordination', 'parameter', 'dog', 'dogs'], ['coord', 'param', 'venv']);

  test('the start of a longer English word, not English itself, 4–7 letters with a vowel', () => {
    expect(isClipping(lists, 'coord')).toBe(true);
    expect(isClipping(lists, 'param')).toBe(true);
    expect(isClipping(lists, 'venv')).toBe(false); // starts no English word
    expect(isClipping(lists, 'dog')).toBe(false); // English, and too short
  });

  test('a clipping the shared vocabulary lists still needs a glossary; other shared words do not', () => {
    expect(isFamiliarWord(lists, 'coord')).toBe(false);
    expect(isFamiliarWord(lists, 'venv')).toBe(true);
  });
});

describe('reading the shipped lists', () => {
  test('words beyond Latin-1 are kept apart, and every word is still there', () => {
    const { text, apart } = readWordList(`${packageRoot()}/dist/data/known-words`);
    expect(apart.length).toBeGreaterThan(0);
    for (const word of apart) expect(/[^\u0000-\u00ff]/.test(word)).toBe(true);
    expect(/[^\u0000-\u00ff]/.test(text)).toBe(false);
    const words = sortedCommonWords('a\n', text, { known: apart });
    for (const word of [...text.split('\n').filter(Boolean), ...apart]) expect(words.knows!(word), word).toBe(true);
    expect(words.knows!('ondřejx')).toBe(false);
    expect(words.knows!('ondřej')).toBe(true);
  });
});
