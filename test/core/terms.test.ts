/** The term index and written forms: what references and rename read. */
import { describe, expect, it } from 'vitest';
import { GlossaryIndex } from '../../server/src/core/glossary';
import { parseSeedFile } from '../../server/src/core/seeds';
import { formOf, pluralOf, writeInForm } from '../../server/src/core/terms/form';
import { glossaryOccurrences, TermIndex } from '../../server/src/core/terms/termIndex';
import { engine } from '../helpers/core';

const glossary = new GlossaryIndex(
  parseSeedFile(
    `terms:
  - surface: work package
    definition: A unit of work
    status: active
  - surface: worktree
    definition: A Git working directory
    status: active
    synonyms_to_avoid: [work dir]
`,
    'team_domain.yaml',
    'team_domain',
  ).senses,
);

function indexed(documents: Record<string, string>): TermIndex {
  const index = new TermIndex();
  for (const [name, text] of Object.entries(documents)) index.set(name, glossaryOccurrences(engine.checkDocument(text, { glossary }), glossary));
  return index;
}

describe('written forms', () => {
  it('keeps case and number, and writes a new surface the same way', () => {
    const cases: [string, string, string][] = [
      ['work packages', 'work package', 'deliverables'],
      ['Work packages', 'work package', 'Deliverables'],
      ['Work Packages', 'work package', 'Big Deliverables'],
      ['WORK PACKAGE', 'work package', 'BIG DELIVERABLE'],
      ['worktree', 'worktree', 'big deliverable'],
    ];
    for (const [written, surface, expected] of cases) expect(writeInForm(expected.toLowerCase().replace(/s$/, ''), formOf(written, surface))).toBe(expected);
  });

  it('keeps the hyphens of a multi-word term written hyphen-joined (SPEC §5), with its case and number', () => {
    expect(writeInForm('task unit', formOf('work-package', 'work package'))).toBe('task-unit');
    expect(writeInForm('task unit', formOf('Work-Packages', 'work package'))).toBe('Task-Units');
    expect(writeInForm('deliverable', formOf('work-package', 'work package'))).toBe('deliverable');
    // (A one-word surface written with a hyphen is no hyphen-joined form of it.)
    expect(writeInForm('task unit', formOf('spec-driven', 'spec-driven'))).toBe('task unit');
  });

  it('plurals only where they read back: singularized by SPEC §4, or a plural it keeps that ends the surface', () => {
    expect(pluralOf('policy')).toBe('policies');
    expect(pluralOf('class')).toBe('classes');
    expect(pluralOf('box')).toBe('boxes');
    expect(pluralOf('status')).toBe('statuses');
    expect(pluralOf('scenario')).toBe('scenarios');
    expect(pluralOf('schema')).toBe('schemas');
    expect(writeInForm('status', formOf('worktrees', 'worktree'))).toBe('statuses');
    expect(pluralOf('c++')).toBeUndefined();
    expect(pluralOf('criterion')).toBe('criteria');
    // -is and -os words have no +es plural that reads back ("axises" is no word): a rename to them is refused.
    expect(pluralOf('axis')).toBeUndefined();
    expect(pluralOf('chaos')).toBeUndefined();
    expect(pluralOf('canvas')).toBe('canvases');
    expect(writeInForm('acceptance criterion', formOf('Acceptance checks', 'acceptance check'))).toBe('Acceptance criteria');
    expect(writeInForm('acceptance check', formOf('acceptance criteria', 'acceptance criterion'))).toBe('acceptance checks');
    // A use written "acceptance scenarios" is a plural use: a rename keeps it plural.
    expect(writeInForm('acceptance example', formOf('Acceptance scenarios', 'acceptance scenario'))).toBe('Acceptance examples');
    expect(writeInForm('test scenario', formOf('worktrees', 'worktree'))).toBe('test scenarios');
  });
});

describe('the term index', () => {
  it('records every use, synonyms to avoid marked, never code', () => {
    const index = indexed({
      a: 'Each work package has a worktree.\nNo `worktree` in code; one work dir.\n',
      b: 'Work Packages again.\n',
    });
    expect(index.usesOf('worktree').map((u) => [u.document, u.range.start.line, u.range.start.character, u.surface, u.synonym])).toEqual([
      ['a', 0, 24, 'worktree', false],
      ['a', 1, 27, 'work dir', true],
    ]);
    expect(index.documentsUsing('work package').sort()).toEqual(['a', 'b']);
    expect(index.termsUsed()).toEqual(new Map([['work package', 2], ['worktree', 1]]));
    expect(index.occurrenceAt('a', { line: 0, character: 30 })).toMatchObject({ term: 'worktree', range: { start: { line: 0, character: 24 }, end: { line: 0, character: 32 } } });
    expect(index.occurrenceAt('a', { line: 1, character: 6 })).toBeUndefined();
  });

  it('replaces and forgets documents', () => {
    const index = indexed({ a: 'A worktree.\n', b: 'A worktree too.\n' });
    index.set('a', glossaryOccurrences(engine.checkDocument('Nothing here.\n', { glossary }), glossary));
    expect(index.documentsUsing('worktree')).toEqual(['b']);
    index.delete('b');
    expect(index.usesOf('worktree')).toEqual([]);
    expect(index.termsUsed().size).toBe(0);
    expect(index.documentCount).toBe(1);
  });
});
