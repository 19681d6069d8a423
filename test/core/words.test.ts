import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isCommonWord, parseCommonWords, sortedCommonWords } from '../../server/src/core/words';
import { packageRoot } from '../../server/src/node/packageFiles';

describe('common words', () => {
  test('the shipped sorted list answers exactly as a set of its words does', () => {
    const text = readFileSync(`${packageRoot()}/dist/data/common-words.txt`, 'utf8');
    const sorted = sortedCommonWords(text);
    const set = parseCommonWords(text);
    const words = text.split('\n').filter(Boolean);
    expect(words.length).toBeGreaterThan(50_000);
    for (const word of words) expect(sorted.has(word)).toBe(true);
    const probes = ['', 'a', 'zzzzzz', 'abbé', 'Abbé', 'mission', 'lane', 'worktree', 'frontmatter', 'aardvarksx', 'abandon ', 'xylophones', '\u00e9t\u00e9'];
    for (const probe of probes) expect(sorted.has(probe), probe).toBe(set.has(probe));
    expect(isCommonWord(sorted, 'Missions')).toBe(isCommonWord(set, 'Missions'));
  });

  test('a small sorted list: first, last, between and outside', () => {
    const sorted = sortedCommonWords('apple\nbanana\ncherry\n');
    expect(['apple', 'banana', 'cherry'].map((w) => sorted.has(w))).toEqual([true, true, true]);
    expect(['', 'aardvark', 'apples', 'b', 'cherryx', 'zebra'].some((w) => sorted.has(w))).toBe(false);
    // Without the final line break it is read as any list.
    expect(sortedCommonWords('banana\napple').has('apple')).toBe(true);
  });
});
