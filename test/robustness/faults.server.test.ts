/**
 * Faults under the language server: the event log cannot be written (read-only folder, full
 * disk, a directory where the log should be). The command answers `ok: false`, the user sees an
 * error (`window/showMessage`) naming the log and the cause, nothing is half-written, the
 * server's state is unchanged (the finding is still there) and it keeps serving; once the fault
 * is gone the same command works and continues the lamport clock.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { TestClient } from '../lsp/client';
import { AMBIGUOUS_ZORBLAX, fillDisk, mountTmpfsOrSkip, readLog, remount, tempWorkspace, unmount, uriOf, ZORBLAX_SEED, type TempWorkspace } from './helpers';

let ws: TempWorkspace;
let client: TestClient | undefined;
let mountedAt: string | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  if (mountedAt) unmount(mountedAt);
  mountedAt = undefined;
  ws?.remove();
});

const SPEC = 'kitty-specs/041-demo/spec.md';
const SPEC_TEXT = '# Demo\n\nThe zorblax is ready.\n';
const LOG_DIR = '.kittify/events/glossary';
const LOG = `${LOG_DIR}/m-041.events.jsonl`;
const uri = (relative: string) => uriOf(ws.path(relative));
const isAmbiguous = (ds: Diagnostic[]) => ds.some((d) => d.code === 'ambiguous' && d.message.startsWith(AMBIGUOUS_ZORBLAX));

async function start(): Promise<Diagnostic> {
  ws = tempWorkspace({ '.kittify/glossaries/team_domain.yaml': ZORBLAX_SEED, 'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }) });
  mkdirSync(ws.path(LOG_DIR), { recursive: true });
  client = await TestClient.start({ folders: [ws.root] });
  client.open(uri(SPEC), SPEC_TEXT);
  const published = await client.diagnostics(uri(SPEC), isAmbiguous, 0, 'the ambiguous finding');
  return published.diagnostics.find((d) => d.code === 'ambiguous')!;
}

async function pickCommand(diagnostic: Diagnostic, index: number): Promise<{ command: string; arguments?: unknown[] }> {
  const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
  return actions[index]!.command!;
}

/** Runs a decision that must fail: the answer, the message shown, and nothing else changed. */
async function expectRefused(command: { command: string; arguments?: unknown[] }, cause: RegExp): Promise<string> {
  const shown = client!.messages.length;
  const result = await client!.request<{ ok: boolean; message: string }>('workspace/executeCommand', command);
  expect(result.ok).toBe(false);
  expect(result.message).toContain(ws.path(LOG));
  expect(result.message).toMatch(cause);
  const message = await client!.until(() => client!.messages.slice(shown).find((m) => m.message === result.message), 'the error shown to the user');
  expect(message.type).toBe(1); // MessageType.Error
  // State unchanged and still serving: a fresh edit is checked against the same glossary state.
  const since = client!.mark();
  client!.change(uri(SPEC), [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'More text.\n' }]);
  const after = await client!.diagnostics(uri(SPEC), () => true, since, 'a check after the failure');
  expect(isAmbiguous(after.diagnostics)).toBe(true);
  const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uri(SPEC) }, position: { line: 2, character: 6 } });
  expect(hover.contents.value).toMatch(/ambiguous/i);
  expect(client!.exited).toBe(false);
  return result.message;
}

/** Once the fault is gone the same decision works, on a new whole line, continuing the clock. */
async function expectWorksAgain(command: { command: string; arguments?: unknown[] }, clock: number): Promise<void> {
  const since = client!.mark();
  const result = await client!.request<{ ok: boolean; message: string }>('workspace/executeCommand', command);
  expect(result).toMatchObject({ ok: true });
  const log = readLog(ws.path(LOG));
  expect(log.problems).toEqual([]);
  expect(log.endsWithNewline).toBe(true);
  expect(log.events.at(-1)).toMatchObject({ event_type: 'GlossaryClarificationResolved', lamport_clock: clock });
  await client!.diagnostics(uri(SPEC), (ds) => !isAmbiguous(ds), since, 'the decision applied');
}

