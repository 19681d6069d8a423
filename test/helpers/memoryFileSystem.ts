/**
 * A workspace held in memory, behind the server's file-system interface (server/src/node/
 * fileSystem.ts): tests load workspaces and run the language server without touching the disk.
 * Paths are absolute POSIX paths; folders exist implicitly above every file (and can be made
 * empty with `mkdir`). No symbolic links.
 */

import path from 'node:path';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import { createReplayAccumulator } from '../../server/src/core/replay';
import type { LogProblem } from '../../server/src/node/eventStore';
import type { EntryKind, FileStat, WorkspaceFileSystem } from '../../server/src/node/fileSystem';
import type { ReplayLogs } from '../../server/src/node/workspace';

const encoder = new TextEncoder();

export class MemoryFileSystem implements WorkspaceFileSystem {
  private readonly files = new Map<string, Uint8Array>();
  private readonly folders = new Set<string>(['/']);

  /** `files`: absolute path → content. */
  constructor(files: Record<string, string> = {}) {
    for (const [file, text] of Object.entries(files)) this.write(file, text);
  }

  /** Writes a file, creating the folders above it. */
  write(file: string, text: string): string {
    const absolute = path.resolve(file);
    this.mkdir(path.dirname(absolute));
    this.files.set(absolute, encoder.encode(text));
    return absolute;
  }

  /** The text of a file (undefined when there is none). */
  read(file: string): string | undefined {
    const bytes = this.files.get(path.resolve(file));
    return bytes && new TextDecoder().decode(bytes);
  }


  mkdir(dir: string): void {
    for (let at = path.resolve(dir); !this.folders.has(at); at = path.dirname(at)) this.folders.add(at);
  }

  stat(file: string): FileStat | undefined {
    const absolute = path.resolve(file);
    const bytes = this.files.get(absolute);
    if (bytes) return { kind: 'file', size: bytes.length };
    return this.folders.has(absolute) ? { kind: 'directory', size: 0 } : undefined;
  }

  isSymbolicLink(): boolean {
    return false;
  }

  realpath(file: string): string | undefined {
    return this.stat(file) ? path.resolve(file) : undefined;
  }

  readFile(file: string): Uint8Array {
    const absolute = path.resolve(file);
    const bytes = this.files.get(absolute);
    if (bytes) return bytes;
    throw Object.assign(new Error(`${this.folders.has(absolute) ? 'EISDIR: illegal operation on a directory' : 'ENOENT: no such file or directory'}, open '${absolute}'`), {
      code: this.folders.has(absolute) ? 'EISDIR' : 'ENOENT',
    });
  }

  readDirectory(dir: string): { name: string; kind: EntryKind }[] | undefined {
    const absolute = path.resolve(dir);
    if (!this.folders.has(absolute)) return undefined;
    const entries = new Map<string, EntryKind>();
    for (const folder of this.folders) if (folder !== absolute && path.dirname(folder) === absolute) entries.set(path.basename(folder), 'directory');
    for (const file of this.files.keys()) if (path.dirname(file) === absolute) entries.set(path.basename(file), 'file');
    return [...entries].map(([name, kind]) => ({ name, kind }));
  }

  writeFile(file: string, text: string, options?: { exclusive?: boolean }): void {
    const absolute = path.resolve(file);
    if (!this.folders.has(path.dirname(absolute))) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${absolute}'`), { code: 'ENOENT' });
    if (options?.exclusive && this.files.has(absolute)) throw Object.assign(new Error(`EEXIST: file already exists, open '${absolute}'`), { code: 'EEXIST' });
    this.files.set(absolute, encoder.encode(text));
  }

  createDirectory(dir: string): void {
    this.mkdir(dir);
  }

  /** A file, or an empty folder. */
  remove(entry: string): void {
    const absolute = path.resolve(entry);
    if (this.files.delete(absolute)) return;
    if ([...this.folders].some((f) => f !== absolute && path.dirname(f) === absolute) || [...this.files.keys()].some((f) => path.dirname(f) === absolute)) {
      throw Object.assign(new Error(`ENOTEMPTY: directory not empty, rmdir '${absolute}'`), { code: 'ENOTEMPTY' });
    }
    this.folders.delete(absolute);
  }

  /** Replays the event logs of a workspace held here (what the event store does on disk). */
  readonly replay: ReplayLogs = async (root, overlays) => {
    const dir = path.join(path.resolve(root), '.kittify', 'events', 'glossary');
    const replay = createReplayAccumulator();
    const problems: LogProblem[] = [];
    for (const entry of (this.readDirectory(dir) ?? []).filter((e) => e.kind === 'file' && e.name.endsWith('.events.jsonl')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      const parsed = parseEventLog(overlays?.get(file) ?? this.read(file) ?? '', file);
      parsed.events.forEach((event, k) => replay.add(event, parsed.positions[k]));
      problems.push(...parsed.problems);
    }
    return { state: replay.finish(), problems };
  };
}
