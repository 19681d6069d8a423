import { describe, expect, test } from 'vitest';
import type { Message } from 'vscode-jsonrpc';
import { cachingJsonEncoder, serializeMessage } from '../../server/src/node/messageEncoder';

function diagnostic(line: number, extra: Record<string, unknown> = {}) {
  return {
    range: { start: { line, character: 2 }, end: { line, character: 11 } },
    severity: 2,
    code: 'ambiguous',
    source: 'spec-glossary',
    message: `Ambiguous term 'workspace' "quoted" \\ \u2028 line ${line}`,
    data: { kind: 'finding', term: 'workspace', candidates: [{ surface: 'workspace', definition: 'Git worktree — ünïcode', confidence: 0.7 }] },
    ...extra,
  };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => diagnostic(i, i % 3 === 0 ? { tags: [2], relatedInformation: undefined } : {}));

describe('LSP message encoding with cached diagnostics', () => {
  test('a publish gives exactly the JSON.stringify text, before and after its diagnostics are cached', () => {
    const diagnostics = many(40);
    const message = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///w/spec.md', version: 7, diagnostics } } as unknown as Message;
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
    // Reused objects (the next keystroke) and new ones mixed.
    const next = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///w/spec.md', version: 8, diagnostics: [...diagnostics.slice(0, 20), diagnostic(99), ...diagnostics.slice(21)] } } as unknown as Message;
    expect(serializeMessage(next)).toBe(JSON.stringify(next));
    expect(JSON.parse(serializeMessage(next))).toEqual(JSON.parse(JSON.stringify(next)));
  });

  test('keys with undefined values and a publish without version are left out as JSON.stringify does', () => {
    const message = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///w/a.md', version: undefined, diagnostics: many(20) } } as unknown as Message;
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
    const bare = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { diagnostics: many(20) } } as unknown as Message;
    expect(serializeMessage(bare)).toBe(JSON.stringify(bare));
  });

  test('a pulled full report is encoded the same way; other messages as usual', () => {
    const full = { jsonrpc: '2.0', id: 4, result: { kind: 'full', resultId: '3|1|0', items: many(30) } } as unknown as Message;
    expect(serializeMessage(full)).toBe(JSON.stringify(full));
    const unchanged = { jsonrpc: '2.0', id: 5, result: { kind: 'unchanged', resultId: '3|1|0' } } as unknown as Message;
    expect(serializeMessage(unchanged)).toBe(JSON.stringify(unchanged));
    const hover = { jsonrpc: '2.0', id: 6, result: { contents: { kind: 'markdown', value: '**x**' } } } as unknown as Message;
    expect(serializeMessage(hover)).toBe(JSON.stringify(hover));
    const few = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///w/b.md', diagnostics: many(2) } } as unknown as Message;
    expect(serializeMessage(few)).toBe(JSON.stringify(few));
  });

  test('the encoder gives the UTF-8 bytes of that text', async () => {
    const message = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///w/c.md', diagnostics: many(25) } } as unknown as Message;
    const bytes = await cachingJsonEncoder.encode(message, { charset: 'utf-8' });
    expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify(message));
  });
});
