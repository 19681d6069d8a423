/** Markdown files under a folder, as `check` and the glossary candidates read a workspace. */

import { accessSync, constants, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
// Dependency and VCS folders never hold specs; other hidden folders (.kittify templates,
// .github) are skipped too unless named explicitly.
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function isMarkdownFile(name: string): boolean {
  return MARKDOWN.test(name);
}

/** Told about a folder that cannot be listed or a markdown file that cannot be opened for reading. */
export type OnUnreadable = (file: string, error: unknown) => void;

/**
 * Every markdown file under `dir` (recursively, hidden and dependency folders skipped), into `out`.
 * Without `onUnreadable`, what cannot be read is passed over; with it, it is reported there (and a
 * markdown file is added only if this process may read it): the CLI refuses to pass a gate over
 * specs it could not read (cli/files.ts). A folder that disappears while walked (ENOENT) is
 * passed over either way.
 */
export function collectMarkdownUnder(dir: string, out: Set<string>, onUnreadable?: OnUnreadable): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onUnreadable?.(dir, error);
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      collectMarkdownUnder(full, out, onUnreadable);
    } else if (entry.isFile() && isMarkdownFile(entry.name)) {
      if (onUnreadable && !readable(full, onUnreadable)) continue;
      out.add(full);
    }
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
