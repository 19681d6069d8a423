/**
 * The semantic-check and generation-gate phases: candidates → findings (one per occurrence), then
 * the strictness gate's decision.
 */

import { gateBlocks, scoreSeverity, unknownConflictType } from '../policy';
import type { Unit } from '../pipeline';
import type { ConflictType, Finding, Range, ScopeId, SenseRef, TermCandidate } from '../types';
import { candidateOffsets } from '../extract/extractors';
import { followsPrevious, type CheckContext } from './context';
import { contradictsDefinition, keywords } from './contradiction';
import { resolveTerm, type Resolution } from './resolve';
import { isCommonWord } from '../words';

const plural = (n: number) => `${n} sense${n === 1 ? '' : 's'}`;

/** What the semantic check keeps for the next check of the document: findings by surface. */
type SemanticMemo = Map<string, { candidate: TermCandidate; shape: Shape; critical: boolean; findings: Finding[] }>;

/** For each resolved term: its definition, and the offsets of its occurrences that contradicted it. */
type ContradictionMemo = Map<string, { definition: string; hits: Set<number> }>;

export const semanticCheck: Unit<CheckContext> = {
  id: 'semantic_check.resolve',
  phase: 'semantic_check',
  required: true,
  run(context) {
    const findings: Finding[] = [];
    // The offset each finding's range starts at (a range starts where positionAt put an offset), to
    // order them without reading their ranges back.
    const starts: number[] = [];
    const lines = context.scan.lines;
    const isOrdinary = (surface: string) => !surface.includes(' ') && isCommonWord(context.common, surface);
    const follows = followsPrevious(context);
    const previous = follows ? (context.previous.memo.get('semantic_check.resolve') as SemanticMemo | undefined) : undefined;
    const memo: SemanticMemo = new Map();
    const previousHits = follows ? (context.previous.memo.get('semantic_check.contradictions') as ContradictionMemo | undefined) : undefined;
    const hits: ContradictionMemo = new Map();
    for (const candidate of context.candidates) {
      const resolution = resolveTerm(candidate.surface, context.glossary, context.pins, context.knownTerms, isOrdinary);
      if (resolution.kind === 'known') continue;
      if (resolution.kind === 'resolved') {
        for (const finding of contradictions(context, candidate, resolution, previousHits, hits)) {
          findings.push(finding);
          starts.push(lines.offsetOf(finding.range.start));
        }
        continue;
      }
      const shape = describe(candidate, resolution, context.critical);
      // Findings of an occurrence whose range did not change (same object) are the previous ones
      // when everything else a finding holds is the same too.
      const old = previous?.get(candidate.surface);
      const same = old !== undefined && old.critical === context.critical && old.candidate.method === candidate.method && old.candidate.confidence === candidate.confidence && sameShape(old.shape, shape) ? old : undefined;
      const own = reuseFindings(candidate, same, (range) => makeFinding(candidate, shape, range, context.critical));
      memo.set(candidate.surface, { candidate, shape, critical: context.critical, findings: own });
      const offsets = candidateOffsets(candidate);
      for (let k = 0; k < own.length; k++) {
        findings.push(own[k]!);
        starts.push(offsets ? offsets[2 * k]! : lines.offsetOf(own[k]!.range.start));
      }
    }
    context.findings = sortByPosition(findings, starts);
    context.memo.set('semantic_check.resolve', memo);
    context.memo.set('semantic_check.contradictions', hits);
  },
};

/** Whether findings of the two shapes hold the same values. */
function sameShape(a: Shape, b: Shape): boolean {
  if (a.type !== b.type || a.scope !== b.scope || a.message !== b.message || a.senseCount !== b.senseCount || a.reason !== b.reason || a.replacement !== b.replacement) return false;
  if (a.candidates.length !== b.candidates.length) return false;
  for (let k = 0; k < a.candidates.length; k++) {
    const x = a.candidates[k]!;
    const y = b.candidates[k]!;
    if (x.surface !== y.surface || x.scope !== y.scope || x.definition !== y.definition || x.confidence !== y.confidence || Object.keys(x).length !== Object.keys(y).length) return false;
  }
  return true;
}

