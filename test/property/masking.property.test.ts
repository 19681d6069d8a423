/**
 * Masking as properties, on generated documents that nest CommonMark's constructs (list items,
 * block quotes, fences, indented code, HTML blocks, reference definitions, tables, headings):
 * - it agrees with markdown-it's reading of the document (markdownOracle.ts): what markdown-it
 *   reads as code, a link's destination, an autolink, HTML or a definition is masked, and its
 *   prose is not;
 * - masking again after edits (the incremental checker's path) gives exactly the full masking.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyMask, documentExclusions, maskMarkdown, remask, type MaskMemory } from '../../server/src/core/markdown/mask';
import { diff } from '../../server/src/core/extract/rescan';
import { locateFrontMatter } from '../../server/src/core/markdown/frontMatter';
import { markdownDocument } from '../helpers/markdownDocuments';
import { disagreements } from '../helpers/maskOracle';
import { propertyRuns } from '../helpers/propertyRuns';

/** Markdown syntax and words in any order, any line breaks (LF, CRLF, a lone CR), NUL and odd unicode. */
const FRAGMENTS = ['# ', '- ', '* ', '1. ', '> ', '```', '~~~', '`', '``', '<!--', '-->', '<div>', '</pre>', '[x](', ')', '](', '<http://a.b>', '|', '---', '***', '\\', '&amp;', '    ', '\t', '[', ']', '[x]: ', '![', '<', '>', '===', '|---|', '\u0000', 'zorblax', 'FR-001', 'x', '\u00a0', '😀'];
const scrambled = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 2, arbitrary: fc.constantFrom('\n', '\n\n', '\r\n', '\r', ' ') }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) }), { maxLength: 150 })
  .map((parts) => parts.join(''));

/**
 * Links, images and brackets in one paragraph, nested and unclosed in any mix, with and without
 * defined labels: where the scan of one label learns where the labels inside it close (inline.ts).
 */
const INLINE_PARTS = ['[', '[', '[', ']', ']', '![', '![', '](u)', '](u)', '(u)', '(', ')', '[]', '[x]', 'x', ' ', '`', '\\', '<a>', '<http://a.b>', '\n'];
const bracketed = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...INLINE_PARTS), { maxLength: 24, size: 'max' }))
  .map(([defines, parts]) => (defines ? '[x]: /u\n\n' : '') + parts.join(''));

describe('masking agrees with markdown-it', () => {
  test('on brackets, links and images nested and left open', () => {
    fc.assert(
      fc.property(bracketed, (text) => {
        expect(disagreements(text)).toEqual([]);
      }),
      { numRuns: propertyRuns(1000), seed: 20261207 },
    );
  });

  test('on generated documents full of containers', () => {
    fc.assert(
      fc.property(markdownDocument, (text) => {
        expect(disagreements(text)).toEqual([]);
      }),
      { numRuns: propertyRuns(600), seed: 20261116 },
    );
  });

  test('on scrambled markdown with any line breaks', () => {
    fc.assert(
      fc.property(fc.oneof(scrambled, markdownDocument.map((text) => text.replace(/\r?\n/g, '\r'))), (text) => {
        expect(disagreements(text)).toEqual([]);
      }),
      { numRuns: propertyRuns(400), seed: 20261119 },
    );
  });
});

/** Markup an edit may insert: container markers, fences, HTML, definitions, table rows, line breaks. */
const SNIPPETS = ['> ', '>', '- ', '* ', '1. ', '2) ', '    ', '\t', '```', '```\n', '~~~\n', '\n```\n', '<!--', '-->', '<div>\n', '</div>', '<pre>', '\n\n', '\n', '\r\n', '|', '| a | b |\n|---|---|\n', ' word |', '| a | b | c word |\n', '---\n', '===\n', '[x]: /u', '[x]', '[x]: /u\n', '"t"\n', '`', '# ', 'word ', ' ', '\\'];

const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  removed: fc.nat({ max: 12 }),
  snippet: fc.constantFrom(...SNIPPETS),
});

describe('masking again after an edit', () => {
  test('gives the full masking, edit after edit', () => {
    fc.assert(
      fc.property(markdownDocument, fc.array(edit, { minLength: 1, maxLength: 8 }), (start, edits) => {
        let text = start;
        let full = documentExclusions(text, true);
        let memory: MaskMemory = full.memory!;
        let masked = applyMask(text, full.excluded, 0, text.length);
        for (const e of edits) {
          const at = Math.floor(e.at * text.length);
          const next = text.slice(0, at) + e.snippet + text.slice(at + e.removed);
          const change = diff(text, next);
          // (As the incremental checker does: a document whose front matter changes is masked in full.)
          const sameFront = JSON.stringify(locateFrontMatter(text)) === JSON.stringify(locateFrontMatter(next));
          const region = sameFront && change.from >= memory.bodyStart ? remask(next, memory, change) : undefined;
          if (region) {
            const delta = change.newEnd - change.oldEnd;
            masked = masked.slice(0, region.from) + applyMask(next, region.excluded, region.from, region.end) + masked.slice(region.end - delta);
            memory = region.memory;
          } else {
            full = documentExclusions(next, true);
            memory = full.memory!;
            masked = applyMask(next, full.excluded, 0, next.length);
          }
          text = next;
          expect(masked).toBe(maskMarkdown(text).masked);
        }
      }),
      { numRuns: propertyRuns(400), seed: 20261117 },
    );
  });
});
