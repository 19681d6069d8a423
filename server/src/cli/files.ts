/** Markdown files named on the command line: files as given, folders searched recursively. */

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors';

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
// Dependency and VCS folders never hold specs; other hidden folders (.kittify templates,
// .github) are skipped too unless named explicitly.
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function collectMarkdownFiles(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(given);
    let stat;
    try {
      stat = statSync(absolute);
    } catch {
      throw new UsageError(`${given}: no such file or directory`);
    }
    if (stat.isDirectory()) walk(absolute, out);
    else out.add(absolute);
  }
  return [...out].sort();
}

function walk(dir: string, out: Set<string>): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folder: nothing to check there
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      walk(full, out);
    } else if (entry.isFile() && MARKDOWN.test(entry.name)) {
      out.add(full);
    }
  }
}
