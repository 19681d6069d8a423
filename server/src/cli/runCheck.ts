/**
 * The shared part of `check` (and of `resume`): find each file's workspace, load it once, check
 * every document. Returns plain data for the output formats and the event emitter.
 */

import path from 'node:path';
import { createEngine, type Engine } from '../core/check/engine';
import { metaProblems, type DocumentIdentity, type MetaCache } from '../node/identity';
import { analyzeDocument, type AnalyzedDocument, type RuntimeSettings } from '../node/analyzer';
import { readWorkspaceText, DEFAULT_MAX_FILE_BYTES } from '../node/files';
import { loadCommonWords } from '../node/packageFiles';
import { SpecVocabularies } from '../node/specVocabularies';
import { loadWorkspace, WorkspaceRootFinder, type WorkspaceSnapshot } from '../node/workspace';
import type { SourceProblem } from '../core/types';

export interface CheckedDocument extends AnalyzedDocument {
  /** Absolute path. */
  absolutePath: string;
  text: string;
  snapshot: WorkspaceSnapshot;
}

export interface SkippedDocument {
  absolutePath: string;
  reason: string;
}

/** A problem in a glossary, config or log file, for stderr. */
export interface FileProblem {
  file: string;
  problem?: SourceProblem;
  message: string;
  severity: 'error' | 'warning';
}

export interface CheckRun {
  documents: CheckedDocument[];
  skipped: SkippedDocument[];
  problems: FileProblem[];
  snapshots: WorkspaceSnapshot[];
}

/** `engine`: the process's (a new one by default: a CLI run is one process). */
export async function runCheck(files: readonly string[], settings: RuntimeSettings, maxFileBytes = DEFAULT_MAX_FILE_BYTES, engine: Engine = createEngine({ commonWords: loadCommonWords() })): Promise<CheckRun> {
  const snapshots = new Map<string, WorkspaceSnapshot>();
  const metaCache: MetaCache = new Map();
  // Missions' specs, read once for all the documents of their missions.
  const vocabularies = new SpecVocabularies({ maxFileBytes });
  const run: CheckRun = { documents: [], skipped: [], problems: [], snapshots: [] };

  const roots = new WorkspaceRootFinder();
  for (const file of files) {
    const root = roots.rootOf(path.dirname(file)) ?? path.dirname(file);
    let snapshot = snapshots.get(root);
    if (!snapshot) {
      snapshot = await loadWorkspace(root, { maxFileBytes });
      snapshots.set(root, snapshot);
      run.snapshots.push(snapshot);
      collectProblems(snapshot, run.problems);
    }
    const outcome = readWorkspaceText(undefined, file, maxFileBytes);
    if (!outcome.ok) {
      run.skipped.push({ absolutePath: file, reason: outcome.reason });
      continue;
    }
    if (outcome.warning) run.problems.push({ file, message: outcome.warning, severity: 'warning' });
    const analyzed = analyzeDocument(engine, snapshot, { path: file, text: outcome.text, settings, metaCache, vocabularies });
    for (const problem of analyzed.report.problems) run.problems.push({ file, problem, message: problem.message, severity: problem.severity });
    run.documents.push({ ...analyzed, absolutePath: file, text: outcome.text, snapshot });
  }
  for (const problem of metaProblems(metaCache)) run.problems.push({ ...problem, severity: 'warning' });
  return run;
}

function collectProblems(snapshot: WorkspaceSnapshot, out: FileProblem[]): void {
  for (const seed of snapshot.seeds) {
    for (const problem of seed.seed.problems) out.push({ file: seed.path, problem, message: problem.message, severity: problem.severity });
  }
  for (const problem of snapshot.configProblems) out.push({ file: path.join(snapshot.root, '.kittify', 'config.yaml'), problem, message: problem.message, severity: problem.severity });
  for (const problem of snapshot.eventProblems) out.push({ file: problem.file, message: `line ${problem.line}: ${problem.message}`, severity: 'warning' });
  for (const problem of snapshot.fileProblems) out.push({ file: problem.file, message: problem.message, severity: 'warning' });
}

export type { DocumentIdentity };
