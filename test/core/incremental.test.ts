/**
 * The incremental checker (core/check/incremental.ts) must report exactly what a fresh
 * `checkDocument` reports, after any sequence of edits: typing, deleting, pasting markdown that
 * opens or closes fences, comments, HTML blocks, front matter, and with the glossary or the
 * settings changing between checks.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { generateSpec } from '../../bench/generate';
import type { CheckOptions } from '../../server/src/core/check/check';
import { diff } from '../../server/src/core/extract/rescan';
import { common, EMPTY_GLOSSARY, engine, glossaryFrom } from '../helpers/core';

const TEAM = glossaryFrom({
  team_domain: `terms:
  - {surface: workspace, definition: Git worktree directory for a work package, status: active}
  - {surface: workspace, definition: VS Code workspace configuration file, status: active}
  - {surface: work package, definition: A unit of planned work, status: active}
  - {surface: api gateway, definition: The edge proxy, status: active}
  - {surface: worktree, definition: A git worktree, status: active, synonyms_to_avoid: [work dir]}
  - {surface: enhances, definition: Field on a doctrine pack artifact that merges it into a built-in artifact, status: active, synonyms_to_avoid: [extends]}
  - {surface: mission, definition: One unit of planned change carried to merge, status: active}
  - {surface: lane, definition: A column of the status board, status: deprecated}
  - {surface: spec-driven development, definition: Specification first, status: active}
`,
});
const GLOSSARIES = [TEAM, EMPTY_GLOSSARY, glossaryFrom({ mission_local: 'terms:\n  - {surface: mission, definition: A trip, status: active}\n' })];

const DOCUMENT = `---
title: Demo
glossary_watch_terms: [review gate]
glossary_aliases: {WSP: workspace}
---
# Feature: the workspace

The workspace holds each work package. A "delivery lane" is not a lane; the WSP is a workspace.
Two APIs and the CLI use \`work_package\` and missionRunner. FR-001 covers src/app/main.py.

## Requirements

- The mission is not a trip: unlike the mission, the work dir is spec-driven development.
- Frobnicator, frobnicator and frobnicators appear three times.
  - nested item with an api gateway

\`\`\`yaml
workspace: not extracted
\`\`\`

<!-- workspace in a comment -->

    indented code workspace

| term | meaning |
| --- | --- |
| workspace | a Git worktree |

<pre>
workspace
</pre>

The doctrine pack extends the built-in artifact. This extends the deadline.

See [the workspace](https://example.com/workspace) and <https://example.com/x>. The end.
`;

/**
 * A long document where an ordinary word listed as a synonym to avoid ("extends") is used in the
 * preferred term's sense (its sentence shares the definition's words) and not, every few hundred
 * characters: edits near one and far from one (the sentence's reach is 400 characters).
 */
const IN_SENSE_DOCUMENT = generateSpec({ size: 12_000, seed: 9 })
  .split('\n\n')
  .map((paragraph, i) => (i % 3 === 1 ? `${paragraph}\n\nOur doctrine team,\nas written,\nextends the old\nartifact. This extends the deadline.` : paragraph))
  .join('\n\n');

const SNIPPETS = ['```', '```\n', '\n```\n', '~~~\n', '<!--', '-->', '\n<!--\n', '`', '# ', '\n## Heading ', '- ', '\n\n', '\n', '"', '\u201c', 'FR-1', 'APIs', ' work package ', ' workspace ', ' mission is not a plan. ', "'s", '_', '    ', '\t', '<pre>', '</pre>', '](', '[x]: http://a', 'https://x.y/z', 'src/a/b', 'frobnicator ', 'missionRunner', 'É', '\r\n', '---\n', '|', 'YYYY-MM', '1. ', 'x', 'e', ' ', ' extends ', ' doctrine pack artifact. ', '. ', '(', ')', ' (QZX) ', ' Quark Zone Xray (QZX) ', ' QZX (quark zone xray) ', ' Human-in-Quorum (HiQ) '];

const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  kind: fc.constantFrom('insert', 'delete', 'type', 'replace'),
  snippet: fc.constantFrom(...SNIPPETS),
  length: fc.integer({ min: 1, max: 40 }),
});

