/**
 * The semantic-check and generation-gate phases: candidates → findings (one per occurrence), then
 * the strictness gate's decision.
 */

import { gateBlocksOn, scoreSeverity, unknownConflictType } from '../policy';
import type { Unit } from '../pipeline';
import type { ConflictType, Finding, Range, ScopeId, SenseRef, TermCandidate } from '../types';
import { candidateOffsets } from '../extract/locate';
import { followsPrevious, sameSet, type CheckContext } from './context';
import { contradictsDefinition, keywords, sharesDefinitionContext } from './contradiction';
import { resolveTerm, type Resolution } from './resolve';
import { LayeredResolutions } from './layeredResolutions';
import type { GlossaryIndex } from '../glossary';
import { standalone } from '../text';
import { isFamiliarWord, isKnownWord } from '../words';

const plural = (n: number) => `${n} sense${n === 1 ? '' : 's'}`;

/** What the semantic check keeps for the next check of the document: findings by surface. */
type SemanticMemo = Map<string, { candidate: TermCandidate; resolution: Resolution; shape: Shape; critical: boolean; findings: Finding[]; inSenseOnly?: true }>;

/** For each resolved term: its definition, and the offsets of its occurrences that contradicted it. */
type ContradictionMemo = Map<string, { definition: string; hits: ReadonlySet<number>; resolution: Resolution; critical: boolean; confidence: number; findings: ReadonlyMap<number, Finding> }>;
/** By surface: the offsets of the occurrences of an ordinary synonym to avoid whose sentence is in the preferred term's sense. */
type InSenseMemo = Map<string, { resolution: Resolution; hits: Set<number> }>;

/** The previous check's findings in document order, with the offsets they start at. */
interface OrderMemo {
  findings: Finding[];
  starts: Float64Array;
}

export const semanticCheck: Unit<CheckContext> = {
  id: 'semantic_check.resolve',
  phase: 'semantic_check',
  required: true,
  run(context) {
    const pass = new SemanticPass(context);
    const isOrdinary = (surface: string) => !surface.includes(' ') && isFamiliarWord(context.common, surface);
    // A word written with capitals inside ("HiC") was proposed by casing_pattern only when the
    // shared vocabulary does not know it: the English word it may spell ("hic") is another word.
    const isOrdinaryAbbreviation = (surface: string) => isKnownWord(context.common, surface);
    // A watched term is known only when the workspace's ignore_words list it: "Ignore in this
    // workspace" works on it as on any term.
    const isIgnored = (surface: string) => context.common.ignored?.has(surface) === true;
    // A surface resolves as before when the glossary, pins, known terms and common words are the
    // same (resolution reads nothing of the document).
    const resolutions = reusableResolutions(context);
    context.memo.set('semantic_check.resolutions', resolutions);
    for (const candidate of context.candidates) {
      const written = candidate.method === 'casing_pattern';
      // A term the front matter asks about (glossary_watch_terms, glossary_aliases) is the
      // author's explicit question: no glossary sense makes it unknown, common word, well-known
      // acronym or not.
      const watched = candidate.method === 'metadata_hint';
      const key = written ? candidate.surface + CASING_KEY : watched ? candidate.surface + WATCHED_KEY : candidate.surface;
      let resolution = resolutions.get(key);
      if (resolution === undefined) {
        resolution = watched
          ? resolveTerm(candidate.surface, context.glossary, context.pins, NO_KNOWN_TERMS, isIgnored)
          : resolveTerm(candidate.surface, context.glossary, context.pins, context.knownTerms, written ? isOrdinaryAbbreviation : isOrdinary);
        // (Kept beyond this document: a string of its own, not a view into the text.)
        resolutions.set(standalone(key), resolution);
      }
      if (resolution.kind === 'known') continue;
      if (resolution.kind === 'resolved') pass.addContradictions(candidate, resolution);
      else if (resolution.kind === 'synonym_to_avoid' && isOrdinary(candidate.surface)) pass.addInSense(candidate, resolution);
      else pass.addOccurrences(candidate, resolution);
    }
    pass.finish();
  },
};

