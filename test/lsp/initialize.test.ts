/** The order LSP sets: requests before `initialize` are refused, and `initialize` is sent once. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../server/src/lsp/server';
import { SERVER } from './client';

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function connect(): ProtocolConnection {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, { version: 'test' });
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  stop = () => {
    client.dispose();
    server.dispose();
    toServer.end();
    toClient.end();
  };
  return client;
}

it('a request before initialize is answered ServerNotInitialized (-32002); a second initialize is refused', async () => {
  const client = connect();
  const hover = { textDocument: { uri: 'file:///tmp/x.md' }, position: { line: 0, character: 0 } };
  for (const method of ['textDocument/hover', 'shutdown', 'workspace/unknownThing']) await expect(client.sendRequest(method, method === 'textDocument/hover' ? hover : undefined), method).rejects.toMatchObject({ code: -32002 });
  const initialize = { processId: null, rootUri: null, capabilities: {} };
  const first = await client.sendRequest<{ capabilities: object }>('initialize', initialize);
  expect(first.capabilities).toBeDefined();
  await expect(client.sendRequest('initialize', initialize)).rejects.toMatchObject({ code: -32600 });
});

/** The built server over stdio, sent `messages`, each request once the previous one is answered; resolves with its exit code. */
async function exitCodeAfter(messages: { id?: number; method: string; params?: object }[]): Promise<number | null> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (const message of messages) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    while (message.id !== undefined && !output.includes(`"id":${message.id},`)) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return exited;
}

it('exit ends the process with 0 after an accepted shutdown, else 1 (a shutdown refused before initialize does not count)', async () => {
  const initialize = { id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } };
  expect(await exitCodeAfter([initialize, { id: 2, method: 'shutdown' }, { method: 'exit' }])).toBe(0);
  expect(await exitCodeAfter([initialize, { method: 'exit' }])).toBe(1);
  expect(await exitCodeAfter([{ id: 1, method: 'shutdown' }, { method: 'exit' }])).toBe(1);
});
