/** Markdown files named on the command line: files as given, folders searched recursively. */

import { statSync } from 'node:fs';
import path from 'node:path';
import { collectMarkdownUnder } from '../node/markdownFiles';
import { UsageError } from './errors';

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
    if (stat.isDirectory()) collectMarkdownUnder(absolute, out);
    else out.add(absolute);
  }
  return [...out].sort();
}
