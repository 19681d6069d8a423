/**
 * Request handlers of the language features: each finds the document's current analysis and
 * hands it to the service, which does the work.
 */

import type {
  CancellationToken,
  CodeAction,
  CodeActionParams,
  CodeLens,
  CodeLensParams,
  Command,
  CompletionList,
  CompletionParams,
  Definition,
  Diagnostic,
  DefinitionParams,
  Hover,
  HoverParams,
  Range,
  TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { configPath } from '../node/workspace';
import { codeActionsFor, wantsQuickFixes } from '../service/codeActions';
import { ignoreActions } from '../service/ignoreActions';
import { fileUri } from '../service/paths';
import { pinnedActions } from '../service/pinnedActions';
import { gateStatusLens } from '../service/codeLens';
import { completeSurfaces } from '../service/completion';
import { definitionAt } from '../service/definition';
import { hoverAt } from '../service/hover';
import { defineInSpecActions, promoteActions } from '../service/vocabularyActions';
import type { CheckedDocument } from '../service/types';
import { Commands, DIAGNOSTIC_SOURCE, isFindingData, isPublishedFindingData, type ApplyEditArgs } from '../shared/protocol';
import { withFindingData } from '../service/findingData';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';

/** A workspace file's text (an open editor's buffer first): undefined when missing, null when unreadable. */
export type ReadWorkspaceText = (root: string, file: string) => Promise<string | undefined | null>;

export class LanguageFeatures {
  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly analyzer: DocumentAnalyzer,
    private readonly client: ClientFeatures,
    private readonly readText: ReadWorkspaceText,
    /** Whether the workspace's files may be written for this document (not outside every folder). */
    private readonly writesFor: (uri: string) => boolean,
  ) {}

  async hover(params: HoverParams, token: CancellationToken): Promise<Hover | null> {
    const checked = await this.checked(params.textDocument.uri, token);
    return checked ? hoverAt(checked, params.position, this.client.markdownHover) : null;
  }

  async definition(params: DefinitionParams, token: CancellationToken): Promise<Definition> {
    const checked = await this.checked(params.textDocument.uri, token);
    return checked ? definitionAt(checked, params.position) : [];
  }

  async completion(params: CompletionParams, token: CancellationToken): Promise<CompletionList | null> {
    const document = this.documents.get(params.textDocument.uri);
    const checked = await this.checked(params.textDocument.uri, token);
    if (!document || !checked) return null;
    const lineText = document.getText({ start: { line: params.position.line, character: 0 }, end: params.position });
    return completeSurfaces(checked.glossary, lineText, params.position, this.client.markdownCompletion);
  }

  async codeLens(params: CodeLensParams, token: CancellationToken): Promise<CodeLens[]> {
    const checked = await this.checked(params.textDocument.uri, token);
    return checked ? gateStatusLens(checked) : [];
  }

  /**
   * The quick fixes of the diagnostics in the request (then the ignore actions of their terms),
   * and, when the range starts on a pinned term, the actions that change that decision.
   */
  async codeActions(params: CodeActionParams, token: CancellationToken): Promise<(CodeAction | Command)[]> {
    const uri = params.textDocument.uri;
    const actions = (await this.codeActionLiterals(params, token)).filter((action) => this.canCarryOut(action, uri));
    if (this.client.codeActionLiterals) return actions;
    // LSP: a client that does not announce code action literals takes Commands only; a fix that
    // is a plain edit (Replace, Ignore …) goes as the command that asks the editor to apply it.
    return actions.flatMap((a) => {
      if (a.command) return [a.command];
      if (!a.edit || !this.client.applyEdit) return [];
      const args: ApplyEditArgs = { label: a.title, edit: a.edit };
      return [{ title: a.title, command: Commands.applyEdit, arguments: [args] }];
    });
  }

  /**
   * Whether the fix can work here: a decision is written only for a document of a folder decisions
   * may be written for (never outside every workspace folder), and a draft entry, an entry in the
   * spec and a promotion are edits the server asks the editor to apply (`workspace/applyEdit`),
   * for a client that declares it does.
   */
  private canCarryOut(action: CodeAction, uri: string): boolean {
    const command = action.command;
    if (!command) return true;
    if (DECISION_COMMANDS.has(command.command) && !this.writesFor(uri)) return false;
    if (!this.client.applyEdit && appliesAnEdit(command)) return false;
    return true;
  }

  private async codeActionLiterals(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return [];
    const analysis = await this.analyzer.analyze(document, token, true);
    if (analysis.kind !== 'markdown') return [];
    const options = { ...(params.context.only ? { only: params.context.only } : {}), textAt: (range: Range) => document.getText(range) };
    const ours = params.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    // Each is read as the server computed it (its range, its data): a client may send back what it
    // changed (`data` dropped; columns counted in bytes, as Neovim 0.7 does, which on a line with
    // "façade" or "—" before the term would make the fixes read and edit the wrong text). The data
    // is completed with the diagnostic's code and the document's mission and step.
    const lineText = (line: number) => document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
    // A diagnostic of an earlier version of the text (the client asked before the new one was
    // published) is the server's one of the same term that moved with the edit; where there is
    // none its range would read other text ("QXW" of "ZQXW"): it gets no fix.
    const all = ours.flatMap((d) => {
      const own = ownDiagnostic(analysis.diagnostics, d, lineText) ?? movedDiagnostic(analysis.diagnostics, d);
      if (!own && isPublishedFindingData(d.data)) return [];
      return [withFindingData(own ?? d, analysis.checked)];
    });
    // Those the range touches: a client may send every diagnostic of the line (Neovim 0.7 does),
    // whose fixes would fill the menu with other terms' (none touched: all, as sent).
    const touched = all.filter((d) => touches(d.range, params.range));
    const diagnostics = touched.length > 0 ? touched : all;
    const actions = codeActionsFor(document.uri, diagnostics, options);
    // A mission's own vocabulary: define an unknown term in the spec's section (SPEC §3).
    if (wantsQuickFixes(params.context.only)) actions.push(...defineInSpecActions(analysis.checked, diagnostics, options.textAt));
    if (diagnostics.some((d) => isFindingData(d.data))) {
      const root = analysis.checked.root;
      // (Outside every workspace folder nothing of a workspace is written: no config is made there.)
      const needsConfig = diagnostics.some((d) => isFindingData(d.data) && (d.data.conflictType === 'unknown' || d.data.conflictType === 'unresolved_critical')) && this.writesFor(document.uri);
      const configText = needsConfig ? await this.readText(root, configPath(root)) : null;
      actions.push(...ignoreActions(diagnostics, { uri: document.uri, text: document.getText(), configUri: fileUri(configPath(root)), configText, createFile: this.client.createFile }, options));
    }
    for (const action of pinnedActions(analysis.checked, params.range.start, params.context.only)) {
      if (!actions.some((a) => a.title === action.title)) actions.push(action);
    }
    // …and promote a term a mission defines (on its entry or a use) to the team glossary.
    if (wantsQuickFixes(params.context.only)) actions.push(...promoteActions(analysis.checked, params.range));
    return actions;
  }

  private async checked(uri: string, token: CancellationToken): Promise<CheckedDocument | undefined> {
    const document = this.documents.get(uri);
    if (!document) return undefined;
    const analysis = await this.analyzer.analyze(document, token, true);
    return analysis.kind === 'markdown' ? analysis.checked : undefined;
  }
}

