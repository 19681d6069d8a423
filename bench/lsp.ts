/**
 * A minimal LSP client over stdio (Content-Length framing), enough to time the real server as an
 * editor meets it: every message is read whole and parsed, as an editor would.
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: unknown[];
}

export class LspClient {
  /** Chunks of the message being read (joined once it is complete, not per chunk). */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Body length of the message being read; -1 while its header is still incomplete. */
  private bodyLength = -1;
  private nextId = 1;
  private readonly pending = new Map<number, (message: Message) => void>();
  private readonly waiters: { test: (message: Message) => boolean; resolve: (message: Message) => void }[] = [];
  /** Bytes of the last publishDiagnostics message received. */
  lastPublishBytes = 0;
  /** publishDiagnostics messages received so far. */
  publications = 0;
  /** Answers to requests the server makes (workspace/configuration, …). */
  onRequest: (method: string, params: unknown) => unknown = () => null;
  readonly exited: Promise<number | null>;

  private constructor(readonly process: ChildProcessWithoutNullStreams) {
    process.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    process.stderr.on('data', () => undefined);
    this.exited = new Promise((resolve) => process.on('exit', (code) => resolve(code)));
  }

  static start(command: string, args: string[], cwd: string): LspClient {
    return new LspClient(spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The next notification (or request) from the server that passes `test`. */
  waitFor(test: (message: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** The next publishDiagnostics for `uri` (of `version`, when given). */
  async published(uri: string, version?: number): Promise<PublishedDiagnostics> {
    const message = await this.waitFor((m) => {
      if (m.method !== 'textDocument/publishDiagnostics') return false;
      const params = m.params as PublishedDiagnostics;
      return params.uri === uri && (version === undefined || params.version === version);
    });
    return message.params as PublishedDiagnostics;
  }

  /** Resident set size of the server process now (Linux), in bytes; 0 where unknown. */
  residentBytes(): number {
    try {
      const status = readFileSync(`/proc/${this.process.pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
      return match ? Number(match[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  }

  async stop(): Promise<void> {
    const timer = setTimeout(() => this.process.kill(), 5000);
    try {
      await this.request('shutdown', null);
      this.notify('exit', null);
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.bodyLength < 0) {
        const head = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
        const headerEnd = head.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const match = /Content-Length: (\d+)/i.exec(head.subarray(0, headerEnd).toString('ascii'));
        if (!match) throw new Error('LSP message without Content-Length');
        this.bodyLength = Number(match[1]);
        this.chunks = [head.subarray(headerEnd + 4)];
        this.buffered = head.length - headerEnd - 4;
      }
      if (this.buffered < this.bodyLength) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      const body = all.subarray(0, this.bodyLength);
      const rest = all.subarray(this.bodyLength);
      const message = JSON.parse(body.toString('utf8')) as Message;
      if (message.method === 'textDocument/publishDiagnostics') {
        this.lastPublishBytes = body.length;
        this.publications++;
      }
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.bodyLength = -1;
      this.dispatch(message);
      if (this.buffered === 0) return;
    }
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined && message.method === undefined) {
      const resolve = this.pending.get(Number(message.id));
      this.pending.delete(Number(message.id));
      resolve?.(message);
      return;
    }
    if (message.id !== undefined && message.method !== undefined) {
      let result: unknown = null;
      try {
        result = this.onRequest(message.method, message.params);
      } catch {
        result = null;
      }
      this.send({ jsonrpc: '2.0', id: message.id, result });
    }
    const index = this.waiters.findIndex((w) => w.test(message));
    if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(message);
  }
}

/** The `initialize` params of a plain client with one workspace folder. */
export function initializeParams(rootUri: string): unknown {
  return {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    capabilities: {
      workspace: { applyEdit: true, configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: false } },
      textDocument: { synchronization: { didSave: true }, publishDiagnostics: { versionSupport: true, relatedInformation: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } }, hover: {} },
    },
  };
}

/**
 * A server of `build` started in `root` and initialized, answering `workspace/configuration`
 * with `settings` (the `specGlossary` section).
 */
export async function startServer(serverJs: string, root: string, rootUri: string, settings: Record<string, unknown>): Promise<LspClient> {
  const client = LspClient.start(process.execPath, [serverJs, '--stdio'], root);
  client.onRequest = (method, params) => (method === 'workspace/configuration' ? (params as { items: unknown[] }).items.map(() => settings) : null);
  const answer = await client.request('initialize', initializeParams(rootUri));
  if (answer.error) throw new Error(`initialize failed: ${answer.error.message}`);
  client.notify('initialized', {});
  return client;
}
