/**
 * Go to definition on a term → its entries: in a mission document's vocabulary section (where
 * the entry is now) or in the seed YAML; for a synonym to avoid, the preferred term's.
 */

import type { Location, Position } from 'vscode-languageserver-types';
import { senseLocation } from './diagnostics';
import { termAt } from './termAt';
import type { CheckedDocument } from './types';

export function definitionAt(doc: CheckedDocument, position: Position): Location[] {
  const hit = termAt(doc, position);
  if (!hit) return [];
  const term = hit.candidate.surface;
  let senses = doc.glossary.sensesOf(term);
  if (senses.length === 0) senses = doc.glossary.preferredFor(term);
  const out: Location[] = [];
  for (const sense of senses) {
    const location = doc.locateEntry?.(sense) ?? senseLocation(sense);
    if (location) out.push(location);
  }
  return out;
}
