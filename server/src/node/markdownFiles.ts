/** Markdown files under a folder, as `check` and the glossary candidates read a workspace. */

import { accessSync, constants, readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { WorkspaceFileSystem } from './fileSystem';

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
// Dependency and VCS folders never hold specs; other hidden folders (.kittify templates,
// .github) are skipped too unless named explicitly.
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function isMarkdownFile(name: string): boolean {
  return MARKDOWN.test(name);
}

/** Told about a folder that cannot be listed or a markdown file that cannot be opened for reading. */
export type OnUnreadable = (file: string, error: unknown) => void;

/** Told about a symbolic link to a markdown file or a folder met while walking: it is not followed. */
export type OnLink = (link: string) => void;

/**
 * Every markdown file under `dir` (recursively, hidden and dependency folders skipped), into `out`.
 * Without `onUnreadable`, what cannot be read is passed over; with it, it is reported there (and a
 * markdown file is added only if this process may read it): the CLI refuses to pass a gate over
 * specs it could not read (cli/files.ts). A folder that disappears while walked (ENOENT) is
 * passed over either way.
 */
export function collectMarkdownUnder(dir: string, out: Set<string>, onUnreadable?: OnUnreadable, onLink?: OnLink): void {
  collectUnder(path.normalize(dir), out, onUnreadable, onLink);
}

/** `collectMarkdownUnder` of a normalized folder (so its entries' paths can be joined by hand). */
function collectUnder(dir: string, out: Set<string>, onUnreadable?: OnUnreadable, onLink?: OnLink): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onUnreadable?.(dir, error);
    return;
  }
  for (const entry of entries) {
    const full = childPath(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      collectUnder(full, out, onUnreadable, onLink);
    } else if (entry.isFile() && isMarkdownFile(entry.name)) {
      if (onUnreadable && !readable(full, onUnreadable)) continue;
      out.add(full);
    } else if (onLink && entry.isSymbolicLink() && !SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.') && (isMarkdownFile(entry.name) || isFolder(full))) {
      // (Links are not followed: one may lead out of the workspace, or back up into a loop.)
      onLink(full);
    }
  }
}

/**
 * `path.join(dir, name)` for a normalized folder and a name it lists (no separator, never `.` or
 * `..`), which then needs no normalizing: a walk joins every entry, and `path.join` normalized
 * each one again (~40 ms of `check`'s 1.1 s on 800 entries, as cold code).
 */
export function childPath(dir: string, name: string): string {
  // `.` and `./` (join drops them) and a drive alone (`C:` is relative to that drive's folder).
  if (dir === '.' || dir === `.${path.sep}` || dir.endsWith(':')) return path.join(dir, name);
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** What a link leads to is a folder (a dangling link or a loop is not). */
function isFolder(link: string): boolean {
  try {
    return statSync(link).isDirectory();
  } catch {
    return false;
  }
}

/** A folder may list names it does not let us open (`r` without `x`), or a file may deny reading. */
function readable(file: string, onUnreadable: OnUnreadable): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch (error) {
    onUnreadable(file, error);
    return false;
  }
}

/** The markdown files under `dir`, sorted. */
export function markdownFilesUnder(dir: string): string[] {
  const out = new Set<string>();
  collectMarkdownUnder(dir, out);
  return [...out].sort();
}

/**
 * The markdown files under `dir` through a workspace file system (the language server's index
 * walks the workspace as `check` does: same files, same folders skipped), sorted. What cannot be
 * listed is passed over.
 */
export function markdownFilesIn(dir: string, fs: Pick<WorkspaceFileSystem, 'readDirectory'>): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readDirectory(folder) ?? []) {
      const full = path.join(folder, entry.name);
      if (entry.kind === 'directory') {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if (entry.kind === 'file' && isMarkdownFile(entry.name)) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

/** Whether `file` (a path) is one the walk above would find under `dir`: markdown, in no skipped folder. */
export function isWalkedMarkdown(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  const parts = relative.split(path.sep);
  return isMarkdownFile(parts[parts.length - 1]!) && parts.slice(0, -1).every((p) => !SKIP_DIRS.has(p) && !p.startsWith('.'));
}
