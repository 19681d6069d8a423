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
import type { DocumentReport } from '../core/check/check';
import { standalone } from '../core/text';
import type { SourceProblem, TermCandidate } from '../core/types';

/**
 * What the output formats, the exit code and the notes after a check read of a checked document:
 * its report's findings and verdict, and the candidates of the terms it has findings for (whose
 * occurrences tell how the document writes each term).
 */
export interface ReportedDocument {
  /** Absolute path. */
  absolutePath: string;
  identity: DocumentIdentity;
  report: Pick<DocumentReport, 'findings' | 'candidates' | 'blocked' | 'strictness' | 'overallSeverity' | 'recommendedAction'>;
}

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

export interface CheckRun<D extends ReportedDocument = CheckedDocument> {
  documents: D[];
  skipped: SkippedDocument[];
  problems: FileProblem[];
  snapshots: WorkspaceSnapshot[];
}

/** A run of which only what is printed was kept of each document (`runReportedCheck`). */
export type ReportedRun = CheckRun<ReportedDocument>;

/** `engine`: the process's (a new one by default: a CLI run is one process). */
export function runCheck(files: readonly string[], settings: RuntimeSettings, maxFileBytes = DEFAULT_MAX_FILE_BYTES, engine?: Engine): Promise<CheckRun> {
  return checkFiles(files, settings, maxFileBytes, engine, (doc) => doc);
}

/**
 * `runCheck`, keeping of each document only what the output formats print (`ReportedDocument`):
 * not its text, its line index, its vocabulary sections or the candidates of terms without a
 * finding. Kept whole, the documents of a 400-spec run were copied again and again by the
 * collector while the check went on (~7% of the check's time, docs/performance.md).
 */
export function runReportedCheck(files: readonly string[], settings: RuntimeSettings, maxFileBytes = DEFAULT_MAX_FILE_BYTES, engine?: Engine): Promise<ReportedRun> {
  return checkFiles(files, settings, maxFileBytes, engine, reported);
}

/** What `runReportedCheck` keeps of a checked document. */
export function reported(doc: CheckedDocument): ReportedDocument {
  const { report } = doc;
  const terms = new Set<string>();
  for (const finding of report.findings) terms.add(finding.term);
  // (Copies: a candidate of the check holds the document's text and line index, and the text as
  // written at an occurrence is a slice of the document's, which V8 keeps whole behind it.)
  const candidates: TermCandidate[] = [];
  if (terms.size > 0) {
    for (const { surface, method, confidence, occurrences, texts } of report.candidates) {
      if (terms.has(surface)) candidates.push({ surface, method, confidence, occurrences, texts: texts.map(standalone) });
    }
  }
  const { findings, blocked, strictness, overallSeverity, recommendedAction } = report;
  return { absolutePath: doc.absolutePath, identity: doc.identity, report: { findings, candidates, blocked, strictness, overallSeverity, recommendedAction } };
}

/** Checks `files`, keeping `keep(document)` of each. */
async function checkFiles<D extends ReportedDocument>(files: readonly string[], settings: RuntimeSettings, maxFileBytes: number, engine: Engine = createEngine({ commonWords: loadCommonWords() }), keep: (doc: CheckedDocument) => D): Promise<CheckRun<D>> {
  const snapshots = new Map<string, WorkspaceSnapshot>();
  const metaCache: MetaCache = new Map();
  // Missions' specs, read once for all the documents of their missions.
  const vocabularies = new SpecVocabularies({ maxFileBytes });
  const run: CheckRun<D> = { documents: [], skipped: [], problems: [], snapshots: [] };

  const roots = new WorkspaceRootFinder();
  for (const file of files) {
    const root = roots.rootOf(path.dirname(file)) ?? rootWithoutKittify(file);
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
    run.documents.push(keep({ ...analyzed, absolutePath: file, text: outcome.text, snapshot }));
  }
  for (const problem of metaProblems(metaCache)) run.problems.push({ ...problem, severity: 'warning' });
  return run;
}

/**
 * The workspace of a spec when no folder above it holds `.kittify/`: the folder holding its
 * `kitty-specs/` (SPEC §2 names the mission by the folder directly under it, as the language
 * server does with the editor's folder), else the spec's own folder.
 */
export function rootWithoutKittify(file: string): string {
  // (kitty-specs/<mission>/…: a spec directly in kitty-specs/ belongs to no mission folder.)
  let below = path.dirname(path.resolve(file));
  for (let dir = path.dirname(below); dir !== below; below = dir, dir = path.dirname(dir)) {
    if (path.basename(dir) === 'kitty-specs') return path.dirname(dir);
  }
  return path.dirname(file);
}

function collectProblems(snapshot: WorkspaceSnapshot, out: FileProblem[]): void {
  for (const seed of snapshot.seeds) {
    for (const problem of seed.seed.problems) out.push({ file: seed.path, problem, message: problem.message, severity: problem.severity });
  }
  for (const problem of snapshot.configProblems) out.push({ file: path.join(snapshot.root, '.kittify', 'config.yaml'), problem, message: problem.message, severity: problem.severity });
  out.push(...eventLogProblems(snapshot));
  for (const problem of snapshot.fileProblems) out.push({ file: problem.file, message: problem.message, severity: 'warning' });
}

/**
 * The lines of the workspace's event logs that were skipped (torn, invalid), as validate says
 * them (`log:LINE:1 … events.invalid-line …`) but as warnings: a command goes on without them.
 */
export function eventLogProblems(snapshot: WorkspaceSnapshot): FileProblem[] {
  return snapshot.eventProblems.map((problem) => {
    if (problem.line <= 0) return { file: problem.file, message: problem.message, severity: 'warning' };
    const at = { line: problem.line - 1, character: 0 };
    return { file: problem.file, problem: { code: problem.code ?? 'events.invalid-line', message: problem.message, severity: 'warning', range: { start: at, end: at } }, message: problem.message, severity: 'warning' };
  });
}

export type { DocumentIdentity };
