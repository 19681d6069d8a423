/**
 * Writers killed in the middle of appending. A process appending large batches in a loop is
 * SIGKILLed again and again, and the language server itself is killed with decisions in flight.
 * Afterwards every whole line is still a valid event (in order, clocks increasing), at most the
 * line being written when the kill came is torn, the next start reads every whole line, and the
 * next append starts on a new line and continues the clock.
 */

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { EventStore, eventLogPath } from '../../server/src/node/eventStore';
import { TestClient } from '../lsp/client';
import { atScale } from '../helpers/scale';
import { AMBIGUOUS_ZORBLAX, observedDraft, readLog, tempWorkspace, uriOf, ZORBLAX_SEED, type TempWorkspace } from './helpers';

/** Kills of the appending writer (the third also leaves half a line, as a kill inside write(2)). */
const KILLS = atScale(5, 3);

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

let tmp: string;
let bundle: string;
let worker: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sg-killed-'));
  bundle = path.join(tmp, 'eventStore.bundle.mjs');
  await build({ entryPoints: [path.join(repo, 'server/src/node/eventStore.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'silent' });
  // Appends batches of 40 events of ~2.5 KB (one ~100 KB write each) until it is killed; says
  // so on stdout after each batch.
  worker = path.join(tmp, 'appendForever.mjs');
  writeFileSync(
    worker,
    `import { pathToFileURL } from 'node:url';
const [bundle, root, mission, writer] = process.argv.slice(2);
const { EventStore } = await import(pathToFileURL(bundle).href);
const store = new EventStore(root);
const padding = 'p'.repeat(2500);
for (let batch = 0; ; batch++) {
  const drafts = [];
  for (let i = 0; i < 40; i++) {
    drafts.push({ event_type: 'TermCandidateObserved', mission_id: mission, run_id: writer, term: writer + '-' + batch + '-' + i, source_step: 'spec', actor_id: 'service:' + writer, confidence: 0.5, extraction_method: 'repeated_noun', context: padding });
  }
  await store.append(mission, drafts);
  process.stdout.write('.');
}
`,
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
  ws = undefined;
});

/**
 * Starts the looping writer and SIGKILLs it once the log grew by `growBy` bytes (looked at each
 * time it reports a batch written; the kill lands in one of the batches that follow).
 */
async function killMidAppend(root: string, mission: string, writer: string, growBy: number): Promise<void> {
  const file = eventLogPath(root, mission);
  const size = () => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  const start = size();
  const child = spawn(process.execPath, [worker, bundle, root, mission, writer], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const grown = new Promise<void>((resolve) => {
    const onBatch = () => {
      if (size() - start < growBy) return;
      child.stdout!.off('data', onBatch);
      resolve();
    };
    child.stdout!.on('data', onBatch);
  });
  const ended = await Promise.race([grown.then(() => false), exited.then(() => true)]);
  if (ended) throw new Error(`the writer exited before it was killed: ${stderr}`);
  child.kill('SIGKILL');
  await exited;
}

/**
 * Every whole line is a valid event or a torn prefix of one (followed by a line that starts a
 * new event); clocks of the valid events strictly increase in file order.
 */
function expectOnlyTornLines(file: string, maxTorn: number): ReturnType<typeof readLog> {
  const log = readLog(file);
  const lines = readFileSync(file, 'utf8').split('\n');
  expect(log.problems.length).toBeLessThanOrEqual(maxTorn);
  for (const problem of log.problems) {
    const raw = lines[problem.line - 1]!;
    expect(raw.startsWith('{"'), `line ${problem.line} is a torn event`).toBe(true);
    expect(problem.message).toMatch(/not valid JSON|torn last line/);
  }
  const clocks = log.events.map((e) => e.lamport_clock);
  for (let i = 1; i < clocks.length; i++) expect(clocks[i]!).toBeGreaterThan(clocks[i - 1]!);
  return log;
}

describe('a writer killed mid-append', () => {
  it(`SIGKILL during large appends, ${KILLS} times: whole lines survive in order; the next append starts a new line and continues the clock`, async () => {
    ws = tempWorkspace({});
    mkdirSync(ws.path('.kittify'), { recursive: true });
    const file = eventLogPath(ws.root, 'm-kill');
    let torn = 0;
    for (let round = 0; round < KILLS; round++) {
      await killMidAppend(ws.root, 'm-kill', `w${round}`, 300_000);
      // Round 2 also simulates the kill landing inside write(2): the file ends in half a line.
      if (round === 2) {
        const text = readFileSync(file, 'utf8');
        const lastStart = text.lastIndexOf('\n', text.length - 2) + 1;
        truncateSync(file, Buffer.byteLength(text.slice(0, lastStart + Math.floor((text.length - lastStart) / 2))));
      }
      torn += readFileSync(file, 'utf8').endsWith('\n') ? 0 : 1;
      const log = expectOnlyTornLines(file, torn);
      expect(log.events.length).toBeGreaterThan(round * 40);
    }
    expect(torn).toBeGreaterThanOrEqual(1);
    const before = readLog(file);
    const maxClock = Math.max(...before.events.map((e) => e.lamport_clock ?? 0));
    const [next] = await new EventStore(ws.root).append('m-kill', [observedDraft('m-kill', 'after')]);
    expect(next!.lamport_clock).toBe(maxClock + 1);
    const after = expectOnlyTornLines(file, torn);
    expect(after.endsWithNewline).toBe(true);
    expect(after.events.length).toBe(before.events.length + 1);
    expect(after.events.slice(0, -1).map((e) => e.event_id)).toEqual(before.events.map((e) => e.event_id));
    expect(after.events.at(-1)).toMatchObject({ term: 'after', lamport_clock: maxClock + 1 });
  });
});

describe('the language server killed mid-append', () => {
  const SPEC = 'kitty-specs/041-demo/spec.md';
  const LOG = '.kittify/events/glossary/m-041.events.jsonl';

  it('SIGKILL with 200 decisions in flight: the next start recovers every whole line, and its next decision closes the recovered clarification of its term', async () => {
    // 200 terms to defer (one open clarification per term and mission: a second defer of one term
    // records nothing), zorblax first.
    const acronyms = Array.from({ length: 199 }, (_, i) => `ZQ${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
    const text = `# Demo\n\nThe zorblax is ready.\n\n${acronyms.join(' ')}\n`;
    ws = tempWorkspace({ '.kittify/glossaries/team_domain.yaml': ZORBLAX_SEED, 'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }), [SPEC]: text });
    const uri = uriOf(ws.path(SPEC));
    const isAmbiguous = (ds: Diagnostic[]) => ds.some((d) => d.code === 'ambiguous' && d.message.startsWith(AMBIGUOUS_ZORBLAX));
    client = await TestClient.start({ folders: [ws.root], transport: 'stdio' });
    client.open(uri, text);
    const first = await client.diagnostics(uri, isAmbiguous, 0, 'the ambiguous finding');
    const terms = first.diagnostics.filter((d) => d.code === 'unknown').map((d) => (d.data as { term: string }).term);
    expect(terms.length).toBeGreaterThanOrEqual(150);
    const defer = (term: string) => client!.request('workspace/executeCommand', { command: 'specGlossary.deferTerm', arguments: [{ uri, missionId: 'm-041', stepId: 'spec', term }] });
    await defer('zorblax');
    for (const term of terms) void defer(term).catch(() => undefined);
    await client.until(() => readLog(ws!.path(LOG)).wholeLines.length >= 20 || undefined, 'some decisions on disk', 30_000);
    client.child!.kill('SIGKILL');
    await client.until(() => client!.exited || undefined, 'the server to die');
    client.connection.dispose();
    client = undefined;

    const recovered = expectOnlyTornLines(ws.path(LOG), 1);
    const requested = recovered.events.filter((e) => e.event_type === 'GlossaryClarificationRequested') as { term: string; conflict_id: string }[];
    expect(requested.length).toBeGreaterThanOrEqual(20);
    expect(requested.length).toBe(recovered.events.length);
    expect(new Set(requested.map((e) => e.term)).size).toBe(requested.length);
    const zorblax = requested.find((e) => e.term === 'zorblax')!;
    expect(zorblax).toBeDefined();

    // The next start: the log's problems (a torn line at most) are shown, every whole line counts.
    client = await TestClient.start({ folders: [ws.root] });
    client.open(uri, text);
    const again = await client.diagnostics(uri, isAmbiguous, 0, 'the finding after the restart');
    const logDiagnostics = client.published.filter((p) => p.uri === uriOf(ws!.path(LOG))).at(-1)?.diagnostics ?? [];
    expect(logDiagnostics.map((d) => d.range.start.line + 1)).toEqual(recovered.problems.map((p) => p.line));
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 6 } });
    expect(hover.contents.value).toMatch(/clarification/i);
    // Every recovered clarification is open again: its term is shown as deferred.
    const deferred = again.diagnostics.filter((d) => (d.data as { openConflictId?: string }).openConflictId !== undefined).map((d) => (d.data as { term: string }).term);
    expect(new Set(deferred)).toEqual(new Set(requested.map((e) => e.term)));
    // A decision on zorblax closes its recovered clarification, with the next clock.
    const ambiguous = again.diagnostics.find((d) => d.code === 'ambiguous')!;
    const pick = (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: ambiguous.range, context: { diagnostics: [ambiguous] } }))[0]!.command!;
    const since = client.mark();
    expect(await client.request('workspace/executeCommand', pick)).toMatchObject({ ok: true });
    const after = expectOnlyTornLines(ws.path(LOG), 1);
    expect(after.endsWithNewline).toBe(true);
    const resolved = after.events.filter((e) => e.event_type === 'GlossaryClarificationResolved');
    expect(resolved.map((e) => (e as { conflict_id: string }).conflict_id)).toEqual([zorblax.conflict_id]);
    const maxBefore = Math.max(...recovered.events.map((e) => e.lamport_clock ?? 0));
    expect(resolved.map((e) => e.lamport_clock)).toEqual([maxBefore + 1]);
    await client.diagnostics(uri, (ds) => !isAmbiguous(ds), since, 'the decision applied');
  });
});