/**
 * One semantic check of a document: its candidates' findings (taken from the previous check's
 * where nothing a finding holds has changed) in document order, and what the next check needs.
 */
class SemanticPass {
  private readonly findings: Finding[] = [];
  // The offset each finding's range starts at (a range starts where positionAt put an offset), to
  // order them without reading their ranges back.
  private readonly starts: number[] = [];
  // Indices (into `findings`) of the findings made by this check rather than reused.
  private readonly fresh: number[] = [];
  private readonly kept = { head: 0, tail: 0 };
  private readonly isNew: boolean[] = [];
  // Previous findings known not to be reused (those of changed occurrences).
  private readonly dropped = new Set<Finding>();
  private readonly follows: boolean;
  private readonly previous: SemanticMemo | undefined;
  private readonly memo: SemanticMemo = new Map();
  private readonly previousHits: ContradictionMemo | undefined;
  private readonly hits: ContradictionMemo = new Map();
  private readonly previousInSense: InSenseMemo | undefined;
  private readonly inSense: InSenseMemo = new Map();
  private readonly previousOrder: OrderMemo | undefined;

  constructor(private readonly context: CheckContext) {
    const follows = followsPrevious(context);
    this.follows = follows;
    this.previous = follows ? (context.previous.memo.get('semantic_check.resolve') as SemanticMemo | undefined) : undefined;
    this.previousHits = follows ? (context.previous.memo.get('semantic_check.contradictions') as ContradictionMemo | undefined) : undefined;
    this.previousInSense = follows ? (context.previous.memo.get('semantic_check.inSense') as InSenseMemo | undefined) : undefined;
    this.previousOrder = follows ? (context.previous.memo.get('semantic_check.order') as OrderMemo | undefined) : undefined;
  }

  /** A resolved term's findings: where a sentence contradicts its definition. */
  addContradictions(candidate: TermCandidate, resolution: Extract<Resolution, { kind: 'resolved' }>): void {
    const { findings, starts, fresh, isNew } = this;
    const lines = this.context.scan.lines;
    isNew.length = 0;
    const own = contradictions(this.context, candidate, resolution, this.previousHits, this.hits, isNew, this.dropped);
    for (let k = 0; k < own.length; k++) {
      if (isNew[k]) fresh.push(findings.length);
      findings.push(own[k]!);
      starts.push(lines.offsetOf(own[k]!.range.start));
    }
  }

  /**
   * An ordinary word listed as a synonym to avoid ("extend", "replace") is reported only where its
   * sentence is about what the preferred term means (made afresh every time).
   */
  addInSense(candidate: TermCandidate, resolution: Extract<Resolution, { kind: 'synonym_to_avoid' }>): void {
    const context = this.context;
    const old = this.previous?.get(candidate.surface);
    if (old !== undefined) for (const finding of old.findings) this.dropped.add(finding);
    const shape = describe(candidate, resolution, context.critical);
    const own = synonymsInSense(context, candidate, resolution, shape, this.previousInSense, this.inSense);
    this.memo.set(candidate.surface, { candidate, resolution, shape, critical: context.critical, findings: own, inSenseOnly: true });
    for (const finding of own) {
      if (this.follows) this.fresh.push(this.findings.length);
      this.findings.push(finding);
      this.starts.push(context.scan.lines.offsetOf(finding.range.start));
    }
  }

