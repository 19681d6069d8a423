/**
 * Reading a document's own vocabulary (SPEC §3): the sections, and the entries of their tables
 * and lists, from the document's CommonMark structure.
 */

import { describe, expect, test } from 'vitest';
import { readVocabulary } from '../../server/src/core/missionVocabulary/read';
import { vocabularySenses } from '../../server/src/core/missionVocabulary/senses';
import { wordsToAvoid } from '../../server/src/core/missionVocabulary/avoid';
import { sectionName } from '../../server/src/core/missionVocabulary/headings';
import { insertEntry } from '../../server/src/core/missionVocabulary/insertEntry';

/** Each entry as [term, surface, aliases, definition, avoid]. */
function entriesOf(text: string) {
  return readVocabulary(text).entries.map((e) => [e.term, e.surface, e.aliases, e.definition, e.avoid]);
}

function problemsOf(text: string) {
  const vocabulary = readVocabulary(text);
  return vocabulary.problems.map((p) => [vocabulary.lines.positionAt(p.start).line + 1, p.message]);
}

describe('section headings', () => {
  test.each([
    ['Domain Language', 2, 'domain language'],
    ['Key Entities *(include if feature involves data)*', 3, 'key entities'],
    ['Domain Language (Optional)', 2, 'domain language'],
    ['4. Terminology', 2, 'terminology'],
    ['2.1 Glossary', 3, 'glossary'],
    ['**Definitions**', 4, 'definitions'],
    ['Glossary', 1, undefined],
    ['Glossary', 5, undefined],
    ['Glossary Concepts', 2, undefined],
    ['Key Entities and Flows', 2, undefined],
  ])('%s at level %d', (text, level, name) => {
    expect(sectionName(text, level)).toBe(name);
  });
});

describe('table entries', () => {
  test('term, definition and avoid columns found by header; emphasis and backticks stripped; aliases', () => {
    const text = [
      '# Lanes mission',
      '',
      '## Domain Language',
      '',
      '| Term | Canonical meaning | Avoid |',
      '|---|---|---|',
      '| **Work package** (WP) | A unit of `planned` work | "task", "job ticket" |',
      '| `Lane` | A column of the *board* | column, swim lane |',
      '| Coordinator | The one who merges. | Historic name. Kept in old ADRs. |',
      '',
      'Prose after the table.',
    ].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Work package', 'work package', ['wp'], 'A unit of planned work', ['task', 'job ticket']],
      ['Lane', 'lane', [], 'A column of the board', ['column', 'swim lane']],
      ['Coordinator', 'coordinator', [], 'The one who merges.', []],
    ]);
  });

  test('the definition is the second cell when no header names it; escaped pipes stay in their cell', () => {
    const text = ['### Key Entities', '', '| Entity | What it is | Attributes |', '|---|---|---|', '| Gate | passes a \\| fails | id, state |', '| Review cycle | one round of review | number |'].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Gate', 'gate', [], 'passes a | fails', []],
      ['Review cycle', 'review cycle', [], 'one round of review', []],
    ]);
  });

  test('a term written as a link is the link\'s text (its destination is no alias, the entry no placeholder); in a list entry too', () => {
    const table = ['## Domain Language', '', '| Term | Meaning |', '|---|---|', '| [Linked term](#linked-term) | a defined thing |', '| [Lane](./lanes.md) (LN) | a column |'].join('\n');
    expect(entriesOf(table)).toEqual([
      ['Linked term', 'linked term', [], 'a defined thing', []],
      ['Lane', 'lane', ['ln'], 'a column', []],
    ]);
    expect(entriesOf(['## Key Entities', '', '- **[Linkterm](#y)**: a linked entity'].join('\n'))).toEqual([['Linkterm', 'linkterm', [], 'a linked entity', []]]);
    expect(readVocabulary(table).problems).toEqual([]);
  });

  test('a "Description" column wins over the second cell', () => {
    const text = ['## Glossary', '', '| Term | Kind | Description |', '|---|---|---|', '| Drain | process | Empties the dispatch queue |'].join('\n');
    expect(entriesOf(text)).toEqual([['Drain', 'drain', [], 'Empties the dispatch queue', []]]);
  });
});

