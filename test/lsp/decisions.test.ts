/**
 * Decisions through the protocol, as an editor drives them: changing one's mind on a pinned term,
 * reopening it, deferring and ignoring, applying a stale quick fix twice (issue 19 item 7), and
 * commands with arguments that do not hold (issue 19 item 1).
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, DocumentDiagnosticReport, FullDocumentDiagnosticReport, Hover, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { makeWorkspace, MISSION, RANGES, SPEC, SPEC_MD, type TempWorkspace } from '../service/fixtures';
import { EventStore } from '../../server/src/node/eventStore';
import { Commands } from '../../server/src/shared/protocol';
import { TestClient } from './client';

let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
  ws = undefined;
  while (cleanups.length > 0) cleanups.pop()!();
});

const GIT = 'Git worktree directory for a work package';
const VSCODE = 'VS Code workspace configuration file';
const logFile = () => ws!.file(`.kittify/events/glossary/${MISSION}.events.jsonl`);
const events = () => (existsSync(logFile()) ? readFileSync(logFile(), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>) : []);

async function openSpec(text = SPEC_MD, options: Partial<Parameters<typeof TestClient.start>[0]> = {}): Promise<Diagnostic[]> {
  ws = makeWorkspace({ [SPEC]: text });
  client = await TestClient.start({ folders: [ws.root], ...options });
  client.open(ws.uri(SPEC), text);
  return (await client.diagnostics(ws.uri(SPEC))).diagnostics;
}

function codeActions(range: Diagnostic['range'], diagnostics: Diagnostic[] = []): Promise<CodeAction[]> {
  return client!.request('textDocument/codeAction', { textDocument: { uri: ws!.uri(SPEC) }, range, context: { diagnostics } });
}

function run<T = { ok: boolean; message: string; eventIds?: string[] }>(action: CodeAction | undefined): Promise<T> {
  expect(action, 'the code action').toBeDefined();
  return client!.request<T>('workspace/executeCommand', action!.command);
}

const byTitle = (actions: CodeAction[], title: string) => actions.find((a) => a.title === title);

describe('changing one\'s mind about a decision', () => {
  it('a pinned term offers "Use … instead" and "Reopen …"; picking another sense records a new Resolved, reopening unpins and shows the term as deferred', async () => {
    const [ambiguous] = await openSpec();
    await run(byTitle(await codeActions(ambiguous!.range, [ambiguous!]), `Use 'workspace' = ${GIT} (team_domain)`));
    await client!.diagnostics(ws!.uri(SPEC), (ds) => !ds.some((d) => d.code === 'ambiguous'), 0, 'the ambiguity gone');

    // No diagnostic on the pinned term: the actions come from the position.
    const pinned = await codeActions({ start: RANGES.workspace1.start, end: RANGES.workspace1.start });
    const titles = pinned.map((a) => a.title);
    expect(titles).toContain(`Use 'workspace' = ${VSCODE} (team_domain) instead`);
    expect(titles).toContain("Reopen 'workspace' for clarification");
    expect(titles).not.toContain(`Use 'workspace' = ${GIT} (team_domain) instead`);
    const hover = await client!.request<Hover>('textDocument/hover', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.workspace1.start });
    const first = events()[0]!;
    expect((hover.contents as MarkupContent).value).toContain(`**Pinned** for mission 041-mission (${MISSION}) by ${first['actor']['actor_id']} on `);
    expect((hover.contents as MarkupContent).value).toContain(`Recorded by event ${first['event_id']} (conflict ${first['conflict_id']})`);

    const changed = await run(byTitle(pinned, `Use 'workspace' = ${VSCODE} (team_domain) instead`));
    expect(changed).toMatchObject({ ok: true, message: `'workspace' now means "${VSCODE}" (team_domain) in mission 041-mission; recorded in .kittify/events/glossary/${MISSION}.events.jsonl.` });
    const second = events()[1]!;
    expect(second).toMatchObject({ event_type: 'GlossaryClarificationResolved', selected_sense: { definition: VSCODE, scope: 'team_domain', confidence: 0.7 } });
    expect(second['conflict_id']).not.toBe(first['conflict_id']);

    const since = client!.mark();
    const reopened = await run(byTitle(await codeActions({ start: RANGES.workspace1.start, end: RANGES.workspace1.start }), "Reopen 'workspace' for clarification"));
    expect(reopened.ok).toBe(true);
    const request = events()[2]!;
    expect(request).toMatchObject({ event_type: 'GlossaryClarificationRequested', term: 'workspace', question: "Reopened: what does 'workspace' mean in this context? It was decided before; pick a sense again.", urgency: 'high', step_id: 'spec', mission_id: MISSION });
    expect(request['options']).toEqual(expect.arrayContaining([GIT, VSCODE]));
    // Replay unpins the term: it is ambiguous again, shown as deferred.
    const back = await client!.diagnostics(ws!.uri(SPEC), (ds) => ds.some((d) => d.code === 'ambiguous'), since, 'the ambiguity back, deferred');
    const again = back.diagnostics.find((d) => d.code === 'ambiguous')!;
    expect(again.severity).toBe(3);
    expect(again.message).toMatch(/Deferred since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(again.data).toMatchObject({ openConflictId: request['conflict_id'] });

    // Answering it closes exactly that clarification.
    await run(byTitle(await codeActions(again.range, [again]), `Use 'workspace' = ${GIT} (team_domain)`));
    expect(events()[3]).toMatchObject({ event_type: 'GlossaryClarificationResolved', conflict_id: request['conflict_id'] });
  });
});

describe("the server's own decisions and the watchers", () => {
  it("a decision is read once: the watchers' report of the server's own append reloads nothing; another writer's append is read", async () => {
    const [ambiguous] = await openSpec(SPEC_MD, { settings: { logLevel: 'debug' } });
    const loads = () => client!.logs.filter((l) => l.message.startsWith(`loaded ${ws!.root} (version`)).length;
    // (Counted once the start's reads are over: on a busy machine the watcher's report of the
    // workspace's files, written just before the server started, can come late.)
    for (let last = -1; last !== loads(); ) {
      last = loads();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const before = loads();
    await run(byTitle(await codeActions(ambiguous!.range, [ambiguous!]), `Use 'workspace' = ${GIT} (team_domain)`));
    // The folder is read again once, before the command answers.
    expect(loads(), 'reads of the folder once the command answered').toBe(before + 1);
    // The editor's watcher reports the append (the server's own watcher does too): nothing new to
    // read, and the spec is not checked and published again.
    const reported = client!.mark();
    client!.fileChanged(ws!.uri(`.kittify/events/glossary/${MISSION}.events.jsonl`));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(loads(), 'reads of the folder after the watchers reported the append').toBe(before + 1);
    expect(client!.published.slice(reported).filter((p) => p.uri === ws!.uri(SPEC)), 'publications of the spec after the report').toEqual([]);

    // Another writer pins the other sense: read (from the watchers' report), and the actions follow it.
    const [mine] = events();
    const theirs = { ...mine, event_id: '0b8f3c1e-7a2d-4e5f-9c6b-1a2b3c4d5e6f', conflict_id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9', lamport_clock: mine!['lamport_clock'] + 1, selected_sense: { surface: 'workspace', scope: 'team_domain', definition: VSCODE, confidence: 0.7 } };
    appendFileSync(logFile(), `${JSON.stringify(theirs)}\n`);
    client!.fileChanged(ws!.uri(`.kittify/events/glossary/${MISSION}.events.jsonl`));
    await client!.until(() => loads() > before + 1 || undefined, "the folder read again after another writer's append");
    const titles = (await codeActions({ start: RANGES.workspace1.start, end: RANGES.workspace1.start })).map((a) => a.title);
    expect(titles).toContain(`Use 'workspace' = ${GIT} (team_domain) instead`);
    expect(titles).not.toContain(`Use 'workspace' = ${VSCODE} (team_domain) instead`);
  });

  it('the log open in the editor, unedited: the decision the server appends counts at once (the buffer is an older copy); a line deleted in the buffer, unsaved, counts too', async () => {
    const [ambiguous] = await openSpec();
    // The log as another writer left it, open in the editor as read.
    const observed = { event_type: 'TermCandidateObserved' as const, mission_id: MISSION, run_id: 'cli-before', term: 'lane', source_step: 'spec', actor_id: 'user:someone', confidence: 0.5, extraction_method: 'acronym' as const, context: 'x' };
    const [written] = await new EventStore(ws!.root).append(MISSION, [observed]);
    expect(written).toBeDefined();
    const logUri = ws!.uri(`.kittify/events/glossary/${MISSION}.events.jsonl`);
    const before = readFileSync(logFile(), 'utf8');
    client!.open(logUri, before, 'jsonl');

    let since = client!.mark();
    await run(byTitle(await codeActions(ambiguous!.range, [ambiguous!]), `Use 'workspace' = ${GIT} (team_domain)`));
    expect(events().map((e) => e['event_type'])).toEqual(['TermCandidateObserved', 'GlossaryClarificationResolved']);
    // No watcher report and no change of the buffer: the server's own append is read.
    await client!.diagnostics(ws!.uri(SPEC), (ds) => !ds.some((d) => d.code === 'ambiguous'), since, 'the ambiguity gone with the log open');

    // The editor reloads the buffer from disk; then the writer deletes the decision's line, unsaved: the buffer counts.
    client!.change(logUri, [{ text: readFileSync(logFile(), 'utf8') }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    since = client!.mark();
    client!.change(logUri, [{ text: before }]);
    await client!.diagnostics(ws!.uri(SPEC), (ds) => ds.some((d) => d.code === 'ambiguous'), since, 'the ambiguity back with the decision deleted in the buffer');
  });
});

describe("a decision in one mission and the other missions' open documents", () => {
  const OTHER = 'kitty-specs/042-other/spec.md';
  const OTHER_MD = 'The workspace of this mission is shared.\n';
  const TEAM = '.kittify/glossaries/team_domain.yaml';
  async function openBoth(pull = false): Promise<Diagnostic> {
    ws = makeWorkspace({ [SPEC]: SPEC_MD, [OTHER]: OTHER_MD });
    client = await TestClient.start({ folders: [ws.root], pull });
    client.open(ws.uri(SPEC), SPEC_MD);
    client.open(ws.uri(OTHER), OTHER_MD);
    if (pull) return ((await client.request<FullDocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: ws.uri(SPEC) } })).items[0]!);
    await client.diagnostics(ws.uri(OTHER));
    return (await client.diagnostics(ws.uri(SPEC))).diagnostics[0]!;
  }
  const addTeamSense = () => {
    writeFileSync(ws!.file(TEAM), `${readFileSync(ws!.file(TEAM), 'utf8')}\n  - surface: checkout\n    definition: A working copy of one branch\n    confidence: 0.9\n    status: active\n`);
    client!.fileChanged(ws!.uri(TEAM));
  };

  it("(push) the decided mission's spec is published again, the other mission's is not checked again; a team change republishes both", async () => {
    const ambiguous = await openBoth();
    const decided = client!.mark();
    await run(byTitle(await codeActions(ambiguous.range, [ambiguous]), `Use 'workspace' = ${GIT} (team_domain)`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = client!.published.slice(decided);
    expect(after.filter((p) => p.uri === ws!.uri(SPEC)).length, 'publications of the decided spec').toBeGreaterThan(0);
    expect(after.filter((p) => p.uri === ws!.uri(SPEC)).at(-1)!.diagnostics.map((d) => d.code)).toEqual(['inconsistent', 'unknown']);
    expect(after.filter((p) => p.uri === ws!.uri(OTHER)), "publications of the other mission's spec").toEqual([]);

    const changed = client!.mark();
    addTeamSense();
    await client!.until(() => [SPEC, OTHER].every((f) => client!.published.slice(changed).some((p) => p.uri === ws!.uri(f))) || undefined, 'both specs published after the team change');
    // (The other mission's spec still has its ambiguous term: nothing was decided there.)
    expect(client!.published.slice(changed).filter((p) => p.uri === ws!.uri(OTHER)).at(-1)!.diagnostics.map((d) => d.code)).toEqual(['ambiguous']);
  });

  it("(pull) the other mission's report is unchanged after the decision, the decided one's is not; after a team change neither is", async () => {
    const ambiguous = await openBoth(true);
    const report = (uri: string, previousResultId?: string) => client!.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) });
    const spec = (await report(ws!.uri(SPEC))) as FullDocumentDiagnosticReport;
    const other = (await report(ws!.uri(OTHER))) as FullDocumentDiagnosticReport;
    const beforeDecision = client!.diagnosticRefreshes;
    await run(byTitle(await codeActions(ambiguous.range, [ambiguous]), `Use 'workspace' = ${GIT} (team_domain)`));
    // (The decision's own refresh comes once the requests of a few milliseconds are gathered.)
    await client!.until(() => client!.diagnosticRefreshes > beforeDecision || undefined, 'workspace/diagnostic/refresh after the decision');
    const specAfter = await report(ws!.uri(SPEC), spec.resultId);
    expect(specAfter.kind).toBe('full');
    expect(await report(ws!.uri(OTHER), other.resultId)).toEqual({ kind: 'unchanged', resultId: other.resultId });

    const refreshes = client!.diagnosticRefreshes;
    addTeamSense();
    await client!.until(() => client!.diagnosticRefreshes > refreshes || undefined, 'workspace/diagnostic/refresh after the team change');
    // (A refresh of the decision may still come after the change was made: pulled until the change shows.)
    for (let attempt = 0; (await report(ws!.uri(OTHER), other.resultId)).kind !== 'full'; attempt++) {
      if (attempt === 100) throw new Error("the other mission's report never changed after the team change");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await report(ws!.uri(SPEC), specAfter.resultId)).kind).toBe('full');
  });
});

describe('a quick fix applied twice (issue 19 item 7)', () => {
  it('the same "Use" twice: the second records nothing and says so; after a deferral the stale list never resolves a closed conflict', async () => {
    const [ambiguous] = await openSpec();
    const defer = byTitle(await codeActions(ambiguous!.range, [ambiguous!]), "Defer 'workspace' for later clarification");
    await run(defer);
    const [requested] = events();
    const deferred = (await client!.diagnostics(ws!.uri(SPEC), (ds) => (ds[0]?.data as { openConflictId?: string })?.openConflictId !== undefined, 0, 'the deferred diagnostic')).diagnostics[0]!;
    const stale = await codeActions(deferred.range, [deferred]);
    const use = byTitle(stale, `Use 'workspace' = ${GIT} (team_domain)`);
    await run(use);
    expect(events()[1]).toMatchObject({ event_type: 'GlossaryClarificationResolved', conflict_id: requested!['conflict_id'] });

    // The same action again: nothing is written, and the user is told why.
    const twice = await run(use);
    expect(twice).toEqual({ ok: true, message: `'workspace' already means "${GIT}" (team_domain) in mission 041-mission; nothing was recorded.`, eventIds: [] });
    await client!.until(() => client!.messages.find((m) => m.message === twice.message), 'the message');
    expect(events()).toHaveLength(2);

    // The other sense from the stale list: a new decision with a new conflict id, not the closed one.
    await run(byTitle(stale, `Use 'workspace' = ${VSCODE} (team_domain)`));
    const third = events()[2]!;
    expect(third['conflict_id']).not.toBe(requested!['conflict_id']);
    const resolvedIds = events().filter((e) => e['event_type'] === 'GlossaryClarificationResolved').map((e) => e['conflict_id']);
    expect(new Set(resolvedIds).size).toBe(resolvedIds.length);

    // A stale Defer after the decision: nothing is written (a decision is reopened on purpose only).
    const again = await run(defer);
    expect(again).toMatchObject({ ok: true, eventIds: [] });
    expect(again.message).toBe("'workspace' is not flagged in this document now; nothing to defer.");
    expect(events()).toHaveLength(3);
  });

  it('"Define … with a definition" twice records the sense once', async () => {
    const [, , qzx] = await openSpec();
    const define = byTitle(await codeActions(qzx!.range, [qzx!]), "Define 'QZX' in the team glossary")!;
    const args = { ...(define.command!.arguments![0] as object), definition: 'Quality zone exchange' };
    const command = { command: define.command!.command, arguments: [args] };
    expect(await client!.request('workspace/executeCommand', command)).toMatchObject({ ok: true });
    expect(events().map((e) => e['event_type'])).toEqual(['GlossarySenseUpdated', 'GlossaryClarificationResolved']);
    expect(await client!.request('workspace/executeCommand', command)).toMatchObject({ ok: true, eventIds: [] });
    expect(events()).toHaveLength(2);
    // A placeholder is no definition.
    const placeholder = { command: define.command!.command, arguments: [{ ...args, definition: 'TODO: later' }] };
    expect(await client!.request('workspace/executeCommand', placeholder)).toMatchObject({ ok: false, message: '"TODO: later" is a placeholder, not a definition of \'QZX\'. Nothing was written.' });
  });
});

describe('ignore quick fixes', () => {
  it('"Ignore in this spec" is an edit of the front matter: applied, the term is no longer reported', async () => {
    const [, , qzx] = await openSpec();
    const ignore = byTitle(await codeActions(qzx!.range, [qzx!]), "Ignore 'QZX' in this spec")!;
    expect(ignore.command).toBeUndefined();
    const edits = ignore.edit!.changes![ws!.uri(SPEC)] as TextEdit[];
    const text = TextDocument.applyEdits(TextDocument.create(ws!.uri(SPEC), 'markdown', 1, SPEC_MD), edits);
    expect(text.startsWith('---\ncritical_step: true\nglossary_exclude_terms: [QZX]\n---\n')).toBe(true);
    const since = client!.mark();
    client!.change(ws!.uri(SPEC), [{ text }]);
    const after = await client!.diagnostics(ws!.uri(SPEC), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'diagnostics without QZX');
    expect(after.diagnostics.map((d) => d.code)).toEqual(['ambiguous', 'inconsistent', 'ambiguous']);
  });

  it('"Ignore in this workspace" edits .kittify/config.yaml keeping its comments; saved, the term is known in every spec', async () => {
    const [, , qzx] = await openSpec();
    writeFileSync(ws!.file('.kittify/config.yaml'), '# team settings\nglossary:\n  strictness: medium  # default\n');
    const ignore = byTitle(await codeActions(qzx!.range, [qzx!]), "Ignore 'QZX' in this workspace")!;
    const config = ws!.uri('.kittify/config.yaml');
    const text = TextDocument.applyEdits(TextDocument.create(config, 'yaml', 1, readFileSync(ws!.file('.kittify/config.yaml'), 'utf8')), ignore.edit!.changes![config] as TextEdit[]);
    expect(text).toBe('# team settings\nglossary:\n  strictness: medium  # default\n  ignore_words: [qzx]\n');
    const since = client!.mark();
    writeFileSync(ws!.file('.kittify/config.yaml'), text);
    client!.fileChanged(config);
    await client!.diagnostics(ws!.uri(SPEC), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'diagnostics without QZX');
  });
});

describe('untrusted command arguments (issue 19 item 1)', () => {
  function outside(): string {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-outside-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it('a document outside every workspace folder: no fix that writes a decision is offered, and none runs; no .kittify/ is made beside it', async () => {
    ws = makeWorkspace();
    const elsewhere = outside();
    const note = path.join(elsewhere, 'notes.md');
    writeFileSync(note, '# Notes\n\nThe QZX rules and the ZQXW rules.\n');
    client = await TestClient.start({ folders: [ws.root] });
    const uri = URI.file(note).toString();
    client.open(uri, readFileSync(note, 'utf8'));
    const diagnostics = (await client.diagnostics(uri, (ds) => ds.length > 0)).diagnostics;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]!.range, context: { diagnostics } });
    // (Define and Defer would always fail here: they are not offered.)
    expect(actions.filter((a) => a.command).map((a) => a.title)).toEqual([]);
    // Sent all the same (arguments are untrusted), each is refused.
    const term = { uri, missionId: 'default', stepId: 'notes', term: 'qzx', written: 'QZX' };
    for (const command of [
      { command: Commands.deferTerm, arguments: [term] },
      { command: Commands.defineTerm, arguments: [{ ...term, scope: 'team_domain' }] },
      { command: Commands.defineTerm, arguments: [{ ...term, scope: 'team_domain', definition: 'Quality zone exchange' }] },
    ]) {
      const result = await client.request<{ ok: boolean; message: string }>('workspace/executeCommand', command);
      expect(result.ok, command.command).toBe(false);
      expect(result.message).toContain('is outside every workspace folder');
    }
    expect(readdirSync(elsewhere)).toEqual(['notes.md']);
    expect(client.appliedEdits).toEqual([]);
    // No edit would make a workspace's config beside it either; the spec's own front matter may still be edited.
    const titles = actions.map((a) => a.title);
    expect(titles.filter((t) => t.includes('in this workspace'))).toEqual([]);
    expect(titles.filter((t) => t.includes('in this spec'))).not.toEqual([]);
  });

  it("an unsaved buffer (untitled:) in a window with a folder open: \"Ignore in this workspace\" edits that folder's config", async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root] });
    const uri = 'untitled:Untitled-1';
    client.open(uri, '# Notes\n\nThe QZX rules.\n');
    const diagnostics = (await client.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown'))).diagnostics;
    const qzx = diagnostics.find((d) => d.code === 'unknown')!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: qzx.range, context: { diagnostics: [qzx] } });
    const ignore = byTitle(actions, "Ignore 'QZX' in this workspace")!;
    expect(Object.keys(ignore.edit!.changes ?? {}).concat((ignore.edit!.documentChanges ?? []).map((c) => ('textDocument' in c ? c.textDocument.uri : 'uri' in c ? c.uri : ''))).filter((u) => u.endsWith('config.yaml'))).toEqual([ws.uri('.kittify/config.yaml')]);
  });

  it('an unsaved buffer (untitled:) with no folder open: checked against the bundled core glossary, offered no fix that writes', async () => {
    client = await TestClient.start({ folders: [] });
    const uri = 'untitled:Untitled-2';
    client.open(uri, '# Notes\n\nThe ZQXW and the mission.\n');
    const diagnostics = (await client.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown'))).diagnostics;
    const zqxw = diagnostics.find((d) => d.code === 'unknown')!;
    expect(zqxw.message).toBe("Unknown term 'ZQXW': not defined in any glossary scope (0 senses).");
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 20 } });
    expect(JSON.stringify(hover)).toContain('spec_kitty_core');
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: zqxw.range, context: { diagnostics: [zqxw] } });
    expect(actions.map((a) => a.title)).toEqual(["Ignore 'ZQXW' in this spec"]);
  });

  it('made-up uris, missions, terms and senses are refused and nothing is written anywhere', async () => {
    await openSpec();
    const elsewhere = outside();
    const madeUp = [URI.file(path.join(elsewhere, 'nowhere', 'spec.md')).toString(), 'file:///spec.md', 'file:///', 'untitled:x', 'https://example.com/spec.md'];
    const rootKittifyBefore = existsSync('/.kittify');
    for (const uri of madeUp) {
      for (const [command, extra] of [
        ['specGlossary.selectSense', { sense: { surface: 'workspace', scope: 'team_domain', definition: GIT, confidence: 0.9 } }],
        ['specGlossary.defineTerm', { scope: 'team_domain' }],
        ['specGlossary.defineTerm', { scope: 'team_domain', definition: 'made up' }],
        ['specGlossary.deferTerm', { stepId: 'spec' }],
        ['specGlossary.reopenTerm', {}],
      ] as const) {
        const result = await client!.request<{ ok: boolean; message: string }>('workspace/executeCommand', { command, arguments: [{ uri, missionId: MISSION, term: 'workspace', ...extra }] });
        expect(result.ok, `${command} ${uri}`).toBe(false);
      }
      const listed = await client!.request<{ ok: boolean }>('workspace/executeCommand', { command: 'specGlossary.listCandidates', arguments: [{ uri }] });
      expect(listed.ok, `listCandidates ${uri}`).toBe(false);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync('/.kittify')).toBe(rootKittifyBefore);
    expect(existsSync(path.join(path.dirname(ws!.root), '.kittify'))).toBe(false);

    // A real document, but a mission, term or sense that does not hold now.
    const base = { uri: ws!.uri(SPEC), missionId: MISSION, term: 'workspace' };
    const refused = async (args: object, command = 'specGlossary.selectSense') => (await client!.request<{ ok: boolean; message: string }>('workspace/executeCommand', { command, arguments: [args] })).message;
    const sense = { surface: 'workspace', scope: 'team_domain', definition: GIT, confidence: 0.9 };
    expect(await refused({ ...base, missionId: 'another-mission', sense })).toBe(`The document now belongs to mission 041-mission (${MISSION}), not another-mission: ask for the quick fixes again. Nothing was written.`);
    expect(await refused({ ...base, term: 'frobnicator', sense })).toBe("'frobnicator' does not occur in spec.md now: ask for the quick fixes again. Nothing was written.");
    expect(await refused({ ...base, sense: { ...sense, definition: 'A made-up sense' } })).toBe(`'workspace' has no team_domain sense "A made-up sense" now: ask for the quick fixes again. Nothing was written.`);
    expect(existsSync(logFile())).toBe(false);
  });

  it('"Define" refused by the editor leaves nothing behind: no glossary file, no folder', async () => {
    ws = makeWorkspace();
    rmSync(ws.file('.kittify/glossaries'), { recursive: true });
    client = await TestClient.start({ folders: [ws.root], rejectEdits: true, capabilities: { workspace: { applyEdit: true, configuration: true, workspaceEdit: { documentChanges: false } }, window: {} } });
    client.open(ws.uri(SPEC), SPEC_MD);
    const qzx = (await client.diagnostics(ws.uri(SPEC), (ds) => ds.some((d) => d.code === 'unknown'))).diagnostics.find((d) => d.code === 'unknown')!;
    const result = await run(byTitle(await codeActions(qzx.range, [qzx]), "Define 'QZX' in the mission glossary"));
    expect(result).toEqual({ ok: false, message: 'The editor did not apply the edit to .kittify/glossaries/mission_local.yaml: rejected by the test; add its entry to .kittify/glossaries/mission_local.yaml yourself and save the file (saving records it). Nothing was written.' });
    expect(client.appliedEdits).toHaveLength(1);
    expect(readdirSync(ws.file('.kittify')).sort()).toEqual(['config.yaml']);
  });
});

describe('a glossary file made for a draft entry and never saved (issue: empty seed files left behind)', () => {
  const MISSION_SEED = '.kittify/glossaries/mission_local.yaml';
  const define = async () => {
    ws = makeWorkspace();
    client = await TestClient.start({ folders: [ws.root], unsavedEdits: true });
    client.open(ws.uri(SPEC), SPEC_MD);
    const qzx = (await client.diagnostics(ws.uri(SPEC), (ds) => ds.some((d) => d.code === 'unknown'))).diagnostics.find((d) => d.code === 'unknown')!;
    expect(await run(byTitle(await codeActions(qzx.range, [qzx]), "Define 'QZX' in the mission glossary"))).toMatchObject({ ok: true });
    // The editor made the file at once; the entry waits in its unsaved buffer.
    expect(readFileSync(ws.file(MISSION_SEED), 'utf8')).toBe('');
  };

  it('its document closed unsaved: the empty file is removed', async () => {
    await define();
    client!.open(ws!.uri(MISSION_SEED), 'terms:\n  - surface: qzx\n', 'yaml');
    client!.close(ws!.uri(MISSION_SEED));
    await client!.until(() => !existsSync(ws!.file(MISSION_SEED)) || undefined, 'the empty file removed');
  });

  it('the server shut down (the editor quit without saving): the empty file is removed', async () => {
    await define();
    await client!.request('shutdown', undefined);
    expect(existsSync(ws!.file(MISSION_SEED))).toBe(false);
  });

  it('saved with its entry: kept, on close and on shutdown', async () => {
    await define();
    writeFileSync(ws!.file(MISSION_SEED), 'terms:\n  - surface: qzx\n    definition: A quark index\n    status: active\n');
    client!.open(ws!.uri(MISSION_SEED), readFileSync(ws!.file(MISSION_SEED), 'utf8'), 'yaml');
    client!.close(ws!.uri(MISSION_SEED));
    await client!.request('shutdown', undefined);
    expect(readFileSync(ws!.file(MISSION_SEED), 'utf8')).toContain('A quark index');
  });
});

describe('Define when the client cannot show documents', () => {
  for (const mode of ['unsupported', 'fail', 'error'] as const) {
    it(`(showDocument ${mode}) the edit is applied and the message says where the entry is`, async () => {
      const options = mode === 'unsupported' ? { capabilities: { window: { showDocument: { support: false } } } } : { showDocument: mode };
      const [, , qzx] = await openSpec(SPEC_MD, options);
      const result = await run(byTitle(await codeActions(qzx!.range, [qzx!]), "Define 'QZX' in the team glossary"));
      expect(result).toMatchObject({ ok: true });
      expect(result.message).toBe(
        'Added a draft entry for \'QZX\' to .kittify/glossaries/team_domain.yaml:20: replace "TODO: define QZX" with its definition and save the file (open .kittify/glossaries/team_domain.yaml at line 20). Saving records it in the event log.',
      );
      expect(readFileSync(ws!.file('.kittify/glossaries/team_domain.yaml'), 'utf8')).toContain('  - surface: qzx\n    definition: "TODO: define QZX"\n    status: draft\n');
      await client!.until(() => client!.messages.find((m) => m.message === result.message), 'the message in the editor');
      // Asked again before writing the definition: the waiting draft is pointed at, not doubled.
      const again = await run(byTitle(await codeActions(qzx!.range, [qzx!]), "Define 'QZX' in the team glossary"));
      expect(again.message).toBe(".kittify/glossaries/team_domain.yaml:20 already has a draft entry for 'QZX': write its definition there and save the file (open .kittify/glossaries/team_domain.yaml).");
      expect(readFileSync(ws!.file('.kittify/glossaries/team_domain.yaml'), 'utf8').match(/surface: qzx/g)).toHaveLength(1);
    });
  }
});

describe('after shutdown (issue 19 item 9)', () => {
  it('every request but exit is answered InvalidRequest, and no command writes', async () => {
    const [ambiguous] = await openSpec();
    const use = byTitle(await codeActions(ambiguous!.range, [ambiguous!]), `Use 'workspace' = ${GIT} (team_domain)`)!;
    await client!.request('shutdown', undefined);
    const invalid = { code: -32600 };
    await expect(client!.request('workspace/executeCommand', use.command)).rejects.toMatchObject(invalid);
    await expect(client!.request('textDocument/hover', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.workspace1.start })).rejects.toMatchObject(invalid);
    await expect(client!.request('textDocument/codeAction', { textDocument: { uri: ws!.uri(SPEC) }, range: ambiguous!.range, context: { diagnostics: [ambiguous!] } })).rejects.toMatchObject(invalid);
    await expect(client!.request('textDocument/completion', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.workspace1.start })).rejects.toMatchObject(invalid);
    await expect(client!.request('textDocument/references', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.workspace1.start, context: { includeDeclaration: true } })).rejects.toMatchObject(invalid);
    await expect(client!.request('shutdown', undefined)).rejects.toMatchObject(invalid);
    // A glossary saved now is not recorded either.
    mkdirSync(ws!.file('.kittify/glossaries'), { recursive: true });
    writeFileSync(ws!.file('.kittify/glossaries/mission_local.yaml'), 'terms:\n  - surface: qzx\n    definition: Quality zone exchange\n');
    client!.fileChanged(ws!.uri('.kittify/glossaries/mission_local.yaml'));
    await expect(client!.request('textDocument/hover', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.qzx.start })).rejects.toMatchObject(invalid);
    expect(existsSync(logFile())).toBe(false);
  });

  it('before shutdown an unknown method is MethodNotFound', async () => {
    await openSpec();
    await expect(client!.request('spec/unknown', {})).rejects.toMatchObject({ code: -32601 });
  });
});

describe('shutdown while a decision is being written', () => {
  it('is answered once the append under way is written (the exit after it cuts nothing), and refuses appends after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let appendStarted!: () => void;
    const started = new Promise<void>((resolve) => (appendStarted = resolve));
    const [ambiguous] = await openSpec(SPEC_MD, {
      eventStore: (root) => {
        const log = new EventStore(root);
        return {
          append: async (missionId, drafts, options) => {
            appendStarted();
            await gate;
            return log.append(missionId, drafts, options);
          },
        };
      },
    });
    const use = byTitle(await codeActions(ambiguous!.range, [ambiguous!]), `Use 'workspace' = ${GIT} (team_domain)`)!;
    const decided = client!.request<{ ok: boolean }>('workspace/executeCommand', use.command);
    await started;
    let answered = false;
    const shutdown = client!.request('shutdown', undefined).then(() => (answered = true));
    // The server has the shutdown (a request sent after it is answered first: InvalidRequest).
    await expect(client!.request('textDocument/hover', { textDocument: { uri: ws!.uri(SPEC) }, position: RANGES.workspace1.start })).rejects.toMatchObject({ code: -32600 });
    expect(answered).toBe(false);
    release();
    await shutdown;
    expect(await decided).toMatchObject({ ok: true });
    expect(events().map((e) => e['event_type'])).toContain('GlossaryClarificationResolved');
  });
});
