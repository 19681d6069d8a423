/**
 * `check --format json` (SPEC §8): one object, one finding per occurrence, zero-based positions,
 * written in pieces (output/jsonStream.ts) so that any number of findings prints.
 */

import path from 'node:path';
import { messageAsWritten, writtenTerms } from '../../core/check/wording';
import type { Finding, SenseRef } from '../../core/types';
import type { ReportedDocument, ReportedRun } from '../runCheck';
import { jsonPieces, streamArray, streamObject, type StreamedObject } from './jsonStream';

export interface JsonFinding {
  term: string;
  conflict_type: string;
  severity: string;
  confidence: number;
  extraction_method: string;
  scope: string | null;
  range: Finding['range'];
  candidate_senses: SenseRef[];
  message: string;
}

export interface JsonDocument {
  path: string;
  mission_id: string;
  step_id: string;
  strictness: string;
  blocked: boolean;
  overall_severity: string;
  recommended_action: string;
  findings: JsonFinding[];
}

/** `written`: the term as the document writes it at the finding (its message names it so). */
export function findingToJson(finding: Finding, written?: string): JsonFinding {
  return {
    term: finding.term,
    conflict_type: finding.conflictType,
    severity: finding.severity,
    confidence: finding.confidence,
    extraction_method: finding.extractionMethod,
    scope: finding.scope,
    range: finding.range,
    candidate_senses: finding.candidateSenses.map((s) => ({ surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence })),
    message: messageAsWritten(finding.message, finding.term, written),
  };
}

/** A document's JSON without its findings (`findings` comes last, streamed: see `jsonOutput`). */
export function documentHeader(doc: ReportedDocument, cwd: string): Omit<JsonDocument, 'findings'> {
  const { report, identity } = doc;
  return {
    path: relativePath(cwd, doc.absolutePath),
    mission_id: identity.missionId,
    step_id: identity.stepId,
    strictness: report.strictness,
    blocked: report.blocked,
    // No conflicts: "low", the lowest value the event schema allows; recommended_action says "proceed".
    overall_severity: report.overallSeverity ?? 'low',
    recommended_action: report.recommendedAction,
  };
}

/**
 * `check --format json`, in pieces (output/jsonStream.ts): each document and each finding is
 * turned into JSON only when it is written, so any number of findings prints. Ends with a newline.
 */
export function* jsonOutput(run: ReportedRun, cwd: string): Generator<string, void, undefined> {
  const summary = {
    documents: run.documents.length,
    blocked: run.documents.filter((d) => d.report.blocked).length,
    findings: run.documents.reduce((n, d) => n + d.report.findings.length, 0),
    // Distinct flagged terms, counted per document.
    terms: run.documents.reduce((n, d) => n + new Set(d.report.findings.map((f) => f.term)).size, 0),
  };
  const documents = streamArray(mapIterable(run.documents, (d) => streamedDocument(d, cwd)));
  yield* jsonPieces(streamObject({ documents, summary }));
  yield '\n';
}

/**
 * Findings of a document up to which it is made whole and serialized by one `JSON.stringify`
 * (a piece of a few hundred KB at most); a document with more has its findings made one at a
 * time as they are written. (Streaming every document cost ~10 ms per 1,000 findings of
 * generators and small pieces: 400 real specs, 1,223 findings.)
 */
const WHOLE_DOCUMENT_FINDINGS = 1000;

/** A document's JSON (`JsonDocument`): whole, or its findings made one at a time as they are written. */
function streamedDocument(doc: ReportedDocument, cwd: string): StreamedObject | JsonDocument {
  const findings = doc.report.findings;
  const written = findings.length > 0 ? writtenTerms(doc.report) : () => undefined;
  const toJson = (f: Finding) => findingToJson(f, written(f));
  const header = documentHeader(doc, cwd);
  if (findings.length <= WHOLE_DOCUMENT_FINDINGS) return { ...header, findings: findings.map(toJson) };
  return streamObject({ ...header, findings: streamArray(mapIterable(findings, toJson)) });
}

/** `items` mapped lazily: each result is made when the writer reaches it. */
export function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U, void, undefined> {
  for (const item of items) yield map(item);
}

export function relativePath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return (rel === '' ? path.basename(file) : rel).split(path.sep).join('/');
}
