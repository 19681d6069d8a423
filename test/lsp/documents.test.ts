/**
 * The server's documents (`SpecDocument`) answer exactly as the library's `TextDocument` would
 * after any sequence of changes (as a library document of the same text does) — text, line count, positions and offsets (clamped, with `\r\n`,
 * `\n` and `\r` line breaks) — and the range they report as replaced since the last look turns
 * the old text into the new one.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentTexts, SpecDocument } from '../../server/src/lsp/documents';

const PIECES = ['a', 'b', 'word ', '\n', '\r', '\r\n', '\n\n', ' ', 'é', '😀', '—'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(''));

/** A change in positions of a document with `lines` lines (sometimes out of range or reversed). */
const change = (lines: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.record({ sl: fc.integer({ min: -1, max: lines + 1 }), sc: fc.integer({ min: -1, max: 12 }), el: fc.integer({ min: -1, max: lines + 1 }), ec: fc.integer({ min: -1, max: 12 }), text }).map(({ sl, sc, el, ec, text }) => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text }) as TextDocumentContentChangeEvent) },
    { weight: 1, arbitrary: text.map((text) => ({ text }) as TextDocumentContentChangeEvent) },
  );

function expectSame(ours: SpecDocument, theirs: TextDocument): void {
  const content = theirs.getText();
  expect(ours.getText()).toBe(content);
  expect(ours.lineCount).toBe(theirs.lineCount);
  // Every answer of each side in one list, compared once (an assertion per answer cost seconds).
  const answers = (doc: Pick<TextDocument, 'positionAt' | 'offsetAt' | 'getLineRange' | 'getEOLCharacters'>) => {
    const out: unknown[] = [];
    for (let offset = -1; offset <= content.length + 1; offset++) out.push(['positionAt', offset, doc.positionAt(offset)]);
    for (let line = -1; line <= theirs.lineCount; line++) {
      for (let character = -1; character <= 8; character++) out.push(['offsetAt', line, character, doc.offsetAt({ line, character })]);
      out.push(['getLineRange', line, doc.getLineRange(line)], ['getEOLCharacters', line, doc.getEOLCharacters(line)]);
    }
    return out;
  };
  expect(answers(ours)).toEqual(answers(theirs));
}