/** Applies one edit at a relative position. */
function apply(text: string, e: { at: number; kind: string; snippet: string; length: number }): string {
  const at = Math.floor(e.at * text.length);
  switch (e.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + e.length);
    case 'type':
      return text.slice(0, at) + 'lane'.slice(0, 1 + (e.length % 4)) + text.slice(at);
    case 'replace':
      return text.slice(0, at) + e.snippet + text.slice(at + (e.length % 5));
    default:
      return text.slice(0, at) + e.snippet + text.slice(at);
  }
}

function options(step: number, glossaryChoice: number, disable: boolean): CheckOptions {
  return { glossary: GLOSSARIES[glossaryChoice % GLOSSARIES.length]!, common, ...(disable && step % 3 === 0 ? { disabledExtractors: ['repeated_noun'] } : {}) };
}

describe('incremental checking', () => {
  test('the in-sense document has findings of the synonym in sense only', () => {
    const uses = IN_SENSE_DOCUMENT.match(/\bextends\b/g)!.length;
    const inSense = engine.checkDocument(IN_SENSE_DOCUMENT, options(0, 0, false)).findings.filter((f) => f.term === 'extend' && f.reason === 'synonym_to_avoid');
    expect(inSense.length).toBe(uses / 2);
  });

  test('an edit of the sentence around a synonym in sense, away from the word itself, is seen', () => {
    const checker = engine.createIncrementalChecker();
    const opts = options(0, 0, false);
    const inSense = (text: string) => checker.check(text, opts).findings.filter((f) => f.reason === 'synonym_to_avoid').length;
    let text = IN_SENSE_DOCUMENT;
    const before = inSense(text);
    // The sentence shares two words with the definition, one on each side of "extends", on other
    // lines: an edit of either changes whether it is in sense.
    text = text.replace('extends the old\nartifact.', 'extends the old\ndeadline.');
    expect(inSense(text)).toBe(before - 1);
    expect(checker.check(text, opts)).toEqual(engine.checkDocument(text, opts));
    text = text.replace('Our doctrine team,\nas written,\nextends the old\ndeadline.', 'Our doctrine pack,\nas written,\nextends the old\ndeadline.');
    expect(inSense(text)).toBe(before);
    expect(checker.check(text, opts)).toEqual(engine.checkDocument(text, opts));
  });

  test('a word written as code elsewhere in the document: edits of that line, and of others', () => {
    const checker = engine.createIncrementalChecker();
    const opts = options(0, 0, false);
    const terms = (text: string) => checker.check(text, opts).findings.map((f) => f.term);
    const coded = 'The mutmut tool runs.\nThen mutmut again.\nAnd mutmut once more.\n\nRun `mutmut run` now.\n';
    expect(terms(coded)).not.toContain('mutmut');
    // Another line edited: still code.
    expect(terms(coded.replace('Then', 'And then'))).not.toContain('mutmut');
    // Its backticks removed: a term; written as code again: not.
    const plain = coded.replace('`mutmut run`', 'mutmut run');
    expect(terms(plain)).toContain('mutmut');
    expect(checker.check(plain, opts)).toEqual(engine.checkDocument(plain, opts));
    expect(terms(coded)).not.toContain('mutmut');
    expect(checker.check(coded, opts)).toEqual(engine.checkDocument(coded, opts));
  });

  test('random edit sequences give the fresh check result', () => {
    fc.assert(
      fc.property(fc.constantFrom(DOCUMENT, generateSpec({ size: 12_000, seed: 5 }), IN_SENSE_DOCUMENT), fc.array(fc.tuple(edit, fc.integer({ min: 0, max: 8 }), fc.boolean()), { minLength: 1, maxLength: 12 }), (start, edits) => {
        const checker = engine.createIncrementalChecker();
        let text = start;
        checker.check(text, options(0, 0, false));
        edits.forEach(([e, glossaryChoice, disable], step) => {
          text = apply(text, e);
          // Mostly the same glossary; now and then another one, or a setting, changes too.
          const opts = options(step, glossaryChoice > 2 ? 0 : glossaryChoice, disable);
          expect(checker.check(text, opts)).toEqual(engine.checkDocument(text, opts));
        });
      }),
      { numRuns: 150, seed: 20260121 },
    );
  });

  test('with the edit told up front (as the server documents report it, perhaps wider), the same', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(DOCUMENT, generateSpec({ size: 12_000, seed: 5 }), IN_SENSE_DOCUMENT),
        fc.array(fc.tuple(edit, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), fc.boolean()), { minLength: 1, maxLength: 12 }),
        (start, edits) => {
          const checker = engine.createIncrementalChecker();
          let text = start;
          checker.check(text, options(0, 0, false));
          edits.forEach(([e, before, after, tell], step) => {
            const next = apply(text, e);
            // The replaced range, widened by unchanged characters on either side.
            let from = 0;
            while (from < Math.min(text.length, next.length) && text[from] === next[from]) from++;
            let same = 0;
            while (same < Math.min(text.length, next.length) - from && text[text.length - 1 - same] === next[next.length - 1 - same]) same++;
            const widen = Math.min(after, same);
            const edit = { from: Math.max(0, from - before), oldEnd: text.length - same + widen, newEnd: next.length - same + widen };
            if (tell) checker.expectEdit({ before: text, edit });
            text = next;
            expect(checker.check(text, options(step, 0, false))).toEqual(engine.checkDocument(text, options(step, 0, false)));
          });
        },
      ),
      { numRuns: 100, seed: 20261126 },
    );
  });

  test('typing re-checks only the lines it touches', () => {
    const checker = engine.createIncrementalChecker();
    let text = generateSpec({ size: 60_000, seed: 2 });
    checker.check(text, { glossary: TEAM, common });
    const at = text.indexOf(' the ', 30_000) + 1;
    for (const char of 'lane ') {
      const offset = at + 'lane '.indexOf(char);
      text = text.slice(0, offset) + char + text.slice(offset);
      const report = checker.check(text, { glossary: TEAM, common });
      expect(checker.lastRescan.full).toBe(false);
      expect(checker.lastRescan.to - checker.lastRescan.from).toBeLessThan(5_000);
      expect(report).toEqual(engine.checkDocument(text, { glossary: TEAM, common }));
    }
  });

  test('opening a fence re-masks to the end; closing it again converges', () => {
    const checker = engine.createIncrementalChecker();
    let text = DOCUMENT;
    checker.check(text, { glossary: TEAM, common });
    const at = text.indexOf('## Requirements');
    // No other ~~~ follows: everything after the new fence is code now.
    text = text.slice(0, at) + '~~~\n' + text.slice(at);
    expect(checker.check(text, { glossary: TEAM, common })).toEqual(engine.checkDocument(text, { glossary: TEAM, common }));
    expect(checker.lastRescan.to).toBe(text.length);
    text = text.slice(0, at) + text.slice(at + 4);
    expect(checker.check(text, { glossary: TEAM, common })).toEqual(engine.checkDocument(text, { glossary: TEAM, common }));
    expect(checker.lastRescan.full).toBe(false);
  });

  test('an edit of the front matter scans the document again', () => {
    const checker = engine.createIncrementalChecker();
    let text = DOCUMENT;
    checker.check(text, { glossary: TEAM, common });
    text = text.replace('glossary_watch_terms: [review gate]', 'glossary_exclude_terms: [workspace]');
    expect(checker.check(text, { glossary: TEAM, common })).toEqual(engine.checkDocument(text, { glossary: TEAM, common }));
    expect(checker.lastRescan.full).toBe(true);
  });

  test('the same text against a changed glossary', () => {
    const checker = engine.createIncrementalChecker();
    checker.check(DOCUMENT, { glossary: TEAM, common });
    for (const glossary of GLOSSARIES) expect(checker.check(DOCUMENT, { glossary, common })).toEqual(engine.checkDocument(DOCUMENT, { glossary, common }));
  });

  test('readHeader gives what the check needs, as readHeader(text) would', () => {
    const checker = engine.createIncrementalChecker();
    checker.check(DOCUMENT, { glossary: TEAM, common });
    const text = DOCUMENT.replace('The end.', 'The very end.');
    const header = checker.readHeader(text);
    expect(header.lines.lineCount).toBe(text.split('\n').length);
    expect(header.frontMatter?.data?.['title']).toBe('Demo');
    expect(checker.check(text, { glossary: TEAM, common, header })).toEqual(engine.checkDocument(text, { glossary: TEAM, common }));
  });
});

describe('diff', () => {
  test('finds the one replaced range', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.string({ maxLength: 20 }), fc.nat(), fc.nat({ max: 30 }), (base, inserted, at, removed) => {
        const from = at % (base.length + 1);
        const next = base.slice(0, from) + inserted + base.slice(from + removed);
        const d = diff(base, next);
        expect(base.slice(0, d.from) + next.slice(d.from, d.newEnd) + base.slice(d.oldEnd)).toBe(next);
        expect(d.from).toBeLessThanOrEqual(Math.min(d.oldEnd, d.newEnd));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
