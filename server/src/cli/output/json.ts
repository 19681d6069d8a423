/** `check --format json` (SPEC §8): one object, one finding per occurrence, zero-based positions. */

import path from 'node:path';
import type { Finding, SenseRef } from '../../core/types';
import type { CheckRun, CheckedDocument } from '../runCheck';

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

export function findingToJson(finding: Finding): JsonFinding {
  return {
    term: finding.term,
    conflict_type: finding.conflictType,
    severity: finding.severity,
    confidence: finding.confidence,
    extraction_method: finding.extractionMethod,
    scope: finding.scope,
    range: finding.range,
    candidate_senses: finding.candidateSenses.map((s) => ({ surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence })),
    message: finding.message,
  };
}

export function documentToJson(doc: CheckedDocument, cwd: string): JsonDocument {
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
    findings: report.findings.map(findingToJson),
  };
}

export function formatJson(run: CheckRun, cwd: string): string {
  const documents = run.documents.map((d) => documentToJson(d, cwd));
  const summary = {
    documents: documents.length,
    blocked: documents.filter((d) => d.blocked).length,
    findings: documents.reduce((n, d) => n + d.findings.length, 0),
    // Distinct flagged terms, counted per document.
    terms: documents.reduce((n, d) => n + new Set(d.findings.map((f) => f.term)).size, 0),
  };
  return JSON.stringify({ documents, summary }, null, 2);
}

export function relativePath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return (rel === '' ? path.basename(file) : rel).split(path.sep).join('/');
}
