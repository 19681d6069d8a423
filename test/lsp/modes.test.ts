/** Pull diagnostics, settings, size limit, multi-root folders and the node-ipc transport. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, CodeLens, Diagnostic, DocumentDiagnosticReport, FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { makeWorkspace, MISSION, SPEC, SPEC_MD, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';
import { isHealthCode } from '../../server/src/core/health';

/** The file's own problems, without the glossary-health findings (test/lsp/glossaryHealth.test.ts). */
const problems = (ds: readonly Diagnostic[]) => ds.filter((d) => !isHealthCode(String(d.code)));

const workspaces: TempWorkspace[] = [];
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  for (const ws of workspaces.splice(0)) ws.remove();
});

function workspace(files: Record<string, string | null> = {}): TempWorkspace {
  const ws = makeWorkspace(files);
  workspaces.push(ws);
  return ws;
}

const pull = (uri: string, previousResultId?: string) => client.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) });
const codesOf = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe('pull diagnostics', () => {
  it('answers textDocument/diagnostic instead of pushing, and asks for a refresh after a decision', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], pull: true });
    expect(client.initializeResult.capabilities.diagnosticProvider).toEqual({ identifier: 'spec-glossary', interFileDependencies: true, workspaceDiagnostics: false });
    client.open(ws.uri(SPEC), SPEC_MD);
    const report = (await pull(ws.uri(SPEC))) as FullDocumentDiagnosticReport;
    expect(report.kind).toBe('full');
    expect(codesOf(report.items)).toEqual(['ambiguous', 'inconsistent', 'unknown', 'ambiguous']);
    expect(await pull(ws.uri(SPEC), report.resultId)).toEqual({ kind: 'unchanged', resultId: report.resultId });

    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: report.items[0]!.range, context: { diagnostics: [report.items[0]] } });
    await client.request('workspace/executeCommand', actions[1]!.command);
    await client.until(() => client.diagnosticRefreshes > 0, 'workspace/diagnostic/refresh');
    const after = (await pull(ws.uri(SPEC), report.resultId)) as FullDocumentDiagnosticReport;
    expect(after.kind).toBe('full');
    expect(codesOf(after.items)).toEqual(['inconsistent', 'unknown']);
    expect(client.published.filter((p) => p.uri === ws.uri(SPEC))).toEqual([]);
  });

  it('a result id of a document closed and opened again (its versions start again) does not answer "unchanged" for other text', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], pull: true });
    client.open(ws.uri(SPEC), SPEC_MD);
    const first = (await pull(ws.uri(SPEC))) as FullDocumentDiagnosticReport;
    expect(first.items.length).toBeGreaterThan(0);
    client.close(ws.uri(SPEC));
    client.open(ws.uri(SPEC), 'Nothing here at all.\n');
    const again = await pull(ws.uri(SPEC), first.resultId);
    expect(again).toMatchObject({ kind: 'full', items: [] });
  });

  it('pulls the problems of an open seed file and pushes those of files that are not open', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], pull: true });
    client.open(ws.uri(SPEC), SPEC_MD);
    await pull(ws.uri(SPEC));
    writeFileSync(ws.file(TEAM), 'terms:\n  - surface: [\n');
    client.fileChanged(ws.uri(TEAM));
    const pushed = await client.diagnostics(ws.uri(TEAM), (ds) => problems(ds).length > 0, 0, 'pushed diagnostics of the closed seed file');
    expect(codesOf(problems(pushed.diagnostics))).toEqual(['glossary.parse-error']);
    const since = client.mark();
    client.open(ws.uri(TEAM), TEAM_YAML.replace('confidence: 0.9', 'confidence: 2'), 'yaml');
    const pulled = (await pull(ws.uri(TEAM))) as FullDocumentDiagnosticReport;
    expect(problems(pulled.items).map((d) => [d.code, d.message])).toEqual([['glossary.invalid-confidence', '`confidence` must be between 0 and 1, got 2. Spec Kitty refuses the whole file; spec-glossary reads the rest (the entry is skipped).']]);
    // Now that the client pulls it, the pushed diagnostics of the file are cleared.
    await client.diagnostics(ws.uri(TEAM), (ds) => ds.length === 0, since, 'pushed diagnostics cleared');
  });
});

