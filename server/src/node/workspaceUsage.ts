/**
 * Where a workspace folder's specs use the glossary's terms (a `TermUsage` for glossary health):
 * every markdown file under the folder — the files `check .` and the candidates read — is checked
 * against its mission's glossary and its glossary matches are collected. An open editor's text
 * wins over the file on disk. Yields to the event loop between batches of files, so a large
 * workspace does not stall a language server's other requests.
 */

import path from 'node:path';
import type { Engine } from '../core/check/engine';
import { normalizeSurface } from '../core/normalize';
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
  const read: string[] = [];
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
    if (analyzed.report.checked) {
      usage.addDocument(pathOf(file), analyzed.identity.missionId, analyzed.report.candidates);
      read.push(file);
    }
    if (batch > 0 && ++checked % batch === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await findOutsideProse(snapshot, usage, read, options);
  return usage;
}

/**
 * The terms no prose uses are looked for once more in the raw text of the specs read (code spans
 * and blocks, link targets, front matter): `mission_id` written in backticks is a term in use.
 * One pattern of all of them, so each spec is scanned once; usually few terms are left.
 */
async function findOutsideProse(snapshot: WorkspaceSnapshot, usage: CollectedUsage, files: readonly string[], options: WorkspaceUsageOptions): Promise<void> {
  const surfaces = new Set(snapshot.seeds.flatMap((s) => s.seed.senses).map((s) => normalizeSurface(s.surface)));
  const left = new Set(usage.termsWithoutUse(surfaces).filter((t) => t !== ''));
  if (left.size === 0) return;
  const pattern = writtenFormsPattern(left);
  const batch = options.batch ?? 25;
  let scanned = 0;
  for (const file of files) {
    if (left.size === 0 || options.isCancelled?.()) break;
    const text = options.openText?.(file) ?? readText(snapshot.root, file, options.maxFileBytes);
    if (text === undefined) continue;
    for (const match of text.matchAll(pattern)) {
      const term = normalizeSurface(match[0].replace(/[\s_-]+/g, ' '));
      const found = left.has(term) ? term : [...left].find((t) => sameWords(t, match[0]));
      if (found === undefined) continue;
      usage.markWrittenOutsideProse(found);
      left.delete(found);
    }
    if (batch > 0 && ++scanned % batch === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

function readText(root: string, file: string, maxFileBytes: number | undefined): string | undefined {
  const outcome = readWorkspaceText(root, file, maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  return outcome.ok ? outcome.text : undefined;
}

/** Whole words, any case, words joined by spaces, `_` or `-`, an optional plural ending. */
function writtenFormsPattern(terms: Iterable<string>): RegExp {
  const alternatives = [...terms]
    .sort((a, b) => b.length - a.length)
    .map((t) => t.split(/[\s_-]+/).map(escapeRegExp).join('[\\s_-]+') + '(?:e?s)?');
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/** A written form of `term` the normalizer reads otherwise (a plural `-es` it keeps, `_` inside). */
function sameWords(term: string, written: string): boolean {
  const words = written.toLowerCase().split(/[\s_-]+/);
  const wanted = term.split(/[\s_-]+/);
  return words.length === wanted.length && words.every((w, i) => w === wanted[i] || w.replace(/e?s$/, '') === wanted[i]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
