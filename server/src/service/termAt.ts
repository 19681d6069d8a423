/** The extracted term under a position, from the document's last check. */

import { writtenForm } from '../core/check/wording';
import { comparePositions } from '../core/text';
import type { Finding, Position, Range, TermCandidate } from '../core/types';
import type { CheckedDocument } from './types';

export interface TermHit {
  candidate: TermCandidate;
  range: Range;
  /** The term as written at this occurrence (inner whitespace collapsed). */
  written: string;
  /** Finding on that occurrence, if the term conflicts there. */
  finding?: Finding;
}

/** True when `position` is in `range`, both ends included (a cursor just after a word is on it). */
export function contains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

export function termAt(doc: CheckedDocument, position: Position): TermHit | undefined {
  for (const candidate of doc.report.candidates) {
    const index = candidate.occurrences.findIndex((r) => contains(r, position));
    if (index === -1) continue;
    const range = candidate.occurrences[index]!;
    const finding = doc.report.findings.find((f) => f.term === candidate.surface && f.range.start.line === range.start.line && f.range.start.character === range.start.character);
    const written = writtenForm(candidate.texts[index] ?? '') || candidate.surface;
    return { candidate, range, written, ...(finding ? { finding } : {}) };
  }
  return undefined;
}
