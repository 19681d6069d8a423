/**
 * Workspace term intelligence through the protocol (in process, on a temporary workspace):
 * references, document highlight, rename and workspace symbols over the background term index,
 * which follows edits in the editor and changes on disk.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as zlib from 'node:zlib';
import { URI } from 'vscode-uri';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentHighlight, Location, Range, ResponseError, SymbolInformation, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { DEFAULT_FILES, makeWorkspace, MISSION, RANGES, SPEC, SPEC_MD, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { applyToDisk, at, TestClient } from './client';

const OTHER = 'kitty-specs/042-other/spec.md';
const OTHER_MD = `# Other spec

Worktrees are cheap; a worktree per work package.
Run \`git worktree add\` to make one.
THE WORKTREE RULE: one work dir at a time.
`;

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

async function start(files: Record<string, string | null> = {}, capabilities?: Parameters<typeof TestClient.start>[0]['capabilities']) {
  ws = makeWorkspace({ [OTHER]: OTHER_MD, ...files });
  client = await TestClient.start({ folders: [ws.root], ...(capabilities ? { capabilities } : {}) });
  client.open(ws.uri(SPEC), SPEC_MD);
  await client.diagnostics(ws.uri(SPEC));
}

const range = (line: number, start: number, end: number): Range => ({ start: at(line, start), end: at(line, end) });
const references = (uri: string, line: number, character: number, includeDeclaration = false) =>
  client.request<Location[]>('textDocument/references', { textDocument: { uri }, position: at(line, character), context: { includeDeclaration } });
const rename = (uri: string, line: number, character: number, newName: string) => client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: at(line, character), newName });
const reload = () => client.request('workspace/executeCommand', { command: 'specGlossary.reload' });
const logFile = (mission: string) => ws.file(`.kittify/events/glossary/${mission}.events.jsonl`);
const events = (mission: string) => (existsSync(logFile(mission)) ? readFileSync(logFile(mission), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);

describe('references and highlight', () => {
  it('references of a term in a spec: every use in every spec, then (includeDeclaration) its glossary entries', async () => {
    await start({ [OTHER]: 'One workspace here.\n' });
    const found = await references(ws.uri(SPEC), RANGES.workspace1.start.line, RANGES.workspace1.start.character + 2, true);
    expect(found).toEqual([
      { uri: ws.uri(SPEC), range: RANGES.workspace1 },
      { uri: ws.uri(SPEC), range: RANGES.workspace2 },
      { uri: ws.uri(OTHER), range: range(0, 4, 13) },
      { uri: ws.uri(TEAM), range: range(2, 13, 22) },
      { uri: ws.uri(TEAM), range: range(7, 13, 22) },
      // The bundled core glossary's entry (this workspace has no spec_kitty_core.yaml): its `surface:` value.
      { uri: expect.stringMatching(/glossaries\/spec_kitty_core\.yaml$/), range: expect.anything() },
    ]);
    const core = found.at(-1)!;
    const coreLine = readFileSync(new URL(core.uri), 'utf8').split('\n')[core.range.start.line]!;
    expect(core.range.start.line).toBe(core.range.end.line);
    expect(coreLine.slice(core.range.start.character, core.range.end.character)).toBe('workspace');
    const withoutDeclaration = await references(ws.uri(SPEC), 5, 40);
    expect(withoutDeclaration).toHaveLength(3);
  });

  it('references of a `surface:` in the glossary file: its uses (synonyms to avoid included), never code', async () => {
    await start();
    const found = await references(ws.uri(TEAM), 12, 15);
    expect(found).toEqual([
      { uri: ws.uri(SPEC), range: RANGES.workDir }, // "work dir", a synonym to avoid of worktree
      { uri: ws.uri(OTHER), range: range(2, 0, 9) },
      { uri: ws.uri(OTHER), range: range(2, 23, 31) },
      { uri: ws.uri(OTHER), range: range(4, 4, 12) },
      { uri: ws.uri(OTHER), range: range(4, 23, 31) },
    ]);
  });

  it('a synonym to avoid that is itself a term is not a use of the term that lists it: it resolves as its own term', async () => {
    await start({
      [TEAM]: `${TEAM_YAML}  - surface: quarkle\n    definition: A made-up part\n    status: active\n    synonyms_to_avoid: [gizmo, doohickey]\n  - surface: gizmo\n    definition: A small device\n    status: active\n`,
      [OTHER]: 'A quarkle, a gizmo and a doohickey.\n',
    });
    expect((await references(ws.uri(OTHER), 0, 4)).map((l) => l.range)).toEqual([range(0, 2, 9), range(0, 25, 34)]);
    expect((await references(ws.uri(OTHER), 0, 14)).map((l) => l.range)).toEqual([range(0, 13, 18)]);
    client.open(ws.uri(OTHER), 'A quarkle, a gizmo and a doohickey.\n');
    const highlights = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri: ws.uri(OTHER) }, position: at(0, 4) });
    expect(highlights.map((h) => h.range)).toEqual([range(0, 2, 9), range(0, 25, 34)]);
  });

  it('document highlight: the term\'s uses in the open spec', async () => {
    await start();
    const highlights = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri: ws.uri(SPEC) }, position: RANGES.workspace2.start });
    expect(highlights).toEqual([
      { range: RANGES.workspace1, kind: 1 },
      { range: RANGES.workspace2, kind: 1 },
    ]);
    expect(await client.request('textDocument/documentHighlight', { textDocument: { uri: ws.uri(SPEC) }, position: at(3, 3) })).toEqual([]);
  });

  it("document highlight right after a keystroke: the edited text, read from the document's own check", async () => {
    await start();
    // A new line at the top moves both uses down; a third use is typed on it.
    client.change(ws.uri(SPEC), [{ range: range(0, 0, 0), text: 'Our workspace.\n' }]);
    const down = (r: Range): Range => ({ start: { ...r.start, line: r.start.line + 1 }, end: { ...r.end, line: r.end.line + 1 } });
    const highlights = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri: ws.uri(SPEC) }, position: at(0, 6) });
    expect(highlights).toEqual([
      { range: range(0, 4, 13), kind: 1 },
      { range: down(RANGES.workspace1), kind: 1 },
      { range: down(RANGES.workspace2), kind: 1 },
    ]);
  });

  it('follows edits in the editor and files changed on disk', async () => {
    await start();
    client.change(ws.uri(SPEC), [{ range: range(7, 0, 0), text: 'A workspace again.\n' }]);
    const afterEdit = await references(ws.uri(SPEC), 7, 3);
    expect(afterEdit.filter((l) => l.uri === ws.uri(SPEC)).map((l) => l.range.start.line)).toEqual([5, 7, 8]);

    ws.write('kitty-specs/043-new/spec.md', 'The workspace is new.\n');
    client.fileChanged(ws.uri('kitty-specs/043-new/spec.md'), 1);
    expect((await references(ws.uri(SPEC), 7, 3)).map((l) => l.uri)).toContain(ws.uri('kitty-specs/043-new/spec.md'));

    writeFileSync(ws.file(OTHER), 'Nothing about it.\n');
    client.fileChanged(ws.uri(OTHER));
    expect((await references(ws.uri(TEAM), 12, 15)).map((l) => l.uri)).toEqual([ws.uri(SPEC)]);
  });

  it('a mission folder deleted on disk (one event, for the folder): its specs leave the index', async () => {
    await start({ [OTHER]: 'One workspace here.\n' });
    expect((await references(ws.uri(SPEC), 5, 40)).map((l) => l.uri)).toContain(ws.uri(OTHER));
    rmSync(ws.file('kitty-specs/042-other'), { recursive: true });
    client.fileChanged(ws.uri('kitty-specs/042-other'), 3);
    expect((await references(ws.uri(SPEC), 5, 40)).map((l) => l.uri)).toEqual([ws.uri(SPEC), ws.uri(SPEC)]);
  });

  it('reports the first build as work-done progress when the client supports it', async () => {
    await start({}, { window: { workDoneProgress: true } });
    await references(ws.uri(SPEC), 5, 40); // answered once the index is built
    const kinds = client.progress.map((p) => p.value.kind);
    expect(kinds[0]).toBe('begin');
    expect(kinds.at(-1)).toBe('end');
    expect(client.progress[0]!.value.title).toBe('Indexing glossary terms');
  });
});

describe('the index after a glossary change', () => {
  const PLAN = 'kitty-specs/042-other/plan.md';
  const senseLine = (mission: string, surface: string) =>
    JSON.stringify({ event_id: '5c0e2a8e-3b1f-4c55-9d8e-2f4a6b7c8d90', event_type: 'GlossarySenseUpdated', lamport_clock: 1, mission_id: mission, run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f', timestamp: '2026-12-07T06:00:00+00:00', term_surface: surface, scope: 'mission_local', update_type: 'create', actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-12-07T06:00:00+00:00' }, new_sense: { surface, scope: 'mission_local', definition: `What mission ${mission} means by ${surface}`, confidence: 1, status: 'active' } }) + '\n';
  const reindexed = () => client.logs.map((l) => /indexed the glossary terms of (\d+) specs again after a glossary change/.exec(l.message)?.[1]).filter((n) => n !== undefined).map(Number);

  it("a term one mission defines for itself: that mission's specs are indexed again, not the workspace's; a team term: every spec", async () => {
    await start({ [OTHER]: 'Each gantry is checked.\n', [PLAN]: 'One gantry and one crane a day.\n' });
    const log = '.kittify/events/glossary/042-other.events.jsonl';
    // The mission of OTHER and PLAN (042-other) defines "gantry" in its log.
    ws.write(log, senseLine('042-other', 'gantry'));
    client.fileChanged(ws.uri(log), 1);
    await client.until(() => reindexed().length === 1, 'the index built again for the mission');
    expect(reindexed()).toEqual([2]);
    // Its uses are found in that mission's specs (indexed again against its new glossary).
    expect((await references(ws.uri(OTHER), 0, 7)).map((l) => [l.uri, l.range])).toEqual([
      [ws.uri(PLAN), range(0, 4, 10)],
      [ws.uri(OTHER), range(0, 5, 11)],
    ]);
    // A term of the team's glossary (every mission's): every spec is indexed again.
    ws.write(TEAM, `${TEAM_YAML}\n  - surface: crane\n    definition: What lifts the gantry's load\n    confidence: 0.9\n    status: active\n`);
    client.fileChanged(ws.uri(TEAM));
    await client.until(() => reindexed().length === 2, 'the index built again for the team');
    expect(reindexed()).toEqual([2, 3]); // SPEC, OTHER and PLAN
    expect((await references(ws.uri(PLAN), 0, 21)).map((l) => [l.uri, l.range])).toEqual([[ws.uri(PLAN), range(0, 19, 24)]]);
  });

  it('a term a glossary change just defined is found at once: references and rename wait for the index built again instead of saying there is no term', async () => {
    await start({ [OTHER]: 'Each gantry is checked.\n' });
    ws.write(TEAM, `${TEAM_YAML}\n  - surface: gantry\n    definition: What carries the crane\n    confidence: 0.9\n    status: active\n`);
    client.fileChanged(ws.uri(TEAM));
    // Asked right after the change is reported. (How long the index takes to be built again
    // decides whether this finds a build under way: on a large workspace it does.)
    expect((await references(ws.uri(OTHER), 0, 7)).map((l) => [l.uri, l.range])).toEqual([[ws.uri(OTHER), range(0, 5, 11)]]);
    const prepared = await client.request<{ placeholder: string }>('textDocument/prepareRename', { textDocument: { uri: ws.uri(OTHER) }, position: at(0, 7) });
    expect(prepared.placeholder).toBe('gantry');
  });

  // About 3 KB: above a 2 KB limit, below the default.
  const OTHER_3KB = `${'Filler prose that is long enough. '.repeat(90)}\nOne workspace here.\n`;
  /** The specs using "workspace" (asked from SPEC's first use). */
  const using = async () => [...new Set((await references(ws.uri(SPEC), RANGES.workspace1.start.line, RANGES.workspace1.start.character + 2)).map((l) => l.uri))];
  const rebuilt = () => client.logs.filter((l) => /again after the file size limit changed/.test(l.message)).length;

  it('a new size limit (maxFileSize) indexes the folder again: a spec the old limit left out is found, and one the new limit leaves out is not', async () => {
    ws = makeWorkspace({ [OTHER]: OTHER_3KB });
    client = await TestClient.start({ folders: [ws.root], settings: { maxFileSize: '2KB' } });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    expect(await using()).toEqual([ws.uri(SPEC)]);
    client.setSettings({});
    await client.until(() => rebuilt() === 1, 'the index built again for the new limit');
    expect(await using()).toEqual([ws.uri(SPEC), ws.uri(OTHER)]);
    client.setSettings({ maxFileSize: '2KB' });
    await client.until(() => rebuilt() === 2, 'the index built again for the old limit');
    expect(await using()).toEqual([ws.uri(SPEC)]);
  });

  it('a new size limit also indexes again a folder whose specs were all made after the first build (indexed one by one, never built whole)', async () => {
    // No spec when the server starts: the first build keeps nothing for the folder.
    ws = makeWorkspace({ [SPEC]: null });
    client = await TestClient.start({ folders: [ws.root], settings: { maxFileSize: '2KB' } });
    await client.until(() => client.logs.some((l) => /indexed the glossary terms of 0 specs/.test(l.message)) || undefined, 'the first build');
    // Two specs made on disk, as another program would (OTHER above the 2 KB limit).
    ws.write(SPEC, SPEC_MD);
    ws.write(OTHER, OTHER_3KB);
    client.fileChanged(ws.uri(SPEC), 1);
    client.fileChanged(ws.uri(OTHER), 1);
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    expect(await using()).toEqual([ws.uri(SPEC)]);
    client.setSettings({});
    await client.until(() => rebuilt() === 1 || undefined, 'the folder indexed again for the new limit');
    expect(await using()).toEqual([ws.uri(SPEC), ws.uri(OTHER)]);
  });

  it('a meta.json that moves specs to another mission: every spec indexed again, and a term that mission defines is found in them', async () => {
    await start({ [OTHER]: 'Each gantry is checked.\n', [PLAN]: 'One gantry and one crane a day.\n' });
    ws.write('kitty-specs/042-other/meta.json', JSON.stringify({ mission_id: '043-more' }));
    client.fileChanged(ws.uri('kitty-specs/042-other/meta.json'), 1);
    await client.until(() => reindexed().length === 1, 'the index built again after the meta.json change');
    expect(reindexed()).toEqual([3]);
    const log = '.kittify/events/glossary/043-more.events.jsonl';
    ws.write(log, senseLine('043-more', 'gantry'));
    client.fileChanged(ws.uri(log), 1);
    await client.until(() => reindexed().length === 2, 'the index built again for the mission');
    expect(reindexed()).toEqual([3, 2]);
    expect((await references(ws.uri(OTHER), 0, 7)).map((l) => l.uri)).toEqual([ws.uri(PLAN), ws.uri(OTHER)]);
  });
});

