/** A minimal LSP client over stdio (Content-Length framing), enough to time the real server. */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (message: Message) => void>();
  private readonly waiters: { test: (message: Message) => boolean; resolve: (message: Message) => void }[] = [];
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
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const match = /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'));
      if (!match) throw new Error('LSP message without Content-Length');
      const length = Number(match[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message);
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
      workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: false } },
      textDocument: { synchronization: { didSave: true }, publishDiagnostics: { versionSupport: true }, codeAction: {}, hover: {} },
    },
  };
}
