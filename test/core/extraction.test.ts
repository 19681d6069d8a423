import { describe, expect, test } from 'vitest';
import { check, engine, extracted, glossaryFrom } from '../helpers/core';

const glossary = glossaryFrom({
  team_domain: `terms:
  - {surface: workspace, definition: Git worktree directory for a work package, status: active}
  - {surface: work package, definition: A unit of planned work, status: active}
  - {surface: api gateway, definition: The edge proxy, status: active}
  - {surface: worktree, definition: A git worktree, status: active, synonyms_to_avoid: [work dir]}
  - {surface: policy, definition: A rule set, status: active}
`,
});

/** Ranges of `needle` in `text` as [line, character, endCharacter] triples. */
function rangesOf(text: string, needle: string): [number, number, number][] {
  const out: [number, number, number][] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    const before = text.slice(0, at);
    const line = before.split('\n').length - 1;
    const character = at - (before.lastIndexOf('\n') + 1);
    out.push([line, character, character + needle.length]);
    at = text.indexOf(needle, at + needle.length);
  }
  return out;
}

function occurrences(text: string, surface: string, options = { glossary }) {
  const candidate = check(text, options).candidates.find((c) => c.surface === surface);
  return (candidate?.occurrences ?? []).map((r) => [r.start.line, r.start.character, r.end.character]);
}

describe('heuristic extractors (SPEC §5)', () => {
  test('quoted phrases', () => {
    expect(extracted('The "zorblax" contains a "frobnitz" primitive.')).toEqual(['frobnitz:quoted_phrase', 'zorblax:quoted_phrase']);
    const report = check('The "zorblax" contains a "frobnitz" primitive.');
    expect(report.candidates.every((c) => c.confidence === 0.8)).toBe(true);
  });

  test('typographic quotes, 1–4 words, not made only of common words', () => {
    expect(extracted('A \u201czorblax lane\u201d and "the zorblax of it" and "this" and "one two three four five" and "delivery lane".')).toEqual(['zorblax lane:quoted_phrase']);
  });

  test('acronyms: 2–5 capitals, optional plural', () => {
    expect(extracted('WP is a work package. API and CLI are acronyms.')).toEqual(['api:acronym', 'cli:acronym', 'wp:acronym']);
    expect(extracted('ABCDEF is too long.')).toEqual([]);
    expect(extracted('Two SDKs were used.')).toEqual(['sdk:acronym']);
    expect(extracted('You MUST NOT do THIS.')).toEqual([]);
  });

  test('casing patterns: identifiers are code; PascalCase with a coined part and mixed-case abbreviations are terms', () => {
    expect(extracted('The work_package and mission_config are fields.')).toEqual([]);
    expect(extracted('Call missionRunner from the GlossaryStore.')).toEqual([]);
    expect(extracted('The ZorblaxStore asks the HiQ.')).toEqual(['hiq:casing_pattern', 'zorblaxstore:casing_pattern']);
    expect(extracted('Plain Capitalised Words are fine.')).toEqual([]);
  });

  test('repeated nouns: ≥3 letters, ≥3 times, not common English', () => {
    expect(extracted('The the the the the.')).toEqual([]);
    expect(extracted('A frobnicator helps. Each frobnicator spins. Frobnicators rest.')).toEqual(['frobnicator:repeated_noun']);
    expect(extracted('A frobnicator helps. Each frobnicator spins.')).toEqual([]);
    expect(extracted('The implementation and the implementation of implementations.')).toEqual([]);
    const report = check('A zorblax. A zorblax. A zorblax.');
    expect(report.candidates[0]).toMatchObject({ surface: 'zorblax', method: 'repeated_noun', confidence: 0.5 });
  });

  test('glossary matches: whole word, case-insensitive, plural, multi-word, longest first', () => {
    const text = 'Workspaces hold Work Packages.\nThe API Gateway routes; a workspacex is not one.\nThe work\npackage wraps.';
    expect(occurrences(text, 'workspace')).toEqual([[0, 0, 10]]);
    expect(occurrences(text, 'work package')).toEqual([[0, 16, 29], [2, 4, 7]]);
    expect(occurrences(text, 'api gateway')).toEqual([[1, 4, 15]]);
    const report = check(text, { glossary });
    expect(report.candidates.find((c) => c.surface === 'work package')!.occurrences[1]!.end).toEqual({ line: 3, character: 7 });
    expect(report.candidates.map((c) => c.method)).toEqual(['glossary_match', 'glossary_match', 'glossary_match']);
  });

  test('a candidate reads and serializes as a plain one (ranges and texts worked out on first read)', () => {
    const text = 'Work packages ship.\nA work package waits.';
    const candidate = check(text, { glossary }).candidates.find((c) => c.surface === 'work package')!;
    const plain = { surface: 'work package', method: 'glossary_match', confidence: 1, occurrences: [{ start: { line: 0, character: 0 }, end: { line: 0, character: 13 } }, { start: { line: 1, character: 2 }, end: { line: 1, character: 14 } }], texts: ['Work packages', 'work package'] };
    expect(JSON.parse(JSON.stringify(candidate))).toEqual(plain);
    expect(Object.keys(JSON.parse(JSON.stringify(candidate)))).toEqual(['surface', 'method', 'confidence', 'occurrences', 'texts']);
    expect(candidate.occurrences).toBe(candidate.occurrences); // worked out once
    expect({ surface: candidate.surface, method: candidate.method, confidence: candidate.confidence, occurrences: candidate.occurrences, texts: candidate.texts }).toEqual(plain);
    candidate.texts = ['changed', 'too'];
    expect(candidate.texts).toEqual(['changed', 'too']);
  });

  test('plural -ies and possessives match the surface', () => {
    const text = "Two policies apply. The policy's scope. The workspace's root.";
    expect(occurrences(text, 'policy')).toEqual([[0, 4, 12], [0, 24, 30]]);
    expect(occurrences(text, 'workspace')).toEqual([[0, 44, 53]]);
  });

  test('synonyms to avoid are matched as glossary terms', () => {
    expect(occurrences('Open the work dir now.', 'work dir')).toEqual([[0, 9, 17]]);
  });

  test('UTF-16 ranges after astral characters', () => {
    const text = '🚀 The workspace is ready.';
    expect(occurrences(text, 'workspace')).toEqual(rangesOf(text, 'workspace'));
    expect(rangesOf(text, 'workspace')[0]![1]).toBe(7);
  });
});

