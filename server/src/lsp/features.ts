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
import { CodeActionKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActionsFor } from '../service/codeActions';
import { gateStatusLens } from '../service/codeLens';
import { completeSurfaces } from '../service/completion';
import { definitionAt } from '../service/definition';
import { hoverAt } from '../service/hover';
import { defineInSpecActions, promoteActions } from '../service/vocabularyActions';
import type { CheckedDocument } from '../service/types';
import { DIAGNOSTIC_SOURCE, isFindingData } from '../shared/protocol';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';

export class LanguageFeatures {
  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly analyzer: DocumentAnalyzer,
    private readonly client: ClientFeatures,
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

  async codeActions(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return [];
    const ours = params.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    const textAt = (range: Range) => document.getText(range);
    // Clients that do not keep `data` get it back from the diagnostics we computed.
    const needsLookup = ours.some((d) => !isFindingData(d.data));
    const current = needsLookup ? (await this.analyzer.analyze(document, token, true)).diagnostics : [];
    const diagnostics = ours.map((d) => (isFindingData(d.data) ? d : (current.find((c) => sameDiagnostic(c, d)) ?? d)));
    const actions = ours.length > 0 ? codeActionsFor(document.uri, diagnostics, { ...(params.context.only ? { only: params.context.only } : {}), textAt }) : [];
    // A mission's own vocabulary: define an unknown term in the spec's section, promote a term it defines.
    if (params.context.only && !params.context.only.some((kind) => kind === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(kind + '.') || kind === CodeActionKind.Empty)) return actions;
    const checked = await this.checked(params.textDocument.uri, token);
    if (checked) actions.push(...defineInSpecActions(checked, diagnostics, textAt), ...promoteActions(checked, params.range));
    return actions;
  }

  private async checked(uri: string, token: CancellationToken): Promise<CheckedDocument | undefined> {
    const document = this.documents.get(uri);
    if (!document) return undefined;
    const analysis = await this.analyzer.analyze(document, token, true);
    return analysis.kind === 'markdown' ? analysis.checked : undefined;
  }
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
