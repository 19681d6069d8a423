/**
 * The main editor flow over stdio against the built server: diagnostics → code actions → a
 * command that appends an event → diagnostics re-published without the finding.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Command, Diagnostic } from 'vscode-languageserver-protocol';
import { makeWorkspace, MESSAGES, MISSION, MISSION_GLOSSARY, RANGES, SPEC, SPEC_MD, TEAM, type TempWorkspace } from '../service/fixtures';
import { TestClient } from './client';

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

const logFile = () => ws.file(`.kittify/events/glossary/${MISSION}.events.jsonl`);
const events = () => readFileSync(logFile(), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`);

/** `transport`: where the server runs (in this process unless a test is about the real process). */
async function openSpec(transport?: 'stdio'): Promise<Diagnostic[]> {
  ws = makeWorkspace();
  client = await TestClient.start({ folders: [ws.root], ...(transport ? { transport } : {}) });
  client.open(ws.uri(SPEC), SPEC_MD);
  return (await client.diagnostics(ws.uri(SPEC))).diagnostics;
}

function codeActions(diagnostic: Diagnostic): Promise<CodeAction[]> {
  return client.request('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ['quickfix'] } });
}

describe('language server', () => {
  it('answers initialize with the capabilities of SPEC §9 (the built server over stdio)', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], transport: 'stdio' });
    const caps = client.initializeResult.capabilities;
    expect(caps.textDocumentSync).toEqual({ openClose: true, change: 2, save: { includeText: false } });
    expect(caps).toMatchObject({ hoverProvider: true, definitionProvider: true, codeLensProvider: {}, codeActionProvider: { codeActionKinds: ['quickfix'] }, completionProvider: {}, referencesProvider: true, documentHighlightProvider: true, renameProvider: { prepareProvider: true }, workspaceSymbolProvider: true });
    expect(caps.executeCommandProvider!.commands).toEqual(['specGlossary.selectSense', 'specGlossary.defineTerm', 'specGlossary.deferTerm', 'specGlossary.reopenTerm', 'specGlossary.reload', 'specGlossary.listCandidates', 'specGlossary.defineInSpec', 'specGlossary.promoteTerm', 'specGlossary.applyEdit']);
    expect(caps.diagnosticProvider).toBeUndefined(); // this client does not pull
    await client.until(() => client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'), 'the file watcher registration');
    expect(client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')!.registerOptions).toEqual({ watchers: [{ globPattern: '**/.kittify/**' }, { globPattern: '**/meta.json' }, { globPattern: '**/*.{md,markdown,mdx}' }, { globPattern: '**/*', kind: 4 /* WatchKind.Delete: a deleted folder */ }] });
  });

  it('publishes diagnostics with exact ranges, codes, severities, messages and related entries', async () => {
    const diagnostics = await openSpec();
    expect(diagnostics.map((d) => [d.range, d.code, d.severity, d.message, d.source])).toEqual([
      [RANGES.workspace1, 'ambiguous', 1, MESSAGES.ambiguous, 'spec-glossary'],
      [RANGES.workDir, 'inconsistent', 3, MESSAGES.workDir, 'spec-glossary'],
      [RANGES.qzx, 'unknown', 3, MESSAGES.qzx, 'spec-glossary'],
      [RANGES.workspace2, 'ambiguous', 1, MESSAGES.ambiguous, 'spec-glossary'],
    ]);
    expect(diagnostics[0]!.relatedInformation!.map((r) => [r.location.uri, r.location.range.start.line])).toEqual([
      [ws.uri(TEAM), 2],
      [ws.uri(TEAM), 7],
    ]);
    expect(client.published.find((p) => p.uri === ws.uri(SPEC))!.version).toBe(1);
  });

  it('lists each candidate sense as a quick fix; executing one appends GlossaryClarificationResolved and the diagnostics go away (the built server over stdio)', async () => {
    const [ambiguous] = await openSpec('stdio');
    const actions = await codeActions(ambiguous!);
    expect(actions.map((a) => a.title)).toEqual([
      "Use 'workspace' = Git worktree directory for a work package (team_domain)",
      "Use 'workspace' = VS Code workspace configuration file (team_domain)",
      "Define 'workspace' in the mission glossary",
      "Define 'workspace' in the team glossary",
      "Defer 'workspace' for later clarification",
      "Ignore 'workspace' in this spec",
    ]);
    const since = client.mark();
    const result = await client.request<{ ok: boolean }>('workspace/executeCommand', actions[0]!.command);
    expect(result).toMatchObject({ ok: true });

    const [event] = events();
    expect(Object.keys(event!)).toEqual([...Object.keys(event!)].sort());
    expect(event).toMatchObject({
      event_type: 'GlossaryClarificationResolved',
      lamport_clock: 1,
      mission_id: MISSION,
      term_surface: 'workspace',
      selected_sense: { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
      resolution_mode: 'interactive',
      actor: { actor_type: 'human' },
      provenance: { source: 'user_clarification' },
    });
    expect(event!['run_id']).toMatch(/^lsp-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event!['conflict_id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const actor = event!['actor'] as { actor_id: string; display_name: string };
    expect(actor.actor_id).toBe(`user:${actor.display_name}`);
    expect((event!['provenance'] as { actor_id: string }).actor_id).toBe(actor.actor_id);
    expect(readFileSync(logFile(), 'utf8')).toMatch(/\}\n$/);

    const after = await client.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'ambiguous'), since, 'diagnostics without the ambiguity');
    expect(codes(after.diagnostics)).toEqual(['inconsistent@6:14', 'unknown@7:4']);
  });

  it('"Define in the mission glossary" creates mission_local.yaml through workspace/applyEdit, shows it and says where; saving the definition records it', async () => {
    const [, , qzx] = await openSpec();
    const define = (await codeActions(qzx!)).find((a) => a.title === "Define 'QZX' in the mission glossary")!;
    const since = client.mark();
    const result = await client.request<{ ok: boolean; editedUri: string; message: string }>('workspace/executeCommand', define.command);
    expect(result).toMatchObject({ ok: true, editedUri: ws.uri(MISSION_GLOSSARY) });
    const where = 'Added a draft entry for \'QZX\' to .kittify/glossaries/mission_local.yaml:5: replace "TODO: define QZX" with its definition and save the file. Saving records it in the event log.';
    expect(result.message).toBe(where);
    // Said in any client (not only through the command's answer, which most editors drop).
    await client.until(() => client.messages.find((m) => m.type === 3 && m.message === where), 'the message saying where the entry went');
    expect(client.appliedEdits).toHaveLength(1);
    const edit = client.appliedEdits[0]!.edit;
    expect(edit.documentChanges![0]).toEqual({ kind: 'create', uri: ws.uri(MISSION_GLOSSARY), options: { ignoreIfExists: true } });
    expect(readFileSync(ws.file(MISSION_GLOSSARY), 'utf8')).toBe(
      '# Mission glossary (mission_local): terms of one mission, checked before every other scope.\n\nterms:\n  - surface: qzx\n    definition: "TODO: define QZX"\n    status: draft\n',
    );
    expect(client.shownDocuments).toEqual([{ uri: ws.uri(MISSION_GLOSSARY), takeFocus: true, selection: { start: { line: 4, character: 16 }, end: { line: 4, character: 34 } } }]);
    // The draft's "TODO: define QZX" is a placeholder (SPEC §3): a warning on the YAML, and qzx is
    // still undefined until the writer replaces it with a definition.
    const draft = await client.diagnostics(ws.uri(MISSION_GLOSSARY), (ds) => ds.length > 0, since, 'placeholder warning on the new seed file');
    expect(draft.diagnostics.map((d) => [d.code, d.severity, d.range.start])).toEqual([['glossary.placeholder-definition', 2, { line: 4, character: 16 }]]);
    expect(draft.diagnostics[0]!.message).toBe(`The definition of 'qzx' is a placeholder ("TODO: define QZX"), not a definition: the entry does not define the term until it is written.`);
    expect((await client.diagnostics(ws.uri(SPEC), () => true, since)).diagnostics.some((d) => d.code === 'unknown' && d.message.includes("'QZX'"))).toBe(true);
    // The draft wrote no event.
    expect(readdirSync(ws.file('.kittify'))).not.toContain('events');
    const written = client.mark();
    writeFileSync(ws.file(MISSION_GLOSSARY), readFileSync(ws.file(MISSION_GLOSSARY), 'utf8').replace('"TODO: define QZX"', 'Quarterly zone exchange'));
    client.fileChanged(ws.uri(MISSION_GLOSSARY));
    const after = await client.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'unknown'), written, 'diagnostics without qzx');
    expect(codes(after.diagnostics)).toEqual(['ambiguous@5:38', 'inconsistent@6:14', 'ambiguous@7:27']);
    // Saving the definition of a flagged term recorded it, as Spec Kitty records a custom sense.
    await client.until(() => existsSync(logFile()) && readFileSync(logFile(), 'utf8').endsWith('\n'), 'the recorded sense');
    expect(events()).toMatchObject([
      { event_type: 'GlossarySenseUpdated', mission_id: MISSION, term_surface: 'qzx', scope: 'mission_local', update_type: 'create', new_sense: { surface: 'qzx', scope: 'mission_local', definition: 'Quarterly zone exchange', status: 'draft', confidence: 1 } },
    ]);
  });

  it('"Define in the team glossary" appends to the existing team_domain.yaml, keeping its layout', async () => {
    const [, , qzx] = await openSpec();
    const define = (await codeActions(qzx!)).find((a) => a.title === "Define 'QZX' in the team glossary")!;
    const before = readFileSync(ws.file(TEAM), 'utf8');
    await client.request('workspace/executeCommand', define.command);
    expect(client.appliedEdits[0]!.edit.documentChanges).toEqual([
      { textDocument: { uri: ws.uri(TEAM), version: null }, edits: [{ range: { start: { line: 17, character: 0 }, end: { line: 17, character: 0 } }, newText: '\n  - surface: qzx\n    definition: "TODO: define QZX"\n    status: draft\n' }] },
    ]);
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(before + '\n  - surface: qzx\n    definition: "TODO: define QZX"\n    status: draft\n');
  });

  it('with a client that cannot create files, creates the empty seed file itself and sends a plain edit', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], capabilities: { workspace: { applyEdit: true, configuration: true, workspaceEdit: { documentChanges: false } }, window: {} } });
    client.open(ws.uri(SPEC), SPEC_MD);
    const [, , qzx] = (await client.diagnostics(ws.uri(SPEC))).diagnostics;
    const define = (await codeActions(qzx!)).find((a) => a.title === "Define 'QZX' in the mission glossary")!;
    await client.request('workspace/executeCommand', define.command);
    expect(Object.keys(client.appliedEdits[0]!.edit)).toEqual(['changes']);
    expect(readFileSync(ws.file(MISSION_GLOSSARY), 'utf8')).toContain('  - surface: qzx\n    definition: "TODO: define QZX"\n    status: draft\n');
    expect(client.shownDocuments).toEqual([]); // showDocument was not advertised
  });

  it('a client without code action literals gets Commands only: the plain edits go as a command that asks the editor to apply them', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], capabilities: { textDocument: { publishDiagnostics: { versionSupport: true, dataSupport: true }, codeAction: {} } } });
    client.open(ws.uri(SPEC), SPEC_MD);
    const [, workDir] = (await client.diagnostics(ws.uri(SPEC))).diagnostics;
    const answer = await client.request<Command[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: workDir!.range, context: { diagnostics: [workDir] } });
    expect(answer.map((c) => [c.title, c.command])).toEqual([
      ["Replace with 'worktree'", 'specGlossary.applyEdit'],
      ["Defer 'work dir' for later clarification", 'specGlossary.deferTerm'],
      ["Ignore 'work dir' in this spec", 'specGlossary.applyEdit'],
    ]);
    expect(answer.every((c) => !('kind' in c) && !('edit' in c))).toBe(true);
    const replaced = await client.request<{ ok: boolean; message: string }>('workspace/executeCommand', answer[0]);
    expect(replaced).toEqual({ ok: true, message: "Applied: Replace with 'worktree'." });
    expect(client.appliedEdits.at(-1)).toMatchObject({ label: "Replace with 'worktree'" });
    const deferred = await client.request<{ ok: boolean }>('workspace/executeCommand', answer[1]);
    expect(deferred.ok).toBe(true);
    // Arguments are untrusted: an edit of a file outside every folder, or one that deletes, is refused.
    const outside = await client.request<{ ok: boolean; message: string }>('workspace/executeCommand', { command: 'specGlossary.applyEdit', arguments: [{ label: 'x', edit: { changes: { 'file:///etc/passwd': [] } } }] });
    expect(outside.ok).toBe(false);
    expect(outside.message).toContain('is outside every workspace folder');
    await expect(client.request('workspace/executeCommand', { command: 'specGlossary.applyEdit', arguments: [{ label: 'x', edit: { documentChanges: [{ kind: 'delete', uri: ws.uri(SPEC) }] } }] })).rejects.toThrow('edit.documentChanges may only create files and edit text');
  });

  it("a diagnostic of the text before an edit, sent back before the new ones arrive: its fixes are of its term where it moved, never of the old range's text", async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root] });
    client.open(ws.uri(SPEC), SPEC_MD);
    const [, , qzx] = (await client.diagnostics(ws.uri(SPEC))).diagnostics;
    // One character deleted before the term on its line ("The QZX" → "Th QZX"): the old range now reads "QZX " shifted by one.
    client.change(ws.uri(SPEC), [{ range: { start: { line: 7, character: 2 }, end: { line: 7, character: 3 } }, text: '' }]);
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: qzx!.range, context: { diagnostics: [qzx] } });
    const titles = actions.map((a) => a.title);
    expect(titles).toContain("Ignore 'QZX' in this spec");
    expect(titles.filter((t) => !t.includes("'QZX'"))).toEqual([]);
    const ignore = actions.find((a) => a.title === "Ignore 'QZX' in this spec")!;
    expect(JSON.stringify(ignore.edit)).toContain('glossary_exclude_terms: [QZX]');
  });

  it('a client that cannot apply workspace edits (no workspace.applyEdit) is offered no fix that needs one', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], capabilities: { workspace: { configuration: true, workspaceFolders: true } } });
    client.open(ws.uri(SPEC), SPEC_MD);
    const [, workDir, qzx] = (await client.diagnostics(ws.uri(SPEC))).diagnostics;
    const titles = async (d: Diagnostic) => (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: ws.uri(SPEC) }, range: d.range, context: { diagnostics: [d] } })).map((a) => a.title);
    // (Plain edits still come as CodeActions: the client applies those itself.)
    expect(await titles(qzx!)).toEqual(["Defer 'QZX' for later clarification", "Ignore 'QZX' in this spec", "Ignore 'QZX' in this workspace"]);
    expect(await titles(workDir!)).toContain("Replace with 'worktree'");
  });

  it('reports an edit the editor refused, and writes nothing', async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], rejectEdits: true });
    client.open(ws.uri(SPEC), SPEC_MD);
    const [, , qzx] = (await client.diagnostics(ws.uri(SPEC))).diagnostics;
    const define = (await codeActions(qzx!)).find((a) => a.title === "Define 'QZX' in the team glossary")!;
    const before = readFileSync(ws.file(TEAM), 'utf8');
    const result = await client.request('workspace/executeCommand', define.command);
    expect(result).toEqual({ ok: false, message: 'The editor did not apply the edit to .kittify/glossaries/team_domain.yaml: rejected by the test; add its entry to .kittify/glossaries/team_domain.yaml yourself and save the file (saving records it). Nothing was written.' });
    await client.until(() => client.messages.find((m) => m.type === 2 && m.message === (result as { message: string }).message), 'a warning');
    expect(readFileSync(ws.file(TEAM), 'utf8')).toBe(before);
  });

  it('defining with a definition argument appends GlossarySenseUpdated + GlossaryClarificationResolved', async () => {
    const [ambiguous] = await openSpec();
    const define = (await codeActions(ambiguous!)).find((a) => a.title === "Define 'workspace' in the mission glossary")!;
    const since = client.mark();
    const args = { ...(define.command!.arguments![0] as object), definition: 'The checkout team folder' };
    await client.request('workspace/executeCommand', { command: define.command!.command, arguments: [args] });
    const [updated, resolved] = events();
    expect(updated).toMatchObject({
      event_type: 'GlossarySenseUpdated',
      lamport_clock: 1,
      scope: 'mission_local',
      term_surface: 'workspace',
      update_type: 'create',
      new_sense: { surface: 'workspace', scope: 'mission_local', definition: 'The checkout team folder', confidence: 1, status: 'active' },
    });
    expect(resolved).toMatchObject({ event_type: 'GlossaryClarificationResolved', lamport_clock: 2, selected_sense: { surface: 'workspace', scope: 'mission_local', definition: 'The checkout team folder', confidence: 1 } });
    expect(readFileSync(logFile(), 'utf8')).toContain('"confidence": 1.0');
    expect(client.appliedEdits).toEqual([]);
    await client.diagnostics(ws.uri(SPEC), (ds) => !ds.some((d) => d.code === 'ambiguous'), since, 'diagnostics without the ambiguity');
  });

  it('defer appends GlossaryClarificationRequested; picking a sense later closes the same conflict', async () => {
    const [ambiguous] = await openSpec();
    const defer = (await codeActions(ambiguous!)).find((a) => a.title === "Defer 'workspace' for later clarification")!;
    const since = client.mark();
    await client.request('workspace/executeCommand', defer.command);
    const [requested] = events();
    expect(requested).toMatchObject({
      event_type: 'GlossaryClarificationRequested',
      mission_id: MISSION,
      question: "What does 'workspace' mean in this context?",
      term: 'workspace',
      options: ['Git worktree directory for a work package', 'VS Code workspace configuration file'],
      urgency: 'high',
      step_id: 'spec',
    });
    // Still ambiguous, now with the open clarification in its payload: no second defer is offered.
    const republished = await client.diagnostics(ws.uri(SPEC), (ds) => (ds[0]?.data as { openConflictId?: string })?.openConflictId !== undefined, since, 'diagnostics with the open clarification');
    const actions = await codeActions(republished.diagnostics[0]!);
    expect(actions.map((a) => a.title)).not.toContain("Defer 'workspace' for later clarification");
    await client.request('workspace/executeCommand', actions[1]!.command);
    const [, resolved] = events();
    expect(resolved).toMatchObject({ event_type: 'GlossaryClarificationResolved', conflict_id: requested!['conflict_id'], lamport_clock: 2 });
  });

  it('the "Replace with" quick fix is a plain text edit', async () => {
    const [, workDir] = await openSpec();
    const [replace] = await codeActions(workDir!);
    expect(replace).toMatchObject({ title: "Replace with 'worktree'", kind: 'quickfix', isPreferred: true, edit: { changes: { [ws.uri(SPEC)]: [{ range: RANGES.workDir, newText: 'worktree' }] } } });
    expect(replace!.command).toBeUndefined();
  });

  it('rejects a command with bad arguments and keeps running', async () => {
    await openSpec();
    await expect(client.request('workspace/executeCommand', { command: 'specGlossary.selectSense', arguments: [{ uri: ws.uri(SPEC) }] })).rejects.toThrow(/must be a non-empty string/);
    await expect(client.request('workspace/executeCommand', { command: 'specGlossary.nope', arguments: [] })).rejects.toThrow();
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: ws.uri(SPEC) }, position: RANGES.qzx.start });
    expect(hover!.contents.value).toContain('**Unknown**');
  });
});
