/** What the client can do (read once from `initialize`) and what the server offers in return. */

import { CodeActionKind, MarkupKind, TextDocumentSyncKind, type ClientCapabilities, type ServerCapabilities } from 'vscode-languageserver';
import { ALL_COMMANDS, DIAGNOSTIC_SOURCE } from '../shared/protocol';

export interface ClientFeatures {
  /** `textDocument.diagnostic`: the client pulls diagnostics; we do not push for its documents. */
  pullDiagnostics: boolean;
  diagnosticRefresh: boolean;
  codeLensRefresh: boolean;
  configuration: boolean;
  configurationDynamic: boolean;
  watchedFilesDynamic: boolean;
  workspaceFolders: boolean;
  documentChanges: boolean;
  createFile: boolean;
  showDocument: boolean;
  markdownHover: boolean;
  markdownCompletion: boolean;
  /** `textDocument.codeAction.codeActionLiteralSupport`: code actions may be CodeAction objects (else Commands only). */
  codeActionLiterals: boolean;
  /** `window.workDoneProgress`: the server may report the index build's progress. */
  workDoneProgress: boolean;
  /** `workspace.applyEdit`: the server may ask the editor to apply an edit (draft entries, define in spec, promote). */
  applyEdit: boolean;
}

export function clientFeatures(caps: ClientCapabilities): ClientFeatures {
  const edit = caps.workspace?.workspaceEdit;
  return {
    pullDiagnostics: caps.textDocument?.diagnostic !== undefined,
    diagnosticRefresh: caps.workspace?.diagnostics?.refreshSupport === true,
    codeLensRefresh: caps.workspace?.codeLens?.refreshSupport === true,
    configuration: caps.workspace?.configuration === true,
    configurationDynamic: caps.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    watchedFilesDynamic: caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    workspaceFolders: caps.workspace?.workspaceFolders === true,
    documentChanges: edit?.documentChanges === true,
    createFile: edit?.documentChanges === true && (edit.resourceOperations ?? []).includes('create'),
    showDocument: caps.window?.showDocument?.support === true,
    // (Markdown only for a client that says it renders it; plain text is what every client shows.)
    markdownHover: (caps.textDocument?.hover?.contentFormat ?? []).includes(MarkupKind.Markdown),
    markdownCompletion: (caps.textDocument?.completion?.completionItem?.documentationFormat ?? []).includes(MarkupKind.Markdown),
    codeActionLiterals: caps.textDocument?.codeAction?.codeActionLiteralSupport !== undefined,
    workDoneProgress: caps.window?.workDoneProgress === true,
    applyEdit: caps.workspace?.applyEdit === true,
  };
}

export function serverCapabilities(client: ClientFeatures): ServerCapabilities {
  return {
    // didSave of a glossary file tells the server it may record a definition written there.
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    hoverProvider: true,
    definitionProvider: true,
    completionProvider: { resolveProvider: false },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix], resolveProvider: false },
    codeLensProvider: { resolveProvider: false },
    // Over the workspace's term index (termIndexer.ts): glossary terms in specs and seed files.
    referencesProvider: true,
    documentHighlightProvider: true,
    renameProvider: { prepareProvider: true },
    workspaceSymbolProvider: true,
    executeCommandProvider: { commands: [...ALL_COMMANDS] },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    ...(client.pullDiagnostics ? { diagnosticProvider: { identifier: DIAGNOSTIC_SOURCE, interFileDependencies: true, workspaceDiagnostics: false } } : {}),
  };
}
