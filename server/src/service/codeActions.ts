/**
 * Quick fixes for conflict diagnostics. They read everything from `diagnostic.data` (never the
 * message) and work in any LSP client: a plain text edit, or a command the server executes.
 *
 * Per diagnostic, in this order:
 * - ambiguous: "Use '<term>' = <definition> (<scope>)" for each candidate, in candidate order;
 * - unknown, unresolved_critical, ambiguous: "Define '<term>' in the mission glossary" / "… team glossary";
 * - inconsistent through a synonym to avoid: "Replace with '<surface>'" (preferred);
 * - any conflict: "Defer '<term>' for later clarification", unless one is already open.
 * Several diagnostics of one term in the range give each action once (replacements are merged).
 */

import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver-types';
import { matchCase } from './caseStyle';
import { Commands, isFindingData, type DefineTermArgs, type DeferTermArgs, type FindingData, type SelectSenseArgs } from '../shared/protocol';

const TITLE_DEFINITION_CHARS = 60;

export function truncateDefinition(definition: string, max = TITLE_DEFINITION_CHARS): string {
  const flat = definition.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + '…';
}

export const actionTitles = {
  useSense: (term: string, definition: string, scope: string) => `Use '${term}' = ${truncateDefinition(definition)} (${scope})`,
  defineMission: (term: string) => `Define '${term}' in the mission glossary`,
  defineTeam: (term: string) => `Define '${term}' in the team glossary`,
  replace: (surface: string) => `Replace with '${surface}'`,
  defer: (term: string) => `Defer '${term}' for later clarification`,
};

export interface CodeActionOptions {
  /** `CodeActionContext.only`: kinds the client asked for. */
  only?: readonly string[];
  /** Text of the document in a range, to keep the capitalization of replaced words. */
  textAt?: (range: Range) => string | undefined;
}

export function codeActionsFor(uri: string, diagnostics: readonly Diagnostic[], options: CodeActionOptions = {}): CodeAction[] {
  if (options.only && !options.only.some((kind) => CodeActionKind.QuickFix === kind || CodeActionKind.QuickFix.startsWith(kind + '.') || kind === CodeActionKind.Empty)) return [];
  const actions: CodeAction[] = [];
  const byTitle = new Map<string, CodeAction>();
  const add = (action: CodeAction, diagnostic: Diagnostic) => {
    const existing = byTitle.get(action.title);
    if (!existing) {
      byTitle.set(action.title, action);
      actions.push(action);
      return;
    }
    existing.diagnostics = [...(existing.diagnostics ?? []), diagnostic];
    const edits = action.edit?.changes?.[uri];
    if (edits && existing.edit?.changes?.[uri]) existing.edit.changes[uri] = [...existing.edit.changes[uri], ...edits];
  };
  for (const diagnostic of diagnostics) {
    if (!isFindingData(diagnostic.data)) continue;
    for (const action of actionsForFinding(uri, diagnostic, diagnostic.data, options)) add(action, diagnostic);
  }
  return actions;
}

function actionsForFinding(uri: string, diagnostic: Diagnostic, data: FindingData, options: CodeActionOptions): CodeAction[] {
  const out: CodeAction[] = [];
  const quickfix = (title: string, rest: Partial<CodeAction>): CodeAction => ({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], ...rest });
  const { term } = data;

  if (data.conflictType === 'ambiguous') {
    for (const sense of data.candidates) {
      const args: SelectSenseArgs = { uri, missionId: data.missionId, stepId: data.stepId, term, sense, ...(data.openConflictId ? { conflictId: data.openConflictId } : {}) };
      const title = actionTitles.useSense(term, sense.definition, sense.scope);
      out.push(quickfix(title, { command: { title, command: Commands.selectSense, arguments: [args] } }));
    }
  }
  if (data.conflictType === 'ambiguous' || data.conflictType === 'unknown' || data.conflictType === 'unresolved_critical') {
    for (const scope of ['mission_local', 'team_domain'] as const) {
      const args: DefineTermArgs = { uri, missionId: data.missionId, stepId: data.stepId, term, scope, ...(data.openConflictId ? { conflictId: data.openConflictId } : {}) };
      const title = scope === 'mission_local' ? actionTitles.defineMission(term) : actionTitles.defineTeam(term);
      out.push(quickfix(title, { command: { title, command: Commands.defineTerm, arguments: [args] } }));
    }
  }
  if (data.conflictType === 'inconsistent' && data.reason === 'synonym_to_avoid' && data.replacement) {
    const edit: TextEdit = { range: diagnostic.range, newText: matchCase(options.textAt?.(diagnostic.range), data.replacement) };
    out.push(quickfix(actionTitles.replace(data.replacement), { isPreferred: true, edit: { changes: { [uri]: [edit] } } }));
  }
  if (!data.openConflictId) {
    const args: DeferTermArgs = { uri, missionId: data.missionId, stepId: data.stepId, term, severity: data.severity, options: data.candidates.map((s) => s.definition) };
    const title = actionTitles.defer(term);
    out.push(quickfix(title, { command: { title, command: Commands.deferTerm, arguments: [args] } }));
  }
  return out;
}
