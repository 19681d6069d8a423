/**
 * `specGlossary.listCandidates` over stdio against the built server: the folder's markdown files
 * are checked (an open buffer's text wins over the file on disk) and the glossary candidates come
 * back most-used first, with URIs and missions to act on; "adding" one is the team glossary's
 * draft entry through defineTerm.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { Commands, type CandidatesResult } from '../../server/src/shared/protocol';
import { tempWorkspace, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../helpers/workspace';
import { TestClient } from './client';

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

const uri = (relative: string) => URI.file(ws.path(relative)).toString();

async function start(): Promise<void> {
  ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    'kitty-specs/001-sync/meta.json': JSON.stringify({ mission_id: 'M-SYNC' }),
    'kitty-specs/001-sync/spec.md': '# Sync\n\nThe quarkle feeds the zorblax.\nThe quarkle rests. The quarkle wakes.\n',
    'kitty-specs/002-merge/spec.md': '# Merge\n\nThe merge asks the quarkle.\n',
    'kitty-specs/003-lanes/spec.md': '# Lanes\n\nNothing to see.\n',
  });
  client = await TestClient.start({ folders: [ws.root] });
}

describe('specGlossary.listCandidates', () => {
  it('lists the candidates of the folder, most-used first, with URIs and missions; open buffers count as they are', async () => {
    await start();
    // Unsaved text in the editor: the third spec now uses the term too.
    client.open(uri('kitty-specs/003-lanes/spec.md'), '# Lanes\n\nA quarkle, a quarkle and a quarkle.\n');
    const result = await client.request<CandidatesResult>('workspace/executeCommand', { command: Commands.listCandidates, arguments: [{ uri: uri('kitty-specs/002-merge/spec.md') }] });
    expect(result.ok).toBe(true);
    expect(result.message).toBe('1 glossary candidate in 3 documents.');
    expect(result.workspaces).toHaveLength(1);
    const [folder] = result.workspaces;
    expect(folder!.workspaceUri).toBe(URI.file(ws.root).toString());
    expect(folder!.candidates).toEqual([
      {
        term: 'quarkle',
        specs: 3,
        occurrences: 7,
        examples: [
          { path: 'kitty-specs/001-sync/spec.md', line: 3, uri: uri('kitty-specs/001-sync/spec.md'), missionId: 'M-SYNC' },
          { path: 'kitty-specs/003-lanes/spec.md', line: 3, uri: uri('kitty-specs/003-lanes/spec.md'), missionId: '003-lanes' },
          { path: 'kitty-specs/002-merge/spec.md', line: 3, uri: uri('kitty-specs/002-merge/spec.md'), missionId: '002-merge' },
        ],
        definitions: [],
      },
    ]);
  });

  it('without arguments lists every folder; minSpecs filters; a bad minSpecs is InvalidParams', async () => {
    await start();
    const all = await client.request<CandidatesResult>('workspace/executeCommand', { command: Commands.listCandidates, arguments: [] });
    expect(all.workspaces.map((w) => w.candidates.map((c) => [c.term, c.specs]))).toEqual([[['quarkle', 2]]]);
    const few = await client.request<CandidatesResult>('workspace/executeCommand', { command: Commands.listCandidates, arguments: [{ minSpecs: 3 }] });
    expect(few.workspaces[0]!.candidates).toEqual([]);
    await expect(client.request('workspace/executeCommand', { command: Commands.listCandidates, arguments: [{ minSpecs: 0 }] })).rejects.toThrow(/minSpecs/);
  });

  it("adding a candidate to the team glossary inserts its draft entry (defineTerm without a definition)", async () => {
    await start();
    const listed = await client.request<CandidatesResult>('workspace/executeCommand', { command: Commands.listCandidates, arguments: [{}] });
    const [candidate] = listed.workspaces[0]!.candidates;
    const example = candidate!.examples[0]!;
    const added = await client.request<{ ok: boolean; editedUri: string }>('workspace/executeCommand', { command: Commands.defineTerm, arguments: [{ uri: example.uri, missionId: example.missionId, term: candidate!.term, scope: 'team_domain' }] });
    expect(added.ok).toBe(true);
    expect(added.editedUri).toBe(uri('.kittify/glossaries/team_domain.yaml'));
    const edit = JSON.stringify(client.appliedEdits.at(-1));
    expect(edit).toContain('surface: quarkle');
  });
});