  /** One finding per occurrence of an unknown, ambiguous or deprecated term or a synonym to avoid. */
  addOccurrences(candidate: TermCandidate, resolution: Exclude<Resolution, { kind: 'resolved' } | { kind: 'known' }>): void {
    const { context, kept } = this;
    const old = this.previous?.get(candidate.surface);
    // Findings of an occurrence whose range did not change (same object) are the previous ones
    // when everything else a finding holds is the same too.
    const alike = old !== undefined && old.inSenseOnly === undefined && old.critical === context.critical && old.candidate.method === candidate.method && old.candidate.confidence === candidate.confidence;
    // The same resolution (object) describes the candidate as before.
    const shape = alike && old.resolution === resolution ? old.shape : describe(candidate, resolution, context.critical);
    const same = alike && (shape === old.shape || sameShape(old.shape, shape)) ? old : undefined;
    const own = reuseFindings(candidate, same, (range) => makeFinding(candidate, shape, range, context.critical), kept);
    if (old !== undefined && old.inSenseOnly) for (const finding of old.findings) this.dropped.add(finding);
    else if (old !== undefined && own !== old.findings) {
      const reusedTail = same ? kept.tail : 0;
      for (let k = same ? kept.head : 0; k < old.findings.length - reusedTail; k++) this.dropped.add(old.findings[k]!);
    }
    this.memo.set(candidate.surface, { candidate, resolution, shape, critical: context.critical, findings: own });
    const { findings, starts, fresh, follows } = this;
    const lines = context.scan.lines;
    const offsets = candidateOffsets(candidate);
    for (let k = 0; k < own.length; k++) {
      // (Which findings are new matters only for splicing the previous order.)
      if (follows && k >= kept.head && k < own.length - kept.tail) fresh.push(findings.length);
      findings.push(own[k]!);
      starts.push(offsets ? offsets[2 * k]! : lines.offsetOf(own[k]!.range.start));
    }
  }

  /** The findings in document order, and the memos for the next check. */
  finish(): void {
    const context = this.context;
    const previousOrder = this.previousOrder;
    const order = (previousOrder && context.scan.edit && spliceOrder(previousOrder, context.scan.edit, this.findings, this.starts, this.fresh, this.dropped)) || sortByPosition(this.findings, this.starts);
    context.findings = order.findings;
    context.memo.set('semantic_check.order', order);
    context.memo.set('semantic_check.resolve', this.memo);
    context.memo.set('semantic_check.contradictions', this.hits);
    context.memo.set('semantic_check.inSense', this.inSense);
  }
}

/** Marks the resolutions of casing_pattern candidates, which judge ordinariness on their own. */
const CASING_KEY = '\u0001casing';
const WATCHED_KEY = '\u0001watched';
const NO_KNOWN_TERMS: ReadonlySet<string> = new Set();

/**
 * Resolutions by surface that still hold: the previous check's when it had the same glossary,
 * pins, known terms and common words; else, without pins, those of the last checks made with the
 * same glossary (a process checks many specs against one glossary, and they share most terms);
 * else an empty map.
 */
function reusableResolutions(context: CheckContext): Map<string, Resolution> {
  const previous = context.previous;
  const old = previous?.memo.get('semantic_check.resolutions') as Map<string, Resolution> | undefined;
  // (Surfaces typed and gone again stay in the map: start afresh when it has grown well past the document's.)
  if (previous && old && old.size <= 2 * context.candidates.length + 1024 && previous.glossary === context.glossary && previous.common === context.common && samePins(previous.pins, context.pins) && sameSet(previous.knownTerms, context.knownTerms)) return old;
  if (context.pins.size > 0) return new Map();
  return sharedResolutions(context, context.glossary);
}

/**
 * The pin-free resolutions of checks against `glossary` (the engine keeps them per glossary: a
 * replaced glossary takes its own with it). A glossary with a mission's own senses shares those
 * of its base for every other term (layeredResolutions.ts).
 */
function sharedResolutions(context: CheckContext, glossary: GlossaryIndex): Map<string, Resolution> {
  const byGlossary = context.engine.resolutions;
  let shared = byGlossary.get(glossary);
  if (!shared || shared.common !== context.common || !sameSet(shared.knownTerms, context.knownTerms) || shared.resolutions.size > MAX_SHARED_RESOLUTIONS) {
    const resolutions = glossary.layer ? new LayeredResolutions(sharedResolutions(context, glossary.layer.base), glossary.layer.own, MAX_SHARED_RESOLUTIONS) : new Map<string, Resolution>();
    shared = { common: context.common, knownTerms: context.knownTerms, resolutions };
    byGlossary.set(glossary, shared);
  }
  return shared.resolutions as Map<string, Resolution>;
}

