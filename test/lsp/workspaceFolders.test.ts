/**
 * Workspace folders added while the server runs (`workspace/didChangeWorkspaceFolders`): decisions
 * on a document of the added folder are written there. The server says it takes these changes
 * (`changeNotifications`), so it takes them from a client that did not declare
 * `workspace.workspaceFolders` too (it was ignored without a word).
 */
import { appendFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { makeWorkspace, MISSION, SPEC, SPEC_MD, TEAM, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';

const GIT = 'Git worktree directory for a work package';
let first: TempWorkspace | undefined;
let added: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  first?.remove();
  added?.remove();
});

async function decideInAddedFolder(declared: boolean): Promise<{ ok: boolean; message: string }> {
  first = makeWorkspace();
  added = makeWorkspace();
  const workspace = { applyEdit: true, configuration: true, workspaceFolders: declared, didChangeWatchedFiles: { dynamicRegistration: true }, didChangeConfiguration: { dynamicRegistration: true } };
  client = await TestClient.start({ folders: [first.root], capabilities: { workspace } });
  client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: URI.file(added.root).toString(), name: 'added' }], removed: [] } });
  client.open(added.uri(SPEC), SPEC_MD);
  const [ambiguous] = (await client.diagnostics(added.uri(SPEC))).diagnostics.filter((d: Diagnostic) => d.code === 'ambiguous');
  const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: added.uri(SPEC) }, range: ambiguous!.range, context: { diagnostics: [ambiguous] } });
  const use = actions.find((a) => a.title === `Use 'workspace' = ${GIT} (team_domain)`);
  return client.request('workspace/executeCommand', use!.command);
}

describe('a workspace folder added while the server runs', () => {
  it.each([
    ['a client that declared workspace.workspaceFolders', true],
    ['a client that did not declare it', false],
  ])('%s: a decision on its document is written in it', async (_name, declared) => {
    const result = await decideInAddedFolder(declared);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    expect(existsSync(added!.file(`.kittify/events/glossary/${MISSION}.events.jsonl`))).toBe(true);
  });
});

describe('a workspace folder removed while the server runs', () => {
  it('the diagnostics of its glossary files are cleared', async () => {
    first = makeWorkspace();
    added = makeWorkspace();
    client = await TestClient.start({ folders: [first.root, added.root] });
    // (The team glossary of each folder has health findings: terms no spec of it uses.)
    const shown = await client.diagnostics(added.uri(TEAM), (ds) => ds.length > 0, 0, 'the health of the second folder\'s glossary');
    expect(shown.diagnostics.length).toBeGreaterThan(0);
    const since = client.mark();
    client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [{ uri: URI.file(added.root).toString(), name: 'added' }] } });
    await client.diagnostics(added.uri(TEAM), (ds) => ds.length === 0, since, 'the removed folder\'s glossary cleared');
    // A later change of its files (its own watcher still sees them) reports nothing on it again.
    const after = client.mark();
    appendFileSync(added.file(TEAM), '\n');
    client.fileChanged(added.uri(TEAM));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(client.published.slice(after).filter((p) => p.uri === added!.uri(TEAM))).toEqual([]);
  });
});
