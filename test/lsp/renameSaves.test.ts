/**
 * A rename is recorded when it is saved, not when it is answered (through the protocol, in
 * process, on a temporary workspace): the editor may discard the edit, apply it to buffers it
 * never saves, or save it — and only the last changes the files, so only the last is recorded,
 * once, as the rename (the new surface created, the old one's logged senses deprecated). A
 * rename also changes the scope's `see_also` references to the term.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { makeWorkspace, MISSION_GLOSSARY, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { applyToDisk, at, TestClient } from './client';

const OTHER = 'kitty-specs/042-other/spec.md';
const OTHER_MD = `# Other spec

Worktrees are cheap; a worktree per work package.
`;
const EVENTS = '.kittify/events/glossary';
const WORKTREE_DEFINITION = 'Extra Git working directory checked out on its own branch';

let ws: TempWorkspace;
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop();
  ws?.remove();
});

/** A server on a new workspace (made of `files`), or (`files` null) a second one on the same workspace. */
async function start(files: Record<string, string | null> | null = {}): Promise<TestClient> {
  if (files !== null) ws = makeWorkspace({ [OTHER]: OTHER_MD, ...files });
  const client = await TestClient.start({ folders: [ws.root] });
  clients.push(client);
  return client;
}

const rename = (client: TestClient, uri: string, line: number, character: number, newName: string) => client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: at(line, character), newName });
const reload = (client: TestClient) => client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
/** Every line of every log of the workspace, by mission. */
function allEvents(): Record<string, Record<string, unknown>[]> {
  const dir = ws.file(EVENTS);
  if (!existsSync(dir)) return {};
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const name of readdirSync(dir)) {
    out[name.replace(/\.events\.jsonl$/, '')] = readFileSync(`${dir}/${name}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  return out;
}

/** The edits of a WorkspaceEdit for one file. */
function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  for (const change of edit.documentChanges ?? []) if ('textDocument' in change && change.textDocument.uri === uri) return change.edits.filter((e): e is TextEdit => 'range' in e);
  return edit.changes?.[uri] ?? [];
}

/** Applies a WorkspaceEdit to the client's open buffers (opening each file), as Neovim, Helix or eglot do: nothing is saved. */
function applyToBuffers(client: TestClient, edit: WorkspaceEdit): string[] {
  const uris = [...(edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c ? [c.textDocument.uri] : [])), ...Object.keys(edit.changes ?? {})];
  for (const uri of uris) {
    const file = new URL(uri).pathname;
    client.open(uri, readFileSync(decodeURIComponent(file), 'utf8'), uri.endsWith('.yaml') ? 'yaml' : 'markdown');
    // Last edit first: each keeps the positions of the ones before it valid.
    const edits = [...editsFor(edit, uri)].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
    client.change(uri, edits.map((e) => ({ range: e.range, text: e.newText })));
  }
  return uris;
}

/** The editor saves a buffer: its text is written, then `didSave`. */
function saveBuffer(client: TestClient, uri: string): void {
  writeFileSync(decodeURIComponent(new URL(uri).pathname), client.text(uri));
  client.save(uri);
}

// (A renamed entry is recorded as the file's (glossary_file), unless the log holds it as a sense of
// its own; the deprecation of a sense the log held keeps that sense's own source,
// user_clarification for LOGGED_WORKTREE.)
const senseUpdated = (mission: string, surface: string, status: string, updateType: 'create' | 'update', source = updateType === 'create' ? 'glossary_file' : 'user_clarification') => ({
  event_type: 'GlossarySenseUpdated',
  mission_id: mission,
  term_surface: surface,
  scope: 'team_domain',
  update_type: updateType,
  new_sense: { surface, scope: 'team_domain', definition: WORKTREE_DEFINITION, confidence: 0.95, status },
  actor: { actor_type: 'human' },
  provenance: { source },
});

/** A line of a log that recorded the worktree sense earlier (as a glossary-file save does). */
const LOGGED_WORKTREE = JSON.stringify({
  actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' },
  event_id: '1a08394b-c5d6-41e2-b304-75869a0b1c24',
  event_type: 'GlossarySenseUpdated',
  lamport_clock: 1,
  mission_id: '042-other',
  new_sense: { confidence: 0.95, definition: WORKTREE_DEFINITION, scope: 'team_domain', status: 'active', surface: 'worktree' },
  provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-11-20T12:07:00.000Z' },
  run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f',
  scope: 'team_domain',
  term_surface: 'worktree',
  timestamp: '2026-11-20T12:07:00.000Z',
  update_type: 'create',
});

describe('a rename is recorded once saved', () => {
  it('discarded, or applied to buffers that are closed unsaved: nothing is recorded', async () => {
    const client = await start();
    client.open(ws.uri(OTHER), OTHER_MD);
    const edit = await rename(client, ws.uri(OTHER), 2, 3, 'checkout');
    expect(editsFor(edit, ws.uri(TEAM))).toHaveLength(1);
    // Discarded (the user cancelled the preview, or the editor failed to apply it).
    await reload(client);
    expect(allEvents()).toEqual({});
    // Applied to buffers, never saved, closed: the files never changed.
    const uris = applyToBuffers(client, edit);
    expect(client.text(ws.uri(TEAM))).toBe(TEAM_YAML.replace('surface: worktree', 'surface: checkout'));
    await reload(client);
    for (const uri of uris) client.close(uri);
    await reload(client);
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(TEAM_YAML);
    expect(allEvents()).toEqual({});
  });

  it('applied to buffers and saved: recorded once, as the rename (new surface created, the logged old one deprecated)', async () => {
    const client = await start({ [`${EVENTS}/042-other.events.jsonl`]: LOGGED_WORKTREE + '\n' });
    client.open(ws.uri(OTHER), OTHER_MD);
    const edit = await rename(client, ws.uri(OTHER), 2, 3, 'checkout');
    applyToBuffers(client, edit);
    await reload(client);
    expect(allEvents()['042-other']).toHaveLength(1);
    // The spec is saved first: the glossary did not change yet.
    saveBuffer(client, ws.uri(OTHER));
    await reload(client);
    expect(allEvents()['042-other']).toHaveLength(1);
    saveBuffer(client, ws.uri(TEAM));
    await reload(client);
    const recorded = allEvents();
    expect(Object.keys(recorded)).toEqual(['042-other']);
    // (The log held the worktree sense as one of its own, user_clarification: renamed, it stays one.)
    expect(recorded['042-other']).toMatchObject([{ event_id: '1a08394b-c5d6-41e2-b304-75869a0b1c24' }, senseUpdated('042-other', 'checkout', 'active', 'create', 'user_clarification'), senseUpdated('042-other', 'worktree', 'deprecated', 'update')]);
    expect(client.logs.some((l) => l.message.includes("(the rename 'worktree' → 'checkout')"))).toBe(true);
    // Saved again, seen again on disk: nothing more.
    saveBuffer(client, ws.uri(TEAM));
    client.fileChanged(ws.uri(TEAM));
    await reload(client);
    expect(allEvents()['042-other']).toHaveLength(3);
  });

  it('two editors answer the same rename and both see it saved: it is recorded once (planned under the writers\' lock)', async () => {
    const first = await start();
    const second = await start(null);
    const edit = await rename(first, ws.uri(OTHER), 2, 3, 'checkout');
    expect(await rename(second, ws.uri(OTHER), 2, 3, 'checkout')).toEqual(edit);
    applyToDisk(edit);
    first.save(ws.uri(TEAM));
    second.save(ws.uri(TEAM));
    await Promise.all([reload(first), reload(second)]);
    expect(allEvents()).toMatchObject({ '042-other': [senseUpdated('042-other', 'checkout', 'active', 'create')] });
    expect(allEvents()['042-other']).toHaveLength(1);
  });

  it("a term only the log defines: recorded when a spec of the edit is saved with the new name, not when saved unchanged", async () => {
    const frob = JSON.parse(LOGGED_WORKTREE) as Record<string, unknown>;
    Object.assign(frob, { term_surface: 'frobnicator', new_sense: { confidence: 1, definition: 'A device that frobs widgets', scope: 'team_domain', status: 'active', surface: 'frobnicator' } });
    const spec = 'Frobnicators are loud; the frobnicator hums.\n';
    const client = await start({ [OTHER]: spec, [`${EVENTS}/042-other.events.jsonl`]: JSON.stringify(frob) + '\n' });
    client.open(ws.uri(OTHER), spec);
    const edit = await rename(client, ws.uri(OTHER), 0, 3, 'widget');
    expect(editsFor(edit, ws.uri(OTHER)).map((e) => e.newText)).toEqual(['Widgets', 'widget']);
    // Saved without the edit: nothing.
    client.save(ws.uri(OTHER));
    await reload(client);
    expect(allEvents()['042-other']).toHaveLength(1);
    client.change(ws.uri(OTHER), [...editsFor(edit, ws.uri(OTHER))].reverse().map((e) => ({ range: e.range, text: e.newText })));
    saveBuffer(client, ws.uri(OTHER));
    await reload(client);
    const definition = 'A device that frobs widgets';
    expect(allEvents()['042-other']).toMatchObject([
      { term_surface: 'frobnicator' },
      { term_surface: 'widget', update_type: 'create', new_sense: { surface: 'widget', scope: 'team_domain', definition, confidence: 1, status: 'active' } },
      { term_surface: 'frobnicator', update_type: 'update', new_sense: { surface: 'frobnicator', scope: 'team_domain', definition, confidence: 1, status: 'deprecated' } },
    ]);
    saveBuffer(client, ws.uri(OTHER));
    await reload(client);
    expect(allEvents()['042-other']).toHaveLength(3);
  });
});

describe("a mission's decision follows the rename", () => {
  const GIT = 'Git worktree directory for a work package';
  const pinLine = (mission: string) =>
    JSON.stringify({
      actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' },
      conflict_id: '7f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
      event_id: '2b19405c-d6e7-42f3-a5b6-c7d8e9f0a1b2',
      event_type: 'GlossaryClarificationResolved',
      lamport_clock: 1,
      mission_id: mission,
      provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-11-20T12:07:00.000Z' },
      resolution_mode: 'interactive',
      run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f',
      selected_sense: { confidence: 0.9, definition: GIT, scope: 'team_domain', surface: 'workspace' },
      term_surface: 'workspace',
      timestamp: '2026-11-20T12:07:00.000Z',
    }) + '\n';
  const USES = '# Other spec\n\nEach workspace holds one work package.\n';

  it('a mission that pinned a renamed sense has it pinned under the new name: the term is not ambiguous there again', async () => {
    const client = await start({ [OTHER]: USES, [`${EVENTS}/042-other.events.jsonl`]: pinLine('042-other') });
    client.open(ws.uri(OTHER), USES);
    expect((await client.diagnostics(ws.uri(OTHER))).diagnostics.filter((d) => d.code === 'ambiguous')).toEqual([]);
    const edit = await rename(client, ws.uri(OTHER), 2, 6, 'sandbox');
    applyToBuffers(client, edit);
    saveBuffer(client, ws.uri(OTHER));
    saveBuffer(client, ws.uri(TEAM));
    await reload(client);
    const resolved = allEvents()['042-other']!.filter((e) => e['event_type'] === 'GlossaryClarificationResolved');
    expect(resolved).toHaveLength(2);
    expect(resolved[1]).toMatchObject({ mission_id: '042-other', term_surface: 'sandbox', selected_sense: { surface: 'sandbox', scope: 'team_domain', definition: GIT, confidence: 0.9 } });
    expect(resolved[1]!['conflict_id']).not.toBe(resolved[0]!['conflict_id']);
    const since = client.mark();
    client.change(ws.uri(OTHER), [{ range: { start: at(0, 0), end: at(0, 0) }, text: '' }]);
    const after = await client.diagnostics(ws.uri(OTHER), () => true, since);
    expect(client.text(ws.uri(OTHER))).toContain('sandbox');
    expect(after.diagnostics.filter((d) => d.code === 'ambiguous')).toEqual([]);
    // Saved again: nothing more.
    saveBuffer(client, ws.uri(TEAM));
    client.fileChanged(ws.uri(TEAM));
    await reload(client);
    expect(allEvents()['042-other']!.filter((e) => e['event_type'] === 'GlossaryClarificationResolved')).toHaveLength(2);
  });
});

describe('see_also', () => {
  it("the scope's see_also references to the term are renamed in the same edit (other keys and other scopes untouched)", async () => {
    const team = `${TEAM_YAML}
  - surface: branch
    definition: A line of development
    status: active
    see_also: [{term: worktree}, {tactic: worktree}]

  - surface: sandbox
    definition: A throwaway place to try things
    status: active
    see_also:
      - term: "Worktree"
      - term: workspace
`;
    const missionLocal = `terms:
  - surface: lane
    definition: A column of the board
    status: active
    see_also: [{term: worktree}]
`;
    const client = await start({ [TEAM]: team, [MISSION_GLOSSARY]: missionLocal });
    const edit = await rename(client, ws.uri(OTHER), 2, 3, 'checkout');
    expect(editsFor(edit, ws.uri(MISSION_GLOSSARY))).toEqual([]);
    applyToDisk(edit);
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(
      team.replace('surface: worktree', 'surface: checkout').replace('[{term: worktree}, {tactic: worktree}]', '[{term: checkout}, {tactic: worktree}]').replace('term: "Worktree"', 'term: "checkout"'),
    );
    client.save(ws.uri(TEAM));
    await reload(client);
    // The see_also changes are no sense changes: the rename alone is recorded.
    expect(allEvents()).toMatchObject({ '042-other': [senseUpdated('042-other', 'checkout', 'active', 'create')] });
    expect(allEvents()['042-other']).toHaveLength(1);
  });
});