/** One finding per occurrence, taking the previous finding of an unchanged range. */
function reuseFindings(candidate: TermCandidate, old: { candidate: TermCandidate; findings: Finding[] } | undefined, make: (range: Range) => Finding): Finding[] {
  const ranges = candidate.occurrences;
  if (old && old.candidate === candidate) return old.findings;
  const out: Finding[] = new Array(ranges.length);
  let head = 0;
  let tail = 0;
  if (old) {
    const was = old.candidate.occurrences;
    while (head < ranges.length && head < was.length && ranges[head] === was[head]) {
      out[head] = old.findings[head]!;
      head++;
    }
    while (tail < ranges.length - head && tail < was.length - head && ranges[ranges.length - 1 - tail] === was[was.length - 1 - tail]) {
      out[ranges.length - 1 - tail] = old.findings[was.length - 1 - tail]!;
      tail++;
    }
  }
  for (let k = head; k < ranges.length - tail; k++) out[k] = make(ranges[k]!);
  return out;
}

/**
 * Findings in document order (of their `starts`, which order as their ranges' starts do), those
 * at the same position in the order they were made: a stable sort with one typed-array sort
 * instead of comparing objects.
 */
function sortByPosition(findings: Finding[], starts: readonly number[]): Finding[] {
  if (findings.length >= 1 << 21) return findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  const keys = new Float64Array(findings.length);
  for (let k = 0; k < findings.length; k++) keys[k] = starts[k]! * 2097152 + k;
  keys.sort();
  const out: Finding[] = new Array(findings.length);
  for (let k = 0; k < keys.length; k++) out[k] = findings[keys[k]! % 2097152]!;
  return out;
}

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
  const finding: Finding = {
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
  };
  if (shape.reason) finding.reason = shape.reason;
  if (shape.replacement) finding.replacement = shape.replacement;
  return finding;
}

/** How far around an occurrence `contradictsDefinition` reads (a sentence of up to 400 characters). */
const SENTENCE_REACH = 401;

function contradictions(context: CheckContext, candidate: TermCandidate, resolution: Extract<Resolution, { kind: 'resolved' }>, previous: ContradictionMemo | undefined, memo: ContradictionMemo): Finding[] {
  const out: Finding[] = [];
  // After an edit, an occurrence whose sentence lies in unchanged text contradicts the definition
  // exactly when it did before.
  const definition = resolution.sense.definition;
  const before = previous?.get(candidate.surface);
  const known = before !== undefined && before.definition === definition ? before.hits : undefined;
  const edit = context.scan.edit;
  const found = new Set<number>();
  memo.set(candidate.surface, { definition, hits: found });
  // The definition's keywords are needed only for a sentence that redefines the term.
  let definitionKeywords: Set<string> | undefined;
  const wanted = () => (definitionKeywords ??= keywords(resolution.sense.definition));
  const { masked, lines } = context.scan;
  // The occurrences' offsets, without working out their ranges (only a contradiction needs one).
  const offsets = candidateOffsets(candidate);
  const count = offsets ? offsets.length >> 1 : candidate.occurrences.length;
  for (let k = 0; k < count; k++) {
    const start = offsets ? offsets[2 * k]! : lines.offsetAt(candidate.occurrences[k]!.start);
    const end = offsets ? offsets[2 * k + 1]! : lines.offsetAt(candidate.occurrences[k]!.end);
    let contradicts: boolean;
    if (known && edit && end + SENTENCE_REACH <= edit.restart) contradicts = known.has(start);
    else if (known && edit && start - SENTENCE_REACH >= edit.end) contradicts = known.has(start - edit.delta);
    else contradicts = contradictsDefinition(masked, start, end, wanted);
    if (!contradicts) continue;
    found.add(start);
    const range = candidate.occurrences[k]!;
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
