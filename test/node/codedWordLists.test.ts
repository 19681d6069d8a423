/**
 * The word lists the build front-codes (node/codedWordLists.ts): read back, they are the lists the
 * server would have coded itself; a file coded from another text, damaged or missing is not read.
 */

import { writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FrontCodedWords } from '../../server/src/core/frontCodedWords';
import { readCodedWordList, writeCodedWordList } from '../../server/src/node/codedWordLists';
import { readTextInPieces } from '../../server/src/node/packageFiles';
import { useWordListFolder } from '../helpers/wordListFolder';

const { list, shipped } = useWordListFolder();

describe('the word lists front-coded by the build', () => {
  test('the shipped lists read back as the coding of their text, in any size of piece', () => {
    for (const name of ['common-words', 'known-words']) {
      const base = shipped(name);
      const text = readTextInPieces(`${base}.txt`);
      expect(writeCodedWordList(base, text)).toBe(true);
      const expected = FrontCodedWords.of(text)!.parts();
      for (const piece of [64 * 1024, 4093, 61]) {
        const read = readCodedWordList(base, piece);
        expect(read, `${name}, pieces of ${piece}`).toBeDefined();
        const parts = read!.parts();
        expect(parts.coded === expected.coded, `${name}: the coded words, pieces of ${piece}`).toBe(true);
        expect([...parts.heads]).toEqual([...expected.heads]);
      }
      const read = readCodedWordList(base)!;
      const words = text.split('\n').filter(Boolean);
      expect(words.filter((_, i) => i % 101 === 0).filter((w) => !read.find(w))).toEqual([]);
      expect(['', 'zzzzzzq', `${words[7]}qq`].map((w) => read.find(w))).toEqual([false, false, false]);
    }
  });

  test('a list coded from another text, a damaged or missing file is not read', () => {
    const base = list('words', 'apple\nbanana\ncherry\n');
    expect(readCodedWordList(base)).toBeUndefined(); // (not coded yet)
    expect(writeCodedWordList(base, 'apple\nbanana\ncherry\n')).toBe(true);
    expect(readCodedWordList(base)?.find('banana')).toBe(true);
    // The .txt changed since (another size): the coded file is another list's.
    writeFileSync(`${base}.txt`, 'apple\nbanana\ncherry\ndate\n');
    expect(readCodedWordList(base)).toBeUndefined();
    // A header that says more blocks than the file holds.
    writeCodeFile(base, 'spec-glossary front-coded 25 400\n');
    expect(readCodedWordList(base)).toBeUndefined();
    writeCodeFile(base, 'not a coded list\n');
    expect(readCodedWordList(base)).toBeUndefined();
  });

  test('a list beyond Latin-1 is not coded (the server codes nothing: it reads the text)', () => {
    const base = list('wide', 'caf\u00e9\n\u0101bc\n');
    expect(writeCodedWordList(base, 'caf\u00e9\n\u0101bc\n')).toBe(false);
    expect(readCodedWordList(base)).toBeUndefined();
  });
});

function writeCodeFile(base: string, text: string): void {
  writeFileSync(`${base}.coded`, text, 'latin1');
}
