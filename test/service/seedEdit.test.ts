import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseSeedFile } from '../../server/src/core/seeds';
import { insertDraftEntry, type SeedInsertion } from '../../server/src/service/seedEdit';
import { TEAM_YAML } from './fixtures';

/** Applies the edits as an editor would and checks `result` and the selection agree with it. */
function apply(existing: string | undefined, term = 'qzx', scope = 'mission_local'): SeedInsertion {
  const outcome = insertDraftEntry(existing, scope, term);
  if (!outcome.ok) throw new Error(outcome.message);
  const document = TextDocument.create('file:///x.yaml', 'yaml', 1, existing ?? '');
  const edited = TextDocument.applyEdits(document, outcome.edits);
  expect(edited).toBe(outcome.result);
  const after = TextDocument.create('file:///x.yaml', 'yaml', 2, edited);
  expect(after.getText(outcome.selection)).toBe(`"TODO: define ${term}"`);
  // The result is a valid seed file (no new error) with the draft entry; its TODO definition is a
  // placeholder (SPEC §3): a warning on the definition, and the term stays undefined until written.
  const seed = parseSeedFile(edited, 'x.yaml', 'mission_local');
  const errors = (text: string) => parseSeedFile(text, 'x.yaml', 'mission_local').problems.filter((p) => p.severity === 'error' && p.code !== 'glossary.missing-terms').map((p) => p.message);
  expect(errors(edited)).toEqual(existing === undefined ? [] : errors(existing));
  expect(seed.senses.find((s) => s.surface === term)).toBeUndefined();
  const placeholder = seed.problems.filter((p) => p.code === 'glossary.placeholder-definition');
  expect(placeholder).toHaveLength(1);
  expect(placeholder[0]).toMatchObject({ severity: 'warning', range: outcome.selection });
  return outcome;
}

describe('adding a draft entry to a seed glossary', () => {
  it('creates a missing file with a header and a terms list', () => {
    const outcome = apply(undefined);
    expect(outcome.create).toBe(true);
    expect(outcome.result).toBe(
      '# Mission glossary (mission_local): terms of one mission, checked before every other scope.\n\nterms:\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n',
    );
    expect(outcome.selection).toEqual({ start: { line: 4, character: 16 }, end: { line: 4, character: 34 } });
  });

  it('appends after the last entry, keeping comments, indentation and the blank line between entries', () => {
    const outcome = apply(TEAM_YAML);
    expect(outcome.create).toBe(false);
    expect(outcome.edits).toEqual([{ range: { start: { line: 17, character: 0 }, end: { line: 17, character: 0 } }, newText: '\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n' }]);
    expect(outcome.result).toBe(TEAM_YAML + '\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
  });

  it('inserts before what follows the list and copies a different indentation', () => {
    const text = '# top\nterms:\n- surface: a\n  definition: b\n  # trailing note of a\nother: 1\n';
    expect(apply(text).result).toBe('# top\nterms:\n- surface: a\n  definition: b\n- surface: qzx\n  definition: "TODO: define qzx"\n  status: draft\n  # trailing note of a\nother: 1\n');
  });

  it('fills `terms: []`, an empty `terms:` and `terms: ~`', () => {
    expect(apply('terms: [] # none yet\n').result).toBe('terms:  # none yet\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
    expect(apply('terms:\n').result).toBe('terms:\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
    expect(apply('terms: ~\n# end\n').result).toBe('terms: \n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n# end\n');
  });

  it('adds `terms:` to an empty file, a comment-only file and a mapping without it', () => {
    expect(apply('').result).toBe('terms:\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
    expect(apply('# nothing yet').result).toBe('# nothing yet\nterms:\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
    expect(apply('version: 1\n').result).toBe('version: 1\nterms:\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
  });

  it('extends a flow list and keeps CRLF line endings', () => {
    expect(apply('terms: [{surface: a, definition: b}]\n').result).toBe('terms: [{surface: a, definition: b}, {surface: qzx, definition: "TODO: define qzx", status: draft}]\n');
    expect(apply('terms:\r\n  - surface: a\r\n    definition: b\r\n').result).toBe('terms:\r\n  - surface: a\r\n    definition: b\r\n  - surface: qzx\r\n    definition: "TODO: define qzx"\r\n    status: draft\r\n');
  });

  it('adds a last line to a file without a final newline, and quotes surfaces YAML would misread', () => {
    expect(apply('terms:\n  - surface: a\n    definition: b').result).toBe('terms:\n  - surface: a\n    definition: b\n  - surface: qzx\n    definition: "TODO: define qzx"\n    status: draft\n');
    expect(apply(undefined, 'yes').result).toContain('  - surface: "yes"\n');
    expect(apply(undefined, 'c#: sharp').result).toContain('  - surface: "c#: sharp"\n');
  });

  it('refuses a file that does not parse or is not a mapping', () => {
    expect(insertDraftEntry('terms: [unclosed\n', 'mission_local', 'qzx')).toMatchObject({ ok: false, message: expect.stringMatching(/^the file has YAML errors/) });
    expect(insertDraftEntry('- a\n- b\n', 'mission_local', 'qzx')).toEqual({ ok: false, message: 'the file is not a block mapping with a `terms:` list' });
    expect(insertDraftEntry('terms: 3\n', 'mission_local', 'qzx')).toEqual({ ok: false, message: '`terms` is not a list' });
  });
});
