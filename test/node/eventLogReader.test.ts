import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventLogParser, type LogProblem } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { STATE_EVENT_TYPES, type EventType, type LoggedEvent } from '../../server/src/core/events/types';
import { feedLog, READ_CHUNK } from '../../server/src/node/eventLogReader';
import { observed, requested, resolved, senseUpdated } from '../fixtures/events/factory';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'log-reader-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const wantsState = (type: EventType) => STATE_EVENT_TYPES.has(type);

function collector(label: string, wants?: (type: EventType) => boolean) {
  const events: { event: LoggedEvent; line: number }[] = [];
  const problems: LogProblem[] = [];
  const parser = new EventLogParser(label, { event: (event, line) => events.push({ event, line }), problem: (p) => problems.push(p) }, wants ? { wants } : {});
  return { parser, events, problems };
}

/** A log of several read chunks: every event type, garbage, invalid state lines, unicode, CRLF, a torn end. */
let cachedLog: string | undefined;
function bigLog(): string {
  if (cachedLog !== undefined) return cachedLog;
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < 3.5 * READ_CHUNK || i % 10 !== 0; i++) {
    const term = i % 11 === 0 ? `térm-ü-${i}` : `term-${i}-${'y'.repeat(i % 400)}`;
    const kind = i % 5;
    const event =
      kind === 0 ? requested({ conflict: `c${i}`, term, lamport: i }) : kind === 1 ? resolved({ conflict: `c${i - 1}`, term, lamport: i }) : kind === 2 ? senseUpdated({ surface: term, lamport: i }) : observed({ term, lamport: i });
    let line = serializeEvent(event);
    if (i % 997 === 3) line = line.replace('"lamport_clock": ', '"lamport_clock": -'); // an invalid state event
    if (i % 1009 === 5) line = line.slice(0, 60); // garbage
    lines.push(line);
    length += line.length + 1;
  }
  return (cachedLog = lines.join('\n').replace(/\n(?=[^\n]*c1\d\b)/g, '\r\n') + '\n' + lines[2]!.slice(0, 50));
}

/** A file handle whose reads return at most `limit(call)` bytes: short reads in mid-file. */
async function shortReads(file: string, limit: (call: number) => number) {
  const handle = await open(file, 'r');
  let calls = 0;
  return {
    read: ((buffer: Buffer, offset: number, length: number, position: number) => handle.read(buffer, offset, Math.min(length, limit(calls++)), position)) as typeof handle.read,
    close: () => handle.close(),
  };
}

describe('feedLog', () => {
  it('gives the same events and problems as the in-memory parser, with and without wanted types', async () => {
    const text = bigLog();
    const file = path.join(dir, 'm.events.jsonl');
    writeFileSync(file, text);
    for (const wants of [undefined, wantsState]) {
      const expected = collector(file, wants);
      expected.parser.push(text);
      expected.parser.end();
      expect(expected.problems.length).toBeGreaterThan(3);
      const actual = collector(file, wants);
      await feedLog(file, actual.parser, wants);
      expect(actual.problems).toEqual(expected.problems);
      expect(actual.events).toEqual(expected.events);
    }
  });

  it('reads on correctly after short reads in the middle of the file', async () => {
    const text = bigLog();
    const file = path.join(dir, 'm.events.jsonl');
    writeFileSync(file, text);
    const expected = collector(file, wantsState);
    await feedLog(file, expected.parser, wantsState);
    for (const limit of [(call: number) => (call % 3 === 1 ? 100_000 : READ_CHUNK), (call: number) => 1000 + call * 7919, () => READ_CHUNK - 1]) {
      const actual = collector(file, wantsState);
      await feedLog(file, actual.parser, wantsState, (f) => shortReads(f, limit));
      expect(actual.problems).toEqual(expected.problems);
      expect(actual.events).toEqual(expected.events);
    }
  });

  it('reports a failing read and closes the file', async () => {
    const file = path.join(dir, 'm.events.jsonl');
    writeFileSync(file, bigLog());
    let closed = false;
    let calls = 0;
    const failing = async () => {
      const handle = await open(file, 'r');
      return {
        read: ((...args: Parameters<typeof handle.read>) => (calls++ === 2 ? Promise.reject(new Error('EIO: simulated')) : handle.read(...args))) as typeof handle.read,
        close: async () => {
          closed = true;
          await handle.close();
        },
      };
    };
    await expect(feedLog(file, collector(file).parser, undefined, failing)).rejects.toThrow('EIO: simulated');
    expect(closed).toBe(true);
  });
});