const MAX_SHARED_RESOLUTIONS = 50_000;

function samePins(a: CheckContext['pins'], b: CheckContext['pins']): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [key, pin] of a) if (b.get(key) !== pin) return false;
  return true;
}

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
function reuseFindings(candidate: TermCandidate, old: { candidate: TermCandidate; findings: Finding[] } | undefined, make: (range: Range) => Finding, kept: { head: number; tail: number }): Finding[] {
  kept.head = kept.tail = 0;
  if (old && old.candidate === candidate) {
    kept.head = old.findings.length;
    return old.findings;
  }
  const ranges = candidate.occurrences;
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
  kept.head = head;
  kept.tail = tail;
  return out;
}

/**
 * Findings in document order (of their `starts`, which order as their ranges' starts do), those
 * at the same position in the order they were made: a stable sort with one typed-array sort
 * instead of comparing objects.
 */
function sortByPosition(findings: Finding[], starts: readonly number[]): OrderMemo {
  const sortedStarts = new Float64Array(findings.length);
  if (findings.length >= 1 << 21) {
    const order = findings.map((_, k) => k).sort((a, b) => findings[a]!.range.start.line - findings[b]!.range.start.line || findings[a]!.range.start.character - findings[b]!.range.start.character || a - b);
    for (let k = 0; k < order.length; k++) sortedStarts[k] = starts[order[k]!]!;
    return { findings: order.map((k) => findings[k]!), starts: sortedStarts };
  }
  let largest = 0;
  for (let k = 0; k < starts.length; k++) if (starts[k]! > largest) largest = starts[k]!;
  const out: Finding[] = new Array(findings.length);
  if (largest < 1 << (2 * RADIX_BITS)) {
    // Offsets under 4 M (every document but a huge one): two stable counting passes over 11 bits
    // each, instead of a comparison sort.
    const order = radixOrder(starts, findings.length);
    for (let k = 0; k < order.length; k++) {
      out[k] = findings[order[k]!]!;
      sortedStarts[k] = starts[order[k]!]!;
    }
    return { findings: out, starts: sortedStarts };
  }
  const keys = new Float64Array(findings.length);
  for (let k = 0; k < findings.length; k++) keys[k] = starts[k]! * 2097152 + k;
  keys.sort();
  for (let k = 0; k < keys.length; k++) {
    const index = keys[k]! % 2097152;
    out[k] = findings[index]!;
    sortedStarts[k] = starts[index]!;
  }
  return { findings: out, starts: sortedStarts };
}

const RADIX_BITS = 11;

/** Indexes 0 … n - 1 ordered by `keys` (non-negative integers under 2^22), equal keys in index order. */
function radixOrder(keys: readonly number[], n: number): Int32Array {
  const mask = (1 << RADIX_BITS) - 1;
  const counts = new Int32Array(mask + 2);
  const low = new Int32Array(n);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) counts[(keys[k]! & mask) + 1]!++;
  for (let r = 0; r <= mask; r++) counts[r + 1]! += counts[r]!;
  for (let k = 0; k < n; k++) low[counts[keys[k]! & mask]!++] = k;
  counts.fill(0);
  for (let k = 0; k < n; k++) counts[(keys[k]! >> RADIX_BITS) + 1]!++;
  for (let r = 0; r <= mask; r++) counts[r + 1]! += counts[r]!;
  for (let j = 0; j < n; j++) {
    const k = low[j]!;
    order[counts[keys[k]! >> RADIX_BITS]!++] = k;
  }
  return order;
}

/**
 * The order `sortByPosition` gives, spliced from the previous check's when every previous finding
 * was reused (the usual keystroke): the reused ones keep their order (those after the edit move by
 * its change in length), the few made anew are sorted and merged in. Undefined (sort instead) when
 * anything does not add up, or two findings start at the same offset (their order is the order
 * they were made in, which the splice does not know).
 */