describe('exclusions (SPEC §5)', () => {
  const cases: [string, string][] = [
    ['fenced code block', 'Intro.\n\n```yaml\nworkspace: x\n```\n'],
    ['tilde fence', '~~~\nworkspace\n~~~\n'],
    ['unclosed fence', '```\nworkspace\n'],
    ['indented code block', 'Intro.\n\n    workspace = 1\n'],
    ['inline code', 'Use `workspace` here and ``a `workspace` b``.'],
    ['link destination', 'See [the docs](https://example.com/workspace) and [x](./workspace.md).'],
    ['autolink', 'Go to <https://example.com/workspace>.'],
    ['bare URL', 'Go to https://example.com/workspace now.'],
    ['HTML comment', '<!-- workspace -->\n\nText <!-- the workspace --> end.'],
    ['multi-line HTML comment', '<!--\nworkspace\n-->\n'],
    ['HTML tag attributes', 'A <span title="workspace">b</span> c.'],
    ['raw HTML pre block', '<pre>\nworkspace\n</pre>\n'],
    ['front matter', '---\ntitle: workspace\n---\nBody.'],
    ['file path', 'Edit .kittify/workspace/config and src/workspace/main.py today.'],
    ['reference definition', '[ws]: https://example.com/workspace\n'],
  ];
  test.each(cases)('%s', (_name, text) => {
    expect(occurrences(text, 'workspace')).toEqual([]);
  });

  test('link text is still prose', () => {
    expect(occurrences('See [the workspace](https://example.com/x).', 'workspace')).toEqual([[0, 9, 18]]);
  });

  test('requirement ids and other identifiers are not acronyms', () => {
    expect(extracted('FR-001 and NFR-002 cover WP03, SC-004, T012, #123 and v1.2.3 on 2026-01-27 (01KQEJZK9ZX5Q7B2M3N4P5R6S7).')).toEqual([]);
  });

  test('indented lines inside a list are prose, not code', () => {
    expect(occurrences('- item\n\n    the workspace continues\n', 'workspace')).toEqual([[2, 8, 17]]);
  });
});

