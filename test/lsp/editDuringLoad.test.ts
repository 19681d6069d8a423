/**
 * A document edited while its folder is read for the first time (a large seed or log makes that
 * take seconds): what is published or pulled for the new version is that version's check, never
 * the text before the edit under the new version's number. (The check used to read the text
 * before waiting for the folder and the version after; the result was then kept under the new
 * version and, since a reload that changes nothing for the mission publishes nothing, stayed.)
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { DEFAULT_FILES, SPEC, SPEC_MD } from '../service/fixtures';
import { TestClient } from './client';

const ROOT = path.resolve('/in-memory/slow-workspace');
const uri = (relative: string) => URI.file(path.join(ROOT, relative)).toString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The whole fixture spec replaced by prose without a glossary term or a candidate. */
const PLAIN = '# Nothing\n\nPlain words only here.\n';
const WHOLE_SPEC = { start: { line: 0, character: 0 }, end: { line: SPEC_MD.split('\n').length, character: 0 } };

let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

/** The fixture workspace in memory, its event logs read `delayMs` late (as a large log would be). */
function slowWorkspace(delayMs: number): MemoryFileSystem {
  const fs = new MemoryFileSystem();
  for (const [relative, text] of Object.entries(DEFAULT_FILES)) fs.write(path.join(ROOT, relative), text);
  const replay = fs.replay;
  Object.assign(fs, { replay: async (...args: Parameters<typeof replay>) => (await sleep(delayMs), replay(...args)) });
  return fs;
}

describe('an edit while the folder is first read', () => {
  it('push: the publication of the new version is its own check', async () => {
    client = await TestClient.start({ folders: [ROOT], fs: slowWorkspace(400), settings: { debounceMs: 50 } });
    client.open(uri(SPEC), SPEC_MD);
    // A request that analyzes version 1 while the folder loads.
    const lens = client.request('textDocument/codeLens', { textDocument: { uri: uri(SPEC) } });
    await sleep(100);
    client.change(uri(SPEC), [{ range: WHOLE_SPEC, text: PLAIN }]);
    await lens;
    const published = await client.until(() => client!.published.find((p) => p.uri === uri(SPEC) && p.version === 2), 'a publication of version 2');
    expect(published.diagnostics.map((d) => d.code)).toEqual([]);
    await sleep(300);
    expect(client.published.filter((p) => p.uri === uri(SPEC)).at(-1)?.diagnostics).toEqual([]);
  });

  it('pull: the report asked for after the edit is the new version\'s', async () => {
    client = await TestClient.start({ folders: [ROOT], fs: slowWorkspace(400), pull: true });
    client.open(uri(SPEC), SPEC_MD);
    const first = client.request<FullDocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: uri(SPEC) } }).catch((error: unknown) => error);
    await sleep(100);
    client.change(uri(SPEC), [{ range: WHOLE_SPEC, text: PLAIN }]);
    await first; // (answered, or cancelled by the edit for the client to ask again)
    const again = await client.request<FullDocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: uri(SPEC) } });
    expect(again.kind).toBe('full');
    expect(again.items).toEqual([]);
  });
});
