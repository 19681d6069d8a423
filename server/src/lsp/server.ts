/**
 * `startServer(connection)`: capabilities, handler registration and lifecycle. Wiring only; each
 * handler is wrapped once (runSafe) and forwards to the session created on `initialize`.
 */

import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  WatchKind,
  ErrorCodes,
  ResponseError,
  TextDocuments,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { createEngine, type Engine } from '../core/check/engine';
import type { ActorIdentity } from '../core/events/types';
import type { CommonWords } from '../core/words';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from '../node/fileSystem';
import { loadCommonWords } from '../node/packageFiles';
import type { ReplayLogs } from '../node/workspace';
import type { EventAppender } from './decisionLog';
import { serverCapabilities } from './capabilities';
import { DocumentTexts, specDocuments } from './documents';
import { Logger } from './logger';
import { CollectorMode, v8Collector } from './collectorMode';
import { compactingCollector, MemoryKeeper, type Collect } from './memory';
import { runSafe, runSafeNotification } from './runSafe';
import { Session } from './session';

export interface ServerOptions {
  /** The common-English list; loaded from the package after `initialize` by default. */
  commonWords?: () => CommonWords;
  runId?: string;
  actor?: ActorIdentity;
  version?: string;
  /** Where workspace files are read and watched (the disk by default; tests give an in-memory one). */
  fs?: WorkspaceFileSystem;
  /** How event logs are replayed (the event store's on disk, by default). */
  replay?: ReplayLogs;
  /** How memory is given back after documents close (V8's compacting collection by default; see memory.ts). */
  collectMemory?: Collect;
  /** Where decisions are appended (each folder's event store on disk, by default). */
  eventStore?: (root: string) => EventAppender;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const logger = new Logger(connection.console);
  // (Open documents no one is editing keep their text packed: see documents.ts. V8 collects for
  // memory unless the user is typing: collectorMode.ts.)
  const texts = new DocumentTexts();
  const collect = options.collectMemory ?? compactingCollector();
  const collector = new CollectorMode(v8Collector, undefined, collect);
  const documents = new TextDocuments<TextDocument>(specDocuments(texts, () => collector.typed()));
  documents.onDidClose((event) => texts.closed(event.document));
  // (Front-coded: the server keeps the lists for as long as it runs.)
  const commonWords = options.commonWords ?? (() => loadCommonWords(true));
  // The server's engine: made on first use, once the common-word list is read.
  let engine: Engine | undefined;
  const getEngine = () => (engine ??= createEngine({ commonWords: commonWords() }));
  let session: Session | undefined;
  // After `shutdown` (LSP): every request but `exit` is answered InvalidRequest, nothing is written.
  let shutDown = false;
  const withSession = <T>(fallback: T, run: (s: Session) => T | Promise<T>) => {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shut down: only `exit` is accepted');
    return session ? run(session) : fallback;
  };

  const memory = new MemoryKeeper(collect);

  connection.onInitialize((params): InitializeResult => {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shut down: only `exit` is accepted');
    session = new Session(connection, documents, logger, params, {
      engine: getEngine,
      fs: options.fs ?? NODE_FILE_SYSTEM,
      ...(options.replay ? { replay: options.replay } : {}),
      ...(options.eventStore ? { eventStore: options.eventStore } : {}),
      ...(options.runId ? { runId: options.runId } : {}),
      ...(options.actor ? { actor: options.actor } : {}),
      // (The index build allocates much and keeps little: V8's own collector settings while it runs.)
      indexBuilding: (specs) => collector.hold(specs),
    });
    session.registry.onDidReload((_root, _snapshot, first) => {
      if (!first) memory.workspaceReloaded();
    });
    return { capabilities: serverCapabilities(session.client), serverInfo: { name: 'spec-glossary', version: options.version ?? 'dev' } };
  });

