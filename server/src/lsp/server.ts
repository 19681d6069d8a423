/**
 * `startServer(connection)`: capabilities, handler registration and lifecycle. Wiring only; each
 * handler is wrapped once (runSafe) and forwards to the session created on `initialize`.
 */

import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  LogMessageNotification,
  WatchKind,
  ErrorCodes,
  ResponseError,
  TextDocuments,
  type Connection,
  type DidChangeConfigurationParams,
  type InitializeResult,
  type WorkspaceFoldersChangeEvent,
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
import { OpenDocuments } from './openDocuments';
import { Logger, logMessages } from './logger';
import { CollectorMode, v8Collector, v8YoungGrowth, type SetCollector, type SetYoungGrowth } from './collectorMode';
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
  /**
   * How the server tunes V8's collector as the user types, a build runs or the editor rests
   * (collectorMode.ts). V8's flags are process-wide: the default suits a server in a process of its
   * own; a server sharing its process (the in-process tests) is given setters that leave it alone.
   */
  collectorFlags?: { set: SetCollector; growYoung: SetYoungGrowth };
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const server = serverState(connection, options);
  answerInitialize(server);
  finishInitialized(server);
  forwardDocumentEvents(server);
  forwardWorkspaceEvents(server);
  answerLanguageRequests(server);
  answerShutdown(server);
  refuseUnhandledRequests(server);

  // Last: messages are read from `listen` on, and every handler must be in place by then.
  server.documents.listen(connection);
  connection.listen();
  server.logger.debug(`started (node ${process.version})`);
}

/**
 * What the handlers of one `startServer` share. One per call, not module state: servers started
 * in one process (the in-process tests) share nothing.
 */
interface ServerState {
  readonly connection: Connection;
  readonly options: ServerOptions;
  readonly logger: Logger;
  readonly collector: CollectorMode;
  readonly documents: TextDocuments<TextDocument>;
  readonly getEngine: () => Engine;
  readonly memory: MemoryKeeper;
  /** Made on `initialize`, dropped on `shutdown`. */
  session: Session | undefined;
  /** After `shutdown` (LSP): every request but `exit` is answered InvalidRequest, nothing is written. */
  shutDown: boolean;
}

function serverState(connection: Connection, options: ServerOptions): ServerState {
  const logger = new Logger(logMessages((params) => connection.sendNotification(LogMessageNotification.type, params)));
  // (Open documents no one is editing keep their text packed: see documents.ts. V8 collects for
  // memory unless the user is typing: collectorMode.ts.)
  const texts = new DocumentTexts();
  const collect = options.collectMemory ?? compactingCollector();
  const flags = options.collectorFlags ?? { set: v8Collector, growYoung: v8YoungGrowth };
  const collector = new CollectorMode(flags.set, undefined, collect, undefined, flags.growYoung);
  const documents = new OpenDocuments(specDocuments(texts, () => collector.typed()));
  // (didClose listeners run in the order registered: this one before the session's, forwardDocumentEvents.)
  documents.onDidClose((event) => texts.closed(event.document));
  // (Front-coded: the server keeps the lists for as long as it runs.)
  const commonWords = options.commonWords ?? (() => loadCommonWords(true));
  // The server's engine: made on first use, once the common-word list is read.
  let engine: Engine | undefined;
  const getEngine = () => (engine ??= createEngine({ commonWords: commonWords() }));
  const memory = new MemoryKeeper(collect);
  return { connection, options, logger, collector, documents, getEngine, memory, session: undefined, shutDown: false };
}

