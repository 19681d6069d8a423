/**
 * Defining a term by editing and saving a glossary file, in any editor: the saved sense of a term
 * flagged in an open spec is recorded as Spec Kitty records one (GlossarySenseUpdated, and a
 * GlossaryClarificationResolved for an open clarification), exactly once per change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { makeWorkspace, MISSION, SPEC, SPEC_MD, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';

let ws: TempWorkspace | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop();
  ws?.remove();
  ws = undefined;
});

const logFile = () => ws!.file(`.kittify/events/glossary/${MISSION}.events.jsonl`);
const events = () => (existsSync(logFile()) ? readFileSync(logFile(), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>) : []);
const QZX_ENTRY = '\n  - surface: qzx\n    definition: Quality zone exchange rules\n    confidence: 0.8\n    status: active\n';

async function start(options: Partial<Parameters<typeof TestClient.start>[0]> = {}): Promise<TestClient> {
  const client = await TestClient.start({ folders: [ws!.root], ...options });
  clients.push(client);
  client.open(ws!.uri(SPEC), SPEC_MD);
  await client.diagnostics(ws!.uri(SPEC), (ds) => ds.some((d) => d.code === 'unknown'));
  return client;
}

const withoutQzx = (ds: Diagnostic[]) => ds.length > 0 && !ds.some((d) => d.code === 'unknown');

describe('saving a glossary file records the senses it adds for flagged terms', () => {
  it('an open YAML buffer: the edit resolves the term at once, the save records it (and answers the open clarification), a re-save records nothing', async () => {
    ws = makeWorkspace();
    const client = await start();
    // Deferred first: the save must close that clarification.
    const qzx = (await client.diagnostics(ws.uri(SPEC))).diagnostics.find((d) => d.code === 'unknown')!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: qzx.range, context: { diagnostics: [qzx] } });
    await client.request('workspace/executeCommand', actions.find((a) => a.title === "Defer 'QZX' for later clarification")!.command);
    const [requested] = events();

    client.open(ws.uri(TEAM), TEAM_YAML, 'yaml');
    const edited = client.mark();
    client.change(ws.uri(TEAM), [{ text: TEAM_YAML + QZX_ENTRY }]);
    await client.diagnostics(ws.uri(SPEC), withoutQzx, edited, 'QZX resolved by the unsaved buffer');
    expect(events()).toHaveLength(1); // not saved: nothing recorded

    const saved = client.mark();
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY);
    client.save(ws.uri(TEAM));
    await client.until(() => events().length >= 3, 'the recorded sense and resolution');
    const [, updated, resolved] = events();
    expect(updated).toMatchObject({
      event_type: 'GlossarySenseUpdated',
      mission_id: MISSION,
      term_surface: 'qzx',
      scope: 'team_domain',
      update_type: 'create',
      new_sense: { surface: 'qzx', scope: 'team_domain', definition: 'Quality zone exchange rules', confidence: 0.8, status: 'active' },
      actor: { actor_type: 'human' },
      provenance: { source: 'glossary_file' },
    });
    expect(resolved).toMatchObject({ event_type: 'GlossaryClarificationResolved', conflict_id: requested!['conflict_id'], term_surface: 'qzx', selected_sense: { surface: 'qzx', scope: 'team_domain', definition: 'Quality zone exchange rules', confidence: 0.8 } });
    await client.diagnostics(ws.uri(SPEC), withoutQzx, saved, 'QZX still resolved after the save');

    // Saved again (and seen again on disk): nothing more.
    client.save(ws.uri(TEAM));
    client.fileChanged(ws.uri(TEAM));
    // (The reload command answers once what was seen is recorded.)
    await client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
    expect(events()).toHaveLength(3);
  });

  it('a placeholder (the Define draft) records nothing; writing its definition does', async () => {
    ws = makeWorkspace();
    const client = await start();
    const qzx = (await client.diagnostics(ws.uri(SPEC))).diagnostics.find((d) => d.code === 'unknown')!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: qzx.range, context: { diagnostics: [qzx] } });
    await client.request('workspace/executeCommand', actions.find((a) => a.title === "Define 'QZX' in the team glossary")!.command);
    client.fileChanged(ws.uri(TEAM));
    await client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
    expect(readFileSync(ws.file(TEAM), 'utf8')).toContain('definition: "TODO: define QZX"');
    expect(events()).toEqual([]);

    writeFileSync(ws.file(TEAM), readFileSync(ws.file(TEAM), 'utf8').replace('"TODO: define QZX"', 'Quality zone exchange rules'));
    client.fileChanged(ws.uri(TEAM));
    await client.until(() => events().length > 0, 'the recorded sense');
    expect(events()).toMatchObject([{ event_type: 'GlossarySenseUpdated', term_surface: 'qzx', new_sense: { definition: 'Quality zone exchange rules', status: 'draft' } }]);
  });

  it('two editors on one workspace: the change is recorded once', async () => {
    ws = makeWorkspace();
    const first = await start();
    const second = await start();
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY);
    first.fileChanged(ws.uri(TEAM));
    second.fileChanged(ws.uri(TEAM));
    await first.until(() => events().length > 0, 'the recorded sense');
    await Promise.all([first, second].map((c) => c.request('workspace/executeCommand', { command: 'specGlossary.reload' })));
    expect(events().map((e) => e['event_type'])).toEqual(['GlossarySenseUpdated']);
  });

  it('a term that was not flagged, or a spec not open, records nothing', async () => {
    ws = makeWorkspace();
    const client = await start();
    writeFileSync(ws.file(TEAM), TEAM_YAML + '\n  - surface: frobnicator\n    definition: A device that frobs widgets\n');
    client.fileChanged(ws.uri(TEAM));
    await client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
    expect(events()).toEqual([]);
  });

  it('changing a recorded definition records the new sense and deprecates the old one, so the term is not left ambiguous', async () => {
    ws = makeWorkspace();
    const client = await start();
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY);
    client.fileChanged(ws.uri(TEAM));
    await client.until(() => events().length === 1, 'the recorded sense');
    const since = client.mark();
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY.replace('Quality zone exchange rules', 'Quality zone exchange policy'));
    client.fileChanged(ws.uri(TEAM));
    await client.until(() => events().length === 2, 'the deprecation');
    expect(events()[1]).toMatchObject({ event_type: 'GlossarySenseUpdated', update_type: 'update', new_sense: { definition: 'Quality zone exchange rules', status: 'deprecated' } });
    await client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
    const now = await client.diagnostics(ws.uri(SPEC), () => true, since);
    expect(client.published.filter((p) => p.uri === ws!.uri(SPEC)).at(-1)!.diagnostics.map((d) => d.code)).toEqual(['ambiguous', 'inconsistent', 'ambiguous']);
    void now;
  });

  it('an entry edited or removed while no server ran (a git pull, a script): its recorded sense goes with it, never a second sense', async () => {
    ws = makeWorkspace();
    const first = await start();
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY);
    first.fileChanged(ws.uri(TEAM));
    await first.until(() => events().length === 1, 'the recorded sense');
    expect(events()[0]).toMatchObject({ update_type: 'create', provenance: { source: 'glossary_file' }, new_sense: { definition: 'Quality zone exchange rules' } });
    await first.stop();
    clients.splice(clients.indexOf(first), 1);

    const atQzx = (ds: Diagnostic[]) => ds.filter((d) => d.range.start.line === 7 && d.range.start.character === 4).map((d) => d.code);
    // Edited: the file's new definition is the term's only sense (it was ambiguous with the logged one).
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY.replace('Quality zone exchange rules', 'Quality zone exchange policy'));
    const edited = await TestClient.start({ folders: [ws.root] });
    clients.push(edited);
    edited.open(ws.uri(SPEC), SPEC_MD);
    expect(atQzx((await edited.diagnostics(ws.uri(SPEC), (ds) => ds.length > 0)).diagnostics)).toEqual([]);
    const hover = await edited.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: ws.uri(SPEC) }, position: { line: 7, character: 5 } });
    expect(hover.contents.value).toContain('Quality zone exchange policy');
    expect(hover.contents.value).not.toContain('Quality zone exchange rules');
    await edited.stop();
    clients.splice(clients.indexOf(edited), 1);

    // Removed: the term is unknown again (the logged sense kept it defined).
    writeFileSync(ws.file(TEAM), TEAM_YAML);
    const removed = await TestClient.start({ folders: [ws.root] });
    clients.push(removed);
    removed.open(ws.uri(SPEC), SPEC_MD);
    const { diagnostics } = await removed.diagnostics(ws.uri(SPEC), (ds) => ds.length > 0);
    expect(atQzx(diagnostics)).toEqual(['unknown']);
    expect(events()).toHaveLength(1); // (the first load takes the files as they are: nothing recorded)
    // Every view agrees: no glossary term 'qzx' to find.
    const symbols = await removed.request<{ name: string }[]>('workspace/symbol', { query: 'qzx' });
    expect(symbols.map((s) => s.name)).not.toContain('qzx');
    // Defined again with the same definition (a quick fix's input box): recorded as a sense of its own.
    const qzx = diagnostics.find((d) => d.code === 'unknown')!;
    const actions = await removed.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: qzx.range, context: { diagnostics: [qzx] } });
    const define = actions.find((a) => a.title === "Define 'QZX' in the team glossary")!.command!;
    const since = removed.mark();
    await removed.request('workspace/executeCommand', { command: define.command, arguments: [{ ...(define.arguments![0] as object), definition: 'Quality zone exchange rules' }] });
    expect(events().map((e) => [e['event_type'], e['provenance']?.source])).toEqual([
      ['GlossarySenseUpdated', 'glossary_file'],
      ['GlossarySenseUpdated', 'user_clarification'],
      ['GlossaryClarificationResolved', 'user_clarification'],
    ]);
    expect(atQzx((await removed.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'unknown'), since)).diagnostics)).toEqual([]);
  });

  it("a custom sense the log holds (a quick fix's definition) is still a sense of its own beside the file's entries", async () => {
    ws = makeWorkspace();
    const line = JSON.stringify({ event_id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', event_type: 'GlossarySenseUpdated', lamport_clock: 1, mission_id: MISSION, run_id: 'cli-1', timestamp: '2026-12-07T06:00:00+00:00', term_surface: 'qzx', scope: 'team_domain', update_type: 'create', actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-12-07T06:00:00+00:00' }, new_sense: { surface: 'qzx', scope: 'team_domain', definition: 'Quality zone exchange rules', confidence: 1, status: 'active' } });
    mkdirSync(ws.file('.kittify/events/glossary'), { recursive: true });
    writeFileSync(ws.file(`.kittify/events/glossary/${MISSION}.events.jsonl`), `${line}\n`);
    writeFileSync(ws.file(TEAM), TEAM_YAML + QZX_ENTRY.replace('Quality zone exchange rules', 'Quality zone exchange policy'));
    const client = await TestClient.start({ folders: [ws.root] });
    clients.push(client);
    client.open(ws.uri(SPEC), SPEC_MD);
    const { diagnostics: ds } = await client.diagnostics(ws.uri(SPEC), (all) => all.length > 0);
    expect(ds.filter((d) => d.range.start.line === 7 && d.range.start.character === 4).map((d) => d.code)).toEqual(['ambiguous']);
  });
});