  connection.onInitialized(
    runSafeNotification(logger, 'initialized', async () => {
      const s = session!;
      if (s.client.watchedFilesDynamic) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          // Every markdown file: a mission's spec defines words for its documents, and the term
          // index follows specs changed on disk. Deletions of anything: a folder deleted or moved
          // away reports only itself (not the specs in it), and its specs leave the index.
          watchers: [{ globPattern: '**/.kittify/**' }, { globPattern: '**/meta.json' }, { globPattern: '**/*.{md,markdown,mdx}' }, { globPattern: '**/*', kind: WatchKind.Delete }],
        });
      }
      if (s.client.configurationDynamic) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'specGlossary' });
      if (s.client.workspaceFolders) {
        connection.workspace.onDidChangeWorkspaceFolders(runSafeNotification(logger, 'workspace folders', (e) => s.workspaceFoldersChanged(e.added, e.removed)));
      }
      // Slow to read; loaded now so `initialize` is answered at once and the first check is fast.
      setImmediate(() => {
        try {
          getEngine();
        } catch (error) {
          logger.error('loading the common-word list failed', error);
        }
      });
      await s.updateLogLevel();
      s.startIndexing();
      logger.info(`spec-glossary language server ready (${s.client.pullDiagnostics ? 'pull' : 'push'} diagnostics, run ${s.runId})`);
    }),
  );

  documents.onDidOpen(
    runSafeNotification(logger, 'didOpen', (e) => {
      memory.documentOpened();
      session?.opened(e.document);
    }),
  );
  documents.onDidChangeContent(
    runSafeNotification(logger, 'didChange', (e) => {
      memory.documentChanged();
      session?.changed(e.document);
    }),
  );
  documents.onDidClose(
    runSafeNotification(logger, 'didClose', (e) => {
      memory.documentClosed();
      session?.closed(e.document);
    }),
  );
  documents.onDidSave(runSafeNotification(logger, 'didSave', (e) => session?.saved(e.document)));
  connection.onDidChangeWatchedFiles(runSafeNotification(logger, 'didChangeWatchedFiles', (p) => session?.watchedFilesChanged(p.changes)));
  connection.onDidChangeConfiguration(runSafeNotification(logger, 'didChangeConfiguration', (p) => session?.configurationChanged(p.settings)));

  connection.onHover(runSafe(logger, 'hover', null, (p, token) => withSession(null, (s) => s.features.hover(p, token))));
  connection.onDefinition(runSafe(logger, 'definition', [], (p, token) => withSession([], (s) => s.features.definition(p, token))));
  connection.onCompletion(runSafe(logger, 'completion', null, (p, token) => withSession(null, (s) => s.features.completion(p, token))));
  connection.onCodeLens(runSafe(logger, 'codeLens', [], (p, token) => withSession([], (s) => s.features.codeLens(p, token))));
  connection.onCodeAction(runSafe(logger, 'codeAction', [], (p, token) => withSession([], (s) => s.features.codeActions(p, token))));
  connection.onReferences(runSafe(logger, 'references', [], (p, token) => withSession([], (s) => (collector.busy(), s.terms.references(p, token)))));
  connection.onDocumentHighlight(runSafe(logger, 'documentHighlight', [], (p, token) => withSession([], (s) => s.terms.highlight(p, token))));
  connection.onPrepareRename(runSafe(logger, 'prepareRename', null, (p, token) => withSession(null, (s) => s.terms.prepareRename(p, token))));
  connection.onRenameRequest(runSafe(logger, 'rename', null, (p, token) => withSession(null, (s) => (collector.busy(), s.terms.rename(p, token)))));
  connection.onWorkspaceSymbol(runSafe(logger, 'workspaceSymbol', [], (p, token) => withSession([], (s) => (collector.busy(), s.terms.symbols(p, token)))));
  connection.onExecuteCommand(runSafe(logger, 'executeCommand', null, (p) => withSession(null, (s) => s.commands.execute(p))));
  connection.languages.diagnostics.on(
    runSafe(logger, 'textDocument/diagnostic', { kind: 'full' as const, items: [] }, (p, token) => withSession({ kind: 'full' as const, items: [] }, (s) => s.publisher.pull(p, token))),
  );
  connection.onShutdown(async () => {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is already shut down: only `exit` is accepted');
    shutDown = true;
    memory.dispose();
    collector.dispose();
    const stopping = session;
    session = undefined;
    // (Answered once the appends under way are written: nothing is cut by the `exit` after it.)
    await stopping?.dispose();
  });
  // Methods nobody handles: InvalidRequest after shutdown, MethodNotFound before.
  connection.onRequest((method) => {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `the server is shut down: only \`exit\` is accepted (got ${method})`);
    throw new ResponseError(ErrorCodes.MethodNotFound, `unhandled method ${method}`);
  });

  documents.listen(connection);
  connection.listen();
  logger.debug(`started (node ${process.version})`);
}
