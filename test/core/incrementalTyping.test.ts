/**
 * Typing as a writer types, checked by the incremental checker after every keystroke, must give
 * the fresh check's report each time: letters of a word at many places of a long document, a
 * backspace, now and then a new line, on a document with quotes, acronyms, code spans, repeated
 * nouns and vocabulary sections (what the units keep from one check to the next and edit in
 * place), with and without a mission vocabulary and with the word lists changing on the way.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { generateSpec } from '../../bench/generate';
import type { CheckOptions } from '../../server/src/core/check/check';
import { readVocabulary } from '../../server/src/core/missionVocabulary/read';
import type { VocabularySource } from '../../server/src/core/missionVocabulary/types';
import { common, engine, glossaryFrom } from '../helpers/core';
import { propertyRuns } from '../helpers/propertyRuns';

const GLOSSARY = glossaryFrom({
  team_domain: `terms:
  - {surface: workspace, definition: Git worktree directory for a work package, status: active}
  - {surface: workspace, definition: VS Code workspace configuration file, status: active}
  - {surface: work package, definition: A unit of planned work, status: active}
  - {surface: lane, definition: A column of the status board, status: deprecated}
  - {surface: worktree, definition: A git worktree, status: active, synonyms_to_avoid: [work dir]}
`,
});

const VOCABULARY = `
## Domain Language

| Term | Definition | Avoid |
|---|---|---|
| Quarkle (QK) | A card that moves through the zorblax | "task", "ticket" |
| Zorblax | The board of the lanes | |

Each quarkle moves through the zorblax; a "delivery lane" and the QK are \`quarkle run\` items.
The frobnicator, the frobnicator and the Frobnicator, then the WSP and the APIs of MissionRunner.
Words the ignore list makes familiar: the "zorblax board", the ZorblaxBoard and the ZORBLAX.
`;

/** A long document: generated prose with the section above between its parts. */
const DOCUMENT = generateSpec({ size: 40_000, seed: 11 })
  .split('\n\n')
  .map((paragraph, i) => (i % 25 === 12 ? `${paragraph}\n${VOCABULARY}` : paragraph))
  .join('\n\n');

const ORIGIN = { file: '/ws/kitty-specs/001-demo/spec.md', missionId: '001-demo', missionSlug: '001-demo' };
const MISSION: VocabularySource = { file: '/ws/kitty-specs/001-demo/plan.md', missionId: '001-demo', missionSlug: '001-demo', vocabulary: readVocabulary('## Domain Language\n\n- **Frobnicator**: the thing that frobs\n') };
const IGNORING = engine.vocabulary(['zorblax', 'frobnicator']);

/** Spaces of lines that start with a letter: where a writer types. */
function places(text: string): number[] {
  const out: number[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (/^[A-Za-z]/.test(line)) for (let i = line.indexOf(' '); i !== -1; i = line.indexOf(' ', i + 1)) out.push(lineStart + i);
    lineStart += line.length + 1;
  }
  return out;
}

describe('typing into a long document', () => {
  test('after every keystroke the incremental report is the fresh one', () => {
    const spots = places(DOCUMENT);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(spots.length - 1), fc.constantFrom('lane ', 'QK ', '`x` ', '"a b" ', 'Zorblax '), fc.boolean()), { minLength: 1, maxLength: 4 }), fc.nat(2), (bursts, lists) => {
        const checker = engine.createIncrementalChecker();
        // The ignore list (and so the word lists) switched on or off at some bursts.
        const optionsWith = (ignoring: boolean): CheckOptions => ({ glossary: GLOSSARY, ...(ignoring ? IGNORING : { common }), documentOrigin: ORIGIN, ...(lists === 2 ? { missionVocabulary: [MISSION] } : {}) });
        let options = optionsWith(lists === 1);
        let text = DOCUMENT;
        checker.check(text, options);
        const same = () => {
          const incremental = checker.check(text, options);
          const fresh = engine.checkDocument(text, options);
          expect(incremental).toEqual(fresh);
          // (A candidate's occurrences and texts are worked out when read: compared as serialized.)
          expect(JSON.parse(JSON.stringify(incremental.candidates))).toEqual(JSON.parse(JSON.stringify(fresh.candidates)));
        };
        // Later spots first, so earlier ones stay where they were.
        for (const [spot, word, newLine] of [...bursts].sort((a, b) => b[0] - a[0])) {
          if (spot % 3 === 0) options = optionsWith(options.common !== IGNORING.common);
          let at = spots[spot]! + 1;
          for (const char of word) {
            text = text.slice(0, at) + char + text.slice(at);
            at++;
            same();
          }
          text = text.slice(0, at - 1) + text.slice(at);
          at--;
          same();
          if (newLine) {
            text = text.slice(0, at) + '\n' + text.slice(at);
            same();
          }
        }
      }),
      { numRuns: propertyRuns(12), seed: 20261126 },
    );
  });
});
