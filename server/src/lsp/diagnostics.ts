/**
 * Getting diagnostics to the client. Markdown documents: pushed after a per-document debounce
 * (the `debounceMs` setting; 0 on open), superseded runs cancelled and results for an older
 * document version dropped — or, when the client pulls, answered on `textDocument/diagnostic`
 * with a result id so unchanged results are not resent. Glossary, config and log files: their
 * folder's problems are pushed on every reload (in pull mode only for files that are not open,
 * which the client pulls itself).
 */

import {
  CancellationTokenSource,
  CodeLensRefreshRequest,
  DiagnosticRefreshRequest,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type TextDocuments,
} from 'vscode-languageserver';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { configPath, type WorkspaceSnapshot } from '../node/workspace';
import { workspaceFileDiagnostics } from '../service/diagnostics';
import { fileUri } from '../service/paths';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';
import type { Logger } from './logger';
import { Cancelled } from './runSafe';
import type { SettingsStore } from './settings';
import type { Settings } from '../service/types';

/** How long pull-refresh requests are gathered into one (milliseconds). */
const REFRESH_GATHER_MS = 30;

/** Diagnostics of a folder's files that come from elsewhere (glossary health), by absolute path. */
export interface FileDiagnosticsSource {
  diagnostics(root: string, settings: Settings): Map<string, Diagnostic[]>;
  /** Changes whenever `diagnostics` would give something else (part of pulled result ids). */
  version(root: string): number;
}

/** The problems of a folder's own files plus those of `extra`, by absolute path. */
export function folderFileDiagnostics(snapshot: WorkspaceSnapshot, root: string, settings: Settings, extra: FileDiagnosticsSource | undefined): Map<string, Diagnostic[]> {
  const byFile = workspaceFileDiagnostics(snapshot, configPath(root), settings);
  if (!extra) return byFile;
  for (const [file, diagnostics] of extra.diagnostics(root, settings)) byFile.set(file, [...(byFile.get(file) ?? []), ...diagnostics]);
  return byFile;
}

interface Pending {
  generation: number;
  /** Cancels the run waiting for its debounce, if any. */
  cancelWait?: () => void;
  running?: CancellationTokenSource;
  /** The key of the analysis whose diagnostics were pushed last (a markdown document's). */
  publishedKey?: string;
}

/**
 * Runs `run` after `delay` ms; returns what cancels it. No delay: on the next turn of the event
 * loop (a zero timeout waits a whole millisecond, most of a keystroke's budget on a spec).
 */
function after(delay: number, run: () => void): () => void {
  if (delay <= 0) {
    const immediate = setImmediate(run);
    return () => clearImmediate(immediate);
  }
  const timer = setTimeout(run, delay);
  return () => clearTimeout(timer);
}

