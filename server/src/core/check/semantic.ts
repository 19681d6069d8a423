/**
 * The semantic-check and generation-gate phases: candidates → findings (one per occurrence), then
 * the strictness gate's decision.
 */

import { gateBlocks, scoreSeverity, unknownConflictType } from '../policy';
import type { Unit } from '../pipeline';
import type { ConflictType, Finding, Range, ScopeId, SenseRef, TermCandidate } from '../types';
import type { CheckContext } from './context';
import { contradictsDefinition, keywords } from './contradiction';
import { resolveTerm, type Resolution } from './resolve';
import { isCommonWord } from '../words';

const plural = (n: number) => `${n} sense${n === 1 ? '' : 's'}`;

export const semanticCheck: Unit<CheckContext> = {
  id: 'semantic_check.resolve',
  phase: 'semantic_check',
  required: true,
  run(context) {
    const findings: Finding[] = [];
    const isOrdinary = (surface: string) => !surface.includes(' ') && isCommonWord(context.common, surface);
    for (const candidate of context.candidates) {
      const resolution = resolveTerm(candidate.surface, context.glossary, context.pins, context.knownTerms, isOrdinary);
      if (resolution.kind === 'known') continue;
      if (resolution.kind === 'resolved') {
        findings.push(...contradictions(context, candidate, resolution));
        continue;
      }
      const shape = describe(candidate, resolution, context.critical);
      for (const range of candidate.occurrences) findings.push(makeFinding(candidate, shape, range, context.critical));
    }
    findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    context.findings = findings;
  },
};

export const strictnessGate: Unit<CheckContext> = {
  id: 'generation_gate.strictness',
  phase: 'generation_gate',
  required: true,
  run(context) {
    const severities = context.findings.map((f) => f.severity);
    if (gateBlocks(context.strictness, severities)) {
      context.decisions.push({ kind: 'deny', reasonCode: `strictness_${context.strictness}`, message: `Generation blocked: strictness '${context.strictness}' does not allow ${context.strictness === 'max' ? 'any conflict' : 'high-severity conflicts'}.` });
    } else if (severities.length > 0) {
      context.decisions.push({ kind: 'warn', reasonCode: 'conflicts_present', message: `${severities.length} conflict occurrence(s) do not block at strictness '${context.strictness}'.` });
    } else {
      context.decisions.push({ kind: 'allow', reasonCode: 'no_conflicts', message: 'No semantic conflicts.' });
    }
  },
};

interface Shape {
  type: ConflictType;
  scope: ScopeId | null;
  candidates: SenseRef[];
  senseCount: number;
  message: string;
  reason?: Finding['reason'];
  replacement?: string;
}

function describe(candidate: TermCandidate, resolution: Exclude<Resolution, { kind: 'resolved' } | { kind: 'known' }>, critical: boolean): Shape {
  const term = candidate.surface;
  switch (resolution.kind) {
    case 'ambiguous':
      return { type: 'ambiguous', scope: resolution.scope, candidates: resolution.candidates, senseCount: resolution.senseCount, message: `Ambiguous term '${term}': ${plural(resolution.senseCount)} in ${resolution.scope}; choose the one this mission means.` };
    case 'synonym_to_avoid':
      return { type: 'inconsistent', scope: resolution.scope, candidates: resolution.candidates, senseCount: resolution.senseCount, reason: 'synonym_to_avoid', replacement: resolution.replacement, message: `Inconsistent term '${term}': a synonym to avoid; use '${resolution.replacement}' (${resolution.scope}, ${plural(resolution.senseCount)}).` };
    case 'deprecated_only':
      return { type: 'inconsistent', scope: resolution.scope, candidates: resolution.candidates, senseCount: resolution.senseCount, reason: 'deprecated_only', message: `Inconsistent term '${term}': its only ${plural(resolution.senseCount)} in ${resolution.scope} ${resolution.senseCount === 1 ? 'is' : 'are'} deprecated.` };
    case 'unknown': {
      const type = unknownConflictType(candidate.confidence, critical);
      const message =
        type === 'unresolved_critical'
          ? `Unresolved critical term '${term}': not defined in any glossary scope (0 senses) and extracted with low confidence ${candidate.confidence} on a critical step.`
          : `Unknown term '${term}': not defined in any glossary scope (0 senses).`;
      return { type, scope: null, candidates: [], senseCount: 0, message };
    }
  }
}

function makeFinding(candidate: TermCandidate, shape: Shape, range: Range, critical: boolean): Finding {
  return {
    term: candidate.surface,
    conflictType: shape.type,
    severity: scoreSeverity(shape.type, candidate.confidence, critical),
    confidence: candidate.confidence,
    extractionMethod: candidate.method,
    scope: shape.scope,
    range,
    candidateSenses: shape.candidates,
    message: shape.message,
    senseCount: shape.senseCount,
    ...(shape.reason ? { reason: shape.reason } : {}),
    ...(shape.replacement ? { replacement: shape.replacement } : {}),
  };
}

function contradictions(context: CheckContext, candidate: TermCandidate, resolution: Extract<Resolution, { kind: 'resolved' }>): Finding[] {
  const out: Finding[] = [];
  const definitionKeywords = keywords(resolution.sense.definition);
  const { masked, lines } = context.scan;
  for (const range of candidate.occurrences) {
    const start = lines.offsetAt(range.start);
    const end = lines.offsetAt(range.end);
    if (!contradictsDefinition(masked, start, end, definitionKeywords)) continue;
    const shape: Shape = {
      type: 'inconsistent',
      scope: resolution.scope,
      candidates: [resolution.sense],
      senseCount: resolution.senseCount,
      reason: 'contradiction',
      message: `Inconsistent term '${candidate.surface}': this sentence contradicts its ${resolution.pinned ? 'pinned ' : ''}definition in ${resolution.scope} (${plural(resolution.senseCount)}): "${resolution.sense.definition}".`,
    };
    out.push(makeFinding(candidate, shape, range, context.critical));
  }
  return out;
}
