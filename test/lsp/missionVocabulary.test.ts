/**
 * A mission's own vocabulary through the language server (SPEC §3, §9): a spec with a Domain
 * Language table and Key Entities, a plan in the same mission and a second mission beside it —
 * what each document reports, hover, go to definition, the replace fix, "Define … in this spec's
 * Domain Language", "Promote … to the team glossary", an open spec's unsaved edits and a spec
 * changed on disk; and the CLI reporting what the server reports.
 */

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic, Hover, Location, MarkupContent, SymbolInformation } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { Commands, type CandidatesResult, type CommandResult } from '../../server/src/shared/protocol';
import { cli } from '../cli/support';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { at, TestClient } from './client';

const SPEC = 'kitty-specs/001-lanes/spec.md';
const PLAN = 'kitty-specs/001-lanes/plan.md';
const OTHER = 'kitty-specs/002-other/spec.md';
const TEAM = '.kittify/glossaries/team_domain.yaml';
const LOG = '.kittify/events/glossary/01LANES.events.jsonl';

const SPEC_MD = `# Lanes

Every quarkle moves through the zorblax.

## Domain Language

| Term | Definition | Avoid |
|---|---|---|
| **Quarkle** (QK) | A card that moves through the zorblax | "task" |
| **Zorblax** | The board that holds every quarkle | |

## Key Entities

- **Lane**: a git branch per quarkle
- **Frobnitz**: TODO

## Requirements

- FR-001: a quarkle is never lost.
`;

const PLAN_MD = `# Plan

Each quarkle gets a lane in the zorblax.
No task moves through the zorblax twice.
The blorpt service, the blorpt queue and the blorpt cache.
`;

const OTHER_MD = `# Other

A quarkle here, a quarkle there, every quarkle somewhere.
`;

const FILES: Record<string, string> = {
  '.kittify/config.yaml': 'glossary:\n  strictness: medium\n',
  [TEAM]: 'terms:\n  - surface: lane\n    definition: A column of the status board\n    status: active\n',
  'kitty-specs/001-lanes/meta.json': JSON.stringify({ mission_id: '01LANES', mission_slug: '001-lanes' }),
  [SPEC]: SPEC_MD,
  [PLAN]: PLAN_MD,
  [OTHER]: OTHER_MD,
};

/** The mission's log as "<update_type> <status> <definition>" per line; only whole lines (an append creates the file before it writes). */
function logRecords(): string[] {
  const text = existsSync(ws.path(LOG)) ? readFileSync(ws.path(LOG), 'utf8') : '';
  const whole = text.slice(0, text.lastIndexOf('\n') + 1).trim();
  if (whole === '') return [];
  return whole.split('\n').map((line) => JSON.parse(line) as { update_type: string; new_sense: { definition: string; status: string } }).map((e) => `${e.update_type} ${e.new_sense.status} ${e.new_sense.definition}`);
}

let ws: TempWorkspace;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
});

