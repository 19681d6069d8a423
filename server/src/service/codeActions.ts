/**
 * Quick fixes for conflict diagnostics. They read everything from `diagnostic.data` (never the
 * message) and work in any LSP client: a plain text edit, or a command the server executes.
 * Titles name the term as the document writes it at the diagnostic (PCI, not pci).
 *
 * Per diagnostic, in this order:
 * - ambiguous: "Use '<term>' = <definition> (<scope>)" for each candidate, in candidate order;
 * - unknown, unresolved_critical, ambiguous: "Define '<term>' in the mission glossary" / "… team glossary";
 * - inconsistent through a synonym to avoid, or a deprecated term whose entry names the one term
 *   to use instead: "Replace with '<surface>'" (preferred);
 * - any conflict: "Defer '<term>' for later clarification", unless one is already open.
 * Several diagnostics of one term in the range give each action once (replacements are merged).
 * The ignore actions (ignoreActions.ts) and those of a pinned term (pinnedActions.ts) come on top.
 */

import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver-types';
import { writtenForm } from '../core/check/wording';
import { replacementFor } from './caseStyle';
import { Commands, isFindingData, type DefineTermArgs, type DeferTermArgs, type FindingData, type SelectSenseArgs } from '../shared/protocol';

const TITLE_DEFINITION_CHARS = 60;

export function truncateDefinition(definition: string, max = TITLE_DEFINITION_CHARS): string {
  const flat = definition.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + '…';
}

export const actionTitles = {
  useSense: (term: string, definition: string, scope: string) => `Use '${term}' = ${truncateDefinition(definition)} (${scope})`,
  useSenseInstead: (term: string, definition: string, scope: string) => `Use '${term}' = ${truncateDefinition(definition)} (${scope}) instead`,
  reopen: (term: string) => `Reopen '${term}' for clarification`,
  defineMission: (term: string) => `Define '${term}' in the mission glossary`,
  defineTeam: (term: string) => `Define '${term}' in the team glossary`,
  replace: (surface: string) => `Replace with '${surface}'`,
  defer: (term: string) => `Defer '${term}' for later clarification`,
  ignoreInSpec: (term: string) => `Ignore '${term}' in this spec`,
  ignoreInWorkspace: (term: string) => `Ignore '${term}' in this workspace`,
};

/** The term as written in `range` of the document (the normalized term when unknown). */
export function writtenAt(term: string, range: Range, textAt: CodeActionOptions['textAt']): string {
  return writtenForm(textAt?.(range) ?? '') || term;
}

/** Whether the client asked for quick fixes (or for everything). */
export function wantsQuickFixes(only: readonly string[] | undefined): boolean {
  return !only || only.some((kind) => CodeActionKind.QuickFix === kind || CodeActionKind.QuickFix.startsWith(kind + '.') || kind === CodeActionKind.Empty);
}

export interface CodeActionOptions {
  /** `CodeActionContext.only`: kinds the client asked for. */
  only?: readonly string[];
  /** Text of the document in a range, to keep the capitalization of replaced words. */
  textAt?: (range: Range) => string | undefined;
}

export function codeActionsFor(uri: string, diagnostics: readonly Diagnostic[], options: CodeActionOptions = {}): CodeAction[] {
  if (!wantsQuickFixes(options.only)) return [];
  const actions: CodeAction[] = [];
  // One action per what it does (two occurrences written 'PCI' and 'pci' are one action).
  const byKey = new Map<string, CodeAction>();
  const add = ({ key, action }: Keyed, diagnostic: Diagnostic) => {
    const existing = byKey.get(key);
    if (!existing) {
      byKey.set(key, action);
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

interface Keyed {
  key: string;
  action: CodeAction;
}

function actionsForFinding(uri: string, diagnostic: Diagnostic, data: FindingData, options: CodeActionOptions): Keyed[] {
  const out: Keyed[] = [];
  const quickfix = (key: string, title: string, rest: Partial<CodeAction>) => out.push({ key, action: { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], ...rest } });
  const { term } = data;
  const written = writtenAt(term, diagnostic.range, options.textAt);
  // Conflict ids are not passed: the server closes what is open when the command runs.
  const base = { uri, missionId: data.missionId, stepId: data.stepId, term, ...(written !== term ? { written } : {}) };

  if (data.conflictType === 'ambiguous') {
    for (const sense of data.candidates) {
      const args: SelectSenseArgs = { ...base, sense };
      const title = actionTitles.useSense(written, sense.definition, sense.scope);
      quickfix(`use\u0000${term}\u0000${sense.scope}\u0000${sense.definition}`, title, { command: { title, command: Commands.selectSense, arguments: [args] } });
    }
  }
  if (data.conflictType === 'ambiguous' || data.conflictType === 'unknown' || data.conflictType === 'unresolved_critical') {
    for (const scope of ['mission_local', 'team_domain'] as const) {
      const args: DefineTermArgs = { ...base, scope };
      const title = scope === 'mission_local' ? actionTitles.defineMission(written) : actionTitles.defineTeam(written);
      quickfix(`define\u0000${term}\u0000${scope}`, title, { command: { title, command: Commands.defineTerm, arguments: [args] } });
    }
  }
  if (data.conflictType === 'inconsistent' && (data.reason === 'synonym_to_avoid' || data.reason === 'deprecated_only') && data.replacement) {
    const edit: TextEdit = { range: diagnostic.range, newText: replacementFor(options.textAt?.(diagnostic.range), term, data.replacement) };
    quickfix(`replace\u0000${term}\u0000${data.replacement}`, actionTitles.replace(data.replacement), { isPreferred: true, edit: { changes: { [uri]: [edit] } } });
  }
  if (!data.openConflictId) {
    const args: DeferTermArgs = { ...base, stepId: data.stepId };
    const title = actionTitles.defer(written);
    quickfix(`defer\u0000${term}`, title, { command: { title, command: Commands.deferTerm, arguments: [args] } });
  }
  return out;
}
