/**
 * The event logs on disk: `<root>/.kittify/events/glossary/{mission_id}.events.jsonl` (SPEC §2, §7).
 *
 * Reading streams each log line by line (a 1M-event, 500 MB set never becomes one string).
 * Appending is atomic per call and safe with several writers at once:
 * - a lock file `<log>.lock` serializes our writers (see eventLock.ts);
 * - inside the lock the highest lamport clock is re-read, scanning only the bytes appended since
 *   this store last looked (cached by file identity and size);
 * - all lines of the call go out in ONE write on an O_APPEND descriptor, so writers that do not
 *   know our lock (Spec Kitty) still never interleave with a line, and earlier lines are never
 *   touched; a log whose last line is torn gets a `\n` first so our first line stands alone.
 * On a write error (EACCES, EROFS, ENOSPC, …) an EventStoreError names the file. After a short
 * write (the disk filled up mid-batch) the partial bytes are cut off again when the file still
 * ends with them (no other writer appended meanwhile), so nothing half-written stays; otherwise
 * they stay and readers skip the torn line with a warning.
 */
import { randomUUID, createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, readdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { EVENT_LOG_SUFFIX, missionFileStem, missionOfLogFile } from '../core/events/logged';
import { EventLogParser, type LogProblem } from '../core/events/parseLog';
import { serializeEvent } from '../core/events/serialize';
import { maxLamportInText } from '../core/events/sniff';
import { isoTimestamp } from '../core/events/timestamp';
import { STATE_EVENT_TYPES, type EventType, type GlossaryEvent, type GlossaryEventDraft, type LoggedEvent, type LogPosition } from '../core/events/types';
import { validateDraft, validateEvent } from '../core/events/validate';
import { createReplayAccumulator } from '../core/replay';
import type { ReplayState } from '../core/types';
import { acquireLock } from './eventLock';
import { feedLog, notRegularFileMessage, READ_CHUNK } from './eventLogReader';
import { EventStoreError, NODE_FS, storeError, type EventStoreFileSystem } from './eventStoreErrors';
import { assertInsideWorkspace, isInside } from './fsSafety';

export type { LogProblem } from '../core/events/parseLog';
export { EventStoreError, type EventStoreFileSystem } from './eventStoreErrors';

export const EVENT_LOG_DIR = path.join('.kittify', 'events', 'glossary');
export { EVENT_LOG_SUFFIX };
/**
 * Opening a log to append: O_NONBLOCK so that a FIFO planted under a log's name cannot hang the
 * open (a FIFO without a reader blocks a plain open); the handle is then checked to be a regular
 * file before anything is read or written.
 */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
/**
 * The longest mission id written whole in a log's name: its lock, `<id>.events.jsonl.lock`, must
 * fit the 255 bytes file systems allow in a name. (Spec Kitty writes every id whole: up to this
 * length both name the same file.)
 */
const MAX_FILE_ID_LENGTH = 255 - EVENT_LOG_SUFFIX.length - '.lock'.length;
const MAX_CARRY = 16 * READ_CHUNK;

/**
 * File name part for a mission id: characters outside `[A-Za-z0-9_.-]` become `-` (SPEC §2).
 * The `.events.jsonl` suffix keeps any id from being `.` or `..` as a path component, so ids made
 * only of dots keep them, as in Spec Kitty's name for the same mission. Ids longer
 * than MAX_FILE_ID_LENGTH are cut and given a hash suffix (file systems limit names to 255 bytes).
 */
export function sanitizeMissionId(missionId: string): string {
  if (missionId === '') throw new EventStoreError('mission id is empty', EVENT_LOG_DIR);
  // (As Spec Kitty names it, dots kept: "." is `..events.jsonl`, still a file inside the folder.)
  let safe = missionFileStem(missionId);
  if (safe.length > MAX_FILE_ID_LENGTH) {
    safe = `${safe.slice(0, MAX_FILE_ID_LENGTH - 17)}-${createHash('sha256').update(missionId).digest('hex').slice(0, 16)}`;
  }
  return safe;
}

export function eventLogDir(workspaceRoot: string): string {
  return path.join(path.resolve(workspaceRoot), EVENT_LOG_DIR);
}

export function eventLogPath(workspaceRoot: string, missionId: string): string {
  return path.join(eventLogDir(workspaceRoot), sanitizeMissionId(missionId) + EVENT_LOG_SUFFIX);
}

/** What we know about a log from earlier appends, so the next one scans only new bytes. */
interface LogCursor {
  dev: number;
  ino: number;
  /** Byte offset just after the last `\n` scanned: everything before it is whole lines. */
  scanned: number;
  maxLamport: number;
}

export interface ReadResult {
  events: LoggedEvent[];
  problems: LogProblem[];
}

export interface AppendOptions {
  /**
   * Called inside the writers' lock with the mission's log replayed as it is at that moment (our
   * lines and every other writer's up to now); returns the drafts to write — for a decision that
   * must not be taken twice, such as "request a clarification unless one is already open"
   * (issue 19: several `check --emit-events` at once each saw none open before the lock).
   */
  underLock?: (current: ReplayState) => readonly GlossaryEventDraft[];
}

export interface EventStoreOptions {
  fs?: EventStoreFileSystem;
}

export interface StreamOptions {
  /** Only these types are parsed and validated (the rest are skipped cheaply). */
  wants?: (type: EventType) => boolean;
  /** Unsaved editor contents of logs by absolute path, read instead of the disk (language server). */
  overlays?: ReadonlyMap<string, string>;
}

export class EventStore {
  readonly root: string;
  private readonly cursors = new Map<string, LogCursor>();
  private readonly fs: EventStoreFileSystem;
  /** Per log, the end of the last append queued by this store (see `inTurn`). */
  private readonly appending = new Map<string, Promise<void>>();

  constructor(workspaceRoot: string, options: EventStoreOptions = {}) {
    this.root = path.resolve(workspaceRoot);
    this.fs = options.fs ?? NODE_FS;
  }

  logPath(missionId: string): string {
    return eventLogPath(this.root, missionId);
  }

  /**
   * Paths of every `*.events.jsonl` log, sorted. Logs resolving outside the workspace are
   * reported; so is anything under a log's name that is not a regular file (a FIFO would block the
   * reader forever, a directory cannot be read): it is skipped with a warning.
   */
  async listLogs(problems: LogProblem[] = []): Promise<string[]> {
    const dir = eventLogDir(this.root);
    try {
      assertInsideWorkspace(this.root, dir);
    } catch (error) {
      problems.push({ file: dir, line: 0, message: (error as Error).message });
      return [];
    }
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      problems.push({ file: dir, line: 0, message: storeError('read', dir, error).message });
      return [];
    }
    const logs: string[] = [];
    for (const name of names.filter((n) => n.endsWith(EVENT_LOG_SUFFIX)).sort()) {
      const file = path.join(dir, name);
      try {
        assertInsideWorkspace(this.root, file);
      } catch (error) {
        problems.push({ file, line: 0, message: (error as Error).message });
        continue;
      }
      try {
        const info = await stat(file);
        if (!info.isFile()) {
          problems.push({ file, line: 0, message: notRegularFileMessage(info), severity: 'warning', code: 'events.not-a-log' });
          continue;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
        problems.push({ file, line: 0, message: storeError('read', file, error).message });
        continue;
      }
      logs.push(file);
    }
    return logs;
  }

  /**
   * Streams every valid event of every log to `onEvent` (file by file, line order), with the
   * event's place in replay order; returns the problems.
   */
  async stream(onEvent: (event: LoggedEvent, file: string, line: number, position: LogPosition) => void, options: StreamOptions = {}): Promise<LogProblem[]> {
    const problems: LogProblem[] = [];
    for (const file of await this.listLogs(problems)) await this.streamLog(file, onEvent, options, problems);
    return problems;
  }

  private async streamLog(file: string, onEvent: (event: LoggedEvent, file: string, line: number, position: LogPosition) => void, options: StreamOptions, problems: LogProblem[]): Promise<void> {
    const mission = missionOfLogFile(file);
    const parser = new EventLogParser(file, { event: (e, line, position) => onEvent(e, file, line, position), problem: (p) => problems.push(p) }, { ...options, ...(mission !== undefined ? { mission } : {}) });
    const overlay = options.overlays?.get(file);
    if (overlay !== undefined) {
      parser.push(overlay);
      parser.end();
      return;
    }
    try {
      await feedLog(file, parser, options.wants);
    } catch (error) {
      problems.push({ file, line: 0, message: storeError('read', file, error).message });
    }
  }

  async readAll(): Promise<ReadResult> {
    const events: LoggedEvent[] = [];
    const problems = await this.stream((event) => events.push(event));
    return { events, problems };
  }

  /** Replays every log, keeping only what replay needs while streaming. */
  async replay(overlays?: ReadonlyMap<string, string>): Promise<{ state: ReplayState; problems: LogProblem[] }> {
    const acc = createReplayAccumulator();
    const problems = await this.stream((event, _file, _line, position) => acc.add(event, position), { wants: wantsState, ...(overlays ? { overlays } : {}) });
    return { state: acc.finish(), problems };
  }

  /** Replays one log file as it is on disk now (inside the lock: see `AppendOptions.underLock`). */
  private async replayLog(file: string): Promise<ReplayState> {
    const acc = createReplayAccumulator();
    await this.streamLog(file, (event, _file, _line, position) => acc.add(event, position), { wants: wantsState }, []);
    return acc.finish();
  }

  /**
   * Seals and appends `drafts` to the mission's log in one write. Returns the sealed events.
   * Throws (writing nothing) on an invalid draft, a draft of another mission, or a path outside
   * the workspace; throws EventStoreError naming the file on an I/O error.
   */
  async append(missionId: string, allDrafts: readonly GlossaryEventDraft[], options: AppendOptions = {}): Promise<GlossaryEvent[]> {
    if (allDrafts.length === 0) return [];
    const file = this.logPath(missionId);
    checkDrafts(missionId, allDrafts, file);
    if (!isInside(path.join(this.root, '.kittify'), file)) {
      throw new EventStoreError(`refusing to write ${file}: not under ${path.join(this.root, '.kittify')}`, file);
    }
    const dir = path.dirname(file);
    assertInsideWorkspace(this.root, dir);
    return this.inTurn(file, async () => {
      try {
        await mkdir(dir, { recursive: true });
      } catch (error) {
        throw storeError('create the folder of', file, error);
      }
      assertInsideWorkspace(this.root, file);
      return this.appendLocked(file, missionId, allDrafts, options);
    });
  }

  /**
   * Runs `write` once every earlier append of this store to `file` has ended: appends are made in
   * the order they were asked for. Appends of one process wait for each other here rather than at
   * the lock file, where each waiter polls with backoff: 200 quick fixes in flight at once kept
   * the lock file busy with failed attempts, and the next in line took up to its backoff (25 ms)
   * to notice a release. (Other processes still meet at the lock file.)
   */
  private async inTurn<T>(file: string, write: () => Promise<T>): Promise<T> {
    const before = this.appending.get(file);
    const mine = (before ?? Promise.resolve()).then(write);
    // (The queue holds a promise that never rejects: one failed append does not fail the next.)
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.appending.set(file, settled);
    try {
      return await mine;
    } finally {
      if (this.appending.get(file) === settled) this.appending.delete(file);
    }
  }

  private async appendLocked(file: string, missionId: string, allDrafts: readonly GlossaryEventDraft[], options: AppendOptions): Promise<GlossaryEvent[]> {
    const release = await acquireLock(file + '.lock', file, this.fs);
    let handle: FileHandle | undefined;
    try {
      try {
        handle = await this.fs.open(file, APPEND_FLAGS);
      } catch (error) {
        throw storeError('open', file, error);
      }
      const kind = await handle.stat();
      if (!kind.isFile()) throw new EventStoreError(`cannot append to ${file}: ${notRegularFileMessage(kind)}; nothing was appended`, file, 'ENOTREG');
      const drafts = options.underLock === undefined ? allDrafts : options.underLock(await this.replayLog(file));
      if (drafts.length === 0) return [];
      if (drafts !== allDrafts) checkDrafts(missionId, drafts, file);
      const { cursor, endsWithNewline, size } = await this.scan(file, handle);
      // One append is one instant: every event of the batch carries the same timestamp.
      const now = isoTimestamp();
      const sealed = drafts.map((draft, i) => sealDraft(draft, cursor.maxLamport + 1 + i, now));
      for (const event of sealed) {
        const result = validateEvent(event);
        if (!result.ok) throw new EventStoreError(`refusing to write an invalid ${event.event_type} to ${file}: ${result.errors.join('; ')}`, file);
      }
      const text = (endsWithNewline ? '' : '\n') + sealed.map(serializeEvent).join('\n') + '\n';
      await writeAll(handle, Buffer.from(text, 'utf8'), file, size);
      // `scanned` stays before our lines: a writer that ignores our lock may have appended just
      // before them, and its clocks must be seen next time.
      this.cursors.set(file, { ...cursor, maxLamport: cursor.maxLamport + sealed.length });
      return sealed;
    } finally {
      if (handle !== undefined) await handle.close().catch(() => undefined);
      await release();
    }
  }

  /** Highest lamport clock in the log, reading only bytes this store has not seen. */
  private async scan(file: string, handle: FileHandle): Promise<{ cursor: LogCursor; endsWithNewline: boolean; size: number }> {
    const info = await handle.stat();
    let cursor = this.cursors.get(file);
    if (cursor === undefined || cursor.dev !== info.dev || cursor.ino !== info.ino || cursor.scanned > info.size) {
      // An empty log counts as clock 0, so its first event gets 1 (as in events.example.jsonl).
      cursor = { dev: info.dev, ino: info.ino, scanned: 0, maxLamport: 0 };
    }
    let { scanned, maxLamport } = cursor;
    let carry = Buffer.alloc(0);
    let position = scanned;
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    while (position < info.size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(READ_CHUNK, info.size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const chunk = carry.length === 0 ? buffer.subarray(0, bytesRead) : Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
      const lastNewline = chunk.lastIndexOf(10);
      if (lastNewline < 0) {
        // No line end yet. Do not let one huge garbage line grow without bound: scan what we
        // have and keep only a tail long enough to hold a split `"lamport_clock": N`.
        if (chunk.length > MAX_CARRY) {
          maxLamport = Math.max(maxLamport, maxLamportInText(chunk.toString('utf8')));
          carry = Buffer.from(chunk.subarray(chunk.length - 64));
        } else {
          carry = Buffer.from(chunk);
        }
        continue;
      }
      // A `\n` byte never occurs inside a UTF-8 sequence, so whole lines decode on their own.
      maxLamport = Math.max(maxLamport, maxLamportInText(chunk.toString('utf8', 0, lastNewline + 1)));
      scanned = position - (chunk.length - lastNewline - 1);
      carry = Buffer.from(chunk.subarray(lastNewline + 1));
    }
    // An unterminated tail (torn line) counts for the clock but is scanned again next time.
    if (carry.length > 0) maxLamport = Math.max(maxLamport, maxLamportInText(carry.toString('utf8')));
    return {
      cursor: { dev: info.dev, ino: info.ino, scanned, maxLamport },
      endsWithNewline: carry.length === 0,
      size: info.size,
    };
  }
}

function wantsState(type: EventType): boolean {
  return STATE_EVENT_TYPES.has(type);
}

function checkDrafts(missionId: string, drafts: readonly GlossaryEventDraft[], file: string): void {
  const errors: string[] = [];
  drafts.forEach((draft, i) => {
    const result = validateDraft(draft);
    const label = `event ${i + 1} (${String((draft as { event_type?: unknown }).event_type)})`;
    if (!result.ok) errors.push(`${label}: ${result.errors.join('; ')}`);
    else if (draft.mission_id !== missionId) errors.push(`${label}: mission_id ${JSON.stringify(draft.mission_id)} does not match the log's mission ${JSON.stringify(missionId)}`);
  });
  if (errors.length > 0) throw new EventStoreError(`refusing to append to ${file}, nothing written: ${errors.join(' | ')}`, file);
}

function sealDraft(draft: GlossaryEventDraft, lamport: number, timestamp: string): GlossaryEvent {
  // The draft's own fields are copied as they are; only the store-owned ones are added.
  return { ...draft, event_id: randomUUID(), timestamp, lamport_clock: lamport } as GlossaryEvent;
}

/**
 * Writes `bytes` at the end of the log (`sizeBefore` bytes long when we scanned it, under our
 * lock). On a failure after a short write, the partial bytes are cut off again if the file is
 * exactly `sizeBefore` + what we wrote — i.e. no writer that ignores our lock appended meanwhile —
 * so no half-written line stays behind.
 */
async function writeAll(handle: FileHandle, bytes: Buffer, file: string, sizeBefore: number): Promise<void> {
  let offset = 0;
  try {
    // One write in practice; the loop only matters for a short write (e.g. the disk filling up).
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      if (bytesWritten <= 0) throw new Error('write returned no progress');
      offset += bytesWritten;
    }
  } catch (error) {
    const e = storeError('append to', file, error);
    if (offset > 0) {
      const rolledBack = await handle
        .stat()
        .then(async (info) => {
          if (info.size !== sizeBefore + offset) return false;
          await handle.truncate(sizeBefore);
          return true;
        })
        .catch(() => false);
      e.message += rolledBack
        ? `; nothing was appended (the ${offset} bytes written before the error were removed)`
        : ` (${offset} of ${bytes.length} bytes were written; readers skip the partial line)`;
    } else {
      e.message += '; nothing was appended';
    }
    throw e;
  }
}

// Conveniences for one-shot callers (the CLI). Long-lived callers keep one EventStore so the
// lamport scan of a large log is not repeated on every append.

export function readEventLogs(workspaceRoot: string): Promise<ReadResult> {
  return new EventStore(workspaceRoot).readAll();
}

export function replayWorkspace(workspaceRoot: string, overlays?: ReadonlyMap<string, string>): Promise<{ state: ReplayState; problems: LogProblem[] }> {
  return new EventStore(workspaceRoot).replay(overlays);
}

export function appendEvents(workspaceRoot: string, missionId: string, drafts: readonly GlossaryEventDraft[], options: AppendOptions = {}): Promise<GlossaryEvent[]> {
  return new EventStore(workspaceRoot).append(missionId, drafts, options);
}
