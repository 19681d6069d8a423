/**
 * Glossary files made for a draft entry: by the editor (a `CreateFile` in the edit) or by the
 * server for a client that cannot create files. The file is made on disk at once while the entry
 * stays in an unsaved buffer, so a user who then closes it unsaved or quits (`:qa!`) would leave an
 * empty seed file behind — which Spec Kitty refuses whole (a seed file must hold `terms:`) and
 * `check` reports as an error. A file still empty when its document is closed, or when the server
 * shuts down, is removed; on close, with the folders made for it that are still empty too.
 */

import path from 'node:path';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import type { Logger } from './logger';

export class CreatedSeedFiles {
  /** File → what was made for it (folders first, then the file), to take back in reverse. */
  private readonly files = new Map<string, readonly string[]>();

  constructor(
    private readonly fs: WorkspaceFileSystem,
    private readonly logger: Logger,
  ) {}

  /** The folders above `file` that do not exist yet, outermost first (made with it). */
  missingFolders(file: string): string[] {
    const missing: string[] = [];
    for (let dir = path.dirname(file); !this.fs.stat(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) missing.unshift(dir);
    return missing;
  }

  /** `file` (and `folders`) were made for a draft entry the editor now holds unsaved. */
  made(file: string, folders: readonly string[]): void {
    const key = path.resolve(file);
    if (!this.files.has(key)) this.files.set(key, [...folders, file]);
  }

  /** The document of `file` was closed: removed if still empty. */
  closed(file: string): void {
    const key = path.resolve(file);
    const made = this.files.get(key);
    if (!made) return;
    this.files.delete(key);
    this.takeBack(made);
  }

  /**
   * On shutdown: every file made and still empty is removed, but not the folders made for it: the
   * editor may still hold its buffer (a restarted server, `:LspRestart`), and saving it then
   * needs the folder (Neovim makes none).
   */
  dispose(): void {
    for (const made of this.files.values()) this.takeBack(made.slice(-1));
    this.files.clear();
  }

  /** Removes what was made, innermost first: the file if still empty, then folders left empty. */
  takeBack(made: readonly string[]): void {
    for (const entry of [...made].reverse()) {
      try {
        const stat = this.fs.stat(entry);
        const empty = (stat?.kind === 'file' && stat.size === 0) || (stat?.kind === 'directory' && (this.fs.readDirectory(entry) ?? ['x']).length === 0);
        if (!empty || !this.fs.remove) return; // (kept: the folders above it hold it)
        this.fs.remove(entry);
        this.logger.info(`removed ${entry}: made for a draft entry, and still empty`);
      } catch (error) {
        this.logger.warn(`could not remove ${entry}: ${(error as Error).message}`);
        return;
      }
    }
  }
}