const uri = (relative: string) => URI.file(ws.path(relative)).toString();
const summary = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${String((d.data as { term?: string } | undefined)?.term ?? '')}`);

async function start(files: Record<string, string> = {}): Promise<void> {
  ws = tempWorkspace({ ...FILES, ...files });
  client = await TestClient.start({ folders: [ws.root], settings: { debounceMs: 0 } });
}

async function opened(relative: string, text = readFileSync(ws.path(relative), 'utf8')): Promise<Diagnostic[]> {
  client.open(uri(relative), text);
  return (await client.diagnostics(uri(relative))).diagnostics;
}

describe('a mission with its own vocabulary', () => {
  it("the plan resolves the spec's words and is told to avoid its words to avoid; another mission knows none of them", async () => {
    await start();
    expect(summary(await opened(PLAN))).toEqual(['3:3 inconsistent task', '4:4 unknown blorpt', '4:24 unknown blorpt', '4:45 unknown blorpt']);
    expect(summary(await opened(OTHER))).toEqual(['2:2 unknown quarkle', '2:18 unknown quarkle', '2:39 unknown quarkle']);
  });

  it('the spec reports nothing inside its sections, and its placeholder entry is a warning', async () => {
    await start();
    const diagnostics = await opened(SPEC);
    expect(diagnostics.map((d) => [d.range.start.line, d.code, d.severity])).toEqual([[14, 'domain.placeholder', 2]]);
    expect(diagnostics[0]!.message).toBe(`'Frobnitz' in Key Entities has a placeholder definition ("TODO"): it defines nothing until its definition is written.`);
  });

  it("hover in the plan names the spec's definition first and the team sense it shadows", async () => {
    await start();
    await opened(PLAN);
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: uri(PLAN) }, position: at(2, 21) });
    const value = (hover.contents as MarkupContent).value;
    expect(value).toContain("**Active**: defined in mission 001-lanes's own vocabulary (001-lanes spec.md:14)");
    const senses = value.slice(value.indexOf("Senses of 'lane'"));
    expect(senses.indexOf('a git branch per quarkle')).toBeLessThan(senses.indexOf('A column of the status board'));
    expect(senses).toContain('- **team_domain** · active · confidence 1 — **shadowed by mission_local**');
    expect(senses).toContain(`[001-lanes spec.md:14](${uri(SPEC)}#L14)`);
  });

  it('go to definition in the plan jumps to the entry in the spec, where it is now', async () => {
    await start();
    await opened(PLAN);
    const definition = () => client.request<Location[]>('textDocument/definition', { textDocument: { uri: uri(PLAN) }, position: at(2, 7) });
    expect(await definition()).toEqual([{ uri: uri(SPEC), range: { start: at(8, 4), end: at(8, 11) } }]);
    // Lines added above the entry in the open spec (unsaved): the jump follows.
    client.open(uri(SPEC), SPEC_MD);
    await client.diagnostics(uri(SPEC));
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(1, 0), end: at(1, 0) }, text: 'An intro.\n\nMore intro.\n' }]);
    await client.diagnostics(uri(SPEC), () => true, since);
    expect(await definition()).toEqual([{ uri: uri(SPEC), range: { start: at(11, 4), end: at(11, 11) } }]);
  });

  it("the replace fix writes the spec's word for a word it avoids", async () => {
    await start();
    const diagnostics = await opened(PLAN);
    const task = diagnostics.find((d) => d.code === 'inconsistent')!;
    expect(task.message).toBe("Inconsistent term 'task': a synonym to avoid; use 'quarkle' (mission_local, 1 sense).");
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(PLAN) }, range: task.range, context: { diagnostics: [task] } });
    const replace = actions.find((a) => a.title === "Replace with 'quarkle'")!;
    expect(replace.edit?.changes?.[uri(PLAN)]).toEqual([{ range: task.range, newText: 'quarkle' }]);
  });
});