/** Runs `run` on the session; ServerNotInitialized before `initialize`, InvalidRequest after `shutdown`. */
function withSession<T>(server: ServerState, run: (s: Session) => T | Promise<T>): T | Promise<T> {
  if (server.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shut down: only `exit` is accepted');
  // (LSP: a request before `initialize` is answered with ServerNotInitialized, -32002.)
  if (!server.session) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialized: send `initialize` first');
  return run(server.session);
}

/** `initialize`: the session is made and the capabilities it supports answered. */
function answerInitialize(server: ServerState): void {
  const { connection, documents, logger, options, collector, memory } = server;
  connection.onInitialize((params): InitializeResult => {
    if (server.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shut down: only `exit` is accepted');
    // (LSP: `initialize` is sent once; a second one would make a second session over the first.)
    if (server.session) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is already initialized: `initialize` is sent once');
    const session = new Session(connection, documents, logger, params, {
      engine: server.getEngine,
      fs: options.fs ?? NODE_FILE_SYSTEM,
      ...(options.replay ? { replay: options.replay } : {}),
      ...(options.eventStore ? { eventStore: options.eventStore } : {}),
      ...(options.runId ? { runId: options.runId } : {}),
      ...(options.actor ? { actor: options.actor } : {}),
      // (The index build allocates much and keeps little: V8's own collector settings while it runs.)
      indexBuilding: (specs) => collector.hold(specs),
    });
    server.session = session;
    session.registry.onDidReload((_root, _snapshot, first) => {
      if (!first) memory.workspaceReloaded();
    });
    return { capabilities: serverCapabilities(session.client), serverInfo: { name: 'spec-glossary', version: options.version ?? 'dev' } };
  });
}

/** `initialized`: what the client lets be registered now, the engine preloaded, indexing started. */
function finishInitialized(server: ServerState): void {
  const { connection, logger } = server;
  connection.onInitialized(
    runSafeNotification(logger, 'initialized', async () => {
      const s = server.session!;
      // (First, before any wait: a change the client sends right after `initialized` is heard.)
      listenToFolderChanges(server, s);
      if (s.client.watchedFilesDynamic) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          // Every markdown file: a mission's spec defines words for its documents, and the term
          // index follows specs changed on disk. Deletions of anything: a folder deleted or moved
          // away reports only itself (not the specs in it), and its specs leave the index.
          watchers: [{ globPattern: '**/.kittify/**' }, { globPattern: '**/meta.json' }, { globPattern: '**/*.{md,markdown,mdx}' }, { globPattern: '**/*', kind: WatchKind.Delete }],
        });
      }
      if (s.client.configurationDynamic) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'specGlossary' });
      preloadEngine(server);
      await s.updateLogLevel();
      s.startIndexing();
      logger.info(`spec-glossary language server ready (${s.client.pullDiagnostics ? 'pull' : 'push'} diagnostics, run ${s.runId})`);
    }),
  );
}

/**
 * Workspace folders added or removed. The server says it takes these changes whatever the client
 * declared (`changeNotifications`), so one that sends them without declaring
 * `workspace.workspaceFolders` is heard too: the library listens only for clients that declare it.
 */
function listenToFolderChanges(server: ServerState, session: Session): void {
  const changed = runSafeNotification(server.logger, 'workspace folders', (e: WorkspaceFoldersChangeEvent) => session.workspaceFoldersChanged(e.added, e.removed));
  if (session.client.workspaceFolders) server.connection.workspace.onDidChangeWorkspaceFolders(changed);
  else server.connection.onNotification(DidChangeWorkspaceFoldersNotification.type, (params) => changed(params.event));
}

/** Slow to read; loaded now so `initialize` is answered at once and the first check is fast. */
function preloadEngine(server: ServerState): void {
  setImmediate(() => {
    try {
      server.getEngine();
    } catch (error) {
      server.logger.error('loading the common-word list failed', error);
    }
  });
}

/** Open, change, close and save of documents: counted for memory, then handed to the session. */
function forwardDocumentEvents(server: ServerState): void {
  const { documents, logger, memory } = server;
  documents.onDidOpen(
    runSafeNotification(logger, 'didOpen', (e) => {
      memory.documentOpened();
      server.session?.opened(e.document);
    }),
  );
  documents.onDidChangeContent(
    runSafeNotification(logger, 'didChange', (e) => {
      memory.documentChanged();
      server.session?.changed(e.document);
    }),
  );
  documents.onDidClose(
    runSafeNotification(logger, 'didClose', (e) => {
      memory.documentClosed();
      server.session?.closed(e.document);
    }),
  );
  documents.onDidSave(runSafeNotification(logger, 'didSave', (e) => server.session?.saved(e.document)));
}

