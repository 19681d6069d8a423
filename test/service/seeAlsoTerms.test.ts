/** Where a seed file writes its `see_also` term references: what a rename changes with the term. */
import { describe, expect, it } from 'vitest';
import { seeAlsoTerms } from '../../server/src/service/seedSurfaces';

const YAML = `terms:
  - &branch
    surface: branch
    definition: A line of development
    see_also: [{term: worktree}, {tactic: worktree, term: 'Work Trees'}]
  - surface: sandbox
    definition: A throwaway place
    see_also:
      - term: "worktree"
      - term: *name
      - path: docs/worktree.md
  - *branch
`;

describe('seeAlsoTerms', () => {
  it('finds each `term:` value (normalized, with its range and quoting), never other keys, aliases or alias entries', () => {
    const text = YAML.replace('term: *name', 'term: &name anchored');
    const lines = text.split('\n');
    const written = (r: ReturnType<typeof seeAlsoTerms>[number]) => (r.range.start.line === r.range.end.line ? lines[r.range.start.line]!.slice(r.range.start.character, r.range.end.character) : '(several lines)');
    expect(seeAlsoTerms(text).map((r) => [r.index, r.surface, r.style, r.range.start.line, written(r)])).toEqual([
      [0, 'worktree', 'plain', 4, 'worktree'],
      [0, 'work tree', 'single', 4, "'Work Trees'"],
      [1, 'worktree', 'double', 8, '"worktree"'],
      [1, 'anchored', 'plain', 9, 'anchored'],
    ]);
    // An alias value is no place to edit (nor is the entry `- *branch`, an alias of the first).
    expect(seeAlsoTerms(YAML.replace('term: *name', 'term: &name x\n      - term: *name')).map((r) => r.surface)).toEqual(['worktree', 'work tree', 'worktree', 'x']);
  });

  it('finds nothing in a file that does not parse', () => {
    expect(seeAlsoTerms('terms:\n  - surface: [unclosed\n')).toEqual([]);
  });
});
