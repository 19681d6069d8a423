/**
 * Every open document is re-checked when a seed, an event log or the config changes — on disk
 * (with or without workspace/didChangeWatchedFiles) or in an unsaved editor buffer — and bad
 * files (malformed YAML, torn log lines) are reported without stopping the server.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { CONFIG, makeWorkspace, MISSION, SPEC, SPEC_MD, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { at, TestClient } from './client';
import { isHealthCode } from '../../server/src/core/health';

/** The file's own problems, without the glossary-health findings (test/lsp/glossaryHealth.test.ts). */
const problems = (ds: readonly Diagnostic[]) => ds.filter((d) => !isHealthCode(String(d.code)));

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

const LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;
const ONE_SENSE = TEAM_YAML.replace(/\n  - surface: workspace\n    definition: VS Code[^\n]*\n[^\n]*\n[^\n]*\n/, '\n');
const hasAmbiguity = (ds: Diagnostic[]) => ds.some((d) => d.code === 'ambiguous');
/** What the client shows for `uri` now: its last publication. */
const latest = (uri: string) => client.published.filter((p) => p.uri === uri).at(-1)!;
const RESOLVED_LINE =
  JSON.stringify({
    actor: { actor_id: 'user:bob', actor_type: 'human', display_name: 'bob' },
    conflict_id: '7d4c2b1a-9e8f-4a6b-b3c2-1d0e9f8a7b6c',
    event_id: '09f7283a-b4c5-40d1-a2f3-6475819a0b13',
    event_type: 'GlossaryClarificationResolved',
    lamport_clock: 1,
    mission_id: MISSION,
    provenance: { actor_id: 'user:bob', source: 'user_clarification', timestamp: '2026-02-16T12:20:00.000Z' },
    resolution_mode: 'interactive',
    run_id: 'cli-6f1c2d9e-3b7a-4c55-9a0e-2f4d8b1c7e10',
    selected_sense: { confidence: 0.9, definition: 'Git worktree directory for a work package', scope: 'team_domain', surface: 'workspace' },
    term_surface: 'workspace',
    timestamp: '2026-02-16T12:06:00.000Z',
  }) + '\n';

async function start(options: { watch?: boolean } = {}) {
  ws = makeWorkspace();
  client = await TestClient.start({ folders: [ws.root], ...(options.watch === false ? { capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: false } } } } : {}) });
  client.open(ws.uri(SPEC), SPEC_MD);
  const first = await client.diagnostics(ws.uri(SPEC));
  expect(hasAmbiguity(first.diagnostics)).toBe(true);
}

