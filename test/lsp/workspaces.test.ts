/** In-process: which folder's `.kittify/` governs a file, and how reloads are merged. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from '../../server/src/node/fileSystem';
import { Logger } from '../../server/src/lsp/logger';
import { WorkspaceRegistry, type OpenFile } from '../../server/src/lsp/workspaces';
import { makeWorkspace, SPEC, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';

const quiet = new Logger({ error: () => {}, warn: () => {}, info: () => {}, log: () => {} }, 'off');
let ws: TempWorkspace;
let registry: WorkspaceRegistry;
afterEach(() => {
  registry?.dispose();
  ws?.remove();
});

function makeRegistry(open: OpenFile[] = []) {
  registry = new WorkspaceRegistry({ openFiles: () => open, maxFileBytes: async () => 5 * 1024 * 1024, logger: quiet, fs: NODE_FILE_SYSTEM });
  return registry;
}

describe('workspace folders', () => {
  it('gives a file the nearest .kittify/ above it, else its workspace folder', () => {
    ws = makeWorkspace();
    const nested = path.join(ws.root, 'packages', 'inner');
    mkdirSync(path.join(nested, '.kittify'), { recursive: true });
    mkdirSync(path.join(ws.root, 'kitty-specs', 'docs'), { recursive: true });
    const plain = path.join(path.dirname(ws.root), 'plain');
    mkdirSync(path.join(plain, 'sub'), { recursive: true });
    // A folder opened below the project (kitty-specs/) still uses the project's .kittify/.
    makeRegistry().setFolders([path.join(ws.root, 'kitty-specs'), plain]);
    expect(registry.rootFor(ws.file(SPEC))).toBe(ws.root);
    expect(registry.rootFor(ws.file(TEAM))).toBe(ws.root);
    expect(registry.rootFor(path.join(nested, 'spec.md'))).toBe(nested);
    expect(registry.rootFor(path.join(ws.root, 'kitty-specs', 'docs', 'notes.md'))).toBe(ws.root);
    // No .kittify/ anywhere above: the workspace folder is the root (only the bundled core applies).
    expect(registry.rootFor(path.join(plain, 'sub', 'a.md'))).toBe(plain);
  });

  it('merges reload requests that arrive while one is waiting, and uses open glossary buffers', async () => {
    ws = makeWorkspace();
    const open: OpenFile[] = [];
    makeRegistry(open).setFolders([ws.root]);
    const loads: number[] = [];
    registry.onDidReload(() => loads.push(registry.version(ws.root)));
    const first = await registry.snapshot(ws.root);
    expect(first.glossaryFor('m').sensesOf('workspace').filter((s) => s.scope === 'team_domain')).toHaveLength(2);
    open.push({ fsPath: ws.file(TEAM), languageId: 'yaml', version: 2, text: () => TEAM_YAML.replace('status: active', 'status: deprecated') });
    const [a, b] = await Promise.all([registry.reload(ws.root), registry.reload(ws.root)]);
    expect(a).toBe(b);
    expect(loads).toHaveLength(2);
    expect(a.glossaryFor('m').sensesOf('workspace').find((s) => s.scope === 'team_domain')!.status).toBe('deprecated');
    // fresh() reloads only when a buffer moved on since the snapshot was built.
    expect(await registry.fresh(ws.root)).toBe(a);
    open[0] = { ...open[0]!, version: 3 };
    expect(await registry.fresh(ws.root)).not.toBe(a);
    expect(loads).toHaveLength(3);
  });

  it('keeps the last good seed when the file stops parsing', async () => {
    ws = makeWorkspace();
    makeRegistry().setFolders([ws.root]);
    await registry.snapshot(ws.root);
    writeFileSync(ws.file(TEAM), 'terms: [\n');
    const snapshot = await registry.reload(ws.root);
    const team = snapshot.seeds.find((s) => s.scope === 'team_domain')!;
    expect(team.stale).toBe(true);
    expect(team.seed.senses).toHaveLength(3);
  });
});

describe('an event log open in an editor', () => {
  const resolvedLine = (n: number, term: string) =>
    JSON.stringify({ event_type: 'GlossaryClarificationResolved', event_id: `0b8f3c1e-7a2d-4e5f-9c6b-1a2b3c4d5e${n.toString().padStart(2, '0')}`, lamport_clock: n, mission_id: 'm', run_id: 'cli-x', timestamp: '2026-12-07T06:00:00+00:00', conflict_id: `5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8${n.toString().padStart(2, '0')}`, term_surface: term, selected_sense: { surface: term, scope: 'team_domain', definition: `What ${term} means`, confidence: 1 }, actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, resolution_mode: 'interactive', provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-12-07T06:00:00+00:00' } });
  const pinned = (snapshot: Awaited<ReturnType<WorkspaceRegistry['snapshot']>>) => [...snapshot.pinsFor('m').keys()].sort();

  it('an older copy of the log (unchanged since it was the text on disk, or first seen behind it) does not hide lines appended since; an edited buffer counts', async () => {
    ws = makeWorkspace();
    const log = ws.file('.kittify/events/glossary/m.events.jsonl');
    mkdirSync(path.dirname(log), { recursive: true });
    const one = `${resolvedLine(1, 'alpha')}\r\n`;
    writeFileSync(log, one);
    // Shown with LF line ends, as some editors do.
    let buffer = { text: one.replace('\r\n', '\n'), version: 1 };
    makeRegistry([{ fsPath: log, languageId: 'jsonl', get version() { return buffer.version; }, text: () => buffer.text }]).setFolders([ws.root]);
    expect(pinned(await registry.snapshot(ws.root))).toEqual(['alpha']);

    // Another writer appends; the buffer is not reloaded: the disk counts.
    writeFileSync(log, `${one}${resolvedLine(2, 'beta')}\r\n`);
    expect(pinned(await registry.reload(ws.root))).toEqual(['alpha', 'beta']);
    // The writer deletes the first line in the buffer, unsaved: the buffer counts.
    buffer = { text: '', version: 2 };
    expect(pinned(await registry.reload(ws.root))).toEqual([]);
  });

  it('a buffer first seen that the log does not begin with is an edit: it counts', async () => {
    ws = makeWorkspace();
    const log = ws.file('.kittify/events/glossary/m.events.jsonl');
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, `${resolvedLine(1, 'alpha')}\n`);
    makeRegistry([{ fsPath: log, languageId: 'jsonl', version: 3, text: () => `${resolvedLine(2, 'gamma')}\n` }]).setFolders([ws.root]);
    expect(pinned(await registry.snapshot(ws.root))).toEqual(['gamma']);
  });
});

describe("the server's own watchers of a folder", () => {
  /** The disk, with watchers that only the test fires: what each watches, and its callback. */
  function watchedDisk() {
    const watched: { dir: string; recursive: boolean; fire: (name: string | undefined) => void; closed: boolean }[] = [];
    const fs: WorkspaceFileSystem = {
      ...NODE_FILE_SYSTEM,
      watch(dir, recursive, onChange) {
        const entry = { dir, recursive, fire: onChange, closed: false };
        watched.push(entry);
        return { close: () => (entry.closed = true) };
      },
    };
    return { fs, watched, live: () => watched.filter((w) => !w.closed).map((w) => `${path.relative(ws.root, w.dir) || '.'}${w.recursive ? ' (tree)' : ''}`).sort() };
  }
  const settled = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('a workspace folder: .kittify/ as a tree and the folder\'s own entries; only a .kittify/ made, removed or replaced reloads', async () => {
    ws = makeWorkspace();
    const disk = watchedDisk();
    registry = new WorkspaceRegistry({ openFiles: () => [], maxFileBytes: async () => 5 * 1024 * 1024, logger: quiet, fs: disk.fs });
    registry.setFolders([ws.root]);
    let loads = 0;
    registry.onDidReload(() => loads++);
    await registry.snapshot(ws.root);
    expect(disk.live()).toEqual(['.', '.kittify (tree)']);
    const rootWatcher = disk.watched.find((w) => w.dir === ws.root)!;
    const before = loads;
    // Another entry of the folder, or a report on .kittify/ that is still the same folder: nothing.
    rootWatcher.fire('README.md');
    rootWatcher.fire('.kittify');
    rootWatcher.fire(undefined);
    await settled();
    expect(loads).toBe(before);
    // Replaced (a checkout): read again, and the new one watched instead of the old.
    renameSync(ws.file('.kittify'), path.join(ws.root, 'old-kittify'));
    mkdirSync(ws.file('.kittify'));
    rootWatcher.fire('.kittify');
    await settled();
    expect(loads).toBe(before + 1);
    await registry.snapshot(ws.root);
    expect(disk.live()).toEqual(['.', '.kittify (tree)']);
    expect(disk.watched.filter((w) => w.dir === ws.file('.kittify'))).toHaveLength(2);
  });

  it("a loose document's folder (no .kittify/, not a workspace folder) is not watched", async () => {
    ws = makeWorkspace();
    const disk = watchedDisk();
    registry = new WorkspaceRegistry({ openFiles: () => [], maxFileBytes: async () => 5 * 1024 * 1024, logger: quiet, fs: disk.fs });
    registry.setFolders([path.join(ws.root, 'kitty-specs')]);
    const plain = path.join(path.dirname(ws.root), `${path.basename(ws.root)}-loose`);
    mkdirSync(plain);
    try {
      expect(registry.rootFor(path.join(plain, 'a.md'))).toBe(plain);
      await registry.snapshot(plain);
      expect(disk.watched.map((w) => w.dir)).not.toContain(plain);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
