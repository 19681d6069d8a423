/**
 * `LineIndex` (core/text.ts) counts lines as LSP does (`\n`, `\r\n` and a lone `\r` end a line),
 * fresh and after edits: positions agree with vscode-languageserver-textdocument's, the
 * reference every LSP client's positions are checked against.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../server/src/core/text';
import { propertyRuns } from '../helpers/propertyRuns';

const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '\r', '\r\n', 'é', '😀'), { maxLength: 40 }).map((parts) => parts.join(''));

function agrees(index: LineIndex, source: string): void {
  const reference = TextDocument.create('file:///x.md', 'markdown', 1, source);
  expect(index.lineCount, JSON.stringify(source)).toBe(reference.lineCount);
  for (let offset = 0; offset <= source.length; offset++) {
    // (Between the \r and the \n of a line end no term starts or ends; the reference moves it back.)
    if (source.charCodeAt(offset - 1) === 13 && source.charCodeAt(offset) === 10) continue;
    const position = reference.positionAt(offset);
    expect(index.positionAt(offset), `${JSON.stringify(source)} @${offset}`).toEqual(position);
    expect(index.offsetAt(position)).toBe(reference.offsetAt(position));
  }
}

describe('LineIndex', () => {
  test('a lone \\r ends a line, as \\n and \\r\\n do', () => {
    const index = new LineIndex('Intro line\rSecond zorbbo here\r');
    expect(index.positionAt(18)).toEqual({ line: 1, character: 7 });
    expect(index.lineCount).toBe(3);
    expect(index.lineEnd(0)).toBe(10);
  });

  test('fresh and edited, positions agree with the LSP text document', () => {
    fc.assert(
      fc.property(text, text, fc.nat(), fc.nat(), (before, inserted, a, b) => {
        agrees(new LineIndex(before), before);
        const from = a % (before.length + 1);
        const oldEnd = from + (b % (before.length - from + 1));
        const after = before.slice(0, from) + inserted + before.slice(oldEnd);
        agrees(new LineIndex(before).edited(after, from, oldEnd, from + inserted.length), after);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