describe('specs opened and closed', () => {
  /** Re-indexes of edited, opened or closed specs the server logged (at `logLevel: debug`). */
  const reindexed = () => client.logs.filter((l) => /^indexed (a spec|\d+ specs) again: edited, opened or closed/.test(l.message)).length;
  /** The uses of the team glossary's "worktree" in the spec of these URIs. (An answer first indexes what waits: asked after a step, nothing is still waiting.) */
  const usesIn = async (teamUri: string, ...otherUris: string[]) => (await references(teamUri, 12, 15)).filter((l) => otherUris.includes(l.uri)).length;
  const usesOfWorktree = () => usesIn(ws.uri(TEAM), ws.uri(OTHER));
  /** A workspace with OTHER as `text`, its server logging at debug level, once its first build is done. */
  async function startBuilt(text: string): Promise<void> {
    ws = makeWorkspace({ [OTHER]: text });
    client = await TestClient.start({ folders: [ws.root], settings: { logLevel: 'debug' } });
    await client.until(() => client.logs.some((l) => /indexed the glossary terms of 2 specs/.test(l.message)) || undefined, 'the first build');
  }

  // (A Node without zlib.crc32, before 20.15, indexes every opened and closed spec again, as before.)
  it.skipIf(typeof (zlib as { crc32?: unknown }).crc32 !== 'function')('a spec opened as it is on disk, and closed unedited, is not indexed again; one whose buffer differs is, both ways', async () => {
    await startBuilt(OTHER_MD);
    expect(await usesOfWorktree()).toBe(4);

    // As on disk (an editor restoring its session): nothing to index.
    client.open(ws.uri(OTHER), OTHER_MD);
    await client.diagnostics(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(4);
    client.close(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(4);
    expect(reindexed()).toBe(0);

    // A buffer that is not the file (unsaved work restored, a file changed since): its text is indexed, and the file's again once closed.
    client.open(ws.uri(OTHER), `${OTHER_MD}One more worktree.\n`);
    await client.diagnostics(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(5);
    expect(reindexed()).toBe(1);
    client.close(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(4);
    expect(reindexed()).toBe(2);

    // The file changed on disk since it was indexed (no watcher said so): a buffer of the new text is indexed.
    ws.write(OTHER, `${OTHER_MD}A worktree again.\n`);
    client.open(ws.uri(OTHER), `${OTHER_MD}A worktree again.\n`);
    await client.diagnostics(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(5);
    expect(reindexed()).toBe(3);
  });

  it('an open spec saved (the watchers report its file) is not indexed again: its buffer, indexed already, is what counts', async () => {
    await startBuilt(OTHER_MD);
    client.open(ws.uri(OTHER), OTHER_MD);
    await client.diagnostics(ws.uri(OTHER));
    const edited = `${OTHER_MD}One more worktree.\n`;
    client.change(ws.uri(OTHER), [{ text: edited }]);
    expect(await usesOfWorktree()).toBe(5);
    expect(reindexed()).toBe(1);
    // Saved (auto-save): the file is the buffer now; the client's watcher reports it.
    ws.write(OTHER, edited);
    client.save(ws.uri(OTHER));
    client.fileChanged(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(5);
    expect(reindexed()).toBe(1);
    // Another program changes the file while it is open: the buffer still counts; closed, the file does.
    ws.write(OTHER, OTHER_MD);
    client.fileChanged(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(5);
    client.close(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(4);
  });

  it('a file with a byte order mark: a buffer holding the mark as a character is indexed from the buffer (the text read from the file has it dropped)', async () => {
    await startBuilt(`\uFEFF${OTHER_MD}`);
    const worktrees = async () => (await references(ws.uri(TEAM), 12, 15)).filter((l) => l.uri === ws.uri(OTHER)).map((l) => l.range);
    const fromDisk = await worktrees();
    client.open(ws.uri(OTHER), `\uFEFF${OTHER_MD}`);
    await client.diagnostics(ws.uri(OTHER));
    const fromBuffer = await worktrees();
    expect(reindexed()).toBe(1);
    // (The buffer's mark is a character of its first line: no use is on that line.)
    expect(fromBuffer).toEqual(fromDisk);
  });

  it('one file open under two spellings of its URI, the edited one closed unsaved: the other buffer counts again', async () => {
    // (A folder whose name vscode-uri percent-encodes: Neovim and eglot send such characters as they are.)
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-spelled-')));
    const folder = path.join(base, 'My Specs (2025)+c');
    mkdirSync(folder);
    ws = makeWorkspace({ [OTHER]: OTHER_MD }, folder);
    const remove = ws.remove;
    ws.remove = () => {
      remove();
      rmSync(base, { recursive: true, force: true });
    };
    const spelled = `file://${ws.file(OTHER).replace(/ /g, '%20')}`;
    expect(spelled).not.toBe(ws.uri(OTHER));
    client = await TestClient.start({ folders: [ws.root] });
    const eitherSpelling = () => usesIn(ws.uri(TEAM), ws.uri(OTHER), spelled);
    expect(await eitherSpelling()).toBe(4);
    client.open(spelled, OTHER_MD);
    client.open(ws.uri(OTHER), OTHER_MD);
    await client.diagnostics(ws.uri(OTHER));
    client.change(ws.uri(OTHER), [{ text: `${OTHER_MD}One more worktree.\n` }]);
    expect(await eitherSpelling()).toBe(5);
    client.close(ws.uri(OTHER));
    expect(await eitherSpelling()).toBe(4);
  });

  it('specs opened before the first build reaches them (an editor restoring its session) are indexed once, from their buffers', async () => {
    ws = makeWorkspace({ [OTHER]: OTHER_MD });
    client = await TestClient.start({ folders: [ws.root], settings: { logLevel: 'debug' } });
    client.open(ws.uri(SPEC), SPEC_MD);
    client.open(ws.uri(OTHER), `${OTHER_MD}One more worktree.\n`);
    await client.diagnostics(ws.uri(OTHER));
    await client.until(() => client.logs.some((l) => /indexed the glossary terms of 2 specs/.test(l.message)) || undefined, 'the first build');
    expect(await usesOfWorktree()).toBe(5);
    expect(reindexed()).toBe(0);
  });

  // Same length as OTHER_MD, one use of "worktree" fewer.
  const OTHER_REWRITTEN = OTHER_MD.replace('a worktree per', 'a workxree per');

  it('a file rewritten in place since it was indexed, keeping its size, time and inode (a coarse clock, a tool that keeps times), then opened: its text is indexed', async () => {
    ws = makeWorkspace({ [OTHER]: OTHER_MD });
    const file = ws.file(OTHER);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    client = await TestClient.start({ folders: [ws.root] });
    expect(await usesOfWorktree()).toBe(4);
    const before = statSync(file);
    writeFileSync(file, OTHER_REWRITTEN);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const after = statSync(file);
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
    client.open(ws.uri(OTHER), OTHER_REWRITTEN);
    await client.diagnostics(ws.uri(OTHER));
    expect(await usesOfWorktree()).toBe(3);
  });

  const ROOT = path.resolve('/in-memory/workspace');
  const memoryUri = (relative: string) => URI.file(path.join(ROOT, relative)).toString();

  it('a file system that keeps no time or inode (the in-memory one): a same-size rewrite while the spec is open, then closed, is read; another, then opened, is indexed', async () => {
    const fs = new MemoryFileSystem();
    for (const [relative, text] of Object.entries({ ...DEFAULT_FILES, [OTHER]: OTHER_MD })) fs.write(path.join(ROOT, relative), text);
    client = await TestClient.start({ folders: [ROOT], fs });
    expect(await usesIn(memoryUri(TEAM), memoryUri(OTHER))).toBe(4);
    client.open(memoryUri(OTHER), OTHER_MD);
    await client.diagnostics(memoryUri(OTHER));
    fs.write(path.join(ROOT, OTHER), OTHER_REWRITTEN); // (the in-memory workspace watches nothing)
    client.close(memoryUri(OTHER));
    expect(await usesIn(memoryUri(TEAM), memoryUri(OTHER))).toBe(3);
    fs.write(path.join(ROOT, OTHER), OTHER_MD);
    client.open(memoryUri(OTHER), OTHER_MD);
    await client.diagnostics(memoryUri(OTHER));
    expect(await usesIn(memoryUri(TEAM), memoryUri(OTHER))).toBe(4);
  });

  it('closing a spec whose file grew past maxFileSize since it was indexed reads no more of it than before: it leaves the index', async () => {
    const reads: number[] = [];
    class CountingReads extends MemoryFileSystem {
      override readFile(file: string): Uint8Array {
        const bytes = super.readFile(file);
        if (file.endsWith(OTHER)) reads.push(bytes.length);
        return bytes;
      }
    }
    const fs = new CountingReads();
    for (const [relative, text] of Object.entries({ ...DEFAULT_FILES, [OTHER]: OTHER_MD })) fs.write(path.join(ROOT, relative), text);
    client = await TestClient.start({ folders: [ROOT], fs, settings: { maxFileSize: 10_000 } });
    expect(await usesIn(memoryUri(TEAM), memoryUri(OTHER))).toBe(4);
    client.open(memoryUri(OTHER), OTHER_MD);
    await client.diagnostics(memoryUri(OTHER));
    fs.write(path.join(ROOT, OTHER), 'x'.repeat(1_000_000));
    reads.length = 0;
    client.close(memoryUri(OTHER));
    expect(await usesIn(memoryUri(TEAM), memoryUri(OTHER))).toBe(0);
    expect(reads.filter((n) => n > 10_000)).toEqual([]);
  });
});

describe('multi-root', () => {
  it('each folder has its own index: references stay in the folder, symbols come from every folder', async () => {
    ws = makeWorkspace({ [OTHER]: OTHER_MD });
    const second = makeWorkspace({ [TEAM]: TEAM_YAML.replace('surface: worktree', 'surface: sandbox').replace('[work dir]', '[scratch dir]'), [SPEC]: 'A worktree and a sandbox.\n' });
    try {
      client = await TestClient.start({ folders: [ws.root, second.root] });
      const found = await references(ws.uri(TEAM), 12, 15);
      expect(new Set(found.map((l) => l.uri))).toEqual(new Set([ws.uri(SPEC), ws.uri(OTHER)]));
      expect(await references(second.uri(SPEC), 0, 18)).toEqual([{ uri: second.uri(SPEC), range: range(0, 17, 24) }]);
      const symbols = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'sandbox' });
      expect(symbols.map((s) => [s.name, s.location.uri])).toEqual([['sandbox', second.uri(TEAM)]]);
    } finally {
      second.remove();
    }
  });
});

describe('a spec opened with no workspace folder (an editor started on the file alone)', () => {
  it("its Spec Kitty workspace (the folder holding .kittify/) is indexed as a folder's: references and rename reach its other specs", async () => {
    ws = makeWorkspace({ [OTHER]: 'One workspace here.\n' });
    client = await TestClient.start({ folders: [] });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    const { line, character } = RANGES.workspace1.start;
    const found = await references(ws.uri(SPEC), line, character + 2);
    expect(new Set(found.map((l) => l.uri))).toEqual(new Set([ws.uri(SPEC), ws.uri(OTHER)]));
    const edit = await rename(ws.uri(SPEC), line, character + 2, 'zone');
    expect(new Set(edit.documentChanges!.map((c) => ('textDocument' in c ? c.textDocument.uri : '')))).toEqual(new Set([ws.uri(TEAM), ws.uri(SPEC), ws.uri(OTHER)]));
  });

  it('beside a folder the client named, a spec of another Spec Kitty workspace does not make that workspace a folder', async () => {
    ws = makeWorkspace({ [OTHER]: 'One workspace here.\n' });
    const named = makeWorkspace({});
    try {
      client = await TestClient.start({ folders: [named.root] });
      client.open(ws.uri(SPEC), SPEC_MD);
      await client.diagnostics(ws.uri(SPEC));
      const { line, character } = RANGES.workspace1.start;
      const found = await references(ws.uri(SPEC), line, character + 2);
      expect(found.map((l) => l.uri)).not.toContain(ws.uri(OTHER));
    } finally {
      named.remove();
    }
  });

  it('a markdown file in no workspace at all: rename says why it cannot, in the words of the file', async () => {
    ws = makeWorkspace({ '.kittify/config.yaml': null, [TEAM]: null });
    const loose = path.join(ws.root, 'notes', 'draft.md');
    mkdirSync(path.dirname(loose), { recursive: true });
    writeFileSync(loose, 'A workspace here.\n');
    rmSync(ws.file('.kittify'), { recursive: true, force: true });
    client = await TestClient.start({ folders: [] });
    const uri = URI.file(loose).toString();
    client.open(uri, 'A workspace here.\n');
    await client.diagnostics(uri);
    await expect(rename(uri, 0, 4, 'zone')).rejects.toThrow("draft.md is in no workspace folder and no Spec Kitty workspace (a folder holding .kittify/): open its project folder to rename a term across its specs.");
  });
});

describe('workspace symbols', () => {
  it('lists glossary terms with scope, status and sense count, best matches first', async () => {
    await start();
    const symbols = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'worksp' });
    expect(symbols[0]).toMatchObject({ name: 'workspace', containerName: 'team_domain · active · 2 senses', location: { uri: ws.uri(TEAM), range: range(2, 13, 22) } });
    expect(symbols.map((s) => s.name)).toContain('workspace');
    const scattered = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'wktr' });
    expect(scattered.map((s) => s.name)).toContain('worktree');
    expect(scattered.map((s) => s.name)).not.toContain('workspace');
  });
});

describe('rename', () => {
  it("a sense another mission added for itself (mission_local, in its log) is that mission's: the team's entry is renamed, that log untouched", async () => {
    const Z = '099-elsewhere';
    const zLine = JSON.stringify({ event_id: '1a08394b-c5d6-41e2-b304-75869a0b1c24', event_type: 'GlossarySenseUpdated', lamport_clock: 1, mission_id: Z, run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f', timestamp: '2026-11-20T12:07:00+00:00', term_surface: 'worktree', scope: 'mission_local', update_type: 'create', actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-11-20T12:07:00+00:00' }, new_sense: { surface: 'worktree', scope: 'mission_local', definition: 'What mission 099 means by worktree', confidence: 1, status: 'active' } });
    await start({ [`.kittify/events/glossary/${Z}.events.jsonl`]: zLine + '\n' });
    const edit = await rename(ws.uri(OTHER), 2, 3, 'checkout');
    applyToDisk(edit);
    client.save(ws.uri(TEAM));
    await reload();
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(TEAM_YAML.replace('surface: worktree', 'surface: checkout'));
    expect(readFileSync(ws.file(OTHER), 'utf8')).toContain('Checkouts are cheap; a checkout per work package.');
    expect(events(Z)).toHaveLength(1);
    expect(events('042-other')).toMatchObject([{ term_surface: 'checkout', scope: 'team_domain', update_type: 'create' }]);
  });

  it('renames the entry and every use, keeping case and number, and records it once saved', async () => {
    await start();
    const prepared = await client.request<{ range: Range; placeholder: string }>('textDocument/prepareRename', { textDocument: { uri: ws.uri(OTHER) }, position: at(2, 3) });
    expect(prepared).toEqual({ range: range(2, 0, 9), placeholder: 'Worktrees' });
    const edit = await rename(ws.uri(OTHER), 2, 3, 'checkout');
    // Answered, not applied yet: nothing is recorded.
    expect(events('042-other')).toEqual([]);
    applyToDisk(edit);
    client.save(ws.uri(TEAM));
    await reload();
    expect(readFileSync(ws.file(OTHER), 'utf8')).toBe(`# Other spec

Checkouts are cheap; a checkout per work package.
Run \`git worktree add\` to make one.
THE CHECKOUT RULE: one work dir at a time.
`);
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(TEAM_YAML.replace('surface: worktree', 'surface: checkout'));
    const recorded = events('042-other');
    expect(recorded).toMatchObject([
      {
        event_type: 'GlossarySenseUpdated',
        mission_id: '042-other',
        term_surface: 'checkout',
        scope: 'team_domain',
        update_type: 'create',
        new_sense: { surface: 'checkout', scope: 'team_domain', definition: 'Extra Git working directory checked out on its own branch', confidence: 0.95, status: 'active' },
      },
    ]);
    client.open(ws.uri(OTHER), readFileSync(ws.file(OTHER), 'utf8'));
    await client.until(() => client.logs.some((l) => l.message.includes('specs again after a glossary change')), 'the index built again for the new term');
    // The editor saves the renamed glossary file again: nothing more is recorded.
    client.save(ws.uri(TEAM));
    client.fileChanged(ws.uri(TEAM));
    await reload();
    expect(events('042-other')).toHaveLength(1);
    expect(events(MISSION)).toEqual([]);
    // The index follows: the new term is found
    // where the old one was (and in the heading "Checkout spec", prose that now uses it).
    expect((await references(ws.uri(TEAM), 12, 15)).map((l) => [l.uri === ws.uri(SPEC) ? 'spec' : 'other', l.range])).toEqual([
      ['spec', range(3, 2, 10)],
      ['spec', RANGES.workDir],
      ['other', range(2, 0, 9)],
      ['other', range(2, 23, 31)],
      ['other', range(4, 4, 12)],
      ['other', range(4, 23, 31)],
    ]);
  });

  it('a closed spec another program changed or removed, unseen (no watched-file notifications): the rename is built from the files as they are now', async () => {
    const THIRD = 'kitty-specs/043-third/spec.md';
    await start({ [THIRD]: 'A worktree here.\n' }, { workspace: { didChangeWatchedFiles: { dynamicRegistration: false } } });
    expect((await references(ws.uri(TEAM), 12, 15)).some((l) => l.uri === ws.uri(THIRD))).toBe(true);
    writeFileSync(ws.file(OTHER), `INSERTED LINE ONE.\nINSERTED LINE TWO.\n${OTHER_MD}`);
    rmSync(ws.file(THIRD));
    const FOURTH = 'kitty-specs/044-new/spec.md';
    ws.write(FOURTH, 'A new worktree.\n');
    const edit = await rename(ws.uri(TEAM), 12, 15, 'checkout');
    const uris = (edit.documentChanges ?? []).map((change) => ('textDocument' in change ? change.textDocument.uri : ''));
    expect(uris).not.toContain(ws.uri(THIRD));
    applyToDisk(edit);
    expect(existsSync(ws.file(THIRD))).toBe(false);
    expect(readFileSync(ws.file(FOURTH), 'utf8')).toBe('A new checkout.\n');
    expect(readFileSync(ws.file(OTHER), 'utf8')).toBe(`INSERTED LINE ONE.\nINSERTED LINE TWO.\n${OTHER_MD.replace(/Worktrees/, 'Checkouts').replace(/a worktree per/, 'a checkout per').replace('THE WORKTREE RULE', 'THE CHECKOUT RULE')}`);
  });

  it('refuses, with a clear message, a merge, a synonym, code, a plural it cannot write and the read-only core', async () => {
    await start();
    client.change(ws.uri(SPEC), [{ range: range(8, 0, 0), text: 'Each mission has `worktree` code.\n' }]);
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: ResponseError) => error.message);
    expect(await refusal(rename(ws.uri(SPEC), 5, 40, 'Worktree'))).toBe(
      "'worktree' is already a glossary term (team_domain, spec_kitty_core, 2 senses): renaming 'workspace' to it would merge the two terms. Edit the entries by hand if that is what you mean.",
    );
    expect(await refusal(client.request('textDocument/prepareRename', { textDocument: { uri: ws.uri(SPEC) }, position: RANGES.workDir.start }))).toBe(
      "'work dir' is a synonym to avoid of 'worktree', not a term of its own: rename 'worktree' where it is written, or replace this use with the quick fix.",
    );
    expect(await refusal(client.request('textDocument/prepareRename', { textDocument: { uri: ws.uri(SPEC) }, position: at(8, 20) }))).toMatch(/^This is code/);
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, 'axe'))).toMatch(/^'worktree' is used in the plural, and no plural of 'axe'/);
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, '`checkout`'))).toMatch(/not made of prose words/);
    // A path or an identifier, for a term used in the plural or not.
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, 'src/foo.ts'))).toMatch(/would not be read as the term 'src\/foo\.ts' in a spec \(it is not made of prose words/);
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, 'my_var'))).toMatch(/^'my_var' is not made of prose words/);
    expect(await refusal(rename(ws.uri(SPEC), 5, 8, 'deliverable'))).toMatch(/bundled Spec Kitty core glossary, which is read-only/);
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, '  '))).toBe('The new name is empty.');
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, 'WORKTREES'))).toBe("'WORKTREES' is the term 'worktree' itself: nothing to rename.");
    expect(await refusal(rename(ws.uri(SPEC), 3, 0, 'anything'))).toBe('No glossary term here: place the cursor on a term the glossary defines.');
    expect(events(MISSION)).toEqual([]);
    expect(events('042-other')).toEqual([]);
  });
});

