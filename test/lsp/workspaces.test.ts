/** In-process: which folder's `.kittify/` governs a file, and how reloads are merged. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_FILE_SYSTEM } from '../../server/src/node/fileSystem';
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
