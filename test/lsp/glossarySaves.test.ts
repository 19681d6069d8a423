/**
 * Defining a term by editing and saving a glossary file, in any editor: the saved sense of a term
 * flagged in an open spec is recorded as Spec Kitty records one (GlossarySenseUpdated, and a
 * GlossaryClarificationResolved for an open clarification), exactly once per change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
      provenance: { source: 'user_clarification' },
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
});
