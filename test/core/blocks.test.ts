/**
 * The block structure masking reads (markdown/blocks.ts), as other features can use it: headings
 * with their levels, table rows with their cells, list items and block quotes with what they hold.
 */

import { describe, expect, test } from 'vitest';
import { BlockKind, documentBlocks, type Block } from '../../server/src/core/markdown/blocks';

const KIND_NAMES = Object.fromEntries(Object.entries(BlockKind).map(([name, kind]) => [kind, name]));

/** Each block as [kind, text of its ranges (joined by |), level, parent's kind]. */
function outline(text: string): [string, string, number, string][] {
  const blocks = documentBlocks(text).toArray();
  const textOf = (b: Block) => Array.from({ length: b.ranges.length / 2 }, (_, k) => text.slice(b.ranges[2 * k], b.ranges[2 * k + 1])).join('|');
  return blocks.map((b) => [KIND_NAMES[b.kind]!, textOf(b), b.level, b.parent < 0 ? '' : KIND_NAMES[blocks[b.parent]!.kind]!]);
}

describe('document blocks', () => {
  test('a Domain Language section: heading, table rows with their cells, list items of term definitions', () => {
    const text = [
      '---',
      'title: x',
      '---',
      '## Domain Language',
      '',
      '| Term | Definition | Avoid |',
      '|---|---|---|',
      '| **Work package** | A unit of `planned` work | "task" |',
      '',
      '- **Mission**: one unit of planned change',
      '- `Lane`: a column of the board',
      '',
      'Setext section',
      '--------------',
    ].join('\n');
    expect(outline(text)).toEqual([
      ['Heading', 'Domain Language', 2, ''],
      ['TableRow', 'Term|Definition|Avoid', 0, ''],
      ['TableRow', '**Work package**|A unit of `planned` work|"task"', 1, ''],
      ['ListItem', '', 0, ''],
      ['Paragraph', '**Mission**: one unit of planned change', 0, 'ListItem'],
      ['ListItem', '', 0, ''],
      ['Paragraph', '`Lane`: a column of the board', 0, 'ListItem'],
      ['Heading', 'Setext section', 2, ''],
    ]);
  });

  test('sections nested in list items and block quotes, with their containers', () => {
    const text = ['1. ## Key Entities', '', '   | Entity | Meaning |', '   |---|---|', '   | Spec | the document |', '', '> ### Glossary', '> - **Term**: its meaning', '>   continued'].join('\n');
    expect(outline(text)).toEqual([
      ['ListItem', '', 1, ''],
      ['Heading', 'Key Entities', 2, 'ListItem'],
      ['TableRow', 'Entity|Meaning', 0, 'ListItem'],
      ['TableRow', 'Spec|the document', 1, 'ListItem'],
      ['BlockQuote', '', 0, ''],
      ['Heading', 'Glossary', 3, 'BlockQuote'],
      ['ListItem', '', 0, 'BlockQuote'],
      ['Paragraph', '**Term**: its meaning|continued', 0, 'ListItem'],
    ]);
  });

  test('containers know where they start and end', () => {
    const text = '- a\n- b\n\nafter\n';
    const items = documentBlocks(text)
      .toArray()
      .filter((b) => b.kind === BlockKind.ListItem);
    expect(items.map((b) => [text.slice(b.start, b.start + 1), b.end])).toEqual([
      ['-', 4],
      ['-', 9],
    ]);
  });
});
