/**
 * Hover on a term: every sense of it in every scope (deprecated and draft ones too) with status,
 * confidence and provenance, and which one applies for the document's mission and why — pinned
 * by a clarification, resolved by scope precedence, or ambiguous.
 */

import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import { resolveTerm, type Resolution } from '../core/check/resolve';
import type { Sense, SenseRef } from '../core/types';
import { deferredLine, pinnedRecord, pinnedSummary } from './decisionText';
import { provenanceOf } from './provenance';
import { termAt } from './termAt';
import type { CheckedDocument } from './types';
import { missionWithId } from './wording';

export function hoverAt(doc: CheckedDocument, position: Position, markdown = true): Hover | null {
  const hit = termAt(doc, position);
  if (!hit) return null;
  const term = hit.candidate.surface;
  const resolution = resolveTerm(term, doc.glossary, doc.pins);
  const esc = markdown ? escapeMarkdown : (text: string) => text;
  const strong = (text: string) => (markdown ? `**${text}**` : text);
  // The heading is the term as written here (PCI); the rest names glossary surfaces.
  const lines: string[] = [markdown ? `### ${esc(hit.written)}` : hit.written, '', summary(doc, term, resolution, strong, esc)];

  const pin = resolution.kind === 'resolved' && resolution.pinned ? doc.pins.get(term) : undefined;
  if (pin) lines.push('', pinnedRecord(pin, esc));
  if (hit.finding?.reason === 'contradiction') lines.push('', `This sentence contradicts the definition in use.`);
  const open = doc.openClarifications.find((c) => c.term === term);
  if (open) lines.push('', deferredLine(doc, open, strong, esc));

  const listed = resolution.kind === 'synonym_to_avoid' ? resolution.replacement : term;
  const senses = doc.glossary.sensesOf(listed);
  if (senses.length > 0) {
    lines.push('', listed === term ? `Senses of '${esc(term)}':` : `Senses of '${esc(listed)}':`, '');
    for (const sense of senses) lines.push(...senseLines(doc, sense, resolution, strong, esc, markdown));
  }
  if (resolution.kind === 'resolved' && resolution.pinned && !senses.some((s) => sameSense(s, resolution.sense))) {
    const s = resolution.sense;
    lines.push('', `Pinned sense (from the event log): ${strong(s.scope)} · confidence ${s.confidence} — ${esc(s.definition)}`);
  }
  lines.push('', `Extracted by ${hit.candidate.method} (confidence ${hit.candidate.confidence}); mission ${esc(missionWithId(doc))}, step ${esc(doc.stepId)}.`);
  return { contents: { kind: markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value: lines.join('\n') }, range: hit.range };
}

function summary(doc: CheckedDocument, term: string, resolution: Resolution, strong: (t: string) => string, esc: (t: string) => string): string {
  switch (resolution.kind) {
    case 'resolved': {
      if (resolution.pinned) {
        const pin = doc.pins.get(term);
        if (pin) return pinnedSummary(doc, pin, strong, esc);
        return `${strong('Pinned')} for mission ${esc(missionWithId(doc))}: the ${resolution.sense.scope} sense.`;
      }
      const own = ownVocabularySense(doc, term);
      if (own) return `${strong('Active')}: defined in mission ${esc(own.origin.missionSlug)}'s own vocabulary (${esc(provenanceOf(own, doc.root, false, doc.locateEntry?.(own)?.range))}), ahead of the mission_local seed file and every other scope.`;
      return `${strong('Active')}: the ${resolution.scope} sense, resolved by scope precedence (${resolution.scope} is the first scope with a non-deprecated sense).`;
    }
    case 'ambiguous':
      return `${strong('Ambiguous')}: ${resolution.candidates.length} active senses in ${resolution.scope} and no pin for mission ${esc(missionWithId(doc))}; pick one with a quick fix.`;
    case 'synonym_to_avoid':
      return `${strong('Synonym to avoid')}: write '${esc(resolution.replacement)}' instead (${resolution.scope}).`;
    case 'deprecated_only':
      return `${strong('Deprecated')}: every sense of '${esc(term)}' is deprecated, so none resolves.`;
    case 'known':
      return `${strong('Well-known term')}: it needs no glossary entry.`;
    case 'unknown':
      return `${strong('Unknown')}: no glossary scope defines '${esc(term)}'.`;
  }
}

function senseLines(doc: CheckedDocument, sense: Sense, resolution: Resolution, strong: (t: string) => string, esc: (t: string) => string, markdown: boolean): string[] {
  const marks: string[] = [];
  if (resolution.kind === 'resolved' && sameSense(sense, resolution.sense)) marks.push(resolution.pinned ? 'pinned' : 'active');
  else if (resolution.kind === 'resolved' && resolution.pinned && sense.status !== 'deprecated') marks.push('not chosen');
  else if (resolution.kind === 'ambiguous' || resolution.kind === 'synonym_to_avoid' || resolution.kind === 'deprecated_only') {
    const index = resolution.candidates.findIndex((c) => sameSense(sense, c));
    if (index >= 0 && resolution.kind === 'ambiguous') marks.push(`candidate ${index + 1}`);
    else if (index >= 0 && resolution.kind === 'synonym_to_avoid') marks.push('use this term instead');
  }
  if (marks.length === 0 && 'scope' in resolution && sense.scope !== resolution.scope && sense.status !== 'deprecated') marks.push(`shadowed by ${resolution.scope}`);
  else if (marks.length === 0 && resolution.kind === 'resolved' && !resolution.pinned && sense.origin.kind !== 'spec' && sense.status !== 'deprecated' && ownVocabularySense(doc, sense.surface)) marks.push("shadowed by the mission's own vocabulary");
  const head = `${strong(sense.scope)} · ${sense.status} · confidence ${sense.confidence}${marks.length ? ` — ${strong(marks.join(', '))}` : ''}`;
  const br = markdown ? '  ' : '';
  return [`- ${head}${br}`, `  ${esc(sense.definition)}${br}`, `  ${markdown ? '_' : ''}${provenanceOf(sense, doc.root, markdown, doc.locateEntry?.(sense)?.range)}${markdown ? '_' : ''}`];
}

/** The sense a mission's own vocabulary (SPEC §3) gives `surface`, when it decides. */
function ownVocabularySense(doc: CheckedDocument, surface: string): (Sense & { origin: Extract<Sense['origin'], { kind: 'spec' }> }) | undefined {
  const first = doc.glossary.sensesOf(surface).find((s) => s.status !== 'deprecated');
  return first?.origin.kind === 'spec' ? (first as Sense & { origin: Extract<Sense['origin'], { kind: 'spec' }> }) : undefined;
}

function sameSense(a: SenseRef, b: SenseRef): boolean {
  return a.scope === b.scope && a.definition === b.definition && a.surface === b.surface;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]<>#|])/g, '\\$1');
}
