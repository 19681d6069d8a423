/**
 * The allocator is asked once per larger text to free a block three times its size (below glibc's
 * 32 MB ceiling), and the edits of a document made outside V8's heap ask for it; others never do.
 */

import { describe, expect, it } from 'vitest';
import { DocumentTexts, SpecDocument } from '../../server/src/lsp/documents';
import { MallocReuse } from '../../server/src/lsp/mallocReuse';

const MB = 1024 * 1024;

describe('MallocReuse', () => {
  it('frees a block three times the text once, again only for a text past it, never past 30 MB', () => {
    const freed: number[] = [];
    const reuse = new MallocReuse((bytes) => freed.push(bytes));
    reuse.reserve(2 * MB);
    reuse.reserve(2 * MB + 2);
    reuse.reserve(1 * MB);
    expect(freed).toEqual([6 * MB]);
    reuse.reserve(5 * MB);
    reuse.reserve(6 * MB);
    reuse.reserve(29 * MB);
    reuse.reserve(40 * MB);
    expect(freed).toEqual([6 * MB, 18 * MB, 30 * MB]);
  });

  it('frees a real block without failing (the default way)', () => {
    expect(() => new MallocReuse().reserve(64 * 1024)).not.toThrow();
  });

  it('is asked by the edits of a document Node makes external strings of, not of a smaller one-byte document', () => {
    const asked: number[] = [];
    const texts = new DocumentTexts(4, () => undefined);
    texts.largeText = (bytes) => void asked.push(bytes);
    const small = new SpecDocument('file:///small.md', 'markdown', 1, 'word — dash\n'.repeat(100), texts);
    small.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }], 2);
    expect(asked).toEqual([]);
    const initial = 'word — dash\n'.repeat(60_000);
    const large = new SpecDocument('file:///large.md', 'markdown', 1, initial, texts);
    for (let v = 2; v < 5; v++) large.update([{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'x' }], v);
    // Two bytes a character (the em dash is beyond Latin-1), at each edit (MallocReuse ignores a size it covers).
    expect(asked).toEqual([1, 2, 3].map((n) => (initial.length + n) * 2));
    const latin1 = new SpecDocument('file:///latin1.md', 'markdown', 1, 'word é\n'.repeat(120_000), texts);
    latin1.update([{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'x' }], 2);
    expect(asked).toHaveLength(3);
    const lineThree = 3 * 'word — dash\n'.length;
    expect(large.getText()).toBe(initial.slice(0, lineThree) + 'xxx' + initial.slice(lineThree));
  });
});
