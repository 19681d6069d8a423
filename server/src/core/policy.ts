/** Severity scoring, strictness precedence and the generation gate rule (SPEC §6). */

import { SEVERITY_RANK, type ConflictType, type RecommendedAction, type Severity, type Strictness } from './types';

const STRICTNESS_VALUES: readonly Strictness[] = ['off', 'medium', 'max'];

export function isStrictness(value: unknown): value is Strictness {
  return typeof value === 'string' && (STRICTNESS_VALUES as readonly string[]).includes(value);
}

/** Conflict type for an unknown term: a low-confidence unknown on a critical step is critical. */
export function unknownConflictType(confidence: number, critical: boolean): ConflictType {
  return critical && confidence < 0.5 ? 'unresolved_critical' : 'unknown';
}

/** The confidence of a term found only because it repeats (SPEC §5 `repeated_noun`). */
const REPETITION_CONFIDENCE = 0.5;

export function scoreSeverity(type: ConflictType, confidence: number, critical: boolean): Severity {
  switch (type) {
    case 'ambiguous':
      return critical ? 'high' : 'medium';
    case 'unknown':
      // SPEC §6's table puts 0.5 ≤ confidence < 0.8 (a word found only because it repeats) at
      // medium. Deviation, measured on the calibration corpora (docs/configuration.md, "Severity"):
      // after the word lists and rules of extraction, fewer than half of those words are ones a
      // writer acts on, so repetition alone is reported as low; the workspace view
      // (`spec-glossary candidates`) ranks them by how many specs use them instead.
      if (confidence >= REPETITION_CONFIDENCE) return 'low';
      return critical ? 'high' : 'medium';
    case 'inconsistent':
      return 'low';
    case 'unresolved_critical':
      return 'high';
  }
}

export interface StrictnessSources {
  runtime?: unknown;
  step?: unknown;
  mission?: unknown;
  workspace?: unknown;
}

/**
 * Runtime > step front matter > mission meta.json > .kittify/config.yaml > medium. The first
 * level that is set decides; an invalid value there falls back to medium (SPEC §6).
 */
export function resolveStrictness(sources: StrictnessSources): { strictness: Strictness; source: keyof StrictnessSources | 'default'; invalid?: string } {
  for (const source of ['runtime', 'step', 'mission', 'workspace'] as const) {
    const value = sources[source];
    if (value === undefined || value === null || value === '') continue;
    if (isStrictness(value)) return { strictness: value, source };
    return { strictness: 'medium', source, invalid: describeValue(value) };
  }
  return { strictness: 'medium', source: 'default' };
}

/** A value as a writer would recognise it in a message: strings as they are, the rest as JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function maxSeverity(severities: Iterable<Severity>): Severity | undefined {
  let best: Severity | undefined;
  for (const s of severities) {
    if (s === 'high') return s; // (the highest: nothing after it can change the answer)
    if (!best || SEVERITY_RANK[s] > SEVERITY_RANK[best]) best = s;
  }
  return best;
}

export function recommendedAction(overall: Severity | undefined): RecommendedAction {
  if (overall === undefined) return 'proceed';
  return overall === 'high' ? 'block' : 'warn';
}

/** off never blocks, medium blocks on any high, max blocks on any conflict. */
export function gateBlocks(strictness: Strictness, severities: readonly Severity[]): boolean {
  return gateBlocksOn(strictness, severities.length, severities.includes('high'));
}

/** `gateBlocks` from the number of conflicts and whether one of them is high. */
export function gateBlocksOn(strictness: Strictness, conflicts: number, anyHigh: boolean): boolean {
  if (strictness === 'off') return false;
  if (strictness === 'max') return conflicts > 0;
  return anyHigh;
}