describe('front matter hints', () => {
  test('watch terms are extracted where they are written and where they are used', () => {
    const text = '---\nglossary_watch_terms: [frobnicator]\n---\nThe frobnicator spins.\n';
    const report = check(text);
    expect(report.candidates).toHaveLength(1);
    expect(report.candidates[0]).toMatchObject({ surface: 'frobnicator', method: 'metadata_hint', confidence: 1.0 });
    expect(report.candidates[0]!.occurrences.map((r) => [r.start.line, r.start.character])).toEqual([[1, 23], [3, 4]]);
  });

  test('a watched term no glossary defines is unknown even when it is ordinary English or a well-known acronym; ignore_words and a glossary sense still settle it', () => {
    const text = '---\nglossary_watch_terms: [tenant, API, cutover]\n---\nEach tenant gets an API and a cutover.\n';
    const unknown = (report: ReturnType<typeof check>) => [...new Set(report.findings.filter((f) => f.conflictType === 'unknown').map((f) => `${f.term}:${f.severity}`))].sort();
    expect(unknown(check(text))).toEqual(['api:low', 'cutover:low', 'tenant:low']);
    // Unwatched, none of them is reported.
    expect(unknown(check(text.replace('[tenant, API, cutover]', '[]')))).toEqual([]);
    expect(unknown(check(text, { ...engine.vocabulary(['cutover']) }))).toEqual(['api:low', 'tenant:low']);
    // A well-known acronym too (ignore_words name it as any term).
    expect(unknown(check(text, { ...engine.vocabulary(['api', 'tenant']) }))).toEqual(['cutover:low']);
    const tenant = glossaryFrom({ team_domain: 'terms:\n  - {surface: tenant, definition: A customer account, status: active}\n' });
    expect(unknown(check(text, { glossary: tenant }))).toEqual(['api:low', 'cutover:low']);
  });

  test('alias values are hints and alias keys in the prose count as the term', () => {
    const text = '---\nglossary_aliases: {WSP: workspace}\n---\nThe WSP is ready.\n';
    const report = check(text, { glossary });
    const candidate = report.candidates.find((c) => c.surface === 'workspace')!;
    expect(candidate.method).toBe('metadata_hint');
    expect(candidate.occurrences.map((r) => r.start)).toEqual([{ line: 1, character: 24 }, { line: 3, character: 4 }]);
    expect(report.candidates.find((c) => c.surface === 'wsp')).toBeUndefined();
  });

  test('glossary_exclude_terms removes a term from every method', () => {
    const text = '---\nglossary_exclude_terms: [workspace, api, frobnicator, zap_zop]\nglossary_watch_terms: [workspace]\n---\nThe "workspace" API. Frobnicator, frobnicator, frobnicator. zap_zop.\n';
    expect(extracted(text, { glossary })).toEqual([]);
  });

  test('glossary_fields restricts the check to the named sections', () => {
    const text = '---\nglossary_fields: [Requirements]\n---\n# Intro\nThe "zalpha" thing.\n## Requirements\nThe "zbeta" thing.\n### Detail\nThe "zgamma" thing.\n## Other\nThe "zdelta" thing.\n';
    expect(extracted(text)).toEqual(['zbeta:quoted_phrase', 'zgamma:quoted_phrase']);
  });

  test('glossary_check: disabled checks nothing', () => {
    const report = check('---\nglossary_check: disabled\n---\nThe "alpha" API.\n');
    expect(report.checked).toBe(false);
    expect(report.findings).toEqual([]);
  });

  test('front matter that is not a mapping is reported and ignored', () => {
    const report = check('---\n- a\n- b\n---\nThe API.\n');
    expect(report.problems[0]!.message).toContain('mapping');
    expect(report.findings.map((f) => f.term)).toEqual([]);
  });
});

test('an alias counts as its canonical term even when the term itself is also used', () => {
  const text = '---\nglossary_aliases: {WSP: workspace}\n---\nThe workspace, or WSP, is ready.\n';
  const candidate = check(text, { glossary }).candidates.find((c) => c.surface === 'workspace')!;
  expect(candidate.method).toBe('glossary_match');
  expect(candidate.occurrences.map((r) => [r.start.line, r.start.character])).toEqual([[1, 24], [3, 4], [3, 18]]);
});
