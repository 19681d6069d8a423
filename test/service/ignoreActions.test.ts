/**
 * "Ignore '<term>' in this spec / in this workspace": the edits as text (applied and compared with
 * the file a user would get), for the layouts front matter and `.kittify/config.yaml` come in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { withFindingData } from '../../server/src/service/findingData';
import { documentDiagnostics } from '../../server/src/service/diagnostics';
import { excludeInSpec, ignoreActions, ignoreInWorkspace } from '../../server/src/service/ignoreActions';
import { addToYamlList } from '../../server/src/service/yamlListEdit';
import { checkDocument, makeWorkspace, SPEC, SPEC_MD, settingsWith, type TempWorkspace } from './fixtures';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

const SPEC_URI = 'file:///w/kitty-specs/001-x/spec.md';
const CONFIG_URI = 'file:///w/.kittify/config.yaml';

function applied(text: string, edit: WorkspaceEdit | undefined, uri: string): string {
  expect(edit, 'an edit').toBeDefined();
  const edits = (edit!.changes?.[uri] ?? edit!.documentChanges?.flatMap((c) => ('textDocument' in c && c.textDocument.uri === uri ? c.edits : []))) as TextEdit[];
  return TextDocument.applyEdits(TextDocument.create(uri, 'x', 0, text), edits);
}

/** The text after adding `item` under `path`. */
function added(text: string, path: string[], item: string): string {
  const result = addToYamlList(text, path, item);
  if (!result.ok) throw new Error(result.message);
  let out = text;
  for (const e of [...result.edits].sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.end);
  return out;
}