describe('settings', () => {
  it('reads specGlossary through workspace/configuration: severity overrides, strictness, disabled extractors', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], settings: { severityOverrides: { inconsistent: 'off', ambiguous: 'warning' }, strictness: 'off', disabledExtractors: ['acronym'] } });
    client.open(ws.uri(SPEC), SPEC_MD);
    const published = await client.diagnostics(ws.uri(SPEC));
    expect(published.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['ambiguous', 2],
      ['ambiguous', 2],
    ]);
    expect(client.configurationRequests).toContain(ws.uri(SPEC));
    const lens = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
    expect(lens[0]!.command!.title).toBe('Glossary: 2 high · 0 medium · 1 low — generation allowed (strictness off)');
  });

  it('re-publishes every open document when the configuration changes', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    const since = client.mark();
    client.setSettings({ severityOverrides: { unknown: 'off', inconsistent: 'hint' } });
    const after = await client.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'diagnostics without unknown');
    expect(after.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['ambiguous', 1],
      ['inconsistent', 4],
      ['ambiguous', 1],
    ]);
  });

  it('takes initializationOptions, with or without the specGlossary section, when workspace/configuration answers null or {} (as Neovim does for settings it was not given)', async () => {
    const ws = workspace();
    for (const initializationOptions of [{ specGlossary: { severityOverrides: { unknown: 'off' } } }, { severityOverrides: { unknown: 'off' } }]) {
      // (No `settings`: the client answers workspace/configuration with null.)
      client = await TestClient.start({ folders: [ws.root], initializationOptions });
      client.open(ws.uri(SPEC), SPEC_MD);
      const published = await client.diagnostics(ws.uri(SPEC));
      expect(client.configurationRequests).toContain(ws.uri(SPEC));
      expect(codesOf(problems(published.diagnostics)), JSON.stringify(initializationOptions)).toEqual(['ambiguous', 'inconsistent', 'ambiguous']);
      await client.stop();
    }
    // An empty answer ({}, as some clients give for any section) takes nothing away; the keys it
    // answers win.
    for (const [settings, expected] of [
      [{}, ['ambiguous', 'inconsistent', 'ambiguous']],
      [{ severityOverrides: { inconsistent: 'off' } }, ['ambiguous', 'unknown', 'ambiguous']],
    ] as const) {
      client = await TestClient.start({ folders: [ws.root], initializationOptions: { severityOverrides: { unknown: 'off' } }, settings });
      client.open(ws.uri(SPEC), SPEC_MD);
      expect(codesOf(problems((await client.diagnostics(ws.uri(SPEC))).diagnostics)), JSON.stringify(settings)).toEqual(expected);
      await client.stop();
    }
    // Options that name no setting of ours are not settings.
    client = await TestClient.start({ folders: [ws.root], initializationOptions: { unrelated: { unknown: 'off' } } });
    client.open(ws.uri(SPEC), SPEC_MD);
    expect(codesOf(problems((await client.diagnostics(ws.uri(SPEC))).diagnostics))).toEqual(['ambiguous', 'inconsistent', 'unknown', 'ambiguous']);
  });

  it('a log level sent with initialize counts from the start: the first load of the folder is logged at debug', async () => {
    const ws = workspace();
    // (A client without workspace/configuration, as Neovim 0.7.)
    client = await TestClient.start({ folders: [ws.root], initializationOptions: { specGlossary: { logLevel: 'debug' } }, capabilities: { workspace: { workspaceFolders: true } } });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    expect(client.logs.map((l) => l.message)).toContainEqual(expect.stringMatching(/^loaded .* seed files\) in \d+ ms$/));
  });

  it('takes settings pushed in didChangeConfiguration when workspace/configuration answers null', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(SPEC), SPEC_MD);
    await client.diagnostics(ws.uri(SPEC));
    for (const settings of [{ specGlossary: { severityOverrides: { unknown: 'off' } } }, { severityOverrides: { inconsistent: 'off' } }]) {
      const since = client.mark();
      const expected = 'specGlossary' in settings ? ['ambiguous', 'inconsistent', 'ambiguous'] : ['ambiguous', 'unknown', 'ambiguous'];
      void client.connection.sendNotification('workspace/didChangeConfiguration', { settings });
      const after = await client.diagnostics(ws.uri(SPEC), (ds) => codesOf(problems(ds)).join() === expected.join(), since, `diagnostics with ${JSON.stringify(settings)}`);
      expect(codesOf(problems(after.diagnostics))).toEqual(expected);
    }
    // A notification without params (some clients send none): settings asked again, documents
    // published again, nothing logged as an error.
    const since = client.mark();
    void client.connection.sendNotification('workspace/didChangeConfiguration');
    await client.diagnostics(ws.uri(SPEC), () => true, since, 'the spec published again');
    expect(client.logs.filter((l) => l.type === 1)).toEqual([]);
  });

  it('skips a document above maxFileSize with one Information diagnostic', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], settings: { maxFileSize: 1000 } });
    client.open(ws.uri(SPEC), SPEC_MD + 'The workspace again.\n'.repeat(100));
    const published = await client.diagnostics(ws.uri(SPEC));
    expect(published.diagnostics).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 3,
        code: 'file.too-large',
        source: 'spec-glossary',
        message: 'spec-glossary did not check this document: it is 2 KB, above the 1000 bytes limit (setting specGlossary.maxFileSize).',
      },
    ]);
  });

  it('checks an .mdx spec whatever language id the editor gives it, as the CLI does', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root] });
    const mdx = ws.uri(SPEC).replace(/\.md$/, '.mdx');
    client.open(mdx, SPEC_MD, 'mdx');
    const published = await client.diagnostics(mdx, (ds) => ds.length > 0);
    expect(codesOf(problems(published.diagnostics))).toContain('ambiguous');
  });

  it('logLevel off or error silences the warnings about the settings read with it, from the first read on', async () => {
    for (const [logLevel, warned] of [['off', false], ['error', false], ['warn', true]] as const) {
      const ws = workspace();
      client = await TestClient.start({ folders: [ws.root], settings: { logLevel, strictness: 'hard' } });
      client.open(ws.uri(SPEC), SPEC_MD);
      await client.diagnostics(ws.uri(SPEC));
      expect(client.logs.some((l) => l.message.includes('specGlossary.strictness')), logLevel).toBe(warned);
      await client.stop();
    }
  });
});

