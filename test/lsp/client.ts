/**
 * A real JSON-RPC client for protocol tests. By default the server runs in this process
 * (`startServer` over a pair of in-memory streams: no build needed, fast, debuggable), on the
 * disk or on an in-memory workspace (`fs`); `transport: 'stdio'` or `'ipc'` spawns the built
 * server (`dist/server.js`) instead, for the tests about the process itself. The client plays the
 * editor's part (answers configuration, applies workspace edits to disk, records showDocument and
 * refresh requests) and lets tests wait on messages — never on sleeps.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type ApplyWorkspaceEditParams,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type LogMessageParams,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
  type ShowDocumentParams,
  type ShowMessageParams,
  type TextDocumentContentChangeEvent,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { startServer } from '../../server/src/lsp/server';
import type { MemoryFileSystem } from '../helpers/memoryFileSystem';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SERVER = path.resolve(here, '../../dist/server.js');

export interface ClientOptions {
  folders: string[];
  /** Advertise pull diagnostics (textDocument.diagnostic + refresh support). */
  pull?: boolean;
  /** `specGlossary` settings answered to workspace/configuration (per scope URI if a function). */
  settings?: Record<string, unknown> | ((scopeUri: string | undefined) => Record<string, unknown> | undefined);
  /** Sent as `initializationOptions` (null by default). */
  initializationOptions?: unknown;
  /** Extra/overriding client capabilities. */
  capabilities?: ClientCapabilities;
  /** Where the server runs: in this process (default), or spawned from dist/ over stdio or IPC. */
  transport?: 'in-process' | 'stdio' | 'ipc';
  /** An in-process server reads (and watches nothing of) this workspace instead of the disk. */
  fs?: MemoryFileSystem;
  /** Answer workspace/applyEdit with applied: false. */
  rejectEdits?: boolean;
  /**
   * Apply workspace/applyEdit as Neovim and VS Code do: files created on disk at once, the text
   * edits left in unsaved buffers (nothing written). By default every edit is written to disk.
   */
  unsavedEdits?: boolean;
  /** How window/showDocument is answered: shown (default), `{ success: false }`, or an error. */
  showDocument?: 'shown' | 'fail' | 'error';
  /** Where decisions are appended (in-process only; each folder's event store on disk by default). */
  eventStore?: import('../../server/src/lsp/server').ServerOptions['eventStore'];
  /** How the server gives memory back (in-process only; V8's compacting collection by default). */
  collectMemory?: import('../../server/src/lsp/server').ServerOptions['collectMemory'];
}

export class TestClient {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly appliedEdits: ApplyWorkspaceEditParams[] = [];
  readonly shownDocuments: ShowDocumentParams[] = [];
  readonly registrations: Registration[] = [];
  readonly configurationRequests: (string | undefined)[] = [];
  readonly messages: ShowMessageParams[] = [];
  readonly logs: LogMessageParams[] = [];
  /** `$/progress` notifications (work-done progress), in order. */
  readonly progress: { token: unknown; value: { kind: string; title?: string; message?: string; percentage?: number } }[] = [];
  diagnosticRefreshes = 0;
  stderr = '';
  initializeResult!: InitializeResult;
  initializeMs = 0;
  exited = false;
  private readonly docs = new Map<string, TextDocument>();
  private readonly waiters = new Set<() => void>();

  private constructor(
    /** The server process (spawned transports only). */
    readonly child: ChildProcess | undefined,
    readonly connection: ProtocolConnection,
    private options: ClientOptions,
    /** Ends an in-process server's connection. */
    private readonly disconnect?: () => void,
  ) {}

  static async start(options: ClientOptions): Promise<TestClient> {
    const started = Date.now();
    const client = options.transport === 'stdio' || options.transport === 'ipc' ? TestClient.spawned(options) : TestClient.inProcess(options);
    client.listen();
    client.connection.listen();
    client.initializeResult = await client.connection.sendRequest('initialize', {
      // (The library watches this process id and exits when it is gone: only for a spawned server.)
      processId: client.child ? process.pid : null,
      // (No folder: a single file opened on its own, as `nvim file.md` outside any project.)
      rootUri: options.folders[0] === undefined ? null : URI.file(options.folders[0]).toString(),
      workspaceFolders: options.folders.length === 0 ? null : options.folders.map((f) => ({ uri: URI.file(f).toString(), name: path.basename(f) })),
      capabilities: client.capabilities(),
      initializationOptions: options.initializationOptions ?? null,
    });
    client.initializeMs = Date.now() - started;
    await client.connection.sendNotification('initialized', {});
    return client;
  }