describe('server documents', () => {
  it('answer as the library does after any sequence of changes, and report what they replaced', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.tuple(fc.array(change(6), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.constantFrom('no', 'before', 'after')), { maxLength: 12 }),
        (initial, steps) => {
          const ours = new SpecDocument('file:///a.md', 'markdown', 1, initial);
          let base = initial;
          let known = true;
          // Changes since the last look: letting the document go cold forgets them.
          let changed = false;
          steps.forEach(([changes, look, cool], i) => {
            // (Only a text of two bytes a character goes cold, forgetting the changes no one took.)
            if (cool === 'before') {
              ours.cool();
              if (changed && ours.keptAs === 'packed') known = false;
            }
            // The library applies each change to a document of the text before it. (One at a time:
            // after a range beyond the last line, the library's own line table goes wrong.)
            let expected = ours.getText();
            for (const one of changes) {
              const before = TextDocument.create('file:///a.md', 'markdown', 1, expected);
              TextDocument.update(before, [one], 2);
              expected = before.getText();
            }
            ours.update(changes, i + 2);
            changed = true;
            if (cool === 'after') {
              ours.cool();
              if (ours.keptAs === 'packed') known = false;
            }
            expect(ours.version).toBe(i + 2);
            expectSame(ours, TextDocument.create('file:///a.md', 'markdown', i + 2, expected));
            if (changes.some((c) => !('range' in c))) known = false;
            if (!look) return;
            const taken = ours.takeEdit();
            const now = ours.getText();
            if (!known) expect(taken).toBeUndefined();
            else {
              expect(taken!.before).toBe(base);
              const { from, oldEnd, newEnd } = taken!.edit;
              expect(base.slice(0, from) + now.slice(from, newEnd) + base.slice(oldEnd)).toBe(now);
              expect(now.length - newEnd).toBe(base.length - oldEnd);
            }
            base = now;
            known = true;
            changed = false;
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps large documents (assembled outside the heap) right too, Latin-1 or not', () => {
    for (const filler of ['word é\n', 'word — 😀\r\n']) {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 9 }), text), { minLength: 1, maxLength: 6 }), (edits) => {
          const initial = filler.repeat(Math.ceil(700_000 / filler.length));
          const ours = new SpecDocument('file:///big.md', 'markdown', 1, initial);
          let expected = initial;
          edits.forEach(([at, remove, insert], i) => {
            const from = Math.floor(at * expected.length);
            const theirs = TextDocument.create('file:///big.md', 'markdown', 1, expected);
            const range = { start: theirs.positionAt(from), end: theirs.positionAt(from + remove) };
            TextDocument.update(theirs, [{ range, text: insert }], 2);
            expected = theirs.getText();
            ours.update([{ range, text: insert }], i + 2);
            expect(ours.getText()).toBe(expected);
            expect(ours.lineCount).toBe(theirs.lineCount);
            for (const offset of [0, from, from + insert.length, expected.length]) expect(ours.positionAt(offset)).toEqual(theirs.positionAt(offset));
          });
        }),
        { numRuns: 6 },
      );
    }
  });

  it('keeps the text of documents no one edits packed when V8 would keep it two bytes a character, and makes it again when read', () => {
    const runs: (() => void)[] = [];
    const texts = new DocumentTexts(2, (run) => runs.push(run));
    const later = () => runs.splice(0).forEach((run) => run());
    const wide = (n: number) => `# Spec ${n} \u2014 lanes\r\nA line \u2192 another.\n`.repeat(50);
    const [a, b, c] = [1, 2, 3].map((n) => new SpecDocument(`file:///${n}.md`, 'markdown', 1, wide(n), texts));
    const latin = new SpecDocument('file:///latin.md', 'markdown', 1, 'caf\u00e9\n'.repeat(50), texts);
    expect([a!.keptAs, latin.keptAs]).toEqual(['string', 'string']);
    later();
    // Two bytes a character as a string: kept packed. One byte a character: kept as it is.
    expect([a!.keptAs, b!.keptAs, c!.keptAs, latin.keptAs]).toEqual(['packed', 'packed', 'packed', 'string']);
    const theirs = TextDocument.create('file:///1.md', 'markdown', 1, wide(1));
    expect(a!.positionAt(700)).toEqual(theirs.positionAt(700));
    expect(a!.getText()).toBe(wide(1));
    expect(a!.keptAs).toBe('string');
    later();
    expect(a!.keptAs).toBe('packed');
    // Edited: kept as a string while among the 2 edited last; the first one edited goes cold once a third is.
    const edit = (d: SpecDocument, v: number) => d.update([{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, text: 'The' }], v);
    edit(a!, 2);
    edit(b!, 2);
    later();
    expect([a!.keptAs, b!.keptAs]).toEqual(['string', 'string']);
    expect(a!.takeEdit()!.edit).toEqual({ from: a!.offsetAt({ line: 1, character: 0 }), oldEnd: a!.offsetAt({ line: 1, character: 0 }) + 1, newEnd: a!.offsetAt({ line: 1, character: 3 }) });
    edit(c!, 2);
    later();
    expect([a!.keptAs, b!.keptAs, c!.keptAs]).toEqual(['packed', 'string', 'string']);
    // b's edit no check took yet is forgotten when it goes cold: the next check compares texts.
    edit(a!, 3);
    later();
    expect(b!.keptAs).toBe('packed');
    expect(b!.takeEdit()).toBeUndefined();
    expect(b!.getText()).toBe(wide(2).replace('\nA line', '\nThe line'));
    // A closed document is not kept among those edited last.
    texts.closed(c!);
    edit(b!, 3);
    later();
    expect([a!.keptAs, b!.keptAs]).toEqual(['string', 'string']);
  });

  it('rejects a change that is neither incremental nor full, as the library does', () => {
    const ours = new SpecDocument('file:///a.md', 'markdown', 1, 'text');
    expect(() => ours.update([{ text: 3 } as unknown as TextDocumentContentChangeEvent], 2)).toThrow('Unknown change event received');
    expect(ours.getText()).toBe('text');
  });
});