describe('workspaces', () => {
  it('checks each folder of a multi-root workspace against its own .kittify/, and writes events there', async () => {
    const a = workspace();
    const b = workspace({ [TEAM]: 'terms:\n  - surface: workspace\n    definition: The one folder we use\n    status: active\n' });
    client = await TestClient.start({ folders: [a.root, b.root] });
    client.open(a.uri(SPEC), SPEC_MD);
    client.open(b.uri(SPEC), SPEC_MD);
    const inA = await client.diagnostics(a.uri(SPEC));
    const inB = await client.diagnostics(b.uri(SPEC));
    expect(codesOf(inA.diagnostics)).toEqual(['ambiguous', 'inconsistent', 'unknown', 'ambiguous']);
    expect(codesOf(inB.diagnostics)).toEqual(['unknown']);
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: a.uri(SPEC) }, range: inA.diagnostics[0]!.range, context: { diagnostics: [inA.diagnostics[0]] } });
    await client.request('workspace/executeCommand', actions[0]!.command);
    const log = `.kittify/events/glossary/${MISSION}.events.jsonl`;
    expect(readFileSync(a.file(log), 'utf8')).toContain('"GlossaryClarificationResolved"');
    expect(existsSync(b.file(log))).toBe(false);
  });

  it('serves over --node-ipc too', async () => {
    const ws = workspace();
    client = await TestClient.start({ folders: [ws.root], transport: 'ipc' });
    client.open(ws.uri(SPEC), SPEC_MD);
    const published = await client.diagnostics(ws.uri(SPEC));
    expect(codesOf(published.diagnostics)).toEqual(['ambiguous', 'inconsistent', 'unknown', 'ambiguous']);
  });
});