/** The commands that write a decision (or an entry) for the document's workspace. */
const DECISION_COMMANDS: ReadonlySet<string> = new Set([Commands.selectSense, Commands.defineTerm, Commands.deferTerm, Commands.reopenTerm, Commands.defineInSpec, Commands.promoteTerm]);

/** Whether the command asks the editor to apply an edit: a draft entry (a definition to come), an entry in the spec, a promotion. */
function appliesAnEdit(command: Command): boolean {
  if (command.command === Commands.defineInSpec || command.command === Commands.promoteTerm) return true;
  if (command.command !== Commands.defineTerm) return false;
  const args = command.arguments?.[0] as { definition?: unknown } | undefined;
  return typeof args?.definition !== 'string' || args.definition.trim() === '';
}

/**
 * The server's own diagnostic that a client sent back: the one with its range and code; else the
 * one of its code (and term, when the client kept `data`) whose columns, counted in UTF-8 bytes,
 * are the ones sent — a client counting columns in bytes (Neovim 0.7 sends diagnostics back so)
 * sends them too far right by the bytes the line's characters beyond ASCII take. Undefined for
 * none (a diagnostic of an older version).
 */
function ownDiagnostic(published: readonly Diagnostic[], sent: Diagnostic, lineText: (line: number) => string): Diagnostic | undefined {
  const exact = published.find((c) => sameDiagnostic(c, sent));
  if (exact) return exact;
  const term = isPublishedFindingData(sent.data) ? sent.data.term : undefined;
  const { start, end } = sent.range;
  if (start.line !== end.line) return undefined;
  const line = lineText(start.line);
  const bytes = (character: number) => Buffer.byteLength(line.slice(0, character));
  return published.find(
    (c) =>
      c.code === sent.code &&
      c.range.start.line === start.line &&
      c.range.end.line === start.line &&
      (term === undefined || (isPublishedFindingData(c.data) && c.data.term === term)) &&
      bytes(c.range.start.character) === start.character &&
      bytes(c.range.end.character) === end.character,
  );
}

/**
 * The server's diagnostic of the term a diagnostic of an earlier version was about (its code and
 * `data.term`), nearest to where it was: an edit before it moved it. Undefined without `data`.
 */
function movedDiagnostic(published: readonly Diagnostic[], sent: Diagnostic): Diagnostic | undefined {
  if (!isPublishedFindingData(sent.data)) return undefined;
  const term = sent.data.term;
  const distance = (d: Diagnostic) => Math.abs(d.range.start.line - sent.range.start.line) * 1_000_000 + Math.abs(d.range.start.character - sent.range.start.character);
  let nearest: Diagnostic | undefined;
  for (const d of published) {
    if (d.code !== sent.code || !isPublishedFindingData(d.data) || d.data.term !== term) continue;
    if (!nearest || distance(d) < distance(nearest)) nearest = d;
  }
  return nearest;
}

/** Whether two ranges overlap or meet (a cursor at either end of a term touches it). */
function touches(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character <= q.character);
  return before(a.start, b.end) && before(b.start, a.end);
}

function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  return (
    a.code === b.code &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character &&
    a.range.end.line === b.range.end.line &&
    a.range.end.character === b.range.end.character
  );
}
