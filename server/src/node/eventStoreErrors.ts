/**
 * What the event store and its lock share: the error they throw (naming the file, with the
 * system error code in words) and the file operations they use, injectable so tests can simulate
 * faults.
 */

import { link, open, type FileHandle } from 'node:fs/promises';

export class EventStoreError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EventStoreError';
  }
}

export function describeCode(error: unknown): { code: string | undefined; text: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EISDIR: 'is a directory',
    ENOTDIR: 'not a directory',
    ENOENT: 'no such file or directory',
    ELOOP: 'too many symbolic links',
    EMFILE: 'too many open files',
  };
  const text = code !== undefined && words[code] !== undefined ? `${words[code]} (${code})` : error instanceof Error ? error.message : String(error);
  return { code, text };
}

export function storeError(action: string, file: string, error: unknown): EventStoreError {
  if (error instanceof EventStoreError) return error;
  const { code, text } = describeCode(error);
  return new EventStoreError(`cannot ${action} ${file}: ${text}`, file, code);
}

/**
 * The file operations `append` uses, injectable so tests can simulate faults (EROFS, ENOSPC,
 * short writes) that a root user on an ordinary disk cannot provoke.
 */
export interface EventStoreFileSystem {
  open(file: string, flags: string | number): Promise<FileHandle>;
  /** A hard link (the lock is linked into place: eventLock.ts); `fs.promises.link` when absent. */
  link?(existing: string, created: string): Promise<void>;
}

export const NODE_FS: EventStoreFileSystem = { open: (file, flags) => open(file, flags), link: (existing, created) => link(existing, created) };