  /** The server in this process, over two in-memory streams. */
  private static inProcess(options: ClientOptions): TestClient {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    // Message readers and writers, not the streams themselves: given streams, the library exits
    // the process when they end.
    const server = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    startServer(server, {
      version: 'test',
      ...(options.fs ? { fs: options.fs, replay: options.fs.replay } : {}),
      ...(options.eventStore ? { eventStore: options.eventStore } : {}),
      // V8's flags and full collections are process-wide: a server sharing the worker with the
      // other test files leaves its collector alone (the tuning made every later test's garbage
      // cost up to a third of the suite's CPU). A test of giving memory back passes its own.
      collectMemory: options.collectMemory ?? (async () => undefined),
      collectorFlags: { set: () => undefined, growYoung: () => undefined },
    });
    const connection = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    return new TestClient(undefined, connection, options, () => {
      server.dispose();
      toServer.end();
      toClient.end();
    });
  }

  /** The built server (`dist/server.js`) in a process of its own, over stdio or node IPC. */
  private static spawned(options: ClientOptions): TestClient {
    if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
    if (options.fs) throw new Error('an in-memory workspace needs the in-process server');
    const ipc = options.transport === 'ipc';
    const child = spawn(process.execPath, [SERVER, ipc ? '--node-ipc' : '--stdio'], { stdio: ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'] });
    const connection = ipc ? createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child)) : createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new TestClient(child, connection, options);
    child.stderr!.on('data', (chunk: Buffer) => (client.stderr += chunk.toString()));
    child.on('exit', () => {
      client.exited = true;
      client.poke();
    });
    return client;
  }

  /** Index of the next publication: wait on what arrives after this point. */
  mark(): number {
    return this.published.length;
  }

  /** The first publication for `uri` after `since` that satisfies `accept` (within `timeoutMs`, 20 s by default). */
  diagnostics(uri: string, accept: (diagnostics: Diagnostic[]) => boolean = () => true, since = 0, what = 'diagnostics', timeoutMs?: number): Promise<PublishDiagnosticsParams> {
    return this.until(() => this.published.slice(since).find((p) => p.uri === uri && accept(p.diagnostics)), `${what} for ${uri}`, timeoutMs);
  }

