/**
 * A client that edits faster than the checks finish: 1,000 incremental `didChange`
 * notifications sent with no waits. Stale work is dropped (far fewer publications than edits,
 * versions only go up), the server catches up quickly, and what it publishes for the final version
 * is exactly what a fresh check of the final text gives.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { TestClient } from '../lsp/client';
import { freshDiagnostics, prng, randomEdit, tempWorkspace, TEAM_WORKSPACE_SEED, uriOf, visible, ZORBLAX_SEED, type TempWorkspace } from './helpers';

let ws: TempWorkspace;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
});

const SPEC = 'kitty-specs/041-demo/spec.md';

const INITIAL = `# Demo spec\n\nThe zorblax is ready and the workspace is set.\nNever share a work dir.\n\n${'A paragraph about the zorblax and the workspace, with QZX rules.\n'.repeat(40)}`;

async function storm(settings: Record<string, unknown>, seed: number): Promise<{ publications: PublishDiagnosticsParams[]; final: PublishDiagnosticsParams; finalVersion: number; elapsed: number }> {
  ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    '.kittify/glossaries/mission_local.yaml': ZORBLAX_SEED,
    'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }),
  });
  const uri = uriOf(ws.path(SPEC));
  client = await TestClient.start({ folders: [ws.root], settings });
  client.open(uri, INITIAL);
  await client.diagnostics(uri, () => true, 0, 'the first check');
  const since = client.mark();
  const random = prng(seed);
  let version = 1;
  const started = Date.now();
  for (let i = 0; i < 1000; i++) version = client.change(uri, [randomEdit(client.text(uri), random)]);
  const final = await client.until(() => client!.published.slice(since).find((p) => p.uri === uri && p.version === version), `diagnostics of the final version ${version}`, 60_000);
  const elapsed = Date.now() - started;
  return { publications: client.published.slice(since).filter((p) => p.uri === uri), final, finalVersion: version, elapsed };
}

async function expectMatchesFreshCheck(final: PublishDiagnosticsParams): Promise<Diagnostic[]> {
  const text = client!.text(final.uri);
  const expected = await freshDiagnostics(ws.root, ws.path(SPEC), text);
  expect(visible(final.diagnostics)).toEqual(visible(expected));
  return expected;
}

describe('an editor typing faster than the checks', () => {
  it('1,000 edits with no waits (default debounce): the final version is published, matching a fresh check; stale versions are dropped', async () => {
    const { publications, final, finalVersion, elapsed } = await storm({}, 8);
    expect(final.version).toBe(finalVersion);
    expect(finalVersion).toBe(1001);
    const expected = await expectMatchesFreshCheck(final);
    expect(expected.length).toBeGreaterThan(0); // the check has something to say about the final text
    // Nothing after the final version, nothing older than something already published.
    const versions = publications.map((p) => p.version!);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions.at(-1)).toBe(finalVersion);
    expect(publications.length).toBeLessThan(20); // the debounce and cancellation dropped the rest
    expect(elapsed).toBeLessThan(20_000);
    // Still answering: the code lens reflects the final version.
    const lens = await client!.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: final.uri } });
    expect(lens[0]!.command.title).toMatch(/^Glossary: /);
  });

  it('1,000 edits with no debounce at all: still only versions going up, the last one matching a fresh check', async () => {
    const { publications, final, finalVersion, elapsed } = await storm({ debounceMs: 0 }, 9);
    expect(final.version).toBe(finalVersion);
    await expectMatchesFreshCheck(final);
    const versions = publications.map((p) => p.version!);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length); // no version published twice
    expect(versions.at(-1)).toBe(finalVersion);
    expect(publications.length).toBeLessThan(1000);
    expect(elapsed).toBeLessThan(30_000);
    // Nothing more arrives for this document once the final version is out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client!.published.filter((p) => p.uri === final.uri).at(-1)!.version).toBe(finalVersion);
  });
});
