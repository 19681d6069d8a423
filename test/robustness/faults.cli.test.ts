/**
 * Event log faults through the CLI: `check --emit-events` and `resolve` on a read-only log
 * folder, a full disk, or a log path that is a directory. Exit code 2 with one line naming the log
 * and the cause, no stack trace, the log byte-identical; once the fault is gone the same command
 * records its events and the clock continues.
 */

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, fillDisk, mountTmpfsOrSkip, readLog, remount, tempWorkspace, unmount, ZORBLAX_SEED, type TempWorkspace } from './helpers';

let ws: TempWorkspace;
let mountedAt: string | undefined;
afterEach(() => {
  if (mountedAt) unmount(mountedAt);
  mountedAt = undefined;
  ws?.remove();
});

const LOG_DIR = '.kittify/events/glossary';
const LOG = `${LOG_DIR}/m-041.events.jsonl`;

function setup(): void {
  ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': ZORBLAX_SEED,
    'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }),
    'kitty-specs/041-demo/spec.md': '---\ncritical_step: true\n---\nThe zorblax is ready.\n',
  });
  mkdirSync(ws.path(LOG_DIR), { recursive: true });
}

/** Both writing commands fail cleanly, naming the log and the cause, and write nothing. */
async function expectRefused(cause: RegExp): Promise<void> {
  const isFile = () => existsSync(ws.path(LOG)) && statSync(ws.path(LOG)).isFile();
  const before = isFile() ? readFileSync(ws.path(LOG)) : undefined;
  for (const args of [['check', '--emit-events'], ['resolve', 'zorblax', '--mission', 'm-041', '--sense', '1']]) {
    const result = await cli(args, ws.root);
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const line = result.stderr.trim().split('\n').find((l) => l.includes('no events recorded'));
    expect(line, result.stderr).toBeDefined();
    expect(line).toContain(ws.path(LOG));
    expect(line).toMatch(cause);
    if (before) expect(readFileSync(ws.path(LOG)).equals(before)).toBe(true);
    else expect(isFile()).toBe(false);
  }
  expect(readdirSync(ws.path(LOG_DIR)).filter((n) => n.includes('.lock'))).toEqual([]);
}

async function expectRecordsAgain(previous: number): Promise<void> {
  const result = await cli(['resolve', 'zorblax', '--mission', 'm-041', '--sense', '1'], ws.root);
  expect(result.status, result.stderr).toBe(0);
  const log = readLog(ws.path(LOG));
  expect(log.problems).toEqual([]);
  expect(log.events.map((e) => e.lamport_clock)).toEqual(Array.from({ length: log.events.length }, (_, i) => i + 1));
  expect(log.events.length).toBeGreaterThan(previous);
  expect(log.events.at(-1)!.event_type).toBe('GlossaryClarificationResolved');
}

describe('event log faults through the CLI', () => {
  it('the log path is a directory: exit 2 naming the log (EISDIR), nothing written; fine once it is gone', async () => {
    setup();
    mkdirSync(ws.path(LOG));
    await expectRefused(/is a directory \(EISDIR\)/);
    rmSync(ws.path(LOG), { recursive: true });
    await expectRecordsAgain(0);
  });

  it('a read-only log folder: exit 2 naming the log (EROFS), the log byte-identical; fine after remounting read-write', async (ctx) => {
    setup();
    const dir = ws.path(LOG_DIR);
    if (!mountTmpfsOrSkip(ctx, dir, 256, 'faults.eventStore.test.ts covers EROFS with an injected file system')) return;
    mountedAt = dir;
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1); // blocked: events recorded, conflict deferred
    const recorded = readLog(ws.path(LOG)).events.length;
    remount(dir, 'ro');
    await expectRefused(/read-only file system \(EROFS\)/);
    remount(dir, 'rw');
    await expectRecordsAgain(recorded);
  });

  it('a full disk: exit 2 naming the log (ENOSPC), the log byte-identical; fine once space is freed', async (ctx) => {
    setup();
    const dir = ws.path(LOG_DIR);
    if (!mountTmpfsOrSkip(ctx, dir, 128, 'faults.eventStore.test.ts covers ENOSPC with an injected file system')) return;
    mountedAt = dir;
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const recorded = readLog(ws.path(LOG)).events.length;
    const filler = fillDisk(dir, 0);
    await expectRefused(/no space left on device \(ENOSPC\)/);
    unlinkSync(filler);
    await expectRecordsAgain(recorded);
  });
});
