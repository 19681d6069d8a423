/**
 * The incremental checker on documents full of containers (list items, block quotes, fences in
 * them, tables, definitions): after edits that open and close containers and fences, its report is
 * the fresh check's, and typing in a list item re-masks only around it.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CheckOptions } from '../../server/src/core/check/check';
import { common, engine, glossaryFrom } from '../helpers/core';
import { markdownDocument } from '../helpers/markdownDocuments';

const OPTIONS: CheckOptions = {
  glossary: glossaryFrom({
    team_domain: `terms:
  - {surface: zorblax, definition: A flux capacitor, status: active}
  - {surface: zorblax, definition: A review queue, status: active}
  - {surface: flux router, definition: The edge proxy, status: active}
  - {surface: gamma, definition: A letter, status: active, synonyms_to_avoid: [delta]}
`,
  }),
  common,
};

const SNIPPETS = ['> ', '- ', '  - ', '1. ', '    ', '```\n', '~~~', '\n\n', '\n', '| x | y |\n|---|---|\n', '[foo]: /u\n', '<div>\n', '-->', 'zorblax ', '`'];

describe('incremental checking with containers', () => {
  test('edits that open and close containers give the fresh check result', () => {
    fc.assert(
      fc.property(markdownDocument, fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...SNIPPETS), fc.nat({ max: 6 })), { minLength: 1, maxLength: 6 }), (start, edits) => {
        const checker = engine.createIncrementalChecker();
        let text = start;
        checker.check(text, OPTIONS);
        for (const [where, snippet, removed] of edits) {
          const at = Math.floor(where * text.length);
          text = text.slice(0, at) + snippet + text.slice(at + removed);
          expect(checker.check(text, OPTIONS)).toEqual(engine.checkDocument(text, OPTIONS));
        }
      }),
      { numRuns: 150, seed: 20261118 },
    );
  });

  test("a vocabulary section in a list item or a block quote: edits that lengthen or shorten its container give the fresh check's result", () => {
    const options: CheckOptions = { ...OPTIONS, documentOrigin: { file: '/ws/kitty-specs/001-lanes/spec.md', missionId: '01LANES', missionSlug: '001-lanes' } };
    const expectFresh = (checker: ReturnType<typeof engine.createIncrementalChecker>, text: string) => expect(checker.check(text, options)).toEqual(engine.checkDocument(text, options));
    // The paragraph after the item indented into it: the section now holds it.
    const text = '# T\n\n- ## Definitions\n\n  - **Quarkle**: a card\n\nThe delta and the zorblax here.\n';
    const checker = engine.createIncrementalChecker();
    checker.check(text, options);
    const at = text.indexOf('The delta');
    expectFresh(checker, text.slice(0, at) + '  ' + text.slice(at));
    const vocabulary = ['- ## Definitions\n', '> ## Glossary\n', '  - **Quarkle**: a card\n', '> - **Zorblax**: the queue\n', '## Next\n'];
    fc.assert(
      fc.property(markdownDocument, fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...SNIPPETS, ...vocabulary), fc.nat({ max: 6 })), { minLength: 1, maxLength: 6 }), (start, edits) => {
        const checker = engine.createIncrementalChecker();
        let text = '- ## Definitions\n\n  - **Quarkle**: a card\n\n' + start;
        checker.check(text, options);
        for (const [where, snippet, removed] of edits) {
          const at = Math.floor(where * text.length);
          text = text.slice(0, at) + snippet + text.slice(at + removed);
          expectFresh(checker, text);
        }
      }),
      { numRuns: 100, seed: 20261207 },
    );
  });

  test('typing in a nested list item re-masks only around it', () => {
    const item = '- Outer item about the zorblax\n  - Inner item with `code` and a flux router\n\n    ```\n    fenced zorblax\n    ```\n';
    let text = Array.from({ length: 300 }, (_, i) => `## Section ${i}\n\n${item}\n> A quote about gamma\ncontinued lazily.\n\n`).join('');
    const checker = engine.createIncrementalChecker();
    checker.check(text, OPTIONS);
    const at = text.indexOf('Inner item', text.length / 2);
    for (const char of 'zorblax ') {
      text = text.slice(0, at) + char + text.slice(at);
      expect(checker.check(text, OPTIONS)).toEqual(engine.checkDocument(text, OPTIONS));
      expect(checker.lastRescan.full).toBe(false);
      expect(checker.lastRescan.to - checker.lastRescan.from).toBeLessThan(400);
    }
  });
});
