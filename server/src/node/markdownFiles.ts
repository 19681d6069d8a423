/** Markdown files under a folder, as `check` and the glossary candidates read a workspace. */

import { readdirSync } from 'node:fs';
import path from 'node:path';

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
// Dependency and VCS folders never hold specs; other hidden folders (.kittify templates,
// .github) are skipped too unless named explicitly.
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function isMarkdownFile(name: string): boolean {
  return MARKDOWN.test(name);
}

/** Every markdown file under `dir` (recursively, hidden and dependency folders skipped), into `out`. */
export function collectMarkdownUnder(dir: string, out: Set<string>): void {
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
      collectMarkdownUnder(full, out);
    } else if (entry.isFile() && isMarkdownFile(entry.name)) {
      out.add(full);
    }
  }
}

/** The markdown files under `dir`, sorted. */
export function markdownFilesUnder(dir: string): string[] {
  const out = new Set<string>();
  collectMarkdownUnder(dir, out);
  return [...out].sort();
}
