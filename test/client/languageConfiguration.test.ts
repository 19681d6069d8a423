/**
 * The language configuration of seed glossary files, exercised the way VS Code uses it: the word
 * at a position (for double-click, word-based suggestions and the hover range), Enter inside a
 * list item, and the indentation rules.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/workspace';

const config = JSON.parse(readFileSync(path.join(REPO, 'language-configuration.json'), 'utf8'));
const wordRegExp = new RegExp(config.wordPattern.pattern, `${config.wordPattern.flags ?? ''}g`);

/**
 * The word around `column` (0-based) as VS Code's editor finds it: the regex runs over the line
 * from windows that start further and further left, keeping the last match that still encloses
 * the position, and stops once a wider window finds nothing enclosing it.
 */
function wordAt(line: string, column: number): string | undefined {
  const enclosing = (from: number, stopAt: number): RegExpExecArray | undefined => {
    wordRegExp.lastIndex = Math.max(0, from);
    for (let match = wordRegExp.exec(line); match; match = wordRegExp.exec(line)) {
      if (match.index <= column && wordRegExp.lastIndex >= column) return match;
      if (stopAt > 0 && match.index > stopAt) return undefined;
      if (match[0].length === 0) wordRegExp.lastIndex++;
    }
    return undefined;
  };
  let found: RegExpExecArray | undefined;
  let previousStart = -1;
  for (let i = 1; ; i++) {
    const start = column - 15 * i;
    const match = enclosing(start, previousStart);
    if (!match && found) break;
    found = match;
    if (start <= 0) break;
    previousStart = start;
  }
  return found?.[0];
}

const at = (line: string, needle: string) => wordAt(line, line.indexOf(needle) + 1);

describe('word pattern of seed glossary files', () => {
  it('keeps multi-word and snake_case surfaces whole', () => {
    expect(at('  - surface: work package', 'package')).toBe('work package');
    expect(at('  - surface: work package', 'work')).toBe('work package');
    expect(at('  - surface: mission_local  # the scope', 'local')).toBe('mission_local');
    expect(at('  - surface: continuous integration pipeline stage', 'stage')).toBe('continuous integration pipeline stage');
    expect(at('  - surface: "work package"', 'package')).toBe('work package');
    expect(at("    surface: 'API gateway'", 'gateway')).toBe('API gateway');
  });

  it('keeps synonyms and see_also terms whole, in flow and block lists', () => {
    expect(at('    synonyms_to_avoid: [work dir, work folder]', 'dir')).toBe('work dir');
    expect(at('    synonyms_to_avoid: [work dir, work folder]', 'folder')).toBe('work folder');
    expect(at('      - work dir', 'dir')).toBe('work dir');
    expect(at('    see_also: [{term: git worktree}]', 'worktree')).toBe('git worktree');
  });

  it('splits definitions and keys into ordinary words', () => {
    expect(at('    definition: Git worktree directory for a work package', 'worktree')).toBe('worktree');
    expect(at('    definition: Git worktree directory, for a work package', 'package')).toBe('package');
    expect(at('    synonyms_to_avoid: [work dir]', 'synonyms')).toBe('synonyms_to_avoid');
    expect(at('    confidence: 0.9', 'confidence')).toBe('confidence');
    expect(at('# one-line comment about the team_domain scope', 'team')).toBe('team_domain');
  });

  it('never matches the empty string (the editor rejects such patterns)', () => {
    expect(new RegExp(config.wordPattern.pattern, config.wordPattern.flags).exec('')).toBeNull();
  });
});

describe('Enter and indentation in seed glossary files', () => {
  const onEnter = (line: string) => (config.onEnterRules as Array<{ beforeText: string; action: { indent: string; appendText?: string } }>).find((rule) => new RegExp(rule.beforeText).test(line))?.action;

  it('lines the next key of an entry up with the first one', () => {
    expect(onEnter('  - surface: workspace')).toEqual({ indent: 'none', appendText: '  ' });
    expect(onEnter('  - surface: workspace # comment')).toEqual({ indent: 'none', appendText: '  ' });
  });

  it('indents after a key that opens a block', () => {
    expect(onEnter('terms:')).toEqual({ indent: 'indent' });
    expect(onEnter('    synonyms_to_avoid:')).toEqual({ indent: 'indent' });
    expect(onEnter('  - see_also:   # related terms')).toEqual({ indent: 'none', appendText: '    ' });
  });

  it('keeps the indentation after plain values and scalar list items', () => {
    expect(onEnter('    definition: Git worktree directory')).toBeUndefined();
    expect(onEnter('      - work dir')).toBeUndefined();
  });

  it('has indentation rules that agree with the Enter rules', () => {
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    expect(increase.test('terms:')).toBe(true);
    expect(increase.test('  - surface: workspace')).toBe(true);
    expect(increase.test('    definition: Git worktree directory')).toBe(false);
    expect(increase.test('      - work dir')).toBe(false);
    expect(new RegExp(config.indentationRules.decreaseIndentPattern).test('    ]')).toBe(true);
  });

  it('declares comments, brackets and quote pairs', () => {
    expect(config.comments).toEqual({ lineComment: '#' });
    expect(config.brackets).toEqual([['{', '}'], ['[', ']'], ['(', ')']]);
    expect(config.autoClosingPairs.map((p: { open: string }) => p.open)).toEqual(['{', '[', '(', '"', "'"]);
    expect(config.folding.offSide).toBe(true);
  });
});
