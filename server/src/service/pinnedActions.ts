/**
 * Changing one's mind about a decision: on a pinned term (no diagnostic there, so these come from
 * the position the client asks about), "Use '<term>' = <definition> (<scope>) instead" for every
 * other sense of the term that is not deprecated, in resolution order, and "Reopen '<term>' for
 * clarification". Both are server commands that append events: a new GlossaryClarificationResolved,
 * or a GlossaryClarificationRequested that unpins the term until it is answered (docs/events.md).
 */

import { CodeActionKind, type CodeAction, type Position } from 'vscode-languageserver-types';
import { Commands, type ReopenTermArgs, type SelectSenseArgs } from '../shared/protocol';
import { actionTitles, wantsQuickFixes } from './codeActions';
import { termAt } from './termAt';
import type { CheckedDocument } from './types';

export function pinnedActions(doc: CheckedDocument, position: Position, only?: readonly string[]): CodeAction[] {
  if (!wantsQuickFixes(only)) return [];
  const hit = termAt(doc, position);
  if (!hit) return [];
  const term = hit.candidate.surface;
  const pin = doc.pins.get(term);
  if (!pin) return [];
  const written = hit.written;
  const base = { uri: doc.uri, missionId: doc.missionId, stepId: doc.stepId, term, ...(written !== term ? { written } : {}) };
  const out: CodeAction[] = [];
  for (const sense of doc.glossary.sensesOf(term)) {
    if (sense.status === 'deprecated' || (sense.scope === pin.sense.scope && sense.definition === pin.sense.definition)) continue;
    const args: SelectSenseArgs = { ...base, sense: { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence } };
    const title = actionTitles.useSenseInstead(written, sense.definition, sense.scope);
    if (out.some((a) => a.title === title)) continue; // the same text in one scope twice
    out.push({ title, kind: CodeActionKind.QuickFix, command: { title, command: Commands.selectSense, arguments: [args] } });
  }
  const reopen: ReopenTermArgs = base;
  const title = actionTitles.reopen(written);
  out.push({ title, kind: CodeActionKind.QuickFix, command: { title, command: Commands.reopenTerm, arguments: [reopen] } });
  return out;
}
