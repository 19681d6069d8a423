/**
 * The glossary candidates of one workspace folder for the language server: every markdown file
 * under the folder is checked (an open editor's text wins over the file on disk) and the core
 * ranks the undefined terms (core/candidates.ts). Yields to the event loop between batches of
 * files, so a large workspace does not stall the server's other requests.
 */

import path from 'node:path';
import { rankCandidates, type CandidateDefinition, type CandidateSource, type GlossaryCandidate } from '../core/candidates';
import { definedTermsCheck, vocabularyCandidates } from '../core/missionVocabulary/candidates';
import type { Engine } from '../core/check/engine';
import { analyzeDocument, type RuntimeSettings } from './analyzer';
import { readWorkspaceText, DEFAULT_MAX_FILE_BYTES } from './files';
import type { MetaCache } from './identity';
import { markdownFilesUnder } from './markdownFiles';
import { SpecVocabularies } from './specVocabularies';
import type { WorkspaceSnapshot } from './workspace';

export interface WorkspaceCandidatesOptions {
  /** Checks the files (the server's engine). */
  engine: Engine;
  settings?: RuntimeSettings;
  maxFileBytes?: number;
  minSpecs?: number;
  /** The text of a file open in the editor, if it is. */
  openText?: (file: string) => string | undefined;
  /** Files checked between two yields to the event loop (default 25). */
  batch?: number;
  /** Missions' specs as the server keeps them (their open buffers win); a fresh set by default. */
  vocabularies?: SpecVocabularies;
}

export interface WorkspaceCandidates {
  documents: number;
  candidates: GlossaryCandidate[];
  /** For each example path (relative to the folder, `/`-separated): the file and its mission. */
  files: Map<string, { file: string; missionId: string }>;
}

export async function workspaceCandidates(snapshot: WorkspaceSnapshot, options: WorkspaceCandidatesOptions): Promise<WorkspaceCandidates> {
  const sources: CandidateSource[] = [];
  const definitions: CandidateDefinition[] = [];
  const vocabularies = options.vocabularies ?? new SpecVocabularies({ fs: snapshot.fs, ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}) });
  const files = new Map<string, { file: string; missionId: string }>();
  const metaCache: MetaCache = new Map();
  const batch = options.batch ?? 25;
  let checked = 0;
  const checkedFiles: { file: string; text: string; identity: { missionId: string; missionSlug?: string | undefined } }[] = [];
  for (const file of markdownFilesUnder(snapshot.root)) {
    let text = options.openText?.(file);
    if (text === undefined) {
      const outcome = readWorkspaceText(snapshot.root, file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (!outcome.ok) continue;
      text = outcome.text;
    }
    const analyzed = analyzeDocument(options.engine, snapshot, { path: file, text, settings: options.settings ?? {}, metaCache, vocabularies });
    const relative = path.relative(snapshot.root, file).split(path.sep).join('/');
    const { missionId, missionSlug } = analyzed.identity;
    files.set(relative, { file, missionId });
    const own = vocabularyCandidates(analyzed.report, { path: relative, file, missionId, missionSlug });
    definitions.push(...own.definitions);
    sources.push({ path: relative, missionId, findings: analyzed.report.findings, rareWords: analyzed.report.rareWords, spelledOut: analyzed.report.spelledOut, vocabularyUses: own.uses });
    checkedFiles.push({ file, text, identity: { missionId, missionSlug } });
    if (++checked % batch === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (definitions.length > 0) {
    // The uses of the terms missions define, in every document (where nothing else extracts them too).
    const counting = definedTermsCheck(definitions);
    const vocabulary = options.engine.vocabulary(snapshot.config.ignoreWords);
    for (const [k, { file, text, identity }] of checkedFiles.entries()) {
      const report = options.engine.checkDocument(text, { ...counting, ...vocabulary });
      sources[k]!.vocabularyUses = vocabularyCandidates(report, { path: sources[k]!.path, file, ...identity }).uses;
      if ((k + 1) % batch === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { documents: checked, candidates: rankCandidates(sources, { minSpecs: options.minSpecs ?? 1, definitions }), files };
}