function spliceOrder(previous: OrderMemo, edit: NonNullable<CheckContext['scan']['edit']>, findings: Finding[], starts: readonly number[], fresh: readonly number[], dropped: ReadonlySet<Finding>): OrderMemo | undefined {
  const n = findings.length;
  const reused = n - fresh.length;
  // The reused findings are previous ones, each once, and none of `dropped` (previous findings
  // not reused): they are all the others exactly when the counts agree.
  if (reused !== previous.findings.length - dropped.size || n >= 1 << 21 || fresh.length > 256) return undefined;
  const made = new Float64Array(fresh.length);
  for (let k = 0; k < fresh.length; k++) made[k] = starts[fresh[k]!]! * 2097152 + fresh[k]!;
  made.sort();
  const out: Finding[] = new Array(n);
  const outStarts = new Float64Array(n);
  let old = previous.starts;
  let oldFindings = previous.findings;
  if (dropped.size > 0) {
    oldFindings = new Array(reused);
    const starts = new Float64Array(reused);
    let at = 0;
    for (let k = 0; k < previous.findings.length; k++) {
      const finding = previous.findings[k]!;
      if (dropped.has(finding)) continue;
      if (at === reused) return undefined;
      oldFindings[at] = finding;
      starts[at++] = previous.starts[k]!;
    }
    if (at !== reused) return undefined;
    old = starts;
  }
  const { restart, delta } = edit;
  let sum = 0;
  let i = 0;
  let j = 0;
  let last = -1;
  for (let k = 0; k < n; k++) {
    const a = i < old.length ? (old[i]! < restart ? old[i]! : old[i]! + delta) : Infinity;
    const b = j < made.length ? Math.floor(made[j]! / 2097152) : Infinity;
    let at: number;
    if (a < b) {
      at = a;
      out[k] = oldFindings[i++]!;
    } else if (b < a) {
      at = b;
      out[k] = findings[made[j++]! % 2097152]!;
    } else return undefined;
    if (at <= last) return undefined;
    last = at;
    outStarts[k] = at;
    sum += at;
  }
  // Every finding's start, as pushed, adds up to the same (a reused finding moved as assumed).
  for (let k = 0; k < n; k++) sum -= starts[k]!;
  return sum === 0 ? { findings: out, starts: outStarts } : undefined;
}