describe('list entries', () => {
  test('bold or code terms with :, —, – or - ; the colon inside the bold; a file in parentheses is no alias', () => {
    const text = [
      '## Key Entities',
      '',
      '- **Event**: Immutable record of a change',
      '- **Lamport clock** — Logical clock',
      '- `EventStore` – Storage adapter',
      '- **Error log:** where errors go',
      '* **Paradigm artifact** (`paradigm.yaml`): defines philosophy',
      '1. **Decision record** (ADR) - why we chose',
      '- **Note** that plain bold prose is not an entry',
      '- A line without a term',
    ].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Event', 'event', [], 'Immutable record of a change', []],
      ['Lamport clock', 'lamport clock', [], 'Logical clock', []],
      ['EventStore', 'eventstore', [], 'Storage adapter', []],
      ['Error log', 'error log', [], 'where errors go', []],
      ['Paradigm artifact', 'paradigm artifact', [], 'defines philosophy', []],
      ['Decision record', 'decision record', ['adr'], 'why we chose', []],
    ]);
  });

  test('emphasis in a definition is dropped whole, also before punctuation; a bold line without a blank line before it continues the item (CommonMark)', () => {
    const text = ['## Key Entities', '', '- **Lane**: the **lane**, not a _queue_; see **WP**.', '- **Doctrine Pack** – a bundle of doctrine', '**Lamport Clock**: a logical clock'].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Lane', 'lane', [], 'the lane, not a queue; see WP.', []],
      ['Doctrine Pack', 'doctrine pack', [], 'a bundle of doctrine Lamport Clock: a logical clock', []],
    ]);
  });

  test('continuation lines belong to the definition; nested items are attributes, not entries', () => {
    const text = ['## Terminology', '', '- **Mission**: one unit', '  of planned change', '  - **id**: its ULID', '- **Charter**', '  - the team rules', '  - kept in git'].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Mission', 'mission', [], 'one unit of planned change', []],
      ['Charter', 'charter', [], 'the team rules; kept in git', []],
    ]);
  });

  test('a paragraph that starts with a bold term and a separator is an entry', () => {
    expect(entriesOf('## Definitions\n\n**Drain**: empties the queue.\n\n**Flush** is not separated.\n')).toEqual([['Drain', 'drain', [], 'empties the queue.', []]]);
  });
});

describe('sections and their extent', () => {
  test('a section ends at the next heading of the same or a higher level; sub-headings stay inside', () => {
    const text = ['## Domain Language', '', '### People', '', '- **Reviewer**: checks the work', '', '## Requirements', '', '- **FR-001**: the system MUST do it'].join('\n');
    expect(entriesOf(text)).toEqual([['Reviewer', 'reviewer', [], 'checks the work', []]]);
  });

  test('a section at the end of the file, without a final newline', () => {
    expect(entriesOf('# Spec\n\nIntro.\n\n## Glossary\n\n- **Zorblax**: the queue')).toEqual([['Zorblax', 'zorblax', [], 'the queue', []]]);
  });

  test('sections nested in a list item and in a block quote', () => {
    const text = ['1. ## Key Entities', '', '   | Entity | Meaning |', '   |---|---|', '   | Spec | the document |', '', '   - **Plan**: how it is built', '', '> ### Glossary', '> - **Lane**: a column', '>   of the board'].join('\n');
    expect(entriesOf(text)).toEqual([
      ['Spec', 'spec', [], 'the document', []],
      ['Plan', 'plan', [], 'how it is built', []],
      ['Lane', 'lane', [], 'a column of the board', []],
    ]);
  });

  test('a section opened inside a list item or a block quote ends with it: the prose after is the document\'s own', () => {
    for (const open of ['> ## Definitions', '- ## Terminology', '1. ## Glossary']) {
      const vocabulary = readVocabulary([open, '', 'Prose zorbfo four.', '', '## Next', ''].join('\n'));
      expect(vocabulary.sections, open).toHaveLength(1);
      const prose = vocabulary.lines.offsetAt({ line: 2, character: 0 });
      expect(vocabulary.sections[0]!.end, open).toBeLessThanOrEqual(prose);
    }
  });

  test('a heading inside a fenced code block opens no section', () => {
    expect(entriesOf('```md\n## Glossary\n- **Fake**: not real\n```\n')).toEqual([]);
  });
});

