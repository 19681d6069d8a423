import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import { eventLogPath } from '../../server/src/node/eventStore';
import { atScale } from '../helpers/scale';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const worker = path.join(repo, 'test/fixtures/events/appendWorker.mjs');
// Appends per writer: enough in npm test for the two writers' appends to interleave many times.
const PER_WRITER = atScale(1000, 300);

let tmp: string;
let bundle: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sg-concurrency-'));
  bundle = path.join(tmp, 'eventStore.bundle.mjs');
  // Tests run on TS sources; the children are plain Node, so they get an esbuild bundle.
  await build({
    entryPoints: [path.join(repo, 'server/src/node/eventStore.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
  });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runWorker(root: string, mission: string, writer: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, bundle, root, mission, writer, String(PER_WRITER)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${writer} exited with ${code}: ${stderr}`))));
  });
}

describe('concurrent appends from two processes', () => {
  it('lose nothing, duplicate nothing, and keep lamport clocks unique and increasing per writer', async () => {
    const root = path.join(tmp, 'ws');
    mkdirSync(root);
    await Promise.all([runWorker(root, 'm1', 'writer-a'), runWorker(root, 'm1', 'writer-b')]);

    const file = eventLogPath(root, 'm1');
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').length - 1).toBe(2 * PER_WRITER);
    const { events, problems } = parseEventLog(text, file);
    expect(problems).toEqual([]);
    expect(events).toHaveLength(2 * PER_WRITER);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(2 * PER_WRITER);

    const clocks = events.map((e) => e.lamport_clock);
    expect(new Set(clocks).size).toBe(2 * PER_WRITER);
    // Appends were serialized by the lock: the file order is the clock order, 1..2000.
    expect(clocks).toEqual(clocks.map((_, i) => i + 1));

    for (const writer of ['writer-a', 'writer-b']) {
      const mine = events.filter((e) => e.run_id === writer);
      expect(mine).toHaveLength(PER_WRITER);
      const terms = mine.map((e) => (e.event_type === 'TermCandidateObserved' ? e.term : ''));
      expect(terms).toEqual(mine.map((_, i) => `${writer}-${i}`));
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.lamport_clock).toBeGreaterThan(mine[i - 1]!.lamport_clock!);
    }
  });
});