describe('event log faults under the language server', () => {
  it('the log path is a directory (EISDIR): the user is told, nothing is written, the server keeps going', async () => {
    const diagnostic = await start();
    mkdirSync(ws.path(LOG));
    const command = await pickCommand(diagnostic, 0);
    const message = await expectRefused(command, /is a directory \(EISDIR\)/);
    expect(message).toBe(`spec-glossary: cannot open ${ws.path(LOG)}: is a directory (EISDIR)`);
    expect(existsSync(ws.path(`${LOG}.lock`))).toBe(false);
    rmSync(ws.path(LOG), { recursive: true });
    await expectWorksAgain(command, 1);
  });

  it('a read-only log folder (tmpfs remounted ro): EROFS shown, the log unchanged; after remounting rw the decision is recorded', async (ctx) => {
    const diagnostic = await start();
    const dir = ws.path(LOG_DIR);
    if (!mountTmpfsOrSkip(ctx, dir, 256, 'the EISDIR test above and faults.eventStore.test.ts cover the behaviour')) return;
    mountedAt = dir;
    // One decision goes through first, so there is something that must stay intact.
    const defer = await pickCommand(diagnostic, 4);
    expect(defer.arguments![0]).toMatchObject({ term: 'zorblax' });
    expect(await client!.request('workspace/executeCommand', defer)).toMatchObject({ ok: true });
    const before = readFileSync(ws.path(LOG));
    remount(dir, 'ro');
    const select = await pickCommand(diagnostic, 0);
    await expectRefused(select, /read-only file system \(EROFS\)/);
    expect(readFileSync(ws.path(LOG)).equals(before)).toBe(true);
    remount(dir, 'rw');
    await expectWorksAgain(select, 2);
    const log = readLog(ws.path(LOG));
    expect(log.events.map((e) => e.event_type)).toEqual(['GlossaryClarificationRequested', 'GlossaryClarificationResolved']);
  });

  it('a full disk (tmpfs filled up): ENOSPC shown, the log byte-identical; once space is freed the decision is recorded', async (ctx) => {
    const diagnostic = await start();
    const dir = ws.path(LOG_DIR);
    if (!mountTmpfsOrSkip(ctx, dir, 128, 'faults.eventStore.test.ts covers ENOSPC with an injected file system')) return;
    mountedAt = dir;
    const defer = await pickCommand(diagnostic, 4);
    expect(await client!.request('workspace/executeCommand', defer)).toMatchObject({ ok: true });
    const before = readFileSync(ws.path(LOG));
    const filler = fillDisk(dir, 0);
    const select = await pickCommand(diagnostic, 0);
    await expectRefused(select, /no space left on device \(ENOSPC\)/);
    expect(readFileSync(ws.path(LOG)).equals(before)).toBe(true);
    expect(existsSync(ws.path(`${LOG}.lock`))).toBe(false);
    unlinkSync(filler);
    await expectWorksAgain(select, 2);
  });

  it('a draft entry cannot go into a seed file that does not parse: the reason is shown, the file untouched', async () => {
    const diagnostic = await start();
    const seed = ws.path('.kittify/glossaries/mission_local.yaml');
    writeFileSync(seed, 'terms: [unclosed\n');
    const define = await pickCommand(diagnostic, 2);
    expect(define.arguments![0]).toMatchObject({ scope: 'mission_local' });
    const result = await client!.request<{ ok: boolean; message: string }>('workspace/executeCommand', define);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^Cannot add 'zorblax' to \.kittify\/glossaries\/mission_local\.yaml: \S/);
    await client!.until(() => client!.messages.find((m) => (m.type === 1 || m.type === 2) && m.message === result.message), 'the error shown');
    expect(client!.appliedEdits).toEqual([]);
    expect(readFileSync(seed, 'utf8')).toBe('terms: [unclosed\n');
    expect(client!.exited).toBe(false);
  });
});