export class DiagnosticsPublisher {
  private readonly pending = new Map<string, Pending>();
  /** Per folder: URIs of glossary files we pushed diagnostics for, and a sequence against races. */
  private readonly pushedFiles = new Map<string, { uris: Set<string>; seq: number }>();
  private refreshQueued = false;
  private codeLensRefreshQueued = false;
  private disposed = false;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly analyzer: DocumentAnalyzer,
    private readonly settings: SettingsStore,
    private readonly client: ClientFeatures,
    private readonly logger: Logger,
    /** Glossary health: more diagnostics on the glossary files. */
    private readonly extra?: FileDiagnosticsSource,
  ) {}

  get pullMode(): boolean {
    return this.client.pullDiagnostics;
  }

  /** Check a markdown document after the debounce (push mode; in pull mode the client asks). */
  schedule(uri: string, immediate = false): void {
    if (this.pullMode || this.disposed) return;
    const entry = this.entry(uri);
    const generation = ++entry.generation;
    entry.cancelWait?.();
    entry.running?.cancel();
    const start = (delay: number) => {
      if (entry.generation !== generation) return;
      entry.cancelWait = after(delay, () => void this.run(uri, generation));
    };
    if (immediate) start(0);
    else
      this.settings.get(uri).then(
        (s) => start(s.debounceMs),
        () => start(0),
      );
  }

  /** After a glossary change: re-check every open document of the folder (or of every folder). */
  refresh(documentsOf: (document: TextDocument) => boolean): void {
    if (this.pullMode) {
      this.requestPullRefresh();
    } else {
      for (const document of this.documents.all()) if (documentsOf(document)) this.schedule(document.uri, true);
    }
    this.requestCodeLensRefresh();
  }

  /**
   * Check the matching open documents now and push their diagnostics before returning. Used after
   * a command's own write, so the client has the new diagnostics before the command's reply (some
   * clients, e.g. Emacs 28's jsonrpc, read a message that follows a reply only much later).
   * Runs already scheduled for those documents are superseded.
   */
  async publishNow(documentsOf: (document: TextDocument) => boolean): Promise<void> {
    if (this.pullMode) {
      this.requestPullRefresh();
      return;
    }
    const runs = this.documents
      .all()
      .filter(documentsOf)
      .map((document) => {
        const entry = this.entry(document.uri);
        const generation = ++entry.generation;
        entry.cancelWait?.();
        entry.running?.cancel();
        return this.run(document.uri, generation);
      });
    await Promise.all(runs);
  }

  /** The server shuts down: runs waiting or under way are dropped, nothing more is published. */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.pending.values()) {
      entry.generation++;
      entry.cancelWait?.();
      entry.running?.cancel();
    }
    this.pending.clear();
  }

  /** A closed document: stop its work, clear what was pushed. */
  closed(uri: string): void {
    const entry = this.pending.get(uri);
    if (entry) {
      entry.generation++; // a debounce still waiting for its settings must not start a run
      entry.cancelWait?.();
      entry.running?.cancel();
      this.pending.delete(uri);
    }
    if (!this.pullMode) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** `textDocument/diagnostic`. */
  async pull(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const document = this.documents.get(params.textDocument.uri);
    if (!document) return { kind: 'full', items: [] };
    const version = document.version;
    // Nothing changed since the client's last report: no need to check the document again.
    const current = this.analyzer.currentResultId(document);
    if (current !== undefined && params.previousResultId === current) return { kind: 'unchanged', resultId: current };
    const analysis = await this.analyzer.analyze(document, token);
    if (this.documents.get(document.uri)?.version !== version) {
      throw new ResponseError(LSPErrorCodes.ServerCancelled, 'the document changed meanwhile', { retriggerRequest: true });
    }
    const resultId = analysis.key || undefined;
    if (resultId !== undefined && params.previousResultId === resultId) return { kind: 'unchanged', resultId };
    return { kind: 'full', ...(resultId !== undefined ? { resultId } : {}), items: analysis.diagnostics };
  }

  /** A workspace folder removed: clear what was pushed for its glossary, config and log files. */
  forgetFolder(root: string): void {
    const state = this.pushedFiles.get(root);
    if (!state) return;
    this.pushedFiles.delete(root);
    state.seq++; // (a publication under way for it stops)
    for (const uri of state.uris) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Push the problems of a folder's glossary, config and log files; clear files that are fixed. */
  async publishGlossaryFiles(root: string, snapshot: WorkspaceSnapshot): Promise<void> {
    let state = this.pushedFiles.get(root);
    if (!state) this.pushedFiles.set(root, (state = { uris: new Set(), seq: 0 }));
    const seq = ++state.seq;
    const settings = await this.settings.get(fileUri(root));
    if (state.seq !== seq) return; // a newer snapshot is being published
    const byFile = folderFileDiagnostics(snapshot, root, settings, this.extra);
    const open = new Set(this.pullMode ? this.documents.keys() : []);
    const sent = new Set<string>();
    for (const [file, diagnostics] of byFile) {
      const uri = fileUri(file);
      if (open.has(uri)) continue;
      sent.add(uri);
      void this.connection.sendDiagnostics({ uri, diagnostics });
    }
    for (const uri of state.uris) if (!sent.has(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    state.uris = sent;
  }

  /** The folder's extra file diagnostics changed: push them again, and let a pulling client ask again. */
  async glossaryFilesChanged(root: string, snapshot: WorkspaceSnapshot): Promise<void> {
    if (this.disposed) return;
    await this.publishGlossaryFiles(root, snapshot);
    if (this.pullMode) this.requestPullRefresh();
  }

  private async run(uri: string, generation: number): Promise<void> {
    const entry = this.pending.get(uri); // gone when the document was closed meanwhile
    if (entry === undefined || entry.generation !== generation) return;
    // (It fired: the timer and the closures it kept can go; an open document's entry stays.)
    entry.cancelWait = undefined;
    const document = this.documents.get(uri);
    if (!document) return;
    const source = new CancellationTokenSource();
    entry.running = source;
    const version = document.version;
    try {
      // What the client shows is current (a glossary change that leaves this document's mission
      // alone, say): not checked nor pushed again.
      if (entry.publishedKey !== undefined && entry.publishedKey === this.analyzer.currentResultId(document)) return;
      const analysis = await this.analyzer.analyze(document, source.token);
      // Stale: the document moved on or a newer run superseded this one.
      if (source.token.isCancellationRequested || entry.generation !== generation || this.documents.get(uri)?.version !== version) return;
      if (analysis.kind === 'glossaryFile') return; // pushed per folder by publishGlossaryFiles
      entry.publishedKey = undefined;
      await this.connection.sendDiagnostics({ uri, version, diagnostics: analysis.diagnostics });
      if (analysis.kind === 'markdown' && entry.generation === generation) entry.publishedKey = analysis.key;
    } catch (error) {
      if (!(error instanceof Cancelled)) this.logger.error(`checking ${uri} failed`, error);
    } finally {
      if (entry.running === source) entry.running = undefined;
      source.dispose();
    }
  }

  private entry(uri: string): Pending {
    let entry = this.pending.get(uri);
    if (!entry) this.pending.set(uri, (entry = { generation: 0 }));
    return entry;
  }

  private requestPullRefresh(): void {
    if (!this.client.diagnosticRefresh || this.refreshQueued) return;
    this.refreshQueued = true;
    // (A decision asks twice within a few milliseconds: once when its command has written, once
    // when the folder's reload reports it. One refresh for both: each makes VS Code replace the
    // file's problems, which drops a Ctrl+. the user just pressed.)
    setTimeout(() => {
      this.refreshQueued = false;
      if (this.disposed) return; // (the connection may be gone: sendRequest would throw)
      this.connection.sendRequest(DiagnosticRefreshRequest.type).catch((error: unknown) => this.logger.debug(`diagnostic refresh: ${(error as Error).message}`));
    }, REFRESH_GATHER_MS);
  }

  private requestCodeLensRefresh(): void {
    if (!this.client.codeLensRefresh || this.codeLensRefreshQueued) return;
    this.codeLensRefreshQueued = true;
    setTimeout(() => {
      this.codeLensRefreshQueued = false;
      if (this.disposed) return; // (the connection may be gone: sendRequest would throw)
      this.connection.sendRequest(CodeLensRefreshRequest.type).catch((error: unknown) => this.logger.debug(`codeLens refresh: ${(error as Error).message}`));
    }, 0);
  }
}