describe('placeholders', () => {
  test("the template's entry, TODO, TBD and empty definitions are problems on the entry and define nothing", () => {
    const text = [
      '### Key Entities *(include if feature involves data)*',
      '',
      '- **[Entity 1]**: [What it represents, key attributes without implementation]',
      '- **Queue**: TODO',
      '',
      '| Term | Definition |',
      '|---|---|',
      '| Lane | TBD |',
      '| Board |  |',
      '| Card | a unit on the board |',
    ].join('\n');
    expect(entriesOf(text)).toEqual([['Card', 'card', [], 'a unit on the board', []]]);
    expect(problemsOf(text)).toEqual([
      [3, "The Key Entities entry '[Entity 1]' is still the template's placeholder: name the term and define it (until then it defines nothing)."],
      [4, `'Queue' in Key Entities has a placeholder definition ("TODO"): it defines nothing until its definition is written.`],
      [8, `'Lane' in Key Entities has a placeholder definition ("TBD"): it defines nothing until its definition is written.`],
      [9, "'Board' in Key Entities has no definition: it defines nothing until its definition is written."],
    ]);
  });
});

describe('words to avoid', () => {
  test.each([
    ['"spec-driven prompting", "PDD"', ['spec-driven prompting', 'pdd']],
    ['\u201CREASONS doc\u201D, \u201Cintent canvas\u201D', ['reasons doc', 'intent canvas']],
    ['work dir, scratch folder; tmp', ['work dir', 'scratch folder', 'tmp']],
    ['—', []],
    ['n/a', []],
    ['use lane instead', []],
    ['the old name from before the rename to lanes', []],
    ['Historic. Do not use.', []],
  ])('%s', (cell, words) => {
    expect(wordsToAvoid(cell)).toEqual(words);
  });
});

describe('senses', () => {
  const origin = { file: '/ws/kitty-specs/001-lanes/spec.md', missionId: '01ABC', missionSlug: '001-lanes' };

  test('one sense per surface, the Domain Language definition first; aliases; confidence 1.0, active, mission_local', () => {
    const text = [
      '## Key Entities',
      '',
      '- **Work package** (WP): a row of the plan',
      '',
      '## Domain Language',
      '',
      '| Term | Meaning | Avoid |',
      '|---|---|---|',
      '| Work package | A unit of planned work | "task" |',
    ].join('\n');
    const { senses } = vocabularySenses([{ ...origin, vocabulary: readVocabulary(text) }]);
    expect(senses.map((s) => [s.surface, s.definition, s.synonymsToAvoid, s.scope, s.status, s.confidence])).toEqual([
      ['work package', 'A unit of planned work', ['task'], 'mission_local', 'active', 1],
      ['wp', 'A unit of planned work', [], 'mission_local', 'active', 1],
    ]);
    expect(senses[0]!.origin).toEqual({ kind: 'spec', file: origin.file, missionId: '01ABC', missionSlug: '001-lanes', range: { start: { line: 8, character: 2 }, end: { line: 8, character: 14 } } });
  });

  test("words the section's own definitions use are not words to avoid, nor are words it defines", () => {
    const text = ['## Domain Language', '', '| Term | Definition | Avoid |', '|---|---|---|', '| Artifact | A generated file kept in git | file, blob |', '| Blob | raw bytes | "artifact blob" |'].join('\n');
    const { senses } = vocabularySenses([{ ...origin, vocabulary: readVocabulary(text) }]);
    expect(senses.map((s) => [s.surface, s.synonymsToAvoid])).toEqual([
      ['artifact', []],
      ['blob', ['artifact blob']],
    ]);
  });

  test("a document's own sense comes before its mission spec's of the same surface", () => {
    const spec = readVocabulary('## Glossary\n\n- **Lane**: a column of the board\n- **Card**: a unit\n');
    const plan = readVocabulary('## Glossary\n\n- **Lane**: a git branch per work package\n');
    const { senses } = vocabularySenses([
      { ...origin, file: '/ws/kitty-specs/001-lanes/plan.md', vocabulary: plan },
      { ...origin, vocabulary: spec },
    ]);
    expect(senses.map((s) => [s.surface, s.definition, s.origin.kind === 'spec' ? s.origin.file : ''])).toEqual([
      ['lane', 'a git branch per work package', '/ws/kitty-specs/001-lanes/plan.md'],
      ['card', 'a unit', origin.file],
    ]);
  });
});