/** Files changed on disk and settings changed, handed to the session. */
function forwardWorkspaceEvents(server: ServerState): void {
  const { connection, logger } = server;
  connection.onDidChangeWatchedFiles(runSafeNotification(logger, 'didChangeWatchedFiles', (p) => server.session?.watchedFilesChanged(p.changes)));
  connection.onDidChangeConfiguration(runSafeNotification(logger, 'didChangeConfiguration', (p) => server.session?.configurationChanged((p as DidChangeConfigurationParams | null | undefined)?.settings)));
}

/** The requests on documents, the term index, commands and pulled diagnostics. */
function answerLanguageRequests(server: ServerState): void {
  const { connection, logger, collector } = server;
  connection.onHover(runSafe(logger, 'hover', null, (p, token) => withSession(server, (s) => s.features.hover(p, token))));
  connection.onDefinition(runSafe(logger, 'definition', [], (p, token) => withSession(server, (s) => s.features.definition(p, token))));
  connection.onCompletion(runSafe(logger, 'completion', null, (p, token) => withSession(server, (s) => s.features.completion(p, token))));
  connection.onCodeLens(runSafe(logger, 'codeLens', [], (p, token) => withSession(server, (s) => s.features.codeLens(p, token))));
  connection.onCodeAction(runSafe(logger, 'codeAction', [], (p, token) => withSession(server, (s) => s.features.codeActions(p, token))));
  connection.onReferences(runSafe(logger, 'references', [], (p, token) => withSession(server, (s) => (collector.busy(), s.terms.references(p, token)))));
  connection.onDocumentHighlight(runSafe(logger, 'documentHighlight', [], (p, token) => withSession(server, (s) => s.terms.highlight(p, token))));
  connection.onPrepareRename(runSafe(logger, 'prepareRename', null, (p, token) => withSession(server, (s) => s.terms.prepareRename(p, token))));
  connection.onRenameRequest(runSafe(logger, 'rename', null, (p, token) => withSession(server, (s) => (collector.busy(), s.terms.rename(p, token)))));
  connection.onWorkspaceSymbol(runSafe(logger, 'workspaceSymbol', [], (p, token) => withSession(server, (s) => (collector.busy(), s.terms.symbols(p, token)))));
  connection.onExecuteCommand(runSafe(logger, 'executeCommand', null, (p) => withSession(server, (s) => s.commands.execute(p))));
  connection.languages.diagnostics.on(
    runSafe(logger, 'textDocument/diagnostic', { kind: 'full' as const, items: [] }, (p, token) => withSession(server, (s) => s.publisher.pull(p, token))),
  );
}

/** `shutdown`: timers stopped and the session disposed; only `exit` is accepted after it. */
function answerShutdown(server: ServerState): void {
  server.connection.onShutdown(async () => {
    if (server.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is already shut down: only `exit` is accepted');
    if (!server.session) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialized: send `initialize` first');
    server.shutDown = true;
    server.memory.dispose();
    server.collector.dispose();
    const stopping = server.session;
    server.session = undefined;
    // (Answered once the appends under way are written: nothing is cut by the `exit` after it.)
    await stopping?.dispose();
  });
  // LSP: `exit` ends the process with code 1 unless a `shutdown` came first. The library counts a
  // `shutdown` it received as one even when it was refused above (before `initialize`).
  server.connection.onExit(() => {
    if (!server.shutDown) process.exit(1);
  });
}

/** Methods nobody handles: InvalidRequest after shutdown, ServerNotInitialized before `initialize`, else MethodNotFound. */
function refuseUnhandledRequests(server: ServerState): void {
  server.connection.onRequest((method) => {
    if (server.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `the server is shut down: only \`exit\` is accepted (got ${method})`);
    if (!server.session) throw new ResponseError(ErrorCodes.ServerNotInitialized, `the server is not initialized: send \`initialize\` first (got ${method})`);
    throw new ResponseError(ErrorCodes.MethodNotFound, `unhandled method ${method}`);
  });
}