describe('glossary changes', () => {
  it('re-publishes when a seed file is rewritten on disk by another process (didChangeWatchedFiles)', async () => {
    await start();
    const since = client.mark();
    writeFileSync(ws.file(TEAM), ONE_SENSE);
    client.fileChanged(ws.uri(TEAM));
    const after = await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
    expect(after.diagnostics.map((d) => d.code)).toEqual(['inconsistent', 'unknown']);
  });

  it("gives the replaced glossary's memory back: V8 is asked for collections once the editor is quiet after the reload", async () => {
    // (How much comes back is measured by the benchmark: npm run bench -- --only seed.)
    let collections = 0;
    let threeDone: () => void = () => {};
    const three = new Promise<void>((resolve) => (threeDone = resolve));
    const collectMemory = async () => {
      if (++collections === 3) threeDone();
    };
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], collectMemory });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    expect(collections).toBe(0);
    const since = client.mark();
    writeFileSync(ws.file(TEAM), ONE_SENSE);
    client.fileChanged(ws.uri(TEAM));
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
    await three;
    expect(collections).toBe(3);
  });

  it('sees a rewritten seed file even when the client sends no watched-file notification', async () => {
    await start({ watch: false });
    const since = client.mark();
    writeFileSync(ws.file(TEAM), ONE_SENSE);
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
  });

  it('without watched-file notifications: a .kittify/ moved away and back (git checkout), or made later (spec-kitty init), is followed', async () => {
    await start({ watch: false });
    let since = client.mark();
    renameSync(ws.file('.kittify'), ws.file('.kittify-away'));
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the team glossary');
    since = client.mark();
    renameSync(ws.file('.kittify-away'), ws.file('.kittify'));
    await client.diagnostics(ws.uri(SPEC), hasAmbiguity, since, 'the ambiguity back with the team glossary');
    // Watched again: a later edit of the restored seed is seen.
    since = client.mark();
    writeFileSync(ws.file(TEAM), ONE_SENSE);
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'the restored seed edited');
    // Gone, then made anew with the seed: the new folder is watched too.
    since = client.mark();
    rmSync(ws.file('.kittify'), { recursive: true });
    await client.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'inconsistent'), since, 'diagnostics without any glossary');
    since = client.mark();
    mkdirSync(ws.file('.kittify/glossaries'), { recursive: true });
    writeFileSync(ws.file(TEAM), TEAM_YAML);
    await client.diagnostics(ws.uri(SPEC), hasAmbiguity, since, 'the ambiguity of the new .kittify/');
  });

  it('follows the unsaved buffer of a seed file, and the disk again once it is closed', async () => {
    await start();
    let since = client.mark();
    client.open(ws.uri(TEAM), TEAM_YAML, 'yaml');
    client.change(ws.uri(TEAM), [{ range: { start: at(0, 0), end: at(18, 0) }, text: ONE_SENSE }]);
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
    since = client.mark();
    client.close(ws.uri(TEAM));
    await client.diagnostics(ws.uri(SPEC), hasAmbiguity, since, 'the ambiguity back');
  });

  it('re-publishes when the event log changes on disk or in an editor buffer', async () => {
    await start();
    ws.write(LOG, '');
    let since = client.mark();
    // An unsaved buffer of the (empty) log holding a decision.
    client.open(ws.uri(LOG), RESOLVED_LINE, 'jsonl');
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity (buffer)');
    since = client.mark();
    client.close(ws.uri(LOG));
    await client.diagnostics(ws.uri(SPEC), hasAmbiguity, since, 'the ambiguity back');
    since = client.mark();
    ws.write(LOG, RESOLVED_LINE);
    client.fileChanged(ws.uri(LOG), 1);
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity (disk)');
  });

  // A glossary file saved from its buffer: edited, saved, then changed on disk by another process.
  const saves = [
    { name: 'a seed', file: TEAM, edited: ONE_SENSE, editedRead: (ds: Diagnostic[]) => !hasAmbiguity(ds), other: TEAM_YAML },
    { name: 'the config', file: CONFIG, edited: 'glossary:\n  check: disabled\n', editedRead: (ds: Diagnostic[]) => ds.length === 0, other: '# nothing set\n' },
  ];
  for (const { name, file, edited, editedRead, other } of saves) {
    it(`${name} saved from its buffer is read once: the watchers' report of the save reloads nothing; another change on disk is read`, async () => {
      ws = makeWorkspace();
      client = await TestClient.start({ folders: [ws.root], settings: { logLevel: 'debug' } });
      client.open(ws.uri(SPEC), SPEC_MD);
      await client.diagnostics(ws.uri(SPEC), hasAmbiguity);
      const loads = () => client.logs.filter((l) => l.message.startsWith(`loaded ${ws.root} (version`)).length;
      if (!existsSync(ws.file(file))) ws.write(file, other);
      client.open(ws.uri(file), readFileSync(ws.file(file), 'utf8'), 'yaml');
      let since = client.mark();
      client.change(ws.uri(file), [{ text: edited }]);
      await client.diagnostics(ws.uri(SPEC), editedRead, since, 'the edited buffer read');
      // (The reloads of the opened and of the changed buffer may come as one or two: let them end.)
      await new Promise((resolve) => setTimeout(resolve, 800));

      // Saved: read again once (didSave); the watchers' report of the same bytes (the server's own, the editor's) is not a change.
      const before = loads();
      const saved = client.mark();
      writeFileSync(ws.file(file), edited);
      client.save(ws.uri(file));
      await client.until(() => loads() > before || undefined, 'the folder read on save');
      client.fileChanged(ws.uri(file));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(loads(), "reads of the folder after the save and the watchers' reports of it").toBe(before + 1);
      // The saved bytes are what the buffer said: the spec's diagnostics stand, not published again.
      expect(client.published.slice(saved).filter((p) => p.uri === ws.uri(SPEC)), 'publications of the spec after the save and the reports').toEqual([]);
      expect(editedRead(latest(ws.uri(SPEC)).diagnostics)).toBe(true);

      // Closed, then changed on disk by another process: read.
      client.close(ws.uri(file));
      since = client.mark();
      writeFileSync(ws.file(file), other);
      client.fileChanged(ws.uri(file));
      await client.diagnostics(ws.uri(SPEC), hasAmbiguity, since, 'the ambiguity back from the disk');
    });
  }

  it('re-publishes when .kittify/config.yaml changes', async () => {
    await start();
    const since = client.mark();
    writeFileSync(ws.file(CONFIG), 'glossary:\n  check: disabled\n');
    client.fileChanged(ws.uri(CONFIG));
    await client.diagnostics(ws.uri(SPEC), (ds) => ds.length === 0, since, 'no diagnostics');
  });

  it('reports malformed YAML on the seed file, keeps the last good glossary, and recovers', async () => {
    await start();
    let since = client.mark();
    writeFileSync(ws.file(TEAM), 'terms:\n  - surface: workspace\n    definition: [unclosed\n');
    client.fileChanged(ws.uri(TEAM));
    const yaml = await client.diagnostics(ws.uri(TEAM), (ds) => problems(ds).length > 0, since, 'diagnostics on the YAML');
    expect(problems(yaml.diagnostics)).toHaveLength(1);
    expect(yaml.diagnostics[0]).toMatchObject({ code: 'glossary.parse-error', severity: 1, source: 'spec-glossary' });
    expect(yaml.diagnostics[0]!.message).toMatch(/the last good version \(3 senses\) is still in use$/);
    // The spec is still checked against the last good version: what it shows stands, not published again.
    expect(hasAmbiguity(latest(ws.uri(SPEC)).diagnostics)).toBe(true);
    expect(client.published.slice(since).filter((p) => p.uri === ws.uri(SPEC))).toEqual([]);
    since = client.mark();
    writeFileSync(ws.file(TEAM), ONE_SENSE);
    client.fileChanged(ws.uri(TEAM));
    await client.diagnostics(ws.uri(TEAM), (ds) => problems(ds).length === 0, since, 'the YAML diagnostics cleared');
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
  });

  it('keeps the last good glossary across any number of reloads while the seed stays broken', async () => {
    await start();
    const broken = ['terms:\n  - surface: workspace\n    definition: [unclosed\n', 'terms: [\n', 'terms:\n\t- tab: indented\n'];
    for (const [index, text] of broken.entries()) {
      const since = client.mark();
      writeFileSync(ws.file(TEAM), text);
      client.fileChanged(ws.uri(TEAM));
      const yaml = await client.diagnostics(ws.uri(TEAM), (ds) => ds.some((d) => d.code === 'glossary.parse-error'), since, `the parse error of reload ${index + 1}`);
      expect(yaml.diagnostics[0]!.message).toMatch(/the last good version \(3 senses\) is still in use$/);
      // The spec is checked against the last good version, so still ambiguous: what it is checked
      // against is as it was, and it is not published again.
      const lens = await client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
      expect(lens[0]!.command.title).toMatch(/generation blocked/);
      expect(hasAmbiguity(latest(ws.uri(SPEC)).diagnostics)).toBe(true);
      expect(client.published.slice(since).filter((p) => p.uri === ws.uri(SPEC))).toEqual([]);
    }
    // A seed that cannot be read at all (binary) keeps it too, and says so on the file.
    const since = client.mark();
    writeFileSync(ws.file(TEAM), Buffer.from([0x74, 0x65, 0x72, 0x6d, 0x73, 0, 0, 0]));
    client.fileChanged(ws.uri(TEAM));
    const unreadable = await client.diagnostics(ws.uri(TEAM), (ds) => ds.some((d) => /binary/.test(d.message)), since, 'the binary seed reported');
    expect(unreadable.diagnostics[0]!.message).toMatch(/the last good version \(3 senses\) is still in use$/);
    const lens = await client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
    expect(lens[0]!.command.title).toMatch(/generation blocked/);
    expect(hasAmbiguity(latest(ws.uri(SPEC)).diagnostics)).toBe(true);
  });

  it('reports a bad seed entry at its node while the rest of the file still counts', async () => {
    await start();
    const since = client.mark();
    client.open(ws.uri(TEAM), TEAM_YAML, 'yaml');
    client.change(ws.uri(TEAM), [{ range: { start: at(4, 16), end: at(4, 19) }, text: '"high"' }]);
    const yaml = await client.diagnostics(ws.uri(TEAM), (ds) => problems(ds).length > 0, since, 'diagnostics on the YAML buffer');
    expect(problems(yaml.diagnostics).map((d) => [d.code, d.range])).toEqual([['glossary.invalid-confidence', { start: at(4, 16), end: at(4, 22) }]]);
    // The bad sense is dropped; workspace has one team sense left, so it is no longer ambiguous.
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'diagnostics without the ambiguity');
  });

  it('skips a torn event line with a warning on the log and keeps the lines after it', async () => {
    await start();
    const since = client.mark();
    ws.write(LOG, '{"event_type": "GlossaryClarificationResolved", "mission_id": "' + MISSION + '", "ter\n');
    appendFileSync(ws.file(LOG), RESOLVED_LINE);
    client.fileChanged(ws.uri(LOG), 1);
    const log = await client.diagnostics(ws.uri(LOG), (ds) => ds.length > 0, since, 'diagnostics on the log');
    expect(log.diagnostics.map((d) => [d.code, d.severity, d.range.start.line])).toEqual([['events.invalid-line', 2, 0]]);
    expect(log.diagnostics[0]!.message).toMatch(/line skipped$/);
    await client.diagnostics(ws.uri(SPEC), (ds) => !hasAmbiguity(ds), since, 'the pin after the torn line applied');
    // Still serving requests.
    const lens = await client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
    expect(lens[0]!.command.title).toBe('Glossary: 0 high · 0 medium · 2 low — generation allowed (strictness medium)');
  });
});
