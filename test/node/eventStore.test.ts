import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import type { GlossaryEventDraft } from '../../server/src/core/events/types';
import {
  EventStore,
  EventStoreError,
  appendEvents,
  eventLogPath,
  readEventLogs,
  replayWorkspace,
  sanitizeMissionId,
} from '../../server/src/node/eventStore';
import { OutsideWorkspaceError, assertInsideWorkspace } from '../../server/src/node/fsSafety';
import { replayEvents } from '../../server/src/core/replay';
import { observed, requested, resolved, toDraft } from '../fixtures/events/factory';

let root: string;
let outside: string;

beforeEach(() => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-store-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});

afterEach(() => {
  rmSync(path.dirname(root), { recursive: true, force: true });
});

const draft = (term: string, mission = 'm1') => toDraft(observed({ term, mission })) as GlossaryEventDraft;
const logDir = () => path.join(root, '.kittify', 'events', 'glossary');

describe('eventLogPath', () => {
  it('replaces characters outside [A-Za-z0-9_.-] and keeps every id inside the log folder', () => {
    expect(sanitizeMissionId('041-mission_v1.2')).toBe('041-mission_v1.2');
    expect(sanitizeMissionId('a/b c:é')).toBe('a-b-c--');
    // One dash per character, as Spec Kitty's re.sub: an emoji is two UTF-16 code units, one character.
    expect(sanitizeMissionId('m😀x')).toBe('m-x');
    expect(sanitizeMissionId('../../etc')).toBe('..-..-etc');
    // Dots are kept, as Spec Kitty keeps them: the suffix makes the name a file inside the folder.
    expect(sanitizeMissionId('..')).toBe('..');
    expect(sanitizeMissionId('.')).toBe('.');
    expect(eventLogPath('/ws', '..')).toBe('/ws/.kittify/events/glossary/...events.jsonl');
    expect(sanitizeMissionId('x'.repeat(500))).toHaveLength(237);
    // Up to 237 characters, an id is its log's name, as Spec Kitty names it.
    expect(sanitizeMissionId('x'.repeat(237))).toBe('x'.repeat(237));
    for (const id of ['../../etc', '..', '.', '/abs/path', '..\\..\\win', 'x'.repeat(500)]) {
      const file = eventLogPath(root, id);
      expect(path.dirname(file), id).toBe(logDir());
      expect(file.endsWith('.events.jsonl')).toBe(true);
    }
    expect(() => sanitizeMissionId('')).toThrow(/empty/);
  });

  it('appends to the log of a mission id as long as a name allows (its lock and the lock\'s draft fit too)', async () => {
    for (const length of [195, 237, 300]) {
      const id = 'm'.repeat(length);
      await appendEvents(root, id, [draft('x', id)]);
      expect(readFileSync(eventLogPath(root, id), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    }
    expect(readdirSync(logDir()).every((name) => name.endsWith('.events.jsonl') && Buffer.byteLength(name) <= 255)).toBe(true);
  });

  it('an append for mission "../../etc" stays inside the workspace', async () => {
    await appendEvents(root, '../../etc', [draft('x', '../../etc')]);
    expect(readdirSync(logDir())).toEqual(['..-..-etc.events.jsonl']);
    expect(existsSync(path.join(path.dirname(root), 'etc.events.jsonl'))).toBe(false);
  });
});

describe('EventStore.append', () => {
  it('creates folders, seals events and assigns increasing lamport clocks', async () => {
    const store = new EventStore(root);
    const first = await store.append('m1', [draft('a'), draft('b'), draft('c')]);
    const second = await store.append('m1', [draft('d')]);
    expect([...first, ...second].map((e) => e.lamport_clock)).toEqual([1, 2, 3, 4]);
    expect(new Set([...first, ...second].map((e) => e.event_id)).size).toBe(4);
    expect(first[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const text = readFileSync(store.logPath('m1'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').slice(0, -1)).toEqual([...first, ...second].map(serializeEvent));
    const { events, problems } = await readEventLogs(root);
    expect(problems).toEqual([]);
    expect(events).toEqual([...first, ...second]);
  });

  it('continues after clocks written by someone else (another store or process)', async () => {
    const mine = new EventStore(root);
    await mine.append('m1', [draft('a')]);
    await new EventStore(root).append('m1', [draft('b'), draft('c')]);
    // A foreign writer with a much higher clock.
    const foreign = { ...observed({ term: 'z', lamport: 41 }) };
    writeFileSync(mine.logPath('m1'), serializeEvent(foreign) + '\n', { flag: 'a' });
    const [next] = await mine.append('m1', [draft('d')]);
    expect(next!.lamport_clock).toBe(42);
  });

  it('after a torn last line, starts on a new line: old whole lines and new lines all parse', async () => {
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    const old = [observed({ term: 'one', lamport: 1 }), observed({ term: 'two', lamport: 2 })].map(serializeEvent);
    const whole = serializeEvent(observed({ term: 'three', lamport: 3 }));
    const torn = whole.slice(0, whole.indexOf('"mission_id"')); // cut after its lamport_clock
    writeFileSync(file, `${old.join('\n')}\n${torn}`);
    const appended = await appendEvents(root, 'm1', [draft('four'), draft('five')]);
    expect(appended.map((e) => e.lamport_clock)).toEqual([4, 5]); // the torn line's clock still counts
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${old.join('\n')}\n${torn}\n`)).toBe(true); // earlier bytes untouched
    const { events, problems } = parseEventLog(text, file);
    expect(events.map((e) => (e.event_type === 'TermCandidateObserved' ? e.term : ''))).toEqual(['one', 'two', 'four', 'five']);
    expect(problems).toEqual([{ file, line: 3, message: expect.stringMatching(/^not valid JSON/) }]);
  });

  it('rejects invalid drafts and drafts of another mission, writing nothing', async () => {
    const bad = { ...draft('a'), confidence: 7 } as GlossaryEventDraft;
    await expect(appendEvents(root, 'm1', [draft('ok'), bad])).rejects.toThrow(/event 2 \(TermCandidateObserved\): confidence: expected a number between 0 and 1/);
    await expect(appendEvents(root, 'm1', [draft('a', 'm2')])).rejects.toThrow(/mission_id "m2" does not match the log's mission "m1"/);
    const sealed = { ...draft('a'), lamport_clock: 3 } as unknown as GlossaryEventDraft;
    await expect(appendEvents(root, 'm1', [sealed])).rejects.toThrow(/lamport_clock: assigned by the event store/);
    expect(existsSync(eventLogPath(root, 'm1'))).toBe(false);
  });

  it('refuses a log that is a symlink to a file outside the workspace', async () => {
    const target = path.join(outside, 'stolen.jsonl');
    writeFileSync(target, 'precious\n');
    mkdirSync(logDir(), { recursive: true });
    symlinkSync(target, eventLogPath(root, 'm1'));
    await expect(appendEvents(root, 'm1', [draft('a')])).rejects.toThrow(OutsideWorkspaceError);
    await expect(appendEvents(root, 'm1', [draft('a')])).rejects.toThrow(/resolves to .*stolen\.jsonl through a symbolic link, outside the workspace/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    // Reading reports it instead of following it.
    const { events, problems } = await readEventLogs(root);
    expect(events).toEqual([]);
    expect(problems[0]!.message).toMatch(/outside the workspace/);
  });

  it('refuses a .kittify folder that is a symlink leading outside, and a dangling log link', async () => {
    symlinkSync(outside, path.join(root, '.kittify'));
    await expect(appendEvents(root, 'm1', [draft('a')])).rejects.toThrow(OutsideWorkspaceError);
    expect(readdirSync(outside)).toEqual([]);
    rmSync(path.join(root, '.kittify'));
    mkdirSync(logDir(), { recursive: true });
    symlinkSync(path.join(outside, 'missing.jsonl'), eventLogPath(root, 'm2'));
    await expect(appendEvents(root, 'm2', [draft('a', 'm2')])).rejects.toThrow(/symbolic link to a missing target/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('accepts symlinks that stay inside the workspace', async () => {
    mkdirSync(path.join(root, 'real-kittify'));
    symlinkSync(path.join(root, 'real-kittify'), path.join(root, '.kittify'));
    await appendEvents(root, 'm1', [draft('a')]);
    expect(readdirSync(path.join(root, 'real-kittify', 'events', 'glossary'))).toEqual(['m1.events.jsonl']);
    expect(() => assertInsideWorkspace(root, path.join(root, '..', 'x'))).toThrow(/outside the workspace folder/);
    expect(() => assertInsideWorkspace(path.join(root, 'nope'), path.join(root, 'nope', 'x'))).toThrow(/workspace folder .*nope does not exist/);
  });

  it('names the file on a write error', async () => {
    // The log path is a directory: opening it for append fails (works even when tests run as root).
    mkdirSync(eventLogPath(root, 'm1'), { recursive: true });
    const error = await appendEvents(root, 'm1', [draft('a')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventStoreError);
    expect((error as EventStoreError).message).toBe(`cannot open ${eventLogPath(root, 'm1')}: is a directory (EISDIR)`);
    expect(existsSync(eventLogPath(root, 'm1') + '.lock')).toBe(false); // lock released
  });
});

describe('lock file', () => {
  it('waits for a held lock, then appends', async () => {
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file + '.lock', JSON.stringify({ pid: 1, token: 'someone' }));
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        rmSync(file + '.lock');
        resolve();
      }, 150),
    );
    const started = Date.now();
    await appendEvents(root, 'm1', [draft('a')]);
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(existsSync(file + '.lock')).toBe(false);
  });

  it('breaks a stale lock left by a crashed writer', async () => {
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file + '.lock', JSON.stringify({ pid: 999999, token: 'dead' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(file + '.lock', old, old);
    const [event] = await appendEvents(root, 'm1', [draft('a')]);
    expect(event!.lamport_clock).toBe(1);
    expect(readdirSync(path.dirname(file))).toEqual(['m1.events.jsonl']);
  });
});

describe('taking the lock', () => {
  it('links the lock into place already written: it never exists empty, and no draft is left', async () => {
    const file = eventLogPath(root, 'm1');
    const opened: { name: string; flags: string | number }[] = [];
    const seenLocks: string[] = [];
    const store = new EventStore(root, {
      fs: {
        async open(name, flags) {
          opened.push({ name: path.basename(name), flags });
          // While the log is open for the append, the lock is held: it already says whose it is.
          if (name === file) seenLocks.push(readFileSync(file + '.lock', 'utf8'));
          return open(name, flags);
        },
      },
    });
    await store.append('m1', [draft('a')]);
    // (Created empty and written next, a lock of a writer killed in between held every writer for 10 s.)
    expect(opened.filter((o) => o.name === 'm1.events.jsonl.lock')).toEqual([]);
    expect(opened.filter((o) => o.name.endsWith('.draft')).map((o) => o.flags)).toEqual(['wx']);
    expect(seenLocks).toHaveLength(1);
    expect(JSON.parse(seenLocks[0]!)).toMatchObject({ pid: process.pid, token: expect.any(String) });
    expect(readdirSync(path.dirname(file))).toEqual(['m1.events.jsonl']);
  });

  it('on a file system without hard links the lock is created in place: appends work, nothing is left', async () => {
    const noLinks = (code: string) => new EventStore(root, { fs: { open: (name, flags) => open(name, flags), link: () => Promise.reject(Object.assign(new Error(`${code}: simulated`), { code })) } });
    for (const code of ['EPERM', 'ENOTSUP']) await noLinks(code).append('m1', [draft(code)]);
    const events = parseEventLog(readFileSync(eventLogPath(root, 'm1'), 'utf8'), eventLogPath(root, 'm1')).events;
    expect(events.map((e) => e.lamport_clock)).toEqual([1, 2]);
    expect(readdirSync(logDir())).toEqual(['m1.events.jsonl']);
    // Any other failure to link is the append's failure, named, with nothing written.
    const broken = new EventStore(root, { fs: { open: (name, flags) => open(name, flags), link: () => Promise.reject(Object.assign(new Error('EIO: simulated'), { code: 'EIO' })) } });
    await expect(broken.append('m1', [draft('x')])).rejects.toMatchObject({ code: 'EIO', message: expect.stringMatching(/cannot create the lock file m1\.events\.jsonl\.lock: .*nothing was appended$/) });
    expect(readdirSync(logDir())).toEqual(['m1.events.jsonl']);
  });

  it('a draft left by a writer killed before it linked its lock holds no one', async () => {
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.lock.killed.draft`, JSON.stringify({ pid: 999999, token: 'killed' }));
    const started = Date.now();
    const [event] = await appendEvents(root, 'm1', [draft('a')]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(event!.lamport_clock).toBe(1);
  });

  it('appends of one store to one log take turns: 200 at once, every clock once, in the order they were asked', async () => {
    const store = new EventStore(root);
    const appended = await Promise.all(Array.from({ length: 200 }, (_, i) => store.append('m1', [draft(`t${i}`)])));
    expect(appended.map(([e]) => e!.lamport_clock)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(parseEventLog(readFileSync(store.logPath('m1'), 'utf8'), store.logPath('m1')).events.map((e) => (e as { term: string }).term)).toEqual(Array.from({ length: 200 }, (_, i) => `t${i}`));
    expect(readdirSync(logDir())).toEqual(['m1.events.jsonl']);
  });

  it('one failed append does not fail the next in line', async () => {
    const store = new EventStore(root);
    const bad = { ...draft('x'), mission_id: 'other' } as GlossaryEventDraft;
    const [first, second] = await Promise.allSettled([store.append('m1', [draft('a')], { underLock: () => [bad] }), store.append('m1', [draft('b')])]);
    expect(first.status).toBe('rejected');
    expect(second).toMatchObject({ status: 'fulfilled', value: [{ lamport_clock: 1 }] });
  });
});

describe('replayWorkspace', () => {
  it('replays every mission log; a Resolved in one file closes a Requested in another', async () => {
    const store = new EventStore(root);
    await store.append('m1', [toDraft(requested({ conflict: 'c1', mission: 'm1' })) as GlossaryEventDraft, draft('noise')]);
    await store.append('m1', [toDraft(requested({ conflict: 'c2', mission: 'm1' })) as GlossaryEventDraft]);
    await store.append('other', [toDraft(resolved({ conflict: 'c1', mission: 'other' })) as GlossaryEventDraft]);
    writeFileSync(store.logPath('m1'), 'garbage\n', { flag: 'a' });
    const { state, problems } = await replayWorkspace(root);
    expect(state.openClarifications.map((o) => o.conflictId)).toEqual(['c2']);
    expect(state.pins.map((p) => [p.missionId, p.term])).toEqual([['other', 'workspace']]);
    expect(problems).toEqual([{ file: store.logPath('m1'), line: 4, message: expect.stringMatching(/^not valid JSON/) }]);
  });
});

describe('reading large logs', () => {
  it('reads a multi-chunk log exactly like the in-memory parser (BOM, CRLF, unicode, garbage across chunk ends)', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 9000; i++) {
      const term = i % 7 === 0 ? `térm-ü-${i}-${'x'.repeat(i % 300)}` : `term-${i}-${'y'.repeat(i % 500)}`;
      const event = i % 3 === 0 ? resolved({ conflict: `c${i}`, term, mission: 'm1' }) : observed({ term, mission: 'm1' });
      lines.push(serializeEvent(event));
      if (i % 1000 === 500) lines.push('garbage {');
      if (i % 1000 === 700) lines.push('');
    }
    const text = '\uFEFF' + lines.join('\r\n') + '\r\n' + lines[1]!.slice(0, 40);
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * 1024 * 1024);
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);

    const expected = parseEventLog(text, file);
    expect(expected.problems).toHaveLength(10); // 9 garbage lines and the torn last one
    expect(expected.problems[9]!.message).toMatch(/^torn last line/);
    const actual = await readEventLogs(root);
    expect(actual.problems).toEqual(expected.problems);
    expect(actual.events).toEqual(expected.events);

    const { state, problems } = await replayWorkspace(root);
    expect(problems).toEqual(expected.problems);
    expect(JSON.stringify(state)).toBe(JSON.stringify(replayEvents(expected.events)));
    expect(state.pins).toHaveLength(3000);
  });

  it('reports an over-long line and keeps reading after it', async () => {
    const file = eventLogPath(root, 'm1');
    mkdirSync(path.dirname(file), { recursive: true });
    const a = serializeEvent(observed({ term: 'before' }));
    const b = serializeEvent(observed({ term: 'after' }));
    writeFileSync(file, `${a}\n${'z'.repeat(17 * 1024 * 1024)}\n${b}\n`);
    const { events, problems } = await readEventLogs(root);
    expect(events.map((e) => (e.event_type === 'TermCandidateObserved' ? e.term : ''))).toEqual(['before', 'after']);
    expect(problems).toEqual([{ file, line: 2, message: expect.stringMatching(/^line of 17825792 characters is longer than/) }]);
  });
});
