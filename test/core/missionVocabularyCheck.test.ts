/**
 * A mission's own vocabulary in the check (SPEC §3): what a document's sections define resolves,
 * nothing inside them is reported, their words to avoid are flagged, and the incremental checker
 * still gives exactly the fresh check's report.
 */

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CheckOptions } from '../../server/src/core/check/check';
import { readVocabulary } from '../../server/src/core/missionVocabulary/read';
import type { VocabularySource } from '../../server/src/core/missionVocabulary/types';
import { common, engine, glossaryFrom } from '../helpers/core';

const CORE = glossaryFrom({
  spec_kitty_core: `terms:
  - {surface: mission, definition: One unit of planned change carried to merge, status: active}
  - {surface: lane, definition: A column of the status board, status: active}
`,
});

const SPEC_FILE = '/ws/kitty-specs/001-lanes/spec.md';
const ORIGIN = { file: SPEC_FILE, missionId: '01LANES', missionSlug: '001-lanes' };

const SPEC = `# Lanes

The zorblax moves each quarkle to a lane. Every quarkle has a frobnitz.
A task moves through the zorblax as a card. A quarkle waits in the zorblax.

## Domain Language

| Term | Definition | Avoid |
|---|---|---|
| Quarkle (QK) | A card that moves through the zorblax | "task", "ticket" |
| Zorblax | The board of the lanes; a frobnitz queue | file |
| Lane | A git branch per quarkle | |

## Key Entities

- **Frobnitz**: the flag a quarkle carries; see "glimmerstone" and the QZX file
- **Quarkle**: a unit of planned work

## Requirements

- FR-001: the QZX file lists every QK.
`;

const options = (extra: Partial<CheckOptions> = {}): CheckOptions => ({ glossary: CORE, common, documentOrigin: ORIGIN, ...extra });

const findings = (text: string, extra: Partial<CheckOptions> = {}) =>
  engine.checkDocument(text, options(extra)).findings.map((f) => `${f.range.start.line + 1}:${f.term}:${f.conflictType}${f.replacement ? `>${f.replacement}` : ''}`);

describe('a document with its own vocabulary', () => {
  test('its words resolve, nothing inside the sections is reported, its words to avoid are flagged in prose', () => {
    expect(findings(SPEC)).toEqual(['4:task:inconsistent>quarkle', '21:qzx:unknown']);
  });

  test('without the sections, the same prose reports the words as unknown', () => {
    const prose = SPEC.slice(0, SPEC.indexOf('## Domain Language'));
    expect(findings(prose)).toEqual(['3:zorblax:unknown', '3:quarkle:unknown', '3:quarkle:unknown', '4:zorblax:unknown', '4:quarkle:unknown', '4:zorblax:unknown']);
  });

  test("the spec's sense of a word decides ahead of the core's, and an alias resolves", () => {
    const report = engine.checkDocument(SPEC, options());
    expect(report.glossary.sensesOf('lane').map((s) => [s.scope, s.definition])).toEqual([
      ['mission_local', 'A git branch per quarkle'],
      ['spec_kitty_core', 'A column of the status board'],
    ]);
    expect(report.glossary.sensesOf('qk')[0]!.definition).toBe('A card that moves through the zorblax');
    expect(report.candidates.find((c) => c.surface === 'qk')?.method).toBe('glossary_match');
  });

  test('a placeholder entry is a warning on the entry and defines nothing', () => {
    const text = '# X\n\nThe quarkle moves.\nThe quarkle waits. The quarkle rests.\n\n## Key Entities\n\n- **Quarkle**: TODO\n';
    const report = engine.checkDocument(text, options());
    expect(report.problems.map((p) => [p.code, p.severity, p.range.start.line])).toEqual([['domain.placeholder', 'warning', 7]]);
    expect(report.findings.map((f) => `${f.range.start.line}:${f.term}`)).toEqual(['2:quarkle', '3:quarkle', '3:quarkle']);
  });
});

describe("another document of the mission, with the spec's vocabulary", () => {
  const plan = '# Plan\n\nEach quarkle (QK) gets a lane in the zorblax. A quarkle waits; the quarkle moves.\nNo task moves through the zorblax unplanned.\n';
  const source: VocabularySource = { ...ORIGIN, vocabulary: readVocabulary(SPEC) };

  test('resolves the words the spec defines and flags its words to avoid', () => {
    expect(findings(plan, { documentOrigin: { ...ORIGIN, file: '/ws/kitty-specs/001-lanes/plan.md' }, missionVocabulary: [source] })).toEqual(['4:task:inconsistent>quarkle']);
  });

  test('a document of another mission, checked without it, knows none of them', () => {
    expect(findings(plan, { documentOrigin: { file: '/ws/kitty-specs/002-other/plan.md', missionId: '002-other', missionSlug: '002-other' } })).toEqual(['3:quarkle:unknown', '3:qk:unknown', '3:quarkle:unknown', '3:quarkle:unknown']);
  });

  test("the document's own entry of a word comes before the spec's", () => {
    const own = `${plan}\n## Glossary\n\n- **Zorblax**: the release train\n`;
    const report = engine.checkDocument(own, options({ documentOrigin: { ...ORIGIN, file: '/ws/kitty-specs/001-lanes/plan.md' }, missionVocabulary: [source] }));
    // (One sense per surface: the plan's own.)
    expect(report.glossary.sensesOf('zorblax').map((s) => s.definition)).toEqual(['the release train']);
    expect(report.findings.map((f) => f.term)).toEqual(['task']);
  });
});