describe("a mission's own vocabulary (terms its spec defines)", () => {
  const LANES_SPEC = 'kitty-specs/001-lanes/spec.md';
  const LANES_PLAN = 'kitty-specs/001-lanes/plan.md';
  const LANES_SPEC_MD = `# Lanes

Every quarkle moves through the board.

## Domain Language

| Term | Definition |
|---|---|
| **Quarkle** | A card that moves through the board |

## Requirements

- FR-001: a quarkle is never lost.
`;

  it("references reach the spec and the mission's documents, the spec's entry is its declaration (a Write highlight there), and a rename says where to rename it", async () => {
    ws = makeWorkspace({
      'kitty-specs/001-lanes/meta.json': JSON.stringify({ mission_id: '01LANES' }),
      [LANES_SPEC]: LANES_SPEC_MD,
      [LANES_PLAN]: '# Plan\n\nEach quarkle gets a lane.\n',
    });
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(LANES_PLAN), '# Plan\n\nEach quarkle gets a lane.\n');
    const found = await references(ws.uri(LANES_PLAN), 2, 7, true);
    expect(found).toEqual([
      { uri: ws.uri(LANES_PLAN), range: range(2, 5, 12) },
      { uri: ws.uri(LANES_SPEC), range: range(2, 6, 13) },
      { uri: ws.uri(LANES_SPEC), range: range(12, 12, 19) },
      // The spec's entry (its Domain Language row) is the declaration, not a use.
      { uri: ws.uri(LANES_SPEC), range: expect.objectContaining({ start: expect.objectContaining({ line: 8 }) }) },
    ]);
    client.open(ws.uri(LANES_SPEC), LANES_SPEC_MD);
    const highlights = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri: ws.uri(LANES_SPEC) }, position: at(2, 8) });
    expect(highlights.map((h) => [h.range.start.line, h.kind])).toEqual([
      [2, 1],
      [12, 1],
      [8, 3],
    ]);
    const refused = await rename(ws.uri(LANES_PLAN), 2, 7, 'token').then(
      () => 'accepted',
      (error: ResponseError) => error.message,
    );
    expect(refused).toBe("'quarkle' is defined in the spec of mission 001-lanes (spec.md:9), in its vocabulary section: rename it there. Renaming a mission's own term across the workspace is not supported.");
    // Asked on the entry itself (its Domain Language row, where no use is checked): what it is, not "no term".
    const atEntry = await client.request('textDocument/prepareRename', { textDocument: { uri: ws.uri(LANES_SPEC) }, position: at(8, 6) }).then(
      () => 'accepted',
      (error: ResponseError) => error.message,
    );
    expect(atEntry).toBe("'quarkle' is this spec's own term (mission 001-lanes, its vocabulary section): edit its entry and its uses here. Renaming a mission's own term across the workspace is not supported.");
    // References and highlight from the entry itself: the same as from a use.
    expect(await references(ws.uri(LANES_SPEC), 8, 6, true)).toEqual(found);
    const fromEntry = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri: ws.uri(LANES_SPEC) }, position: at(8, 6) });
    expect(fromEntry.map((h) => [h.range.start.line, h.kind])).toEqual([
      [2, 1],
      [12, 1],
      [8, 3],
    ]);
  });

  it("a team term's rename leaves alone a mission that defines the word itself, and never takes a name a mission defines", async () => {
    const OWN_WORKTREE = LANES_SPEC_MD.replace('| **Quarkle** | A card that moves through the board |', '| **Quarkle** | A card that moves through the board |\n| **Worktree** | The lane folder of a quarkle |');
    ws = makeWorkspace({
      'kitty-specs/001-lanes/meta.json': JSON.stringify({ mission_id: '01LANES' }),
      [LANES_SPEC]: OWN_WORKTREE,
      [LANES_PLAN]: '# Plan\n\nEach quarkle gets a worktree.\n',
      [OTHER]: OTHER_MD + 'A team-wide worktree-policy and a work-tree, kept.\n',
    });
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(OTHER), OTHER_MD);
    await client.diagnostics(ws.uri(OTHER));
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: ResponseError) => error.message);
    expect(await refusal(rename(ws.uri(OTHER), 2, 3, 'Quarkles'))).toBe("'quarkle' is already a term mission 01LANES defines in its own spec: renaming 'worktree' to it would merge the two terms in that mission's documents.");
    const edit = await rename(ws.uri(OTHER), 2, 3, 'checkout');
    const files = Object.keys(edit.changes ?? {}).concat((edit.documentChanges ?? []).map((c) => ('textDocument' in c ? c.textDocument.uri : '')));
    expect(files).toContain(ws.uri(OTHER));
    expect(files).toContain(ws.uri(TEAM));
    // (In mission 001-lanes the word is the mission's own term: not this one's uses.)
    expect(files).not.toContain(ws.uri(LANES_PLAN));
    expect(files).not.toContain(ws.uri(LANES_SPEC));
    // References agree: from the team's use, not the mission's; from the mission's plan, only the mission's.
    const fromTeam = new Set((await references(ws.uri(OTHER), 2, 3)).map((l) => l.uri));
    expect(fromTeam.has(ws.uri(OTHER))).toBe(true);
    expect(fromTeam.has(ws.uri(LANES_PLAN))).toBe(false);
    const fromMission = new Set((await references(ws.uri(LANES_PLAN), 2, 22)).map((l) => l.uri));
    expect([...fromMission]).toEqual([ws.uri(LANES_PLAN)]);
  });

  it('a multi-word term written hyphen-joined keeps its hyphens when renamed', async () => {
    ws = makeWorkspace({
      [TEAM]: `${TEAM_YAML}  - surface: work package\n    definition: A unit of planned work\n    status: active\n`,
      [OTHER]: '# Other\n\nEach work package, and the Work-Packages of a work-package plan.\n',
    });
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(OTHER), '# Other\n\nEach work package, and the Work-Packages of a work-package plan.\n');
    await client.diagnostics(ws.uri(OTHER));
    const edit = await rename(ws.uri(OTHER), 2, 6, 'task unit');
    const texts = [...Object.values(edit.changes ?? {}).flat(), ...(edit.documentChanges ?? []).flatMap((c) => ('edits' in c ? c.edits : []))].map((e) => ('newText' in e ? e.newText : ''));
    expect(texts).toEqual(expect.arrayContaining(['task unit', 'Task-Units', 'task-unit']));
  });

  it('a use written across a line break keeps the break, the indent, the quote markers and a hard break (CRLF too)', async () => {
    const other = '# Other\n\nEach work\npackage, then:\n\n- a list item of one work\n  packages list\n\nOne work\r\npackage here.\n\n> a quoted work\n> package here.\n\nA hard work\\\npackage break.\n';
    ws = makeWorkspace({ [TEAM]: `${TEAM_YAML}  - surface: work package\n    definition: A unit of planned work\n    status: active\n`, [OTHER]: other });
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    const edit = await rename(ws.uri(OTHER), 2, 6, 'task unit');
    applyToDisk(edit);
    expect(readFileSync(ws.file(OTHER), 'utf8')).toBe('# Other\n\nEach task\nunit, then:\n\n- a list item of one task\n  units list\n\nOne task\r\nunit here.\n\n> a quoted task\n> unit here.\n\nA hard task\\\nunit break.\n');
  });
});
