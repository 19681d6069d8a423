/**
 * Conflict diagnostics as their code actions read them: the published `data` (which leaves out
 * what the diagnostic and its document already say, see `PublishedFindingData`) completed with
 * the diagnostic's code and the document's mission and step.
 */

import type { Diagnostic } from 'vscode-languageserver-types';
import type { ConflictType } from '../core/types';
import { isFindingData, isPublishedFindingData, type FindingData } from '../shared/protocol';

const CONFLICT_TYPES: readonly string[] = ['unknown', 'ambiguous', 'inconsistent', 'unresolved_critical'] satisfies ConflictType[];

/**
 * `diagnostic` with complete finding data, when it has finding data and a conflict type as its
 * code; else as it is. The mission and step are always the document's (a command naming another
 * mission is refused anyway), so data a client sends complete is completed the same way.
 */
export function withFindingData(diagnostic: Diagnostic, document: { missionId: string; stepId: string }): Diagnostic {
  const data: unknown = diagnostic.data;
  if (!isPublishedFindingData(data) || typeof diagnostic.code !== 'string' || !CONFLICT_TYPES.includes(diagnostic.code)) return diagnostic;
  const full: FindingData = { ...data, missionId: document.missionId, stepId: document.stepId, conflictType: diagnostic.code as ConflictType, candidates: data.candidates ?? [] };
  return isFindingData(full) ? { ...diagnostic, data: full } : diagnostic;
}