const SNIPPETS = ['\n', '\n\n', '## Glossary\n', '\n### Domain Language\n', '- **Blip**: a thing\n', '| Blip | a thing | "bleep" |\n', '|', '`', '```\n', '**', 'quarkle ', 'task ', 'zorblax', '# ', '---\n', '> ', '1. ', '    ', 'x', ' '];
const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  kind: fc.constantFrom('insert', 'delete', 'type'),
  snippet: fc.constantFrom(...SNIPPETS),
  length: fc.integer({ min: 1, max: 30 }),
});

describe('incremental checking of a document with vocabulary sections', () => {
  test('random edits give the fresh check result', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 15 }), fc.boolean(), (edits, withSpec) => {
        const extra: Partial<CheckOptions> = withSpec ? { missionVocabulary: [{ ...ORIGIN, file: '/ws/other/spec.md', vocabulary: readVocabulary('## Glossary\n\n- **Frobnitz**: a flag\n') }] } : {};
        const checker = engine.createIncrementalChecker();
        let text = SPEC;
        checker.check(text, options(extra));
        for (const e of edits) {
          const at = Math.floor(e.at * text.length);
          text = e.kind === 'delete' ? text.slice(0, at) + text.slice(at + e.length) : e.kind === 'type' ? text.slice(0, at) + 'lane'.slice(0, 1 + (e.length % 4)) + text.slice(at) : text.slice(0, at) + e.snippet + text.slice(at);
          expect(checker.check(text, options(extra))).toEqual(engine.checkDocument(text, options(extra)));
        }
      }),
      { numRuns: 200, seed: 20261126 },
    );
  });

  test('typing in prose keeps the glossary object (and what checks keep per glossary)', () => {
    const checker = engine.createIncrementalChecker();
    let text = SPEC;
    const first = checker.check(text, options());
    const at = text.indexOf('Every quarkle');
    for (const char of 'lane \n') {
      text = text.slice(0, at) + char + text.slice(at);
      expect(checker.check(text, options()).glossary).toBe(first.glossary);
    }
  });
});

describe('a glossary with senses added (GlossaryIndex.withSenses)', () => {
  test('indexes exactly what a glossary made of all the senses, with the added mission_local senses first, would', () => {
    const base = glossaryFrom({
      mission_local: 'terms:\n  - {surface: lane, definition: seed lane, status: active}\n',
      team_domain: 'terms:\n  - {surface: lane, definition: team lane, status: active, synonyms_to_avoid: [swim lane]}\n  - {surface: card, definition: team card, status: active}\n',
    });
    const added = readVocabulary('## Glossary\n\n| Term | Definition | Avoid |\n|---|---|---|\n| Lane | spec lane | "track" |\n| Quarkle | spec quarkle | |\n');
    expect([...base.withSenses([]).surfaces()]).toEqual([...base.surfaces()]);
    const report = engine.checkDocument('# X\n', { glossary: base, common, missionVocabulary: [{ ...ORIGIN, vocabulary: added }] });
    const glossary = report.glossary;
    const flat = (g: typeof glossary, surface: string) => g.sensesOf(surface).map((s) => `${s.scope}:${s.definition}`);
    expect(flat(glossary, 'lane')).toEqual(['mission_local:spec lane', 'mission_local:seed lane', 'team_domain:team lane']);
    expect(flat(glossary, 'quarkle')).toEqual(['mission_local:spec quarkle']);
    expect(glossary.preferredFor('track').map((s) => s.definition)).toEqual(['spec lane']);
    expect(glossary.preferredFor('swim lane').map((s) => s.definition)).toEqual(['team lane']);
    expect(glossary.layer?.base).toBe(base);
    // Added again on top of a layered one: the first layer's senses stay.
    const twice = glossary.withSenses([{ ...glossary.sensesOf('quarkle')[0]!, surface: 'blip', definition: 'spec blip' }]);
    expect(flat(twice, 'quarkle')).toEqual(['mission_local:spec quarkle']);
    expect(flat(twice, 'blip')).toEqual(['mission_local:spec blip']);
    expect(twice.layer?.base).toBe(base);
  });
});
