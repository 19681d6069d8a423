/**
 * The hash indexes the build writes beside the word lists (node/wordIndexFiles.ts): read back,
 * they are the index of their text; an index of another text, a damaged or a missing one is not
 * read, and the CLI's lists then answer by binary search, the same.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { indexHas, indexWords } from '../../server/src/core/wordIndex';
import { packageRoot, readTextInPieces, readWordList, shippedWordIndexes } from '../../server/src/node/packageFiles';
import { readWordIndex, writeWordIndex } from '../../server/src/node/wordIndexFiles';
import { useWordListFolder } from '../helpers/wordListFolder';

const { list, shipped } = useWordListFolder();

describe('the word lists indexed by the build', () => {
  test('the shipped lists read back as the index of their text, and find every word of it', () => {
    for (const name of ['common-words', 'known-words']) {
      const base = shipped(name);
      const text = readTextInPieces(`${base}.txt`);
      writeWordIndex(base, text);
      const read = readWordIndex(base);
      expect(read, name).toBeDefined();
      expect(Buffer.from(read!.buffer).equals(Buffer.from(indexWords(text).buffer)), `${name}: the slots`).toBe(true);
      const words = text.split('\n').filter(Boolean);
      expect(words.filter((w) => !indexHas(text, read!, w))).toEqual([]);
      expect(['', 'zzzzzzq', `${words[7]}qq`, words[7]!.slice(1)].filter((w) => indexHas(text, read!, w))).toEqual([]);
    }
  });

  test('the shipped lists have theirs (what loadCommonWords gives the CLI), each the index of its text', () => {
    const shipped = shippedWordIndexes();
    for (const [name, slots] of [['common-words', shipped.common], ['known-words', shipped.known]] as const) {
      expect(slots, `${name}.index`).toBeDefined();
      const { text } = readWordList(path.join(packageRoot(), 'dist', 'data', name));
      expect(Buffer.from(slots!.buffer).equals(Buffer.from(indexWords(text).buffer)), name).toBe(true);
    }
  });

  test('an index of another text, a damaged or a missing file is not read', () => {
    const base = list('words', 'apple\nbanana\ncherry\n');
    expect(readWordIndex(base)).toBeUndefined(); // (not written yet)
    writeWordIndex(base, 'apple\nbanana\ncherry\n');
    const slots = readWordIndex(base);
    expect(slots && indexHas('apple\nbanana\ncherry\n', slots, 'banana')).toBe(true);
    // The header line is padded so the slots start at a multiple of four bytes.
    const bytes = readFileSync(`${base}.index`);
    expect((bytes.indexOf(10) + 1) % 4).toBe(0);
    // Cut short: fewer slots than the header says.
    writeFileSync(`${base}.index`, bytes.subarray(0, bytes.length - 4));
    expect(readWordIndex(base)).toBeUndefined();
    writeFileSync(`${base}.index`, bytes);
    // The .txt changed since (another size): the index is another list's.
    writeFileSync(`${base}.txt`, 'apple\nbanana\ncherry\ndate\n');
    expect(readWordIndex(base)).toBeUndefined();
    writeFileSync(`${base}.txt`, 'apple\nbanana\ncherry\n');
    expect(readWordIndex(base)).toBeDefined();
    // A header whose slots are not a power of two, or that is no header.
    writeFileSync(`${base}.index`, Buffer.concat([Buffer.from('spec-glossary word index 20 1000   \n', 'latin1'), Buffer.alloc(4000)]));
    expect(readWordIndex(base)).toBeUndefined();
    writeFileSync(`${base}.index`, 'not an index\n');
    expect(readWordIndex(base)).toBeUndefined();
  });

  test('a damaged index with no empty slot answers, and never searches forever', () => {
    const text = 'apple\nbanana\ncherry\n';
    const full = new Int32Array(1024).fill(7); // every slot points into "banana"
    expect(['apple', 'zebra', ''].map((w) => indexHas(text, full, w))).toEqual([false, false, false]);
    expect(indexHas(text, full, 'banana')).toBe(true);
  });
});