describe("Define … in this spec's Domain Language", () => {
  async function defineAction(): Promise<CodeAction> {
    const diagnostics = await opened(PLAN);
    const blorpt = diagnostics.find((d) => d.code === 'unknown')!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(PLAN) }, range: blorpt.range, context: { diagnostics: [blorpt] } });
    return actions.find((a) => a.title === "Define 'blorpt' in this spec's Domain Language")!;
  }

  it("without a definition: a row in the spec's table for the writer to fill, then shown; the plan stops reporting the term once it is defined", async () => {
    await start();
    const action = await defineAction();
    expect(action.command?.arguments?.[0]).toEqual({ uri: uri(PLAN), missionId: '01LANES', stepId: 'plan', term: 'blorpt', specUri: uri(SPEC), missionSlug: '001-lanes' });
    const result = await client.request<CommandResult>('workspace/executeCommand', action.command);
    expect(result).toMatchObject({ ok: true, message: `Added 'blorpt' to the Domain Language section of kitty-specs/001-lanes/spec.md:11: replace "TODO: define blorpt" with its definition and save the spec. Saving records it in the event log.` });
    expect(client.messages.at(-1)?.message).toBe(result.message);
    const spec = readFileSync(ws.path(SPEC), 'utf8');
    expect(spec.split('\n').slice(8, 11)).toEqual(['| **Quarkle** (QK) | A card that moves through the zorblax | "task" |', '| **Zorblax** | The board that holds every quarkle | |', '| **blorpt** | TODO: define blorpt |  |']);
    expect(client.shownDocuments.at(-1)).toEqual({ uri: uri(SPEC), takeFocus: true, selection: { start: at(10, 15), end: at(10, 34) } });
    // The placeholder defines nothing yet; written, it does.
    client.open(uri(SPEC), spec);
    expect(summary((await client.diagnostics(uri(SPEC))).diagnostics)).toEqual(['10:0 domain.placeholder ', '15:0 domain.placeholder ']);
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(10, 15), end: at(10, 34) }, text: 'a background worker' }]);
    const plan = await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan without blorpt');
    expect(summary(plan.diagnostics)).toEqual(['3:3 inconsistent task']);
  });

  /** The quick fix run without a definition, then the spec opened with the entry waiting for one: the spec's text. */
  async function openedWithWaitingEntry(): Promise<string> {
    await start();
    const action = await defineAction();
    await client.request<CommandResult>('workspace/executeCommand', action.command);
    const spec = readFileSync(ws.path(SPEC), 'utf8');
    client.open(uri(SPEC), spec);
    await client.diagnostics(uri(SPEC));
    return spec;
  }

  it('without a definition, the definition the writer saves in the spec is recorded, once; a placeholder still saved records nothing', async () => {
    const spec = await openedWithWaitingEntry();
    // Saved with the placeholder: nothing yet.
    client.save(uri(SPEC));
    await client.diagnostics(uri(SPEC));
    expect(existsSync(ws.path(LOG))).toBe(false);
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(10, 15), end: at(10, 34) }, text: 'a background worker' }]);
    ws.write(SPEC, spec.replace('TODO: define blorpt', 'a background worker'));
    client.save(uri(SPEC));
    // A whole line, not just the file: the append creates the log before it writes to it.
    await client.until(() => existsSync(ws.path(LOG)) && readFileSync(ws.path(LOG), 'utf8').endsWith('\n'), 'the definition recorded');
    await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan without blorpt');
    const events = () => readFileSync(ws.path(LOG), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events().map((e) => [e['event_type'], e['scope'], e['term_surface'], (e['new_sense'] as { definition: string }).definition, (e['provenance'] as { source: string }).source])).toEqual([['GlossarySenseUpdated', 'mission_local', 'blorpt', 'a background worker', 'spec_domain_language']]);
    // Saved again: the entry no longer waits, nothing more is written.
    client.save(uri(SPEC));
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.reload });
    expect(events()).toHaveLength(1);
  });

  it('with a definition: the row says it, and GlossarySenseUpdated (mission_local) is recorded', async () => {
    await start();
    const action = await defineAction();
    const args = { ...(action.command!.arguments![0] as object), definition: 'A background worker' };
    const since = client.mark();
    const result = await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [args] });
    expect(result).toMatchObject({
      ok: true,
      message: `Defined 'blorpt' in the Domain Language section of kitty-specs/001-lanes/spec.md:11 for mission 001-lanes: "A background worker"; recorded in ${path.join('.kittify', 'events', 'glossary', '01LANES.events.jsonl')}.`,
    });
    expect(readFileSync(ws.path(SPEC), 'utf8')).toContain('| **blorpt** | A background worker |  |');
    const events = readFileSync(ws.path(LOG), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((e) => [e['event_type'], e['scope'], e['term_surface'], (e['new_sense'] as { definition: string }).definition, (e['provenance'] as { source: string }).source])).toEqual([['GlossarySenseUpdated', 'mission_local', 'blorpt', 'A background worker', 'spec_domain_language']]);
    const plan = await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan without blorpt');
    expect(summary(plan.diagnostics)).toEqual(['3:3 inconsistent task']);
    // The log's record of the spec's entry is that entry: hover lists one sense, the spec's.
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: uri(PLAN) }, position: { line: 4, character: 5 } });
    const text = (hover.contents as MarkupContent).value;
    expect(text.match(/A background worker/g)).toHaveLength(1);
    expect(text).toContain('spec.md:11');
  });

  it("the entry then edited or removed in the spec: the spec says what the term means, not the log's record of the entry", async () => {
    await start();
    const action = await defineAction();
    const args = { ...(action.command!.arguments![0] as object), definition: 'A background worker' };
    let since = client.mark();
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [args] });
    await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan with blorpt defined');
    const defined = readFileSync(ws.path(SPEC), 'utf8');
    const hoverText = async () => ((await client.request<Hover>('textDocument/hover', { textDocument: { uri: uri(PLAN) }, position: { line: 4, character: 5 } })).contents as MarkupContent).value;

    ws.write(SPEC, defined.replace('A background worker', 'A queue consumer'));
    since = client.mark();
    client.fileChanged(uri(SPEC));
    await client.diagnostics(uri(PLAN), () => true, since, 'the plan after the definition changed');
    const edited = await hoverText();
    expect(edited).toContain('A queue consumer');
    expect(edited).not.toContain('A background worker');

    ws.write(SPEC, defined.replace(/\| \*\*blorpt\*\* .*\n/, ''));
    since = client.mark();
    client.fileChanged(uri(SPEC));
    const plan = await client.diagnostics(uri(PLAN), (ds) => ds.some((d) => d.code === 'unknown'), since, 'the plan after the entry was removed');
    expect(summary(plan.diagnostics)).toContain('4:4 unknown blorpt');
    expect(await hoverText()).not.toContain('A background worker');
  });

  it("later edits of the entry record nothing: the log keeps the entry as it was defined (the spec says what it means now)", async () => {
    await start();
    const action = await defineAction();
    const args = { ...(action.command!.arguments![0] as object), definition: 'A background worker' };
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [args] });
    const defined = readFileSync(ws.path(SPEC), 'utf8');
    client.open(uri(SPEC), defined);
    await client.diagnostics(uri(SPEC));
    for (const text of [defined.replace('A background worker', 'A queue consumer'), defined.replace(/\| \*\*blorpt\*\* .*\n/, ''), defined]) {
      ws.write(SPEC, text);
      client.change(uri(SPEC), [{ text }]);
      client.save(uri(SPEC));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.reload });
    expect(readFileSync(ws.path(LOG), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it("a definition written with markup is recorded as the spec reads it, once; one that reads as a placeholder is refused", async () => {
    const RESEARCH = 'kitty-specs/001-lanes/research/spec.md';
    await start({ [RESEARCH]: '# Research\n\nNotes on the lanes.\n' });
    const action = await defineAction();
    // Markup around a placeholder: still a placeholder, refused before anything is written.
    const placeholder = { ...(action.command!.arguments![0] as object), definition: '**TODO**' };
    const refused = await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [placeholder] }).then(
      (result) => result.message,
      (error: Error) => error.message,
    );
    expect(refused).toBe(`"**TODO**" is a placeholder, not a definition of 'blorpt'. Nothing was written.`);
    expect(readFileSync(ws.path(SPEC), 'utf8')).toBe(SPEC_MD);
    const args = { ...(action.command!.arguments![0] as object), definition: 'Runs `make` for a *background* worker' };
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [args] });
    expect(readFileSync(ws.path(SPEC), 'utf8')).toContain('| **blorpt** | Runs `make` for a *background* worker |  |');
    expect(logRecords()).toEqual(['create active Runs make for a background worker']);
    for (const file of [SPEC, RESEARCH]) {
      client.open(uri(file), readFileSync(ws.path(file), 'utf8'));
      await client.diagnostics(uri(file));
      client.save(uri(file));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.reload });
    expect(logRecords()).toEqual(['create active Runs make for a background worker']);
  });

  it('two quick saves of a definition written into the waiting entry: the first is recorded, once', async () => {
    const spec = await openedWithWaitingEntry();
    for (const definition of ['a background worker', 'a queue consumer']) {
      const text = spec.replace('TODO: define blorpt', definition);
      ws.write(SPEC, text);
      client.change(uri(SPEC), [{ text }]);
      client.save(uri(SPEC));
    }
    await client.until(() => logRecords().length === 1, 'the first save recorded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.request<CommandResult>('workspace/executeCommand', { command: Commands.reload });
    expect(logRecords()).toEqual(['create active a background worker']);
  });

  it("a document with a vocabulary section of its own takes the entry; saving it with the definition written records it", async () => {
    const OWN_PLAN = `${PLAN_MD}\n## Domain Language\n\n- **Gizmo**: a small part\n`;
    await start({ [PLAN]: OWN_PLAN });
    const action = await defineAction();
    await client.request<CommandResult>('workspace/executeCommand', action.command);
    const plan = readFileSync(ws.path(PLAN), 'utf8');
    expect(plan).toContain('- **blorpt**: TODO: define blorpt');
    const text = plan.replace('TODO: define blorpt', 'a background worker');
    ws.write(PLAN, text);
    client.change(uri(PLAN), [{ text }]);
    client.save(uri(PLAN));
    await client.until(() => existsSync(ws.path(LOG)) && readFileSync(ws.path(LOG), 'utf8').endsWith('\n'), 'the definition written in the plan recorded');
    const event = JSON.parse(readFileSync(ws.path(LOG), 'utf8').trim()) as { term_surface: string; new_sense: { definition: string }; provenance: { source: string } };
    expect([event.term_surface, event.new_sense.definition, event.provenance.source]).toEqual(['blorpt', 'a background worker', 'spec_domain_language']);
  });

  it('a list section gets a list item written like its entries', async () => {
    await start({ [SPEC]: SPEC_MD.replace(/## Domain Language[^]*?## Key Entities/, '## Key Entities') });
    const action = await defineAction();
    await client.request<CommandResult>('workspace/executeCommand', action.command);
    expect(readFileSync(ws.path(SPEC), 'utf8')).toContain('- **Frobnitz**: TODO\n- **blorpt**: TODO: define blorpt\n\n## Requirements');
  });

  it('refuses, writing nothing, a stale quick fix, a placeholder definition, a term the document does not use, and an edit the editor rejects', async () => {
    await start();
    const action = await defineAction();
    const args = action.command!.arguments![0] as Record<string, unknown>;
    const before = readFileSync(ws.path(SPEC), 'utf8');
    const run = (changed: Record<string, unknown>) => client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [{ ...args, ...changed }] });
    expect(await run({ specUri: uri(OTHER) })).toEqual({ ok: false, message: `The spec of mission 001-lanes is ${path.join('kitty-specs', '001-lanes', 'spec.md')} now: ask for the quick fixes again. Nothing was written.` });
    expect(await run({ missionId: '02OTHER' })).toMatchObject({ ok: false, message: expect.stringContaining('not 02OTHER: ask for the quick fixes again. Nothing was written.') as unknown });
    expect(await run({ term: 'gizmo' })).toMatchObject({ ok: false, message: "'gizmo' does not occur in plan.md now: ask for the quick fixes again. Nothing was written." });
    expect(await run({ definition: 'TBD' })).toMatchObject({ ok: false, message: `"TBD" is a placeholder, not a definition of 'blorpt'. Nothing was written.` });
    expect(readFileSync(ws.path(SPEC), 'utf8')).toBe(before);
    expect(() => readFileSync(ws.path(LOG), 'utf8')).toThrow();
    await client.stop();
    client = await TestClient.start({ folders: [ws.root], settings: { debounceMs: 0 }, rejectEdits: true });
    const rejected = await client.request<CommandResult>('workspace/executeCommand', { command: Commands.defineInSpec, arguments: [{ ...args, definition: 'A background worker' }] });
    expect(rejected).toMatchObject({ ok: false, message: expect.stringContaining('rejected by the test. Nothing was written.') as unknown });
    expect(readFileSync(ws.path(SPEC), 'utf8')).toBe(before);
    expect(() => readFileSync(ws.path(LOG), 'utf8')).toThrow();
  });

  it('names the entry already there instead of adding a second one', async () => {
    await start({ [SPEC]: SPEC_MD.replace('- **Frobnitz**: TODO', '- **Frobnitz**: TODO\n- **Blorpt**: TBD') });
    const action = await defineAction();
    const result = await client.request<CommandResult>('workspace/executeCommand', action.command);
    expect(result).toEqual({ ok: true, message: `${path.join('kitty-specs', '001-lanes', 'spec.md')}:16 already has an entry for 'blorpt' (write its definition there if it has none); nothing was added.`, eventIds: [] });
    expect(client.appliedEdits).toEqual([]);
  });

  it('is not offered in a mission whose spec has no such section', async () => {
    await start();
    const diagnostics = await opened(OTHER);
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(OTHER) }, range: diagnostics[0]!.range, context: { diagnostics } });
    expect(actions.map((a) => a.title)).not.toContain("Define 'quarkle' in this spec's Domain Language");
    expect(actions.map((a) => a.title)).toContain("Define 'quarkle' in the mission glossary");
  });
});

