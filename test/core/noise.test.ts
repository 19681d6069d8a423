import { describe, expect, test } from 'vitest';
import { parseSeedFile } from '../../server/src/core/seeds';
import { check, glossaryFrom } from '../helpers/core';

const glossary = glossaryFrom({
  spec_kitty_core: `terms:
  - {surface: work package, definition: A unit of planned work inside a mission, status: active}
  - {surface: mission, definition: A unit of spec-driven work with its own spec plan and tasks, status: active}
  - {surface: worktree, definition: A git worktree for one work package, status: active}
`,
});
const warningOrAbove = (text: string) => check(text, { glossary }).findings.filter((f) => f.severity !== 'low').map((f) => f.term);
const flagged = (text: string) => [...new Set(check(text, { glossary }).findings.map((f) => f.term))];

describe('quiet by default on realistic prose', () => {
  test('ordinary written technical English is not flagged', () => {
    const text = `## Overview

The implementation explicitly keeps the existing behaviour unchanged. A regression test
covers every scenario, and the acceptance criteria are verified before the release. The
implementation must remain backwards compatible; the regression suite runs on every change,
and reviewers confirm the implementation explicitly handles each scenario.`;
    expect(flagged(text)).toEqual([]);
  });

  test('a quoted ordinary word is not an unknown term', () => {
    expect(flagged('Set the status to "planned" and then "done".')).toEqual([]);
  });

  test('shouted words and RFC keywords are not acronyms', () => {
    expect(flagged('You MUST NOT change this. This is NEW and IMPORTANT. DO NOT MERGE.')).toEqual([]);
  });

  test('well-known acronyms are known, an unfamiliar one is low severity', () => {
    const report = check('The CLI calls the REST API over HTTPS and stores JSON. QZX rules apply.', { glossary });
    expect(report.findings.map((f) => [f.term, f.severity])).toEqual([['qzx', 'low']]);
  });

  test('ids, versions, dates, hashes and issue references are not terms', () => {
    const text = 'FR-001, FR-002 and NFR-003 map to WP01 and WP02 (see #412, GH-77). Released in v3.2.0 on 2026-01-27, commit 3f2a9c1d7b4e, mission 01KQEJZK9ZX5Q7B2M3N4P5R6S7, log YYYY-MM-DD.';
    expect(flagged(text)).toEqual([]);
  });

  test('identifiers in backticks, paths and URLs are not terms', () => {
    const text = 'Call `frobnicate_widget()` in `src/frob/frobnicator.py`, see src/frob/frobnicator_impl.py and https://frobnicator.example.com/frobnicator.';
    expect(flagged(text)).toEqual([]);
  });

  test('plurals and possessives of a glossary term match the term', () => {
    const report = check("Each mission's work packages run in worktrees. The missions' plans.", { glossary });
    const matched = report.candidates.filter((c) => c.method === 'glossary_match').map((c) => [c.surface, c.texts]);
    expect(matched).toEqual([
      ['mission', ['mission', 'missions']],
      ['work package', ['work packages']],
      ['worktree', ['worktrees']],
    ]);
    expect(report.findings).toEqual([]);
  });

  test('hyphenated prefixes are not repeated nouns', () => {
    expect(flagged('A pre-existing check, a pre-flight run and a pre-merge hook, all pre-approved.')).toEqual([]);
  });

  test('a word repeated only in headings is not a repeated noun', () => {
    expect(flagged('## Zorblax setup\n\nText.\n\n## Zorblax teardown\n\nMore.\n\n## Zorblax notes\n')).toEqual([]);
  });

  test('a coined word repeated in prose is reported, at Information (repetition alone is weak evidence)', () => {
    const text = 'The quarkle runs. If the quarkle fails, the quarkle retries.';
    expect(warningOrAbove(text)).toEqual([]);
    expect(check(text, { glossary }).findings.map((f) => [f.term, f.severity])).toEqual([['quarkle', 'low'], ['quarkle', 'low'], ['quarkle', 'low']]);
  });

  test('see_also items with other keys (as Spec Kitty writes them) load without errors', () => {
    const seed = parseSeedFile(`terms:
  - surface: regex budget
    definition: Time budget for regular expressions
    see_also:
      - tactic: secure-regex
        path: src/doctrine/tactics/secure-regex.yaml
      - term: catastrophic backtracking
`, 'core.yaml', 'spec_kitty_core');
    expect(seed.problems).toEqual([]);
    expect(seed.senses[0]!.seeAlso).toEqual(['catastrophic backtracking']);
  });
});
