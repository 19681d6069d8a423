/**
 * The conflicts of a checked document as the events and the prompt see them: one per distinct
 * term (the check reports one finding per occurrence), described by its first occurrence.
 */

import path from 'node:path';
import type { ConflictFinding } from '../../core/events/types';
import { gateBlocks } from '../../core/policy';
import { SEVERITY_RANK, type Finding, type Range } from '../../core/types';
import type { CheckedDocument } from '../runCheck';

export interface TermConflict {
  term: string;
  /** The finding at the term's first occurrence. */
  first: Finding;
  /** Every occurrence's finding, in document order. */
  findings: Finding[];
  /** Seed 000 ConflictFinding: context is `path:line:col` of the first occurrence. */
  wire: ConflictFinding;
  /** The gate blocks the document because of this conflict (its severity blocks at the strictness). */
  blocking: boolean;
}

/** Path of the document relative to its workspace root, with `/` (used in event contexts). */
export function workspacePath(doc: Pick<CheckedDocument, 'absolutePath' | 'snapshot'>): string {
  const rel = path.relative(doc.snapshot.root, doc.absolutePath);
  return (rel === '' ? path.basename(doc.absolutePath) : rel).split(path.sep).join('/');
}

/** `path:line:col`, 1-based (columns count UTF-16 code units, as LSP positions do). */
export function contextOf(doc: Pick<CheckedDocument, 'absolutePath' | 'snapshot'>, range: Range | undefined): string {
  const file = workspacePath(doc);
  return range ? `${file}:${range.start.line + 1}:${range.start.character + 1}` : file;
}

export function documentConflicts(doc: CheckedDocument): TermConflict[] {
  const byTerm = new Map<string, TermConflict>();
  for (const finding of doc.report.findings) {
    const existing = byTerm.get(finding.term);
    if (existing) {
      existing.findings.push(finding);
      continue;
    }
    byTerm.set(finding.term, {
      term: finding.term,
      first: finding,
      findings: [finding],
      wire: {
        term: finding.term,
        conflict_type: finding.conflictType,
        severity: finding.severity,
        confidence: finding.confidence,
        candidate_senses: finding.candidateSenses.map((s) => ({ surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence })),
        context: contextOf(doc, finding.range),
      },
      blocking: doc.report.blocked && gateBlocks(doc.report.strictness, [finding.severity]),
    });
  }
  // Findings are in document order, so the map keeps terms in order of first occurrence.
  return [...byTerm.values()];
}

/**
 * `confidence` of SemanticCheckEvaluated: the highest confidence among the findings at the
 * overall severity (the evidence the recommended action rests on); 1.0 with no findings.
 */
export function evaluationConfidence(conflicts: readonly TermConflict[]): number {
  let top = 0;
  let best = 0;
  for (const c of conflicts) {
    const rank = SEVERITY_RANK[c.wire.severity];
    if (rank > top) {
      top = rank;
      best = c.wire.confidence;
    } else if (rank === top) {
      best = Math.max(best, c.wire.confidence);
    }
  }
  return conflicts.length === 0 ? 1.0 : best;
}

/** The text of the line holding `range`'s start, trimmed (for the prompt). */
export function lineText(text: string, range: Range): string {
  let start = 0;
  for (let line = 0; line < range.start.line; line++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '').trim();
}