export const strictnessGate: Unit<CheckContext> = {
  id: 'generation_gate.strictness',
  phase: 'generation_gate',
  required: true,
  run(context) {
    const { findings } = context;
    if (gateBlocksOn(context.strictness, findings.length, findings.some((f) => f.severity === 'high'))) {
      context.decisions.push({ kind: 'deny', reasonCode: `strictness_${context.strictness}`, message: `Generation blocked: strictness '${context.strictness}' does not allow ${context.strictness === 'max' ? 'any conflict' : 'high-severity conflicts'}.` });
    } else if (findings.length > 0) {
      context.decisions.push({ kind: 'warn', reasonCode: 'conflicts_present', message: `${findings.length} conflict occurrence(s) do not block at strictness '${context.strictness}'.` });
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

/** "; see 'mission slug'" when the deprecated entries name terms to see instead (at most three). */
function seeAlsoClause(seeAlso: readonly string[]): string {
  if (seeAlso.length === 0) return '';
  const named = seeAlso.slice(0, 3).map((s) => `'${s}'`);
  return `; see ${named.join(', ')}${seeAlso.length > 3 ? ', …' : ''}`;
}

function describe(candidate: TermCandidate, resolution: Exclude<Resolution, { kind: 'resolved' } | { kind: 'known' }>, critical: boolean): Shape {
  const term = candidate.surface;
  switch (resolution.kind) {
    case 'ambiguous':
      return { type: 'ambiguous', scope: resolution.scope, candidates: resolution.candidates, senseCount: resolution.senseCount, message: `Ambiguous term '${term}': ${plural(resolution.senseCount)} in ${resolution.scope}; choose the one this mission means.` };
    case 'synonym_to_avoid':
      return { type: 'inconsistent', scope: resolution.scope, candidates: resolution.candidates, senseCount: resolution.senseCount, reason: 'synonym_to_avoid', replacement: resolution.replacement, message: `Inconsistent term '${term}': a synonym to avoid; use '${resolution.replacement}' (${resolution.scope}, ${plural(resolution.senseCount)}).` };
    case 'deprecated_only': {
      const instead = resolution.instead.length > 0 ? `; use ${resolution.instead.map((s) => `'${s}'`).join(' or ')} instead` : '';
      return {
        type: 'inconsistent',
        scope: resolution.scope,
        candidates: resolution.candidates,
        senseCount: resolution.senseCount,
        reason: 'deprecated_only',
        // (The Replace fix: one term named to use instead.)
        ...(resolution.instead.length === 1 ? { replacement: resolution.instead[0]! } : {}),
        message: `Inconsistent term '${term}': deprecated in ${resolution.scope} (${plural(resolution.senseCount)}, none active)${instead}${seeAlsoClause(resolution.seeAlso)}.`,
      };
    }
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

/**
 * The findings of an ordinary word listed as a synonym to avoid: one for each occurrence whose
 * sentence shares the vocabulary of the preferred term's definition (contradiction.ts
 * `sharesDefinitionContext`). "The pack extends the built-in tactic" is the glossary's sense of
 * "enhances"; "this extends the deadline" is English.
 */
function synonymsInSense(
  context: CheckContext,
  candidate: TermCandidate,
  resolution: Extract<Resolution, { kind: 'synonym_to_avoid' }>,
  shape: Shape,
  previous: InSenseMemo | undefined,
  memo: InSenseMemo,
): Finding[] {
  // After an edit, an occurrence whose sentence lies in unchanged text is in sense exactly when it
  // was before (the same resolution: the same definitions to share words with). Only the
  // occurrences within a sentence's reach of the edit are read again: a keystroke in a 1 MB
  // document used to read the sentence of every occurrence of every such word.
  const before = previous?.get(candidate.surface);
  const known = before !== undefined && before.resolution === resolution ? before.hits : undefined;
  const edit = context.scan.edit;
  const hits = new Set<number>();
  memo.set(candidate.surface, { resolution, hits });
  let wanted: Set<string> | undefined;
  const wantedWords = () => {
    if (wanted === undefined) {
      wanted = new Set<string>();
      for (const sense of resolution.candidates) for (const word of keywords(sense.definition)) wanted.add(word);
      for (const word of keywords(resolution.replacement)) wanted.add(word);
    }
    return wanted;
  };
  const own = new Set([candidate.surface]);
  const { masked, text, lines } = context.scan;
  const offsets = candidateOffsets(candidate);
  const count = offsets ? offsets.length >> 1 : candidate.occurrences.length;
  const out: Finding[] = [];
  for (let k = 0; k < count; k++) {
    const start = offsets ? offsets[2 * k]! : lines.offsetAt(candidate.occurrences[k]!.start);
    const end = offsets ? offsets[2 * k + 1]! : lines.offsetAt(candidate.occurrences[k]!.end);
    let inSense: boolean;
    if (known && edit && end + SENTENCE_REACH <= edit.restart) inSense = known.has(start);
    else if (known && edit && start - SENTENCE_REACH >= edit.end) inSense = known.has(start - edit.delta);
    else inSense = sharesDefinitionContext(masked, text, start, end, wantedWords(), own);
    if (!inSense) continue;
    hits.add(start);
    out.push(makeFinding(candidate, shape, candidate.occurrences[k]!, context.critical));
  }
  return out;
}

/** How far around an occurrence `contradictsDefinition` reads (a sentence of up to 400 characters). */
const SENTENCE_REACH = 401;

/** A term's contradictions when it has none (shared, never added to). */
const NO_HITS: ReadonlySet<number> = new Set();
const NO_FINDINGS: ReadonlyMap<number, Finding> = new Map();

function contradictions(context: CheckContext, candidate: TermCandidate, resolution: Extract<Resolution, { kind: 'resolved' }>, previous: ContradictionMemo | undefined, memo: ContradictionMemo, isNew: boolean[], dropped: Set<Finding>): Finding[] {
  const out: Finding[] = [];
  // After an edit, an occurrence whose sentence lies in unchanged text contradicts the definition
  // exactly when it did before.
  const definition = resolution.sense.definition;
  const before = previous?.get(candidate.surface);
  const known = before !== undefined && before.definition === definition ? before.hits : undefined;
  const edit = context.scan.edit;
  // (Made when a sentence contradicts: most terms have none, and two new collections per term
  // per keystroke were a twentieth of what one allocated on a 1 MB spec.)
  let found: Set<number> | undefined;
  let made: Map<number, Finding> | undefined;
  // A finding of an unchanged occurrence (same range object) outside the edit's reach is the
  // previous one when it would say the same (same resolution, step criticality, confidence).
  const reusable = known !== undefined && before!.resolution === resolution && before!.critical === context.critical && before!.confidence === candidate.confidence ? before!.findings : undefined;
  // The definition's keywords are needed only for a sentence that redefines the term.
  let definitionKeywords: Set<string> | undefined;
  const wanted = () => (definitionKeywords ??= keywords(resolution.sense.definition));
  const { masked, text, lines } = context.scan;
  // The occurrences' offsets, without working out their ranges (only a contradiction needs one).
  const offsets = candidateOffsets(candidate);
  const count = offsets ? offsets.length >> 1 : candidate.occurrences.length;
  for (let k = 0; k < count; k++) {
    const start = offsets ? offsets[2 * k]! : lines.offsetAt(candidate.occurrences[k]!.start);
    const end = offsets ? offsets[2 * k + 1]! : lines.offsetAt(candidate.occurrences[k]!.end);
    let contradicts: boolean;
    if (known && edit && end + SENTENCE_REACH <= edit.restart) contradicts = known.has(start);
    else if (known && edit && start - SENTENCE_REACH >= edit.end) contradicts = known.has(start - edit.delta);
    else contradicts = contradictsDefinition(masked, text, start, end, wanted);
    if (!contradicts) continue;
    (found ??= new Set()).add(start);
    made ??= new Map();
    const range = candidate.occurrences[k]!;
    const outside = edit !== undefined && (end + SENTENCE_REACH <= edit.restart || start - SENTENCE_REACH >= edit.end);
    const was = reusable && outside ? reusable.get(end + SENTENCE_REACH <= edit!.restart ? start : start - edit!.delta) : undefined;
    if (was !== undefined && was.range === range) {
      made.set(start, was);
      out.push(was);
      isNew.push(false);
      continue;
    }
    const shape: Shape = {
      type: 'inconsistent',
      scope: resolution.scope,
      candidates: [resolution.sense],
      senseCount: resolution.senseCount,
      reason: 'contradiction',
      message: `Inconsistent term '${candidate.surface}': this sentence contradicts its ${resolution.pinned ? 'pinned ' : ''}definition in ${resolution.scope} (${plural(resolution.senseCount)}): "${resolution.sense.definition}".`,
    };
    const finding = makeFinding(candidate, shape, range, context.critical);
    made.set(start, finding);
    out.push(finding);
    isNew.push(true);
  }
  memo.set(candidate.surface, { definition, hits: found ?? NO_HITS, resolution, critical: context.critical, confidence: candidate.confidence, findings: made ?? NO_FINDINGS });
  // The previous findings of this term not reused now.
  if (before !== undefined) for (const finding of before.findings.values()) if (!isNew.length || !out.includes(finding)) dropped.add(finding);
  return out;
}
