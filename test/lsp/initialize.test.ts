/** The order LSP sets: requests before `initialize` are refused, and `initialize` is sent once. */
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../server/src/lsp/server';

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
