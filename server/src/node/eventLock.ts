/**
 * The lock that serializes our writers of one event log: `<log>.lock`, holding pid, host, time
 * and a token from the moment it exists (a written draft linked into place; see `createLock`). A
 * lock older than 10 s, or whose writer (on this host) no longer exists, was left by a crashed
 * writer and is broken; waiting backs off with jitter.
 */

import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, lstat, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { isoTimestamp } from '../core/events/timestamp';
import { describeCode, EventStoreError, NODE_FS, type EventStoreFileSystem } from './eventStoreErrors';

const LOCK_STALE_MS = 10_000;
const LOCK_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface LockInfo {
  pid: number;
  host: string;
  time: string;
  token: string;
}

/** Takes `<log>.lock`; returns the release function. Waits with backoff, breaks stale locks. */
export async function acquireLock(lockPath: string, file: string, fs: EventStoreFileSystem = NODE_FS): Promise<() => Promise<void>> {
  const token = randomUUID();
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  let delay = 1;
  for (;;) {
    let created: boolean;
    try {
      created = await createLock(lockPath, { pid: process.pid, host: hostname(), time: isoTimestamp(), token }, fs);
    } catch (error) {
      throw lockError(lockPath, file, error);
    }
    if (created) return () => releaseLock(lockPath, token);
    const retryNow = await breakStaleLock(lockPath);
    if (Date.now() > deadline) {
      throw new EventStoreError(`cannot append to ${file}: timed out after ${LOCK_TIMEOUT_MS / 1000} s waiting for the lock ${lockPath}`, file, 'ELOCKED');
    }
    if (retryNow) continue;
    // Jittered exponential backoff, capped low: a holder keeps the lock for a few milliseconds.
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 25);
  }
}

/**
 * A file beside the lock named after it, `<lock>.<suffix>`, with the lock's name cut short when
 * the whole would pass the 255 bytes of a file name (a log's name may take nearly all of them).
 */
function besideLock(lockPath: string, suffix: string): string {
  const name = path.basename(lockPath);
  return path.join(path.dirname(lockPath), `${name.slice(0, Math.max(1, 254 - suffix.length))}.${suffix}`);
}

/** Errors of `link` on a file system without hard links (FAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates the lock file holding `info`; false when the lock is held. The lock is written as a
 * draft beside it and linked into place, so it never exists empty: a writer killed while taking
 * it leaves a lock whose holder can be seen to be gone (`holderIsGone`). (Created empty and then
 * written, a lock of a writer killed in between had to age 10 s: the next decision waited that
 * long.) Where the file system has no hard links it is created in place, as before.
 */
async function createLock(lockPath: string, info: LockInfo, fs: EventStoreFileSystem): Promise<boolean> {
  const draft = besideLock(lockPath, `${info.token}.draft`);
  await writeNewFile(draft, JSON.stringify(info), fs);
  try {
    await (fs.link ?? link)(draft, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  try {
    await writeNewFile(lockPath, JSON.stringify(info), fs);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Creates `file` (it must not exist) holding `text`; a file that could not be written whole is removed. */
async function writeNewFile(file: string, text: string, fs: EventStoreFileSystem): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(text);
  } catch (error) {
    // (Left empty, e.g. on a full disk, a lock would hold every writer until it went stale.)
    await handle.close().catch(() => undefined);
    await unlink(file).catch(() => undefined);
    throw error;
  }
  await handle.close().catch(() => undefined);
}

function lockError(lockPath: string, file: string, error: unknown): EventStoreError {
  const { code, text } = describeCode(error);
  return new EventStoreError(`cannot append to ${file}: cannot create the lock file ${path.basename(lockPath)}: ${text}; nothing was appended`, file, code);
}

/** Removes our lock, unless it was broken as stale and someone else holds the path now. */
async function releaseLock(lockPath: string, token: string): Promise<void> {
  try {
    const info = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockInfo>;
    if (info.token === token) await unlink(lockPath);
  } catch {
    // Already gone or unreadable: nothing of ours to remove.
  }
}

/**
 * Breaks a lock older than LOCK_STALE_MS (its writer crashed). Renaming is atomic, so only one
 * waiter wins; if the file it renamed turns out to be a fresh lock (another waiter broke the stale
 * one and re-locked in between), it is linked back. Returns true when the caller should retry now.
 */
async function breakStaleLock(lockPath: string): Promise<boolean> {
  let before: Stats;
  try {
    // lstat: a lock path that is a symlink is judged (and removed) as itself, never followed.
    before = await lstat(lockPath);
  } catch {
    return true; // released meanwhile
  }
  // Anything but a regular file (a FIFO, a directory) is no lock of ours, and reading it could
  // block: it is broken at once.
  if (before.isFile() && Date.now() - before.mtimeMs < LOCK_STALE_MS && !(await holderIsGone(lockPath))) return false;
  const tomb = besideLock(lockPath, `stale-${randomUUID()}`);
  try {
    await rename(lockPath, tomb);
  } catch (error) {
    // ENOENT: someone else broke it first. Anything else (read-only folder): wait and time out.
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    const after = await lstat(tomb);
    if (after.ino !== before.ino) await link(tomb, lockPath).catch(() => undefined);
  } finally {
    await unlink(tomb).catch(() => undefined);
  }
  return true;
}

/**
 * True when the lock was taken by a process of this machine that no longer exists (a writer
 * killed mid-append): its lock need not age 10 s before it is broken. A lock without JSON (one
 * still being written where the file system has no hard links, or not ours), another host's lock,
 * or a live pid (or one we may not signal) counts as held.
 */
async function holderIsGone(lockPath: string): Promise<boolean> {
  let info: Partial<LockInfo>;
  try {
    info = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockInfo>;
  } catch {
    return false;
  }
  if (info.host !== hostname() || typeof info.pid !== 'number' || !Number.isInteger(info.pid) || info.pid <= 0 || info.pid === process.pid) return false;
  try {
    process.kill(info.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
