/**
 * The user's words in what we show: a term as it is written in the document (PCI, not the
 * normalized pci) and a mission by its folder name under `kitty-specs/` (001-checkout-flow, not
 * its ULID). Shared by the CLI's text output and the language server's messages and titles.
 */

import type { DocumentReport } from './check';
import type { Finding, TermCandidate } from '../types';

/**
 * What separates two words of a use written across a line break: spaces, a hard break's `\`, the
 * break, and the next line's indent or `>` markers (extract/tokens.ts `isWhitespaceGap`).
 */
export const LINE_BREAK_GAP = /[ \t]*\\?(?:\r\n|\r|\n)[ \t>]*/;
const LINE_BREAK_GAPS = new RegExp(LINE_BREAK_GAP.source, 'g');

/** An occurrence's text as shown: inner whitespace (a term wrapped over two lines) collapsed. */
export function writtenForm(text: string): string {
  // (A use across a line break in a block quote holds the next line's `>` markers, and one across
  // a hard break its backslash: neither is part of the term as written.)
  return text.replace(LINE_BREAK_GAPS, ' ').replace(/\s+/g, ' ').trim();
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
  // Only the occurrences written otherwise than the term are kept (most are written as it is).
  const byTerm = new Map<string, Map<number, string> | null>();
  // The candidates by surface, once a finding asks (a search of the candidates per term was a
  // tenth of a keystroke on a 1 MB spec: thousands of candidates, a hundred terms with findings).
  let bySurface: Map<string, TermCandidate> | undefined;
  return (finding) => {
    let at = byTerm.get(finding.term);
    if (at === undefined) {
      if (bySurface === undefined) {
        bySurface = new Map();
        // (The first candidate of a surface, as a search from the start finds.)
        for (const c of report.candidates) if (!bySurface.has(c.surface)) bySurface.set(c.surface, c);
      }
      const candidate = bySurface.get(finding.term);
      at = null;
      if (candidate) {
        const { occurrences, texts } = candidate;
        for (let k = 0; k < texts.length; k++) {
          const text = texts[k]!;
          if (text === finding.term) continue;
          const written = writtenForm(text);
          if (written !== finding.term && written !== '') (at ??= new Map()).set(positionKey(occurrences[k]!.start), written);
        }
      }
      byTerm.set(finding.term, at);
    }
    return at === null ? undefined : at.get(positionKey(finding.range.start));
  };
}

/** A position as one number (documents have far fewer than 2^21 lines). */
function positionKey(position: { line: number; character: number }): number {
  return position.line * 0x100000000 + position.character;
}
