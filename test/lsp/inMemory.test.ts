/**
 * The language server on a workspace held in memory (no disk at all): seeds, config, meta.json
 * and the event log are read through the file-system interface, and a glossary edit reaches the
 * open documents once the client reports it.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { resolved } from '../fixtures/events/factory';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { DEFAULT_FILES, MESSAGES, MISSION, RANGES, SPEC, SPEC_MD, TEAM, TEAM_YAML } from '../service/fixtures';
import { TestClient } from './client';

// A folder that exists on no disk.
const ROOT = path.resolve('/in-memory/workspace');
const uri = (relative: string) => URI.file(path.join(ROOT, relative)).toString();
const LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;

let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

function memoryWorkspace(files: Record<string, string> = {}): MemoryFileSystem {
  const fs = new MemoryFileSystem();
  for (const [relative, text] of Object.entries({ ...DEFAULT_FILES, ...files })) fs.write(path.join(ROOT, relative), text);
  return fs;
}

describe('the server on an in-memory workspace', () => {
  it('checks a spec against the glossary, config and mission it reads through the file system', async () => {
    const fs = memoryWorkspace();
    client = await TestClient.start({ folders: [ROOT], fs });
    client.open(uri(SPEC), SPEC_MD);
    const published = await client.diagnostics(uri(SPEC), (ds) => ds.length > 0);
    expect(published.diagnostics.map((d) => [d.code, d.range, d.message])).toEqual([
      ['ambiguous', RANGES.workspace1, MESSAGES.ambiguous],
      ['inconsistent', RANGES.workDir, MESSAGES.workDir],
      ['unknown', RANGES.qzx, MESSAGES.qzx],
      ['ambiguous', RANGES.workspace2, MESSAGES.ambiguous],
    ]);
    // The mission comes from the in-memory meta.json (the code actions name it).
    const diagnostic = published.diagnostics[0]!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    expect(actions[0]!.command!.arguments![0]).toMatchObject({ missionId: MISSION, stepId: 'spec', term: 'workspace' });
  });

  it('replays the in-memory event log: a pinned sense resolves the ambiguous term', async () => {
    const pin = resolved({ conflict: '00000000-0000-4000-8000-00000000aaaa', mission: MISSION, term: 'workspace', definition: 'Git worktree directory for a work package' });
    const fs = memoryWorkspace({ [LOG]: serializeEvent(pin) + '\n' });
    client = await TestClient.start({ folders: [ROOT], fs });
    client.open(uri(SPEC), SPEC_MD);
    const published = await client.diagnostics(uri(SPEC), (ds) => ds.length > 0);
    expect(published.diagnostics.map((d) => d.code)).toEqual(['inconsistent', 'unknown']);
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: uri(SPEC) }, position: RANGES.workspace1.start });
    expect((hover.contents as MarkupContent).value).toContain('pinned');
  });

  it('a glossary changed in memory is picked up when the client reports the change', async () => {
    const fs = memoryWorkspace();
    client = await TestClient.start({ folders: [ROOT], fs });
    client.open(uri(SPEC), SPEC_MD);
    await client.diagnostics(uri(SPEC), (ds) => ds.some((d) => d.code === 'ambiguous'));
    // One sense of `workspace` left, and QZX defined: only the synonym to avoid remains.
    fs.write(path.join(ROOT, TEAM), TEAM_YAML.replace(/ {2}- surface: workspace\n {4}definition: VS Code[^]*?status: active\n\n/, '') + '  - surface: qzx\n    definition: Quality zone exception rules\n    status: active\n');
    const since = client.mark();
    client.fileChanged(uri(TEAM));
    const after = await client.diagnostics(uri(SPEC), () => true, since, 'diagnostics after the glossary change');
    expect(after.diagnostics.map((d) => d.code)).toEqual(['inconsistent']);
  });
});
