/**
 * A client that spells file URIs its own way (Neovim and eglot send `(`, `)` and `+` as they are,
 * where vscode-uri percent-encodes them): the server still finds the open buffer, reads its unsaved
 * text rather than the disk's, and names it in edits as the client does, at its version.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { CodeAction, Location, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { makeWorkspace, SPEC, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';

let parent: string | undefined;
let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
  if (parent) rmSync(parent, { recursive: true, force: true });
});

it("an open spec under a path with '(', ')' and '+', its URI spelled as Neovim spells it: references and rename follow the unsaved buffer", async () => {
  parent = realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-uri-')));
  const base = path.join(parent, 'My Specs (2025)+c');
  mkdirSync(base);
  ws = makeWorkspace({ [SPEC]: 'The worktree is here.\n' }, base);
  // (Spaces encoded, as every client does; the parentheses and the plus left as they are.)
  const spelled = `file://${ws.file(SPEC).replace(/ /g, '%20')}`;
  expect(spelled).not.toBe(ws.uri(SPEC));
  client = await TestClient.start({ folders: [ws.root] });
  // Two lines typed above the term and not saved: the disk still has it on line 0.
  client.open(spelled, '# Added\n\nThe worktree is here.\n');
  await client.diagnostics(spelled);

  const references = await client.request<Location[]>('textDocument/references', { textDocument: { uri: spelled }, position: { line: 2, character: 6 }, context: { includeDeclaration: false } });
  expect(references.filter((l) => l.uri === ws!.uri(SPEC) || l.uri === spelled).map((l) => l.range)).toEqual([{ start: { line: 2, character: 4 }, end: { line: 2, character: 12 } }]);

  const edit = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: spelled }, position: { line: 2, character: 6 }, newName: 'checkout' });
  const ofSpec = (edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c && c.textDocument.uri === spelled ? [c] : []));
  expect(ofSpec.map((c) => [c.textDocument.version, c.edits.map((e) => [e.range.start.line, e.range.start.character, e.newText])])).toEqual([[1, [[2, 4, 'checkout']]]]);
});

it("so spelled, \"Define … in this spec's Domain Language\" inserts the entry into the section of the unsaved buffer, naming the buffer as the client does", async () => {
  parent = realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-uri-')));
  const base = path.join(parent, 'Specs (draft)+1');
  mkdirSync(base);
  const onDisk = '# Lanes\n\n## Domain Language\n\n- **Lane**: a column of the board\n\n## Flow\n\nThe "blorpt" runs.\n';
  ws = makeWorkspace({ [SPEC]: onDisk }, base);
  const spelled = `file://${ws.file(SPEC).replace(/ /g, '%20')}`;
  client = await TestClient.start({ folders: [ws.root] });
  client.open(spelled, `# Added\n\n${onDisk}`);
  const diagnostics = (await client.diagnostics(spelled, (ds) => ds.some((d) => d.code === 'unknown'))).diagnostics;
  const blorpt = diagnostics.find((d) => d.code === 'unknown')!;
  expect(blorpt.range.start.line).toBe(10);
  const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: spelled }, range: blorpt.range, context: { diagnostics: [blorpt] } });
  const define = actions.find((a) => a.title.startsWith("Define 'blorpt' in this spec"))!;
  const result = await client.request<{ ok: boolean }>('workspace/executeCommand', { command: define.command!.command, arguments: [{ ...(define.command!.arguments![0] as object), definition: 'A background worker' }] });
  expect(result.ok).toBe(true);
  // (Right after the buffer's line 6, its "- **Lane**" entry: on disk that entry is line 4.)
  const applied = client.appliedEdits.at(-1)!.edit.documentChanges![0] as TextDocumentEdit;
  expect([applied.textDocument.uri, applied.textDocument.version, applied.edits.map((e) => [e.range.start.line, e.newText])]).toEqual([spelled, 1, [[6, '\n- **blorpt**: A background worker']]]);
});