describe('adding an item to a YAML list, keeping the layout', () => {
  const PATH = ['glossary', 'ignore_words'];

  it('adds to a flow list, a block list and an empty list', () => {
    expect(added('glossary:\n  ignore_words: [tranche, cutover]  # words we use\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [tranche, cutover, pci]  # words we use\n');
    expect(added('glossary:\n  ignore_words: []\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [pci]\n');
    expect(added('glossary:\n  ignore_words:\n    - tranche   # ok\n    - cutover\n# end\n', PATH, 'pci')).toBe('glossary:\n  ignore_words:\n    - tranche   # ok\n    - cutover\n    - pci\n# end\n');
    expect(added('glossary:\n  ignore_words:\n  - tranche\n', PATH, 'pci')).toBe('glossary:\n  ignore_words:\n  - tranche\n  - pci\n');
  });

  it('adds the missing key after the last key of its mapping, keeping comments and what follows', () => {
    const config = '# Spec Kitty settings\nglossary:\n  strictness: medium   # team default\n\n# other tools\nother: 1\n';
    expect(added(config, PATH, 'pci')).toBe('# Spec Kitty settings\nglossary:\n  strictness: medium   # team default\n  ignore_words: [pci]\n\n# other tools\nother: 1\n');
    expect(added('other: 1\n', PATH, 'pci')).toBe('other: 1\nglossary:\n  ignore_words: [pci]\n');
    expect(added('other: 1', PATH, 'pci')).toBe('other: 1\nglossary:\n  ignore_words: [pci]');
    expect(added('', PATH, 'pci')).toBe('glossary:\n  ignore_words: [pci]\n');
    expect(added('# only a comment\n', PATH, 'pci')).toBe('# only a comment\nglossary:\n  ignore_words: [pci]\n');
  });

  it('fills keys without a value, ~, flow mappings; keeps CRLF; quotes what must be quoted', () => {
    expect(added('glossary:\nother: 1\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [pci]\nother: 1\n');
    expect(added('glossary: # settings\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [pci] # settings\n');
    expect(added('glossary:\n  ignore_words:\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [pci]\n');
    expect(added('glossary: ~\n', PATH, 'pci')).toBe('glossary: {ignore_words: [pci]}\n');
    expect(added('glossary: {strictness: max}\n', PATH, 'pci')).toBe('glossary: {strictness: max, ignore_words: [pci]}\n');
    expect(added('glossary:\r\n  strictness: max\r\n', PATH, 'pci')).toBe('glossary:\r\n  strictness: max\r\n  ignore_words: [pci]\r\n');
    expect(added('glossary:\n  ignore_words: [a]\n', PATH, 'yes')).toBe('glossary:\n  ignore_words: [a, "yes"]\n');
    expect(added('glossary:\n  ignore_words: tranche\n', PATH, 'pci')).toBe('glossary:\n  ignore_words: [tranche, pci]\n');
  });

  it('leaves a file with YAML errors, or the wrong shape, alone', () => {
    expect(addToYamlList('glossary: [unclosed\n', PATH, 'pci').ok).toBe(false);
    expect(addToYamlList('- a list\n', PATH, 'pci').ok).toBe(false);
    expect(addToYamlList('glossary: [a, b]\n', PATH, 'pci').ok).toBe(false);
  });
});

describe('Ignore in this spec (front matter glossary_exclude_terms)', () => {
  it('creates the front matter when the spec has none, with the term as written', () => {
    const text = '# Checkout\n\nThe PCI rules apply.\n';
    expect(applied(text, excludeInSpec({ uri: SPEC_URI, text }, 'pci', 'PCI'), SPEC_URI)).toBe('---\nglossary_exclude_terms: [PCI]\n---\n# Checkout\n\nThe PCI rules apply.\n');
  });

  it('adds the key, or the item, inside existing front matter; nothing when the term is excluded already', () => {
    const text = '---\ncritical_step: true   # checked by CI\n---\n# Spec\n';
    expect(applied(text, excludeInSpec({ uri: SPEC_URI, text }, 'pci', 'PCI'), SPEC_URI)).toBe('---\ncritical_step: true   # checked by CI\nglossary_exclude_terms: [PCI]\n---\n# Spec\n');
    const listed = '---\nglossary_exclude_terms:\n  - zqxw\n---\n# Spec\n';
    expect(applied(listed, excludeInSpec({ uri: SPEC_URI, text: listed }, 'release train', 'Release train'), SPEC_URI)).toBe('---\nglossary_exclude_terms:\n  - zqxw\n  - Release train\n---\n# Spec\n');
    expect(excludeInSpec({ uri: SPEC_URI, text: '---\nglossary_exclude_terms: [pci]\n---\n' }, 'pci', 'PCI')).toBeUndefined();
    expect(excludeInSpec({ uri: SPEC_URI, text: '---\nkey: [broken\n---\n' }, 'pci', 'PCI')).toBeUndefined();
    const empty = '---\n---\nbody\n';
    expect(applied(empty, excludeInSpec({ uri: SPEC_URI, text: empty }, 'pci', 'PCI'), SPEC_URI)).toBe('---\nglossary_exclude_terms: [PCI]\n---\nbody\n');
  });
});

describe('Ignore in this workspace (.kittify/config.yaml glossary.ignore_words)', () => {
  it('creates the file with CreateFile when the client can, else as an edit of a new buffer', () => {
    const withCreate = ignoreInWorkspace({ configUri: CONFIG_URI, configText: undefined, createFile: true }, 'pci')!;
    expect(withCreate.documentChanges![0]).toEqual({ kind: 'create', uri: CONFIG_URI, options: { ignoreIfExists: true } });
    expect(applied('', withCreate, CONFIG_URI)).toBe('glossary:\n  ignore_words: [pci]\n');
    expect(applied('', ignoreInWorkspace({ configUri: CONFIG_URI, configText: undefined, createFile: false }, 'pci'), CONFIG_URI)).toBe('glossary:\n  ignore_words: [pci]\n');
  });

  it('adds the normalized term to an existing file; nothing when it is there or the file cannot be read', () => {
    const config = 'glossary:\n  strictness: medium\n';
    expect(applied(config, ignoreInWorkspace({ configUri: CONFIG_URI, configText: config, createFile: true }, 'release train'), CONFIG_URI)).toBe('glossary:\n  strictness: medium\n  ignore_words: [release train]\n');
    expect(ignoreInWorkspace({ configUri: CONFIG_URI, configText: 'glossary:\n  ignore_words: [PCI]\n', createFile: true }, 'pci')).toBeUndefined();
    // Listed as the config reads it: spaces and a plural (SPEC §4) name the same term.
    expect(ignoreInWorkspace({ configUri: CONFIG_URI, configText: 'glossary:\n  ignore_words: ["Data  Pipelines"]\n', createFile: true }, 'data pipeline')).toBeUndefined();
    expect(ignoreInWorkspace({ configUri: CONFIG_URI, configText: null, createFile: true }, 'pci')).toBeUndefined();
  });
});

describe('ignore actions of diagnostics', () => {
  it('offers "in this spec" for every conflict and "in this workspace" only for unknown terms (ignore_words cannot settle an ambiguity)', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const diagnostics = documentDiagnostics(doc, settingsWith()).map((d) => withFindingData(d, doc));
    const document = TextDocument.create(ws.uri(SPEC), 'markdown', 1, SPEC_MD);
    const actions = ignoreActions(diagnostics, { uri: ws.uri(SPEC), text: SPEC_MD, configUri: ws.uri('.kittify/config.yaml'), configText: 'glossary:\n  strictness: medium\n', createFile: true }, { textAt: (r) => document.getText(r) });
    expect(actions.map((a: CodeAction) => a.title)).toEqual(["Ignore 'workspace' in this spec", "Ignore 'work dir' in this spec", "Ignore 'QZX' in this spec", "Ignore 'QZX' in this workspace"]);
    // The two occurrences of 'workspace' share one action.
    expect(actions[0]!.diagnostics).toHaveLength(2);
    expect(applied(SPEC_MD, actions[2]!.edit, ws.uri(SPEC)).split('\n').slice(0, 4)).toEqual(['---', 'critical_step: true', 'glossary_exclude_terms: [QZX]', '---']);
    expect(applied('glossary:\n  strictness: medium\n', actions[3]!.edit, ws.uri('.kittify/config.yaml'))).toBe('glossary:\n  strictness: medium\n  ignore_words: [qzx]\n');
    // And the excluded term is then no longer reported.
    const excluded = await checkDocument(ws, SPEC, applied(SPEC_MD, actions[2]!.edit, ws.uri(SPEC)));
    expect(excluded.report.findings.map((f) => f.term)).not.toContain('qzx');
  });
});
