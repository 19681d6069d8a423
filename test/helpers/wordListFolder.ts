/**
 * A temporary folder for tests of the files the build writes beside the word lists
 * (node/codedWordLists.ts, node/wordIndexFiles.ts): made on first use, removed after each test.
 */

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { packageRoot } from '../../server/src/node/packageFiles';

export interface WordListFolder {
  /** `<folder>/<name>.txt` holding `text`; its base path (without `.txt`). */
  list(name: string, text: string): string;
  /** A copy of the shipped list `<name>.txt` (dist/data/) in the folder; its base path. */
  shipped(name: string): string;
}

/** Call at the top of a test file. */
export function useWordListFolder(): WordListFolder {
  let folder: string | undefined;
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });
  const base = (name: string) => path.join((folder ??= mkdtempSync(path.join(tmpdir(), 'spec-glossary-lists-'))), name);
  return {
    list(name, text) {
      const at = base(name);
      writeFileSync(`${at}.txt`, text);
      return at;
    },
    shipped(name) {
      const at = base(name);
      copyFileSync(path.join(packageRoot(), 'dist', 'data', `${name}.txt`), `${at}.txt`);
      return at;
    },
  };
}