describe('the spec as it changes', () => {
  it("an open spec's unsaved edits define words for the plan, and closing it brings back the file's", async () => {
    await start();
    await opened(PLAN);
    client.open(uri(SPEC), SPEC_MD);
    await client.diagnostics(uri(SPEC));
    let since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(9, 0), end: at(9, 0) }, text: '| Blorpt | a background worker | |\n' }]);
    const defined = await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan with blorpt defined');
    expect(summary(defined.diagnostics)).toEqual(['3:3 inconsistent task']);
    since = client.mark();
    client.close(uri(SPEC));
    const undefinedAgain = await client.diagnostics(uri(PLAN), (ds) => ds.some((d) => d.code === 'unknown'), since, 'the plan after the spec closed');
    expect(summary(undefinedAgain.diagnostics)).toContain('4:4 unknown blorpt');
  });

  it("an edit of the spec's Domain Language checks its mission's documents again, not another mission's", async () => {
    await start();
    await opened(PLAN);
    await opened(OTHER);
    client.open(uri(SPEC), SPEC_MD);
    await client.diagnostics(uri(SPEC));
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(9, 0), end: at(9, 0) }, text: '| Blorpt | a background worker | |\n' }]);
    await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan with blorpt defined');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client.published.slice(since).filter((p) => p.uri === uri(OTHER)), "publications of the other mission's spec").toEqual([]);
  });

  it("the spec's edit read first by another document's check (a hover before the spec's own check): the mission's other documents are checked again all the same", async () => {
    ws = tempWorkspace({ ...FILES, 'kitty-specs/001-lanes/tasks.md': PLAN_MD });
    // (A debounce the hover comes within: the spec's own check runs after the plan's.)
    client = await TestClient.start({ folders: [ws.root], settings: { debounceMs: 300 } });
    await opened(PLAN);
    await opened('kitty-specs/001-lanes/tasks.md');
    await opened(SPEC, SPEC_MD);
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(9, 0), end: at(9, 0) }, text: '| Blorpt | a background worker | |\n' }]);
    await client.request('textDocument/hover', { textDocument: { uri: uri(PLAN) }, position: at(2, 6) });
    const tasks = await client.diagnostics(uri('kitty-specs/001-lanes/tasks.md'), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the tasks without blorpt');
    expect(summary(tasks.diagnostics)).toEqual(['3:3 inconsistent task']);
    await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan without blorpt');
  });

  it('a spec closed and opened again: its edits still define words for the plan', async () => {
    await start();
    await opened(PLAN);
    await opened(SPEC, SPEC_MD);
    client.close(uri(SPEC));
    // (Its file says what its buffer said: nothing for the plan to be checked again for.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    await opened(SPEC, SPEC_MD);
    const since = client.mark();
    client.change(uri(SPEC), [{ range: { start: at(9, 0), end: at(9, 0) }, text: '| Blorpt | a background worker | |\n' }]);
    const plan = await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan with blorpt defined');
    expect(summary(plan.diagnostics)).toEqual(['3:3 inconsistent task']);
  });

  it("a spec created with an empty Domain Language, or given one in the editor: the open plan is offered to define its words there", async () => {
    const NEW_PLAN = 'kitty-specs/003-new/plan.md';
    const NEW_SPEC = 'kitty-specs/003-new/spec.md';
    await start({ [NEW_PLAN]: '# Plan\n\nThe blorpt service, the blorpt queue and the blorpt cache.\n' });
    const diagnostics = await opened(NEW_PLAN);
    const titles = async () => (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(NEW_PLAN) }, range: diagnostics[0]!.range, context: { diagnostics } })).map((a) => a.title);
    const DEFINE = "Define 'blorpt' in this spec's Domain Language";
    expect(await titles()).not.toContain(DEFINE);
    // Created on disk (spec-kitty specify), its table still empty.
    const emptySection = '# New\n\n## Domain Language\n\n| Term | Definition |\n|---|---|\n\n## Overview\n\nText.\n';
    ws.write(NEW_SPEC, emptySection);
    let since = client.mark();
    client.fileChanged(uri(NEW_SPEC), 1);
    await client.diagnostics(uri(NEW_PLAN), () => true, since, 'the plan checked again');
    expect(await titles()).toContain(DEFINE);
    // Opened, its section removed and written again in the editor.
    client.open(uri(NEW_SPEC), emptySection);
    await client.diagnostics(uri(NEW_SPEC));
    since = client.mark();
    client.change(uri(NEW_SPEC), [{ text: '# New\n\n## Overview\n\nText.\n' }]);
    await client.diagnostics(uri(NEW_PLAN), () => true, since, 'the plan after the section went');
    expect(await titles()).not.toContain(DEFINE);
    since = client.mark();
    client.change(uri(NEW_SPEC), [{ text: emptySection }]);
    await client.diagnostics(uri(NEW_PLAN), () => true, since, 'the plan after the section came back');
    expect(await titles()).toContain(DEFINE);
  });

  it('a spec changed on disk is read again when the client reports it', async () => {
    await start();
    await opened(PLAN);
    ws.write(SPEC, SPEC_MD.replace('| **Zorblax** |', '| Blorpt | a background worker | |\n| **Zorblax** |'));
    const since = client.mark();
    client.fileChanged(uri(SPEC));
    const plan = await client.diagnostics(uri(PLAN), (ds) => !ds.some((d) => d.code === 'unknown'), since, 'the plan after the spec changed');
    expect(summary(plan.diagnostics)).toEqual(['3:3 inconsistent task']);
  });

  it("a meta.json that moves the spec to another mission: that mission's documents are checked with its vocabulary", async () => {
    const NOTES = 'kitty-specs/001-lanes/notes.md';
    await start({ [NOTES]: '---\nmission_id: 01MOVED\n---\n# Notes\n\nThe quarkle waits, a quarkle sleeps, every quarkle dreams.\n' });
    // The spec is of 01LANES (its meta.json), the notes of 01MOVED (their front matter): the spec's words are not theirs.
    expect(summary(await opened(NOTES))).toEqual(['5:4 unknown quarkle', '5:21 unknown quarkle', '5:43 unknown quarkle']);
    ws.write('kitty-specs/001-lanes/meta.json', JSON.stringify({ mission_id: '01MOVED', mission_slug: '001-lanes' }));
    const since = client.mark();
    client.fileChanged(uri('kitty-specs/001-lanes/meta.json'));
    const notes = await client.diagnostics(uri(NOTES), () => true, since, 'the notes after the spec moved to their mission');
    expect(summary(notes.diagnostics)).toEqual([]);
  });

  it('a meta.json changed without a report (a client that watches no meta.json): the next reload of the folder finds the spec in its new mission', async () => {
    const NOTES = 'kitty-specs/001-lanes/notes.md';
    await start({ [NOTES]: '---\nmission_id: 01MOVED\n---\n# Notes\n\nThe quarkle waits, a quarkle sleeps, every quarkle dreams.\n' });
    await opened(PLAN);
    expect(summary(await opened(NOTES))).toHaveLength(3);
    ws.write('kitty-specs/001-lanes/meta.json', JSON.stringify({ mission_id: '01MOVED', mission_slug: '001-lanes' }));
    // Another change reloads the folder (a log written by another program, reported).
    ws.write(LOG, '');
    const since = client.mark();
    client.fileChanged(uri(LOG), 1);
    const notes = await client.diagnostics(uri(NOTES), () => true, since, 'the notes after the reload');
    expect(summary(notes.diagnostics)).toEqual([]);
  });

  it('workspace symbols list the terms missions define in their specs, at the entry, with the mission', async () => {
    await start();
    // (References wait for the index's first build; symbols list what it has read so far.)
    await client.request<Location[]>('textDocument/references', { textDocument: { uri: uri(PLAN) }, position: at(2, 6), context: { includeDeclaration: false } });
    const symbols = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'quark' });
    expect(symbols.map((s) => [s.name, s.containerName, s.location.uri, s.location.range.start])).toEqual([['quarkle', 'mission_local · 001-lanes spec.md', uri(SPEC), at(8, 4)]]);
    const alias = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'qk' });
    expect(alias.map((s) => [s.name, s.containerName])).toContainEqual(['qk', 'mission_local · 001-lanes spec.md · alias of quarkle']);
    // A placeholder entry defines nothing; the team's term is listed as before.
    expect(await client.request<SymbolInformation[]>('workspace/symbol', { query: 'frobnitz' })).toEqual([]);
    const lane = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'lane' });
    expect(lane.map((s) => [s.name, s.containerName]).slice(0, 3)).toEqual([
      ['lane', 'mission_local · 001-lanes spec.md'],
      ['lane', 'team_domain · active · 1 sense'],
      ['lane', 'spec_kitty_core · active · 1 sense'],
    ]);
  });

  it('the server asks the client to watch specs', async () => {
    await start();
    await opened(PLAN);
    await client.until(() => client.registrations.length > 0, 'watcher registration');
    const watchers = client.registrations.flatMap((r) => (r.registerOptions as { watchers?: { globPattern: string }[] } | undefined)?.watchers ?? []);
    // (Every markdown file is watched: the term index follows specs too.)
    expect(watchers.map((w) => w.globPattern)).toContain('**/*.{md,markdown,mdx}');
  });
});

