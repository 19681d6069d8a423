/** The extracted term under a position, from the document's last check. */

import { comparePositions } from '../core/text';
import type { Finding, Position, Range, TermCandidate } from '../core/types';
import type { CheckedDocument } from './types';

export interface TermHit {
  candidate: TermCandidate;
  range: Range;
  /** Finding on that occurrence, if the term conflicts there. */
  finding?: Finding;
}

/** True when `position` is in `range`, both ends included (a cursor just after a word is on it). */
export function contains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

export function termAt(doc: CheckedDocument, position: Position): TermHit | undefined {
  for (const candidate of doc.report.candidates) {
    const range = candidate.occurrences.find((r) => contains(r, position));
    if (!range) continue;
    const finding = doc.report.findings.find((f) => f.term === candidate.surface && f.range.start.line === range.start.line && f.range.start.character === range.start.character);
    return { candidate, range, ...(finding ? { finding } : {}) };
  }
  return undefined;
}
