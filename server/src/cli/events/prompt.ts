/**
 * The clarification prompt of `check --interactive` (seed 001, ClarificationMiddleware): for one
 * conflict it shows the term, where it is used, the deciding scope and the candidate senses
 * numbered `1..N` (confidence descending, then file order), then reads `1..N`, `c` (custom
 * definition, asked next) or `d` (defer). Terms, definitions and the quoted line come from files:
 * they are shown through `shown` (output/terminal.ts), never raw.
 */

import { isPlaceholderDefinition } from '../../core/placeholder';
import type { ScopeId, SenseRef, Severity } from '../../core/types';
import { shown } from '../output/terminal';
import type { Terminal } from './terminal';

export interface PromptConflict {
  term: string;
  conflictType: string;
  severity: Severity;
  /** `path:line:col` of the first occurrence, as the user's shell sees the path. */
  where: string;
  /** The text of that line. */
  line: string;
  scope: ScopeId | null;
  senseCount: number;
  candidates: readonly SenseRef[];
  /** Scope a custom definition goes to. */
  customScope: ScopeId;
}

export type Answer =
  | { kind: 'pick'; sense: SenseRef; index: number }
  | { kind: 'custom'; definition: string }
  | { kind: 'defer' }
  /** End of input before an answer. */
  | { kind: 'eof' };

const SEVERITY_LABEL: Record<Severity, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export function renderConflict(c: PromptConflict, position: number, total: number): string {
  const lines = [
    '',
    shown`[${position}/${total}] ${SEVERITY_LABEL[c.severity]}-severity conflict: "${c.term}" (${c.conflictType.replace('_', ' ')})`,
    '',
    shown`Term: ${c.term}`,
    shown`Context: ${c.where}` + (c.line ? shown`  "${c.line}"` : ''),
    `Scope: ${c.scope ? shown`${c.scope} (${c.senseCount} sense${c.senseCount === 1 ? '' : 's'})` : 'none (not defined in any glossary scope)'}`,
    '',
  ];
  if (c.candidates.length > 0) {
    lines.push('Candidate senses:');
    c.candidates.forEach((s, i) => lines.push(shown`  ${i + 1}. [${s.scope}] ${s.definition} (confidence: ${s.confidence})`));
    lines.push('');
  }
  return lines.join('\n') + '\n';
}

export function choiceLine(c: PromptConflict): string {
  const n = c.candidates.length;
  const pick = n === 0 ? '' : n === 1 ? '1 (candidate), ' : `1-${n} (candidate), `;
  return `Select: ${pick}c (custom sense), d (defer to async)\n> `;
}

export async function askConflict(terminal: Terminal, c: PromptConflict, position: number, total: number): Promise<Answer> {
  terminal.write(renderConflict(c, position, total));
  for (;;) {
    const raw = await terminal.ask(choiceLine(c));
    if (raw === undefined) return { kind: 'eof' };
    const answer = raw.trim().toLowerCase();
    if (/^\d+$/.test(answer)) {
      const index = Number(answer);
      if (index >= 1 && index <= c.candidates.length) {
        const sense = c.candidates[index - 1]!;
        terminal.write(shown`Resolved: ${c.term} = ${sense.definition} (${sense.scope})\n`);
        return { kind: 'pick', sense, index };
      }
    } else if (answer === 'c' || answer === 'custom') {
      for (;;) {
        const definition = await terminal.ask(shown`Definition of '${c.term}' (added to ${c.customScope}): `);
        if (definition === undefined) return { kind: 'eof' };
        if (definition.trim() !== '' && !isPlaceholderDefinition(definition, c.term)) {
          terminal.write(shown`Resolved: ${c.term} = ${definition.trim()} (new sense in ${c.customScope})\n`);
          return { kind: 'custom', definition: definition.trim() };
        }
        terminal.write(definition.trim() === '' ? 'The definition must not be blank.\n' : shown`"${definition.trim()}" is a placeholder, not a definition: write what the term means.\n`);
      }
    } else if (answer === 'd' || answer === 'defer') {
      terminal.write(shown`Deferred: '${c.term}' awaits clarification.\n`);
      return { kind: 'defer' };
    }
    const n = c.candidates.length;
    terminal.write(`Please answer ${n === 0 ? '' : n === 1 ? '1, ' : `a number from 1 to ${n}, `}c or d.\n`);
  }
}
