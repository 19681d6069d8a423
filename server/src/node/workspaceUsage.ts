/**
 * Where a workspace folder's specs use the glossary's terms (a `TermUsage` for glossary health,
 * `validate`'s): every markdown file under the folder — the files `check .` and the candidates
 * read — is indexed as the language server's term index indexes it (node/indexDocument.ts: one
 * check and one read per spec) into a TermIndex, read through `indexUsage`. An open editor's text
 * wins over the file. Files are read through the snapshot's file system (the disk,
 * or memory in tests). Yields to the event loop between batches of files, so a large workspace
 * does not stall a language server's other requests.
 */

import path from 'node:path';
import type { Engine } from '../core/check/engine';
import { indexUsage, type IndexUsage } from '../core/terms/indexUsage';
import { TermIndex } from '../core/terms/termIndex';
import { DocumentIndexer } from './indexDocument';
import { readWorkspaceText, DEFAULT_MAX_FILE_BYTES } from './files';
import type { WorkspaceFileSystem } from './fileSystem';
import type { MetaCache } from './identity';
import { SpecVocabularies } from './specVocabularies';
import { isMarkdownFile } from './markdownFiles';
import type { WorkspaceSnapshot } from './workspace';
import { usageKnowable } from './writtenTerms';

export { usageKnowable } from './writtenTerms';

export interface WorkspaceUsageOptions {
  engine: Engine;
  maxFileBytes?: number;
  /** The text of a file open in the editor, if it is. */
  openText?: (file: string) => string | undefined;
  /** How a spec is named in messages (default: relative to the folder, `/`-separated). */
  pathOf?: (file: string) => string;
  /** A spec or folder that could not be read (it is not counted). */
  onSkipped?: (file: string, reason: string) => void;
  /** Files checked between two yields to the event loop (default 25; 0 never yields). */
  batch?: number;
  /** Stops early (the result is then not used). */
  isCancelled?: () => boolean;
  /** Missions' spec vocabularies read so far (a new reader by default). */
  vocabularies?: SpecVocabularies;
}

/** The usage of the folder's terms; undefined when it cannot be known (`usageKnowable`). */
export async function workspaceUsage(snapshot: WorkspaceSnapshot, options: WorkspaceUsageOptions): Promise<IndexUsage | undefined> {
  if (!usageKnowable(snapshot)) return undefined;
  const metaCache: MetaCache = new Map();
  const vocabularies = options.vocabularies ?? new SpecVocabularies({ fs: snapshot.fs, ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}) });
  // Each spec indexed as the language server indexes it: one check and one read per spec.
  const index = new TermIndex();
  const indexer = new DocumentIndexer();
  let checked = 0;
  for (const file of markdownFilesIn(snapshot.fs, snapshot.root, options.onSkipped)) {
    if (options.isCancelled?.()) break;
    const text = specText(snapshot, file, options);
    if (text !== undefined) {
      const { occurrences, details } = indexer.index(options.engine, snapshot, file, text, metaCache, vocabularies);
      index.set(file, occurrences, details);
    }
    if (options.batch !== 0 && ++checked % (options.batch ?? 25) === 0) await yieldToEventLoop();
  }
  return indexUsage(index, options.pathOf ?? ((file) => path.relative(snapshot.root, file).split(path.sep).join('/')));
}

/** The text of a spec as the editor has it or as the file holds it; undefined when unreadable. */
export function specText(snapshot: WorkspaceSnapshot, file: string, options: Pick<WorkspaceUsageOptions, 'openText' | 'maxFileBytes' | 'onSkipped'>): string | undefined {
  const open = options.openText?.(file);
  if (open !== undefined) return open;
  const outcome = readWorkspaceText(snapshot.root, file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, snapshot.fs);
  if (outcome.ok) return outcome.text;
  options.onSkipped?.(file, outcome.reason);
  return undefined;
}

// Dependency and VCS folders never hold specs; other hidden folders are skipped too (as `check .`).
const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Whether `check .` in `root` reads `file`: a markdown file under it, in no hidden or dependency folder. */
export function isWalkedSpec(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || !isMarkdownFile(file)) return false;
  return relative.split(path.sep).slice(0, -1).every((dir) => !SKIP_DIRS.has(dir) && !dir.startsWith('.'));
}

/** Every markdown file under `root`, sorted, as `check .` walks a folder (node/markdownFiles.ts). */
export function markdownFilesIn(fs: WorkspaceFileSystem, root: string, onSkipped?: (file: string, reason: string) => void): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = fs.readDirectory(dir);
    if (entries === undefined) {
      if (dir !== root) onSkipped?.(dir, 'the folder cannot be listed');
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if (entry.kind === 'file' && isMarkdownFile(entry.name)) {
        out.push(full);
      }
    }
  };
  walk(root);
  return out.sort();
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