describe('promotion to the team glossary', () => {
  it("'Promote …' on an entry of the spec, or on a use in the plan, adds the entry with the mission's definition to team_domain.yaml", async () => {
    await start();
    await opened(SPEC);
    const onEntry = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: { start: at(9, 5), end: at(9, 5) }, context: { diagnostics: [] } });
    expect(onEntry.map((a) => a.title)).toEqual(["Promote 'Zorblax' to the team glossary"]);
    await opened(PLAN);
    const onUse = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(PLAN) }, range: { start: at(2, 8), end: at(2, 8) }, context: { diagnostics: [] } });
    const promote = onUse.find((a) => a.title === "Promote 'quarkle' to the team glossary")!;
    expect(promote.command?.arguments?.[0]).toEqual({ uri: uri(PLAN), term: 'quarkle', definition: 'A card that moves through the zorblax', synonymsToAvoid: ['task'] });
    // The definition is the mission's, whatever the arguments say; a term no mission defines is refused.
    const forged = { ...(promote.command!.arguments![0] as object), definition: 'Something else', synonymsToAvoid: ['card'] };
    const refused = await client.request<CommandResult>('workspace/executeCommand', { command: Commands.promoteTerm, arguments: [{ uri: uri(PLAN), term: 'blorpt' }] });
    expect(refused).toEqual({ ok: false, message: "'blorpt' is not defined by the own vocabulary of mission 001-lanes now: ask for the quick fixes again. Nothing was written." });
    // 'lane' is the team's already: nothing to promote.
    const onLane = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(PLAN) }, range: { start: at(2, 21), end: at(2, 21) }, context: { diagnostics: [] } });
    expect(onLane.map((a) => a.title)).toEqual([]);
    const result = await client.request<CommandResult>('workspace/executeCommand', { command: Commands.promoteTerm, arguments: [forged] });
    expect(result).toMatchObject({ ok: true, message: `Added 'quarkle' to the team glossary (${path.join('.kittify', 'glossaries', 'team_domain.yaml')}:6) with mission 001-lanes's definition: save the file to record it in the event log.` });
    expect(readFileSync(ws.path(TEAM), 'utf8')).toBe(
      'terms:\n  - surface: lane\n    definition: A column of the status board\n    status: active\n  - surface: quarkle\n    definition: A card that moves through the zorblax\n    status: active\n    synonyms_to_avoid: [task]\n',
    );
  });

  it('a draft of the term waiting in the team glossary is pointed at, not doubled', async () => {
    await start({ [TEAM]: 'terms:\n  - surface: zorblax\n    definition: "TODO: define zorblax"\n    status: draft\n' });
    await opened(SPEC);
    const [promote] = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: { start: at(9, 5), end: at(9, 5) }, context: { diagnostics: [] } });
    const result = await client.request<CommandResult>('workspace/executeCommand', promote!.command);
    expect(result).toEqual({
      ok: true,
      message: `${path.join('.kittify', 'glossaries', 'team_domain.yaml')}:3 already has a draft entry for 'Zorblax': write its definition there (mission 001-lanes's: "The board that holds every quarkle") and save the file; nothing was added.`,
      eventIds: [],
    });
    expect(client.appliedEdits).toEqual([]);
  });

  it('an edit the editor rejects leaves nothing behind (not even the team glossary made for it)', async () => {
    const files = { ...FILES };
    delete files[TEAM];
    ws = tempWorkspace(files);
    client = await TestClient.start({ folders: [ws.root], settings: { debounceMs: 0 }, rejectEdits: true, capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } } });
    await opened(SPEC);
    const [promote] = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: { start: at(9, 5), end: at(9, 5) }, context: { diagnostics: [] } });
    const result = await client.request<CommandResult>('workspace/executeCommand', promote!.command);
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('rejected by the test. Nothing was written.') as unknown });
    expect(existsSync(ws.path(TEAM))).toBe(false);
    expect(existsSync(ws.path('.kittify/glossaries'))).toBe(false);
  });

  it('the candidates command lists the terms missions define, with their definitions', async () => {
    await start();
    await opened(PLAN);
    const result = await client.request<CandidatesResult>('workspace/executeCommand', { command: Commands.listCandidates, arguments: [{ uri: uri(PLAN) }] });
    const quarkle = result.workspaces[0]!.candidates.find((c) => c.term === 'quarkle')!;
    expect(quarkle).toMatchObject({ specs: 3, definitions: [{ mission: '001-lanes', path: SPEC, line: 9, definition: 'A card that moves through the zorblax' }] });
    expect(result.workspaces[0]!.candidates.map((c) => c.term)).not.toContain('lane');
  });
});

describe('one engine path', () => {
  it('check reports in the spec, the plan and the other mission exactly what the server publishes', async () => {
    await start();
    const checked = await cli(['check', '.', '--format', 'json'], ws.root);
    const documents = (JSON.parse(checked.stdout) as { documents: { path: string; findings: { term: string; conflict_type: string; range: { start: { line: number; character: number } } }[] }[] }).documents;
    for (const relative of [SPEC, PLAN, OTHER]) {
      const fromCli = documents.find((d) => d.path === relative)!.findings.map((f) => `${f.range.start.line}:${f.range.start.character} ${f.conflict_type} ${f.term}`);
      const fromServer = summary(await opened(relative)).filter((s) => !s.includes('domain.placeholder'));
      expect(fromServer, relative).toEqual(fromCli);
    }
    expect(checked.stderr).toContain(`${path.join('kitty-specs', '001-lanes', 'spec.md')}:15:1 warning domain.placeholder`);
  });
});
