/**
 * Where a workspace folder's specs use the glossary's terms (a `TermUsage` for glossary health):
 * every markdown file under the folder — the files `check .` and the candidates read — is checked
 * against its mission's glossary and its glossary matches are collected. An open editor's text
 * wins over the file on disk. Yields to the event loop between batches of files, so a large
 * workspace does not stall a language server's other requests.
 */

import path from 'node:path';
import type { Engine } from '../core/check/engine';
import { CollectedUsage } from '../core/termUsage';
import { analyzeDocument } from './analyzer';
import { readWorkspaceText, DEFAULT_MAX_FILE_BYTES } from './files';
import type { MetaCache } from './identity';
import { collectMarkdownUnder } from './markdownFiles';
import type { WorkspaceSnapshot } from './workspace';

export interface WorkspaceUsageOptions {
  engine: Engine;
  maxFileBytes?: number;
  /** The text of a file open in the editor, if it is. */
  openText?: (file: string) => string | undefined;
  /** How a spec is named in messages (default: relative to the folder, `/`-separated). */
  pathOf?: (file: string) => string;
  /** A spec that could not be read (it is not counted). */
  onSkipped?: (file: string, reason: string) => void;
  /** Files checked between two yields to the event loop (default 25; 0 never yields). */
  batch?: number;
  /** Stops early (the result is then not used). */
  isCancelled?: () => boolean;
}

/**
 * The usage of the folder's terms; undefined when the folder's config switches off the glossary
 * matcher (nothing is matched, so nothing can be said about use).
 */
export async function workspaceUsage(snapshot: WorkspaceSnapshot, options: WorkspaceUsageOptions): Promise<CollectedUsage | undefined> {
  if (snapshot.config.disabledExtractors.includes('glossary_match')) return undefined;
  const usage = new CollectedUsage();
  const metaCache: MetaCache = new Map();
  const pathOf = options.pathOf ?? ((file: string) => path.relative(snapshot.root, file).split(path.sep).join('/'));
  const batch = options.batch ?? 25;
  const files = new Set<string>();
  collectMarkdownUnder(snapshot.root, files, (file, error) => options.onSkipped?.(file, (error as Error).message));
  let checked = 0;
  for (const file of [...files].sort()) {
    if (options.isCancelled?.()) break;
    let text = options.openText?.(file);
    if (text === undefined) {
      const outcome = readWorkspaceText(snapshot.root, file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (!outcome.ok) {
        options.onSkipped?.(file, outcome.reason);
        continue;
      }
      text = outcome.text;
    }
    // The usage of a term is a fact of the text: no runtime settings (strictness does not matter).
    const analyzed = analyzeDocument(options.engine, snapshot, { path: file, text, metaCache });
    if (analyzed.report.checked) usage.addDocument(pathOf(file), analyzed.identity.missionId, analyzed.report.candidates);
    if (batch > 0 && ++checked % batch === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return usage;
}
