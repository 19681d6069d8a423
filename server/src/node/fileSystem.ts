/**
 * The file operations workspace loading, the analyzer and the server use, behind one interface:
 * `NODE_FILE_SYSTEM` reads and writes the disk; tests give an in-memory one
 * (test/helpers/memoryFileSystem.ts) to run the server without a disk. Synchronous, as the files
 * are small (seed glossaries, config, meta.json); event logs, which can be huge, are read by the
 * event store itself (see LoadOptions.replay in workspace.ts).
 */

import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, statSync, unlinkSync, watch, writeFileSync } from 'node:fs';

export type EntryKind = 'file' | 'directory' | 'other';

export interface FileStat {
  kind: EntryKind;
  /** Bytes (of a file). */
  size: number;
  /** Which file or folder it is (device and inode), where the file system tells: one replaced by another of the same name differs. */
  id?: string;
  /** When its content last changed (milliseconds), where the file system tells. */
  mtimeMs?: number;
}

/** What tells whether a file changed since it was read (size, time and identity, as git's index does); '' when it is not there. */
export function fileStamp(stat: FileStat | undefined): string {
  return stat ? `${stat.size}:${stat.mtimeMs ?? ''}:${stat.id ?? ''}` : '';
}

export interface Watcher {
  close(): void;
}

export interface WorkspaceFileSystem {
  /** What is at `file`, following symbolic links; undefined when nothing is. */
  stat(file: string): FileStat | undefined;
  /** Whether `file` itself is a symbolic link (false when nothing is there). */
  isSymbolicLink(file: string): boolean;
  /**
   * `file` with every symbolic link on its way resolved; undefined when it (or a folder on its
   * way) does not exist. Other errors (permissions) are thrown.
   */
  realpath(file: string): string | undefined;
  /** The bytes of a file; throws as Node does (`code` ENOENT, EISDIR, EACCES, …). */
  readFile(file: string): Uint8Array;
  /** The entries of a folder; undefined when it cannot be read. */
  readDirectory(dir: string): { name: string; kind: EntryKind }[] | undefined;
  /** Writes a file (`exclusive`: fails when it exists); its folder must exist. */
  writeFile(file: string, text: string, options?: { exclusive?: boolean }): void;
  /** Creates a folder and the folders above it that are missing. */
  createDirectory(dir: string): void;
  /** Removes a file, or a folder that is empty (to take back what was created for an edit that was refused). */
  remove?(entry: string): void;
  /**
   * Calls `onChange` (with the changed entry's name, when known) when something in `dir` (and
   * below, when `recursive`) changes; throws when it cannot watch. Absent where files change only
   * through the server itself (the in-memory system of tests).
   */
  watch?(dir: string, recursive: boolean, onChange: (name: string | undefined) => void, onError: (error: Error) => void): Watcher;
}

/**
 * Whether `error` says no file has that name: none there, a file where a folder should be, a name
 * longer than the file system takes, or a NUL in it (a path made from a document's text, such as
 * a mission id).
 */
function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ERR_INVALID_ARG_VALUE';
}

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean }): EntryKind {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'other';
}

export const NODE_FILE_SYSTEM: WorkspaceFileSystem = Object.freeze({
  stat(file: string): FileStat | undefined {
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat ? { kind: kindOf(stat), size: stat.size, id: `${stat.dev}:${stat.ino}`, mtimeMs: stat.mtimeMs } : undefined;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  isSymbolicLink(file: string): boolean {
    // (A missing file is the common case, a mission without meta.json: answered without an
    // error object, which cost ~30 µs each, its stack trace taken.)
    try {
      return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    } catch {
      return false;
    }
  },
  realpath(file: string): string | undefined {
    try {
      // (The system's realpath: one call, where Node's own realpathSync looks at every component
      // of the path with lstat; a check of 400 specs resolved ~800 paths, ~30 ms of lstat.)
      return realpathSync.native(file);
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  readFile: (file: string): Uint8Array => readFileSync(file),
  readDirectory(dir: string) {
    try {
      return readdirSync(dir, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    } catch {
      return undefined;
    }
  },
  writeFile(file: string, text: string, options?: { exclusive?: boolean }): void {
    writeFileSync(file, text, options?.exclusive ? { flag: 'wx' } : undefined);
  },
  createDirectory(dir: string): void {
    mkdirSync(dir, { recursive: true });
  },
  remove(entry: string): void {
    if (statSync(entry).isDirectory()) rmdirSync(entry);
    else unlinkSync(entry);
  },
  watch(dir: string, recursive: boolean, onChange: (name: string | undefined) => void, onError: (error: Error) => void): Watcher {
    const watcher = watch(dir, { recursive, persistent: false }, (_event, name) => onChange(name ? name.toString() : undefined));
    watcher.on('error', onError);
    return watcher;
  },
});