describe('what is not an entry', () => {
  test('file and folder names, and items that only name something in code', () => {
    const text = ['## Glossary', '', '| Field | Value |', '|---|---|', '| `canonical_package` | `src/glossary/` |', '| `src/glossary/cli.py` | the command |', '', '- `src/glossary/`', '- `meta.json` — the mission metadata', '- **Seam**: where two modules meet'].join('\n');
    expect(entriesOf(text)).toEqual([
      ['canonical_package', 'canonical_package', [], 'src/glossary/', []],
      ['Seam', 'seam', [], 'where two modules meet', []],
    ]);
    expect(problemsOf(text)).toEqual([]);
  });
});

describe("the define-here edit: a new entry in the section's own form", () => {
  const inserted = (text: string, term: string, definition: string) => {
    const insertion = insertEntry(text, readVocabulary(text), term, definition)!;
    const result = text.slice(0, insertion.at) + insertion.text + text.slice(insertion.at);
    expect(result.slice(insertion.definitionStart, insertion.definitionEnd)).toBe(definition.replace(/\|/g, '\\|'));
    return result;
  };

  test('a table row with the same columns, pipes and term markup; the definition in the Definition column; pipes escaped', () => {
    const text = '## Domain Language\n\n| Term | Kind | Definition | Avoid |\n|---|---|---|---|\n| **Lane** | place | a column | "row" |\n\nAfter.\n';
    expect(inserted(text, 'Quarkle', 'a card | a unit')).toBe('## Domain Language\n\n| Term | Kind | Definition | Avoid |\n|---|---|---|---|\n| **Lane** | place | a column | "row" |\n| **Quarkle** |  | a card \\| a unit |  |\n\nAfter.\n');
  });

  test('a table without outer pipes, inside a block quote', () => {
    const text = '> ## Glossary\n>\n> Term | Meaning\n> --- | ---\n> `Lane` | a column\n';
    expect(inserted(text, 'Quarkle', 'a card')).toBe('> ## Glossary\n>\n> Term | Meaning\n> --- | ---\n> `Lane` | a column\n> `Quarkle` | a card\n');
  });

  test('a list item with the same marker (numbered on), markup and separator, after the last item and what it holds', () => {
    expect(inserted('## Key Entities\n\n1. **Lane** — a column\n   of the board\n2. **Card** — a unit\n   - id: its number\n\n## Next\n', 'Quarkle', 'a card')).toBe(
      '## Key Entities\n\n1. **Lane** — a column\n   of the board\n2. **Card** — a unit\n   - id: its number\n3. **Quarkle** — a card\n\n## Next\n',
    );
    expect(inserted('## Terminology\n\n* **Lane:** a column\n', 'Quarkle', 'a card')).toBe('## Terminology\n\n* **Lane:** a column\n* **Quarkle:** a card\n');
    expect(inserted('## Terminology\n\n- `Lane` (LN): a column\n', 'Quarkle', 'a card')).toBe('## Terminology\n\n- `Lane` (LN): a column\n- `Quarkle`: a card\n');
  });

  test('paragraph entries get a paragraph; a section without entries a list item; Domain Language is preferred', () => {
    expect(inserted('## Definitions\n\n**Lane**: a column.\n', 'Quarkle', 'a card')).toBe('## Definitions\n\n**Lane**: a column.\n\n**Quarkle**: a card\n');
    expect(inserted('## Key Entities\n\n- **Lane**: a column\n\n## Domain Language\n\nNone yet.\n\n## Next\n', 'Quarkle', 'a card')).toBe('## Key Entities\n\n- **Lane**: a column\n\n## Domain Language\n\nNone yet.\n\n- **Quarkle**: a card\n\n## Next\n');
    expect(insertEntry('# Spec\n\nNo sections.\n', readVocabulary('# Spec\n\nNo sections.\n'), 'Quarkle', 'a card')).toBeUndefined();
  });
});
