/**
 * A document with more problems than `specGlossary.maxProblems` (default 1,000): the server
 * publishes that many, the most severe first, plus one diagnostic that says how many more there
 * are; the gate status still counts every finding, and the server stays responsive. Before the
 * limit, half a million findings made a publication longer than V8's longest string and the
 * server published nothing for that document (issue 19).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { makeWorkspace, SPEC, SPEC_MD, TEAM, TEAM_YAML, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

const NOT_SHOWN = 'problems.not-shown';
const lensTitle = async (uri: string) => (await client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } }))[0]!.command.title;

describe('maxProblems', () => {
  // (A hundred thousand are enough to show the limit; half a million took a fifth of the LSP tests' time.)
  it('publishes the first 1,000 of a hundred thousand findings and says how many more there are', async () => {
    ws = makeWorkspace({ [TEAM]: TEAM_YAML.replace(/workspace/g, 'zorblax') });
    client = await TestClient.start({ folders: [ws.root] });
    // 10,000 lines of ten uses of an ambiguous term: 100,000 findings in 0.8 MB.
    const text = `${'zorblax '.repeat(10).trimEnd()}\n`.repeat(10_000);
    const since = client.mark();
    client.open(ws.uri(SPEC), text);
    const published = await client.until(() => client.published.slice(since).find((p) => p.uri === ws.uri(SPEC)), 'the diagnostics of the document', 60_000);
    expect(published.diagnostics).toHaveLength(1001);
    const findings = published.diagnostics.slice(0, 1000);
    expect(new Set(findings.map((d) => d.code))).toEqual(new Set(['ambiguous']));
    // The first thousand in document order: lines 0 to 99.
    expect(findings[999]!.range.start).toEqual({ line: 99, character: 72 });
    const note = published.diagnostics[1000]!;
    expect(note).toMatchObject({ code: NOT_SHOWN, severity: 3, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
    expect(note.message).toBe(
      '99,000 more problems in this document are not shown (99,000 ambiguous): at most 1,000 are (setting specGlossary.maxProblems), the most severe first. The gate status counts them all; `spec-glossary check` lists every one.',
    );
    // The gate counts them all, and the server still answers.
    expect(await lensTitle(ws.uri(SPEC))).toBe('Glossary: 0 high · 100000 medium · 0 low — generation allowed (strictness medium)');
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: ws.uri(SPEC) }, position: { line: 3, character: 2 } });
    expect(JSON.stringify(hover)).toMatch(/zorblax/);
  }, 120_000);

  it('shows the most severe first under a small limit, and follows a change of the setting', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], settings: { maxProblems: 3 } });
    let since = client.mark();
    client.open(ws.uri(SPEC), SPEC_MD);
    // Two ambiguous (Error) after an inconsistent and before an unknown (both Information).
    const limited = await client.diagnostics(ws.uri(SPEC), () => true, since);
    const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}`);
    expect(summary(limited.diagnostics)).toEqual(['ambiguous@5', 'inconsistent@6', 'ambiguous@7', NOT_SHOWN + '@0']);
    expect(limited.diagnostics[3]!.message).toMatch(/^1 more problems in this document are not shown \(1 unknown\): at most 3 are/);
    expect(await lensTitle(ws.uri(SPEC))).toBe('Glossary: 2 high · 0 medium · 2 low — generation blocked (strictness medium)');

    since = client.mark();
    client.setSettings({ maxProblems: 1000 });
    const all = await client.diagnostics(ws.uri(SPEC), (ds) => ds.length === 4 && !ds.some((d) => d.code === NOT_SHOWN), since, 'every diagnostic once the limit is raised');
    expect(summary(all.diagnostics)).toEqual(['ambiguous@5', 'inconsistent@6', 'unknown@7', 'ambiguous@7']);
  });
});
