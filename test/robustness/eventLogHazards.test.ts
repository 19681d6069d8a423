/**
 * Event-log hazards from the hostile review (issue 19), through the CLI and the server as a user
 * runs them:
 * - item 2: a FIFO named `*.events.jsonl` in the event folder once hung `check`, `replay`,
 *   `validate` and the server's diagnostics; only regular files are read now, with a warning;
 * - item 6: one line with `lamport_clock` 2^53−2 once made every later append fail; such a clock
 *   is untrusted now (a warning, the line ordered by its place in the file) and appends go on;
 * - item 8: concurrent `check --emit-events` once left several open clarifications for one
 *   conflict; "already open?" is now asked inside the writers' lock.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { blockedWorkspace, cli, CLI, cliProcessAsync, logPath, MISSION, SPEC, type TempWorkspace } from '../cli/support';
import { resolved } from '../fixtures/events/factory';
import { TestClient } from '../lsp/client';
import { uriOf } from './helpers';

let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
  ws = undefined;
});

const events = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);

/**
 * The CLI as a process that must finish on its own: a hang is killed after 20 s and fails the test.
 * (A real process: a read blocked on a FIFO would block the test's own thread in process.)
 */
function finishing(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } });
  expect(result.signal, `spec-glossary ${args.join(' ')} did not finish`).toBeNull();
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const mkfifo = spawnSync('mkfifo', ['--help'], { encoding: 'utf8' });
const canMakeFifo = mkfifo.error === undefined;

describe.skipIf(!canMakeFifo)('a FIFO named *.events.jsonl in the event folder (mkfifo)', () => {
  function withFifo(name: string): string {
    ws = blockedWorkspace();
    const dir = path.dirname(logPath(ws));
    mkdirSync(dir, { recursive: true });
    const fifo = path.join(dir, name);
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status).toBe(0);
    return fifo;
  }

  it('check, replay and validate finish, warn that it is not a log, and read the real logs', async () => {
    withFifo('pipe.events.jsonl');
    expect(finishing(['check', '--emit-events'], ws!.root).status).toBe(1); // a real log beside the FIFO
    const checked = finishing(['check'], ws!.root);
    expect(checked.status).toBe(1); // the ambiguous workspace still blocks
    expect(checked.stderr).toContain('pipe.events.jsonl');
    expect(checked.stderr).toContain('a named pipe (FIFO), not a regular file: it is not an event log and is not read');
    const replayed = finishing(['replay', '--mission', MISSION, '--json'], ws!.root);
    expect(replayed.status).toBe(0);
    expect(JSON.parse(replayed.stdout).open_clarifications).toHaveLength(1);
    expect(replayed.stderr).toContain('a named pipe (FIFO)');
    const validated = finishing(['validate'], ws!.root);
    expect(validated.status).toBe(0);
    expect(validated.stdout).toMatch(/pipe\.events\.jsonl warning events\.not-a-log a named pipe \(FIFO\)/);
  });

  it("a FIFO at the mission's own log path: a decision is refused at once with a clear message, nothing hangs", async () => {
    withFifo(`${MISSION}.events.jsonl`);
    const result = finishing(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws!.root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('a named pipe (FIFO), not a regular file');
    expect(result.stderr).toContain('nothing was appended');
  });

  it("the server publishes a document's diagnostics", async () => {
    withFifo('pipe.events.jsonl');
    client = await TestClient.start({ folders: [ws!.root] });
    client.open(uriOf(ws!.path(SPEC)), readFileSync(ws!.path(SPEC), 'utf8'));
    const published = await client.diagnostics(uriOf(ws!.path(SPEC)), () => true, 0, 'diagnostics next to a FIFO log');
    expect(published.diagnostics.map((d) => d.code)).toContain('ambiguous');
  });
});

describe('a lamport clock near 2^53 in the log', () => {
  it('is reported as untrusted, the line still counts, and every later append succeeds with a sane clock', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const highest = Math.max(...events(logPath(ws)).map((e) => e.lamport_clock as number));
    const hostile = { ...resolved({ conflict: 'hostile', term: 'workspace', definition: 'VS Code workspace configuration file', mission: MISSION, lamport: 1 }), lamport_clock: 2 ** 53 - 2 };
    appendFileSync(logPath(ws), serializeEvent(hostile) + '\n');
    // The hostile line is read (its pin applies) and ordered after the lines before it.
    const pinned = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(pinned.pins.map((p: { conflict_id: string }) => p.conflict_id)).toEqual(['hostile']);
    for (const sense of ['1', '2', '1']) expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', sense], ws.root)).status).toBe(0);
    const all = events(logPath(ws));
    expect(all.slice(-3).map((e) => e.lamport_clock)).toEqual([highest + 1, highest + 2, highest + 3]);
    const validated = await cli(['validate'], ws.root);
    expect(validated.status).toBe(0);
    expect(validated.stdout).toMatch(/warning events\.untrusted-clock lamport_clock 9007199254740990 is beyond 4503599627370496 \(2\^52\)/);
    // The latest decision (file order) wins.
    expect(JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout).pins[0].selected_sense.definition).toBe('Git worktree directory for a work package');
  });
});

describe('concurrent check --emit-events', () => {
  it('eight at once leave exactly one open clarification for the conflict', async () => {
    ws = blockedWorkspace();
    const runs = await Promise.all(Array.from({ length: 8 }, () => cliProcessAsync(['check', '--emit-events'], ws!.root)));
    for (const run of runs) expect(run.status).toBe(1);
    const requests = events(logPath(ws)).filter((e) => e.event_type === 'GlossaryClarificationRequested');
    expect(requests.map((r) => r.term)).toEqual(['workspace']);
    const json = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(json.open_clarifications).toHaveLength(1);
    expect(json.problems).toEqual([]);
  });
});
