/**
 * The user's words in what we show: a term as it is written in the document (PCI, not the
 * normalized pci) and a mission by its folder name under `kitty-specs/` (001-checkout-flow, not
 * its ULID). Shared by the CLI's text output and the language server's messages and titles.
 */

import type { DocumentReport } from './check';
import type { Finding } from '../types';

/** An occurrence's text as shown: inner whitespace (a term wrapped over two lines) collapsed. */
export function writtenForm(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A finding's message naming the term as written. The core's messages name the normalized term
 * once, quoted, before anything else (`Ambiguous term 'pci': …`); that mention is the one replaced.
 */
export function messageAsWritten(message: string, term: string, written: string | undefined): string {
  if (written === undefined || written === term || written === '') return message;
  const quoted = `'${term}'`;
  const at = message.indexOf(quoted);
  return at === -1 ? message : `${message.slice(0, at)}'${written}'${message.slice(at + quoted.length)}`;
}

/** The mission as people name it: its folder under `kitty-specs/` when known, else its id. */
export function missionName(missionId: string, slug: string | undefined): string {
  return slug ?? missionId;
}

/**
 * How each finding's term is written at its occurrence, looked up from the report's candidates
 * (built on first use; a report with many findings pays one pass over its flagged terms).
 */
export function writtenTerms(report: Pick<DocumentReport, 'candidates'>): (finding: Finding) => string | undefined {
  const byTerm = new Map<string, Map<string, string> | null>();
  return (finding) => {
    let at = byTerm.get(finding.term);
    if (at === undefined) {
      const candidate = report.candidates.find((c) => c.surface === finding.term);
      if (candidate) {
        at = new Map();
        const { occurrences, texts } = candidate;
        for (let k = 0; k < occurrences.length; k++) at.set(positionKey(occurrences[k]!.start), writtenForm(texts[k] ?? ''));
      } else at = null;
      byTerm.set(finding.term, at);
    }
    return at?.get(positionKey(finding.range.start)) || undefined;
  };
}

function positionKey(position: { line: number; character: number }): string {
  return `${position.line}:${position.character}`;
}
