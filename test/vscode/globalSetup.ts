/**
 * Runs once before `npm run test:vscode`'s files: builds the extension's package from a clean copy
 * (cleanPackage.ts) and hands its path to them (`inject('vsix')`). The folder goes when the run ends.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { packageCleanCopy } from './cleanPackage';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The .vsix built from a clean copy of the repository. */
    vsix: string;
  }
}

export default function setup(project: TestProject): () => void {
  const work = mkdtempSync(path.join(tmpdir(), 'spec-glossary-vsix-'));
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  try {
    project.provide('vsix', packageCleanCopy(work));
  } catch (error) {
    removeWork();
    throw error;
  }
  return removeWork;
}
