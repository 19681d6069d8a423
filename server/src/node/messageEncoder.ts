/**
 * The JSON encoding of outgoing LSP messages over stdio, with the diagnostics of a publish (or a
 * pulled full report) serialized once per Diagnostic object: the analyzer reuses the Diagnostic
 * of every finding a keystroke did not touch, so after an edit only the new ones are encoded and
 * the rest of the message is joined from cached strings. On a 1 MB spec with thousands of
 * diagnostics, `JSON.stringify` of the whole message took ~50 ms per keystroke.
 *
 * The text produced is the same JSON as `JSON.stringify(message)` would give (same keys, same
 * values, in the same order).
 */

import type { Message } from 'vscode-jsonrpc';

/** The `ContentTypeEncoder` shape of vscode-jsonrpc (not exported as a type from its node entry). */
export interface JsonContentEncoder {
  readonly name: string;
  encode(message: Message, options: { charset: BufferEncoding }): Promise<Uint8Array>;
}

const fragments = new WeakMap<object, string>();

/** Items below this many are encoded as usual (nothing to gain). */
const MIN_CACHED_ITEMS = 16;

function fragment(item: unknown): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null';
  let json = fragments.get(item);
  if (json === undefined) fragments.set(item, (json = JSON.stringify(item) ?? 'null'));
  return json;
}

/** `JSON.stringify(value)` of an object whose last key is `key`, an array, with the array's items cached. */
function withCachedArray(value: Record<string, unknown>, key: string, items: readonly unknown[]): string | undefined {
  const parts: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) parts[i] = fragment(items[i]);
  return withRaw(value, key, `[${parts.join(',')}]`);
}

/** The JSON text of an outgoing message. */
export function serializeMessage(message: Message): string {
  const m = message as unknown as Record<string, unknown>;
  // textDocument/publishDiagnostics: { jsonrpc, method, params: { uri, version?, diagnostics } }
  const params = m['params'] as Record<string, unknown> | undefined;
  if (m['method'] === 'textDocument/publishDiagnostics' && isObject(params) && Array.isArray(params['diagnostics']) && params['diagnostics'].length >= MIN_CACHED_ITEMS) {
    const inner = withCachedArray(params, 'diagnostics', params['diagnostics']);
    const outer = inner !== undefined ? withRaw(m, 'params', inner) : undefined;
    if (outer !== undefined) return outer;
  }
  // The answer to textDocument/diagnostic: { jsonrpc, id, result: { kind: 'full', resultId?, items } }
  const result = m['result'] as Record<string, unknown> | undefined;
  if (isObject(result) && result['kind'] === 'full' && Array.isArray(result['items']) && result['items'].length >= MIN_CACHED_ITEMS) {
    const inner = withCachedArray(result, 'items', result['items']);
    const outer = inner !== undefined ? withRaw(m, 'result', inner) : undefined;
    if (outer !== undefined) return outer;
  }
  return JSON.stringify(message);
}

/** `JSON.stringify(value)` where the last key `key` is already serialized as `json`. */
function withRaw(value: Record<string, unknown>, key: string, json: string): string | undefined {
  const keys = Object.keys(value);
  if (keys[keys.length - 1] !== key) return undefined;
  const rest: Record<string, unknown> = {};
  for (const k of keys) if (k !== key) rest[k] = value[k];
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(key)}:${json}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The encoder to give `StreamMessageWriter` (`contentTypeEncoder`). */
export const cachingJsonEncoder: JsonContentEncoder = {
  name: 'application/json',
  encode(message, options) {
    try {
      return Promise.resolve(Buffer.from(serializeMessage(message), options.charset));
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
