/**
 * "Ignore '<term>' in this spec" and "Ignore '<term>' in this workspace", as every spell checker
 * offers: plain WorkspaceEdits (no server command), so they work in any client and the user sees
 * (and can undo) exactly what changes.
 *
 * - In this spec: the term as written goes into the front matter's `glossary_exclude_terms`
 *   (the front matter is created when the spec has none), which removes it from every extractor
 *   for that document — any conflict.
 * - In this workspace: the normalized term goes into `ignore_words` of the `glossary:` block of
 *   `.kittify/config.yaml` (the file and keys are created when missing). `ignore_words` makes a
 *   word known, so it is offered only for unknown terms (an ambiguous term stays ambiguous).
 *
 * Comments and layout of both files are kept (yamlListEdit.ts). A file with YAML errors gets
 * no action.
 */

import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import { locateFrontMatter } from '../core/markdown/frontMatter';
import { ignoredForms } from '../core/config';
import { normalizeSurface } from '../core/normalize';
import { LineIndex } from '../core/text';
import { isFindingData, type FindingData } from '../shared/protocol';
import { actionTitles, wantsQuickFixes, writtenAt, type CodeActionOptions } from './codeActions';
import { addToYamlList, yamlListHas, type OffsetEdit } from './yamlListEdit';
import { scalar } from './seedEdit';

export interface IgnoreContext {
  /** The spec the diagnostics are on, and its text. */
  uri: string;
  text: string;
  /** `.kittify/config.yaml` of the spec's workspace folder. */
  configUri: string;
  /** Its text; undefined when the file does not exist, null when it cannot be read. */
  configText: string | undefined | null;
  /** The client applies `CreateFile` operations in `documentChanges`. */
  createFile: boolean;
}

export const EXCLUDE_KEY = 'glossary_exclude_terms';
export const IGNORE_PATH = ['glossary', 'ignore_words'] as const;

export function ignoreActions(diagnostics: readonly Diagnostic[], context: IgnoreContext, options: CodeActionOptions = {}): CodeAction[] {
  if (!wantsQuickFixes(options.only)) return [];
  const byTerm = new Map<string, { data: FindingData; written: string; diagnostics: Diagnostic[] }>();
  for (const diagnostic of diagnostics) {
    if (!isFindingData(diagnostic.data)) continue;
    const term = diagnostic.data.term;
    const known = byTerm.get(term);
    if (known) known.diagnostics.push(diagnostic);
    else byTerm.set(term, { data: diagnostic.data, written: writtenAt(term, diagnostic.range, options.textAt), diagnostics: [diagnostic] });
  }
  const out: CodeAction[] = [];
  for (const [term, { data, written, diagnostics: own }] of byTerm) {
    const inSpec = excludeInSpec(context, term, written);
    if (inSpec) out.push({ title: actionTitles.ignoreInSpec(written), kind: CodeActionKind.QuickFix, diagnostics: own, edit: inSpec });
    if (data.conflictType === 'unknown' || data.conflictType === 'unresolved_critical') {
      const inWorkspace = ignoreInWorkspace(context, term);
      if (inWorkspace) out.push({ title: actionTitles.ignoreInWorkspace(written), kind: CodeActionKind.QuickFix, diagnostics: own, edit: inWorkspace });
    }
  }
  return out;
}

/** The front matter edit that excludes the term (the front matter made when missing). */
export function excludeInSpec(context: Pick<IgnoreContext, 'uri' | 'text'>, term: string, written: string): WorkspaceEdit | undefined {
  const { text, uri } = context;
  const lines = new LineIndex(text);
  const located = locateFrontMatter(text);
  if (!located) {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const block = `---${eol}${EXCLUDE_KEY}: [${scalar(written)}]${eol}---${eol}`;
    return { changes: { [uri]: [{ range: lines.rangeOf(at, at), newText: block }] } };
  }
  const body = text.slice(located.bodyStart, located.bodyEnd);
  if (yamlListHas(body, [EXCLUDE_KEY], (value) => normalizeSurface(value) === term)) return undefined;
  const added = addToYamlList(body, [EXCLUDE_KEY], written);
  if (!added.ok) return undefined;
  return { changes: { [uri]: toTextEdits(added.edits, lines, located.bodyStart) } };
}

/** The config edit that adds the term to `glossary.ignore_words` (the file made when missing). */
export function ignoreInWorkspace(context: Pick<IgnoreContext, 'configUri' | 'configText' | 'createFile'>, term: string): WorkspaceEdit | undefined {
  const { configUri, configText } = context;
  if (configText === null) return undefined;
  if (configText === undefined) {
    const newText = `glossary:\n  ignore_words: [${scalar(term)}]\n`;
    const edit: TextEdit = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText };
    // Without CreateFile the client opens a buffer for the new file (saving it writes it).
    return context.createFile
      ? { documentChanges: [{ kind: 'create', uri: configUri, options: { ignoreIfExists: true } }, { textDocument: { uri: configUri, version: null }, edits: [edit] }] }
      : { changes: { [configUri]: [edit] } };
  }
  if (yamlListHas(configText, IGNORE_PATH, (value) => ignoredForms([value]).includes(term))) return undefined;
  const added = addToYamlList(configText, IGNORE_PATH, term);
  if (!added.ok) return undefined;
  return { changes: { [configUri]: toTextEdits(added.edits, new LineIndex(configText), 0) } };
}

function toTextEdits(edits: readonly OffsetEdit[], lines: LineIndex, offset: number): TextEdit[] {
  return edits.map((e) => ({ range: lines.rangeOf(offset + e.at, offset + e.end), newText: e.text }));
}
