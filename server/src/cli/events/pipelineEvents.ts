/**
 * The events of `check --emit-events` for one checked document, in the pipeline's phase order
 * (seed 000): extraction (TermCandidateObserved per candidate) → semantic check
 * (SemanticCheckEvaluated) → checkpoint before the gate (StepCheckpointed) → generation gate
 * (GenerationBlockedBySemanticConflict). Clarification events (Requested / Resolved /
 * SenseUpdated) are added by the caller after these. GlossaryScopeActivated comes once per
 * mission and run, before everything else (`scopeActivations`).
 */

import { randomUUID } from 'node:crypto';
import type { EventDraftOfType, GlossaryEventDraft } from '../../core/events/types';
import { isStrictness } from '../../core/policy';
import type { Strictness } from '../../core/types';
import type { WorkspaceSnapshot } from '../../node/workspace';
import type { CheckedDocument } from '../runCheck';
import { contextOf, documentConflicts, evaluationConfidence, type TermConflict } from './conflicts';
import { SERVICE_ACTOR_ID, type RunContext } from './runContext';
import { stepInputHash } from './stepInputs';

export const CHECKPOINT_CURSOR = 'pre_generation_gate';

/** One GlossaryScopeActivated per loaded scope (seed file or the bundled core), in scope order. */
export function scopeActivations(snapshot: WorkspaceSnapshot, missionId: string, run: RunContext): EventDraftOfType<'GlossaryScopeActivated'>[] {
  return snapshot.seeds.map((seed) => ({
    event_type: 'GlossaryScopeActivated',
    mission_id: missionId,
    run_id: run.runId,
    scope_id: seed.scope,
    glossary_version_id: seed.versionId,
  }));
}

export interface DocumentEvents {
  drafts: GlossaryEventDraft[];
  conflicts: TermConflict[];
  /** Set when the document is blocked: the checkpoint's retry token. */
  retryToken?: string;
}

/**
 * `strictness_mode` of GenerationBlockedBySemanticConflict: the workspace-wide mode
 * (`.kittify/config.yaml`, default medium) before the precedence rules; `effective_strictness`
 * is the one that applied to the step.
 */
export function workspaceStrictness(snapshot: WorkspaceSnapshot): Strictness {
  const value = snapshot.config.strictness;
  return isStrictness(value) ? value : 'medium';
}

export function documentEvents(doc: CheckedDocument, run: RunContext): DocumentEvents {
  const { report, identity } = doc;
  const base = { mission_id: identity.missionId, run_id: run.runId };
  const drafts: GlossaryEventDraft[] = [];

  for (const candidate of report.candidates) {
    drafts.push({
      event_type: 'TermCandidateObserved',
      ...base,
      term: candidate.surface,
      source_step: identity.stepId,
      actor_id: SERVICE_ACTOR_ID,
      confidence: candidate.confidence,
      extraction_method: candidate.method,
      context: contextOf(doc, candidate.occurrences[0]),
    });
  }

  const conflicts = documentConflicts(doc);
  drafts.push({
    event_type: 'SemanticCheckEvaluated',
    ...base,
    step_id: identity.stepId,
    findings: conflicts.map((c) => c.wire),
    overall_severity: report.overallSeverity ?? 'low',
    confidence: evaluationConfidence(conflicts),
    effective_strictness: report.strictness,
    recommended_action: report.recommendedAction,
    blocked: report.blocked,
  });

  if (!report.blocked) return { drafts, conflicts };

  const retryToken = randomUUID();
  drafts.push({
    event_type: 'StepCheckpointed',
    ...base,
    step_id: identity.stepId,
    strictness: report.strictness,
    scope_refs: doc.snapshot.scopeRefs(),
    input_hash: stepInputHash(doc.snapshot.root, doc.absolutePath, doc.text),
    cursor: CHECKPOINT_CURSOR,
    retry_token: retryToken,
  });
  drafts.push({
    event_type: 'GenerationBlockedBySemanticConflict',
    ...base,
    step_id: identity.stepId,
    conflicts: conflicts.filter((c) => c.blocking).map((c) => c.wire),
    strictness_mode: workspaceStrictness(doc.snapshot),
    effective_strictness: report.strictness,
  });
  return { drafts, conflicts, retryToken };
}
