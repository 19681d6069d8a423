/** Hover, definition, completion and the gate code lens through the server (in process), plus incremental sync. */
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, CodeLens, CompletionList, Diagnostic, Hover, Location, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { makeWorkspace, RANGES, SPEC, SPEC_MD, TEAM, type TempWorkspace } from '../service/fixtures';
import { at, TestClient } from './client';

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

async function start(settings?: Record<string, unknown>) {
  ws = makeWorkspace();
  client = await TestClient.start({ folders: [ws.root], ...(settings ? { settings } : {}) });
  client.open(ws.uri(SPEC), SPEC_MD);
  await client.diagnostics(ws.uri(SPEC));
}

describe('language features', () => {
  it('hover shows every sense with scope and status', async () => {
    await start();
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: ws.uri(SPEC) }, position: at(5, 40) });
    expect(hover.range).toEqual(RANGES.workspace1);
    const value = (hover.contents as MarkupContent).value;
    expect(value).toContain('**Ambiguous**: 2 active senses in team_domain');
    expect(value).toContain('- **team_domain** · active · confidence 0.9 — **candidate 1**');
    expect(value).toContain('  Git worktree directory for a work package');
    expect(value).toContain('- **team_domain** · active · confidence 0.7 — **candidate 2**');
    expect(value).toContain('  VS Code workspace configuration file');
    expect(value).toContain('- **spec_kitty_core** · active · confidence 0.85 — **shadowed by team_domain**');
    expect(await client.request('textDocument/hover', { textDocument: { uri: ws.uri(SPEC) }, position: at(3, 1) })).toBeNull();
  });

  it('go to definition opens the entries in the seed YAML', async () => {
    await start();
    const locations = await client.request<Location[]>('textDocument/definition', { textDocument: { uri: ws.uri(SPEC) }, position: RANGES.workDir.start });
    expect(locations).toEqual([{ uri: ws.uri(TEAM), range: { start: at(12, 4), end: at(17, 0) } }]);
  });

  it('completes glossary surfaces', async () => {
    await start();
    const list = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri: ws.uri(SPEC) }, position: at(5, 9) });
    const labels = list.items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['work package', 'workspace', 'worktree']));
    expect(list.items.find((i) => i.label === 'workspace')).toMatchObject({ detail: 'team_domain, spec_kitty_core · 3 senses', textEdit: { range: { start: at(5, 5), end: at(5, 9) }, newText: 'workspace' } });
  });

  it('the code lens at the top shows the gate status, and follows edits', async () => {
    await start();
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
    expect(lenses).toEqual([{ range: { start: at(0, 0), end: at(0, 0) }, command: { title: 'Glossary: 2 high · 0 medium · 2 low — generation blocked (strictness medium)', command: '' } }]);
    // Incremental edit: drop both lines with "workspace".
    client.change(ws.uri(SPEC), [{ range: { start: at(5, 0), end: at(6, 0) }, text: '' }]);
    client.change(ws.uri(SPEC), [{ range: { start: at(6, 0), end: at(7, 0) }, text: '' }]);
    const after = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: ws.uri(SPEC) } });
    expect(after[0]!.command!.title).toBe('Glossary: 0 high · 0 medium · 1 low — generation allowed (strictness medium)');
  });

  it('debounces typing: only the last version of a burst of edits is published', async () => {
    await start({ debounceMs: 150 });
    const since = client.mark();
    let version = 1;
    // Type " workspace" at the end of line 4 (the heading) one character at a time.
    const word = ' workspace';
    for (let i = 0; i < word.length; i++) version = client.change(ws.uri(SPEC), [{ range: { start: at(3, 15 + i), end: at(3, 15 + i) }, text: word[i]! }]);
    const published = await client.diagnostics(ws.uri(SPEC), () => true, since);
    expect(published.version).toBe(version);
    expect(published.diagnostics.filter((d) => d.code === 'ambiguous').map((d) => d.range.start)).toEqual([at(3, 16), at(5, 38), at(7, 27)]);
    expect(client.text(ws.uri(SPEC)).split('\n')[3]).toBe('# Checkout spec workspace');
  });

  it('code actions read the diagnostics as the server made them: a client that sends columns in bytes (Neovim 0.7) gets fixes of the right words', async () => {
    await start();
    const line = 'The façade — a work dir for the QZX.';
    const text = `# Façade\n\n${line}\n`;
    const since = client.mark();
    client.change(ws.uri(SPEC), [{ range: { start: at(0, 0), end: at(99, 0) }, text }]);
    const published = await client.diagnostics(ws.uri(SPEC), (ds) => ds.some((d) => d.code === 'unknown'), since);
    const ours = published.diagnostics.filter((d) => d.range.start.line === 2);
    expect(ours.map((d) => [d.code, line.slice(d.range.start.character, d.range.end.character)])).toEqual([
      ['inconsistent', 'work dir'],
      ['unknown', 'QZX'],
    ]);
    const inBytes = (d: Diagnostic): Diagnostic => {
      const bytes = (character: number) => Buffer.byteLength(line.slice(0, character));
      return { ...d, range: { start: at(2, bytes(d.range.start.character)), end: at(2, bytes(d.range.end.character)) } };
    };
    // (As Neovim 0.7 asks: every diagnostic of the line, in bytes; the range, the cursor, in UTF-16.)
    const cursorOn = (d: Diagnostic) => ({ start: d.range.start, end: d.range.start });
    for (const keepsData of [true, false]) {
      const sent = ours.map(inBytes).map((d) => (keepsData ? d : { ...d, data: undefined }));
      const onQzx = (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: cursorOn(ours[1]!), context: { diagnostics: sent } })).map((a) => a.title);
      expect(onQzx).toContain("Ignore 'QZX' in this spec");
      expect(onQzx.filter((t) => t.includes("'QZX'")).length).toBeGreaterThan(1);
      // Only the fixes of the term under the cursor, not of every term of the line.
      expect(onQzx).not.toContain("Replace with 'worktree'");
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: cursorOn(ours[0]!), context: { diagnostics: sent } });
      const titles = actions.map((a) => a.title);
      expect(titles).toContain("Replace with 'worktree'");
      expect(titles.some((t) => t.includes("'QZX'"))).toBe(false);
      const replace = actions.find((a) => a.title === "Replace with 'worktree'")!;
      const edits = Object.values(replace.edit!.changes ?? {}).flat() as TextEdit[];
      const documentEdits = (replace.edit!.documentChanges ?? []).flatMap((c) => ('edits' in c ? c.edits : [])) as TextEdit[];
      expect([...edits, ...documentEdits]).toEqual([{ range: ours[0]!.range, newText: 'worktree' }]);
    }
  });

  it('byte columns never take another use of the same term on the line: each sent diagnostic is its own', async () => {
    await start();
    const line = '——————————— a work dir and a work dir.';
    const since = client.mark();
    client.change(ws.uri(SPEC), [{ range: { start: at(0, 0), end: at(99, 0) }, text: `# Dirs\n\n${line}\n` }]);
    const published = await client.diagnostics(ws.uri(SPEC), (ds) => ds.filter((d) => d.code === 'inconsistent').length === 2, since);
    const [first, second] = published.diagnostics.filter((d) => d.code === 'inconsistent');
    const bytes = (character: number) => Buffer.byteLength(line.slice(0, character));
    const sent = [first!, second!].map((d) => ({ ...d, range: { start: at(2, bytes(d.range.start.character)), end: at(2, bytes(d.range.end.character)) } }));
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: { start: first!.range.start, end: first!.range.start }, context: { diagnostics: sent } });
    const replace = actions.find((a) => a.title === "Replace with 'worktree'")!;
    const edits = [...Object.values(replace.edit!.changes ?? {}).flat(), ...(replace.edit!.documentChanges ?? []).flatMap((c) => ('edits' in c ? c.edits : []))] as TextEdit[];
    expect(edits).toEqual([{ range: first!.range, newText: 'worktree' }]);
  });

  it('clears the diagnostics of a closed document', async () => {
    await start();
    const since = client.mark();
    client.close(ws.uri(SPEC));
    const cleared = await client.diagnostics(ws.uri(SPEC), (ds) => ds.length === 0, since, 'empty diagnostics');
    expect(cleared.diagnostics).toEqual([]);
  });
});