  /** Resolves once `check` returns a value; re-checked whenever a message arrives. */
  until<T>(check: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const attempt = () => {
        let value: T | undefined | false;
        try {
          value = check();
        } catch (error) {
          done();
          reject(error);
          return;
        }
        if (value !== undefined && value !== false) {
          done();
          resolve(value);
        } else if (this.exited) {
          done();
          reject(new Error(`server exited while waiting for ${what}\n${this.stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what}; last publications: ${JSON.stringify(this.published.slice(-3), null, 1).slice(0, 3000)}\nserver log: ${this.logs.slice(-5).map((l) => l.message).join('\n')}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      this.waiters.add(attempt);
      attempt();
    });
  }

  open(uri: string, text: string, languageId = 'markdown'): void {
    const doc = TextDocument.create(uri, languageId, 1, text);
    this.docs.set(uri, doc);
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Incremental change; returns the new version. */
  change(uri: string, changes: TextDocumentContentChangeEvent[]): number {
    const doc = this.docs.get(uri)!;
    const next = TextDocument.update(doc, changes, doc.version + 1);
    this.docs.set(uri, next);
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: next.version }, contentChanges: changes });
    return next.version;
  }

  text(uri: string): string {
    return this.docs.get(uri)!.getText();
  }

  /** `textDocument/didSave` (after the test wrote the file, as an editor saving it would). */
  save(uri: string): void {
    void this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  close(uri: string): void {
    this.docs.delete(uri);
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  fileChanged(uri: string, type: 1 | 2 | 3 = 2): void {
    void this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type }] });
  }

  setSettings(settings: ClientOptions['settings']): void {
    this.options = { ...this.options, settings };
    void this.connection.sendNotification('workspace/didChangeConfiguration', { settings: { specGlossary: typeof settings === 'function' ? null : settings } });
  }

  /** Any other notification to the server. */
  notify(method: string, params: unknown): void {
    void this.connection.sendNotification(method, params);
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  async stop(): Promise<void> {
    if (!this.exited && this.disconnect) {
      // In process: shut down, then end the connection (an `exit` would end this process). A
      // server a test shut down already answers InvalidRequest.
      try {
        await this.connection.sendRequest('shutdown').catch(() => undefined);
      } finally {
        this.exited = true;
        this.connection.dispose();
        this.disconnect();
      }
      return;
    }
    if (!this.exited) {
      try {
        await this.connection.sendRequest('shutdown');
        await this.connection.sendNotification('exit');
        await this.until(() => this.exited, 'the server to exit', 5_000);
      } catch {
        this.child?.kill();
      }
    }
    this.connection.dispose();
  }

  private poke(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private capabilities(): ClientCapabilities {
    const pull = this.options.pull === true;
    return {
      workspace: {
        applyEdit: true,
        configuration: true,
        workspaceFolders: true,
        workspaceEdit: { documentChanges: true, resourceOperations: ['create'] },
        didChangeWatchedFiles: { dynamicRegistration: true },
        didChangeConfiguration: { dynamicRegistration: true },
        codeLens: { refreshSupport: true },
        ...(pull ? { diagnostics: { refreshSupport: true } } : {}),
      },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, dataSupport: true, tagSupport: { valueSet: [1, 2] } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, dataSupport: true, isPreferredSupport: true },
        ...(pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
      },
      window: { showDocument: { support: true } },
      ...this.options.capabilities,
    };
  }

  private listen(): void {
    const c = this.connection;
    // Every message may be what a test waits for: re-check the waiters after handling it.
    const notify = <P>(method: string, handler: (params: P) => void) =>
      c.onNotification(method, (params: P) => {
        handler(params);
        this.poke();
      });
    const answer = <P, R>(method: string, handler: (params: P) => R) =>
      c.onRequest(method, (params: P) => {
        const result = handler(params);
        setImmediate(() => this.poke());
        return result;
      });
    notify('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => this.published.push(params));
    notify('window/logMessage', (params: LogMessageParams) => this.logs.push(params));
    notify('$/progress', (params: TestClient['progress'][number]) => this.progress.push(params));
    notify('window/showMessage', (params: ShowMessageParams) => this.messages.push(params));
    answer('workspace/configuration', (params: { items: { scopeUri?: string; section?: string }[] }) =>
      params.items.map((item) => {
        this.configurationRequests.push(item.scopeUri);
        const settings = this.options.settings;
        return (typeof settings === 'function' ? settings(item.scopeUri) : settings) ?? null;
      }),
    );
    answer('client/registerCapability', (params: { registrations: Registration[] }) => {
      this.registrations.push(...params.registrations);
      return null;
    });
    answer('client/unregisterCapability', () => null);
    answer('window/workDoneProgress/create', () => null);
    answer('workspace/codeLens/refresh', () => null);
    answer('workspace/diagnostic/refresh', () => {
      this.diagnosticRefreshes++;
      return null;
    });
    answer('window/showDocument', (params: ShowDocumentParams) => {
      this.shownDocuments.push(params);
      if (this.options.showDocument === 'error') throw new Error('cannot show documents here');
      return { success: this.options.showDocument !== 'fail' };
    });
    answer('workspace/applyEdit', (params: ApplyWorkspaceEditParams) => {
      this.appliedEdits.push(params);
      if (this.options.rejectEdits) return { applied: false, failureReason: 'rejected by the test' };
      applyToDisk(params.edit, this.options.unsavedEdits ? 'files only' : 'all');
      return { applied: true };
    });
  }
}

/** Applies a WorkspaceEdit to files on disk, as an editor saving the result would. */
export function applyToDisk(edit: WorkspaceEdit, what: 'all' | 'files only' = 'all'): void {
  const applyText = (uri: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]) => {
    const file = URI.parse(uri).fsPath;
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
    writeFileSync(file, TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 0, before), edits));
  };
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change) {
      if (change.kind !== 'create') throw new Error(`unexpected resource operation ${change.kind}`);
      const file = URI.parse(change.uri).fsPath;
      mkdirSync(path.dirname(file), { recursive: true });
      if (!existsSync(file) || change.options?.overwrite) writeFileSync(file, '');
    } else if (what === 'all') {
      applyText(change.textDocument.uri, change.edits as never);
    }
  }
  if (what === 'all') for (const [uri, edits] of Object.entries(edit.changes ?? {})) applyText(uri, edits);
}

export const at = (line: number, character: number) => ({ line, character });
