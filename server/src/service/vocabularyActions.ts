/**
 * Quick fixes of a mission's own vocabulary (SPEC §3, §9), made from the document's analysis:
 * - on an unknown term, in a mission whose spec has a vocabulary section: "Define 'Term' in this
 *   spec's Domain Language" (server command `defineInSpec`: an entry in the section's own form);
 * - on an entry of a vocabulary section, or an occurrence of a term a mission's own vocabulary
 *   defines, when neither the team nor the core glossary does: "Promote 'Term' to the team
 *   glossary" (server command `promoteTerm`: an entry in team_domain.yaml).
 * Plain commands with plain arguments: they work in any LSP client.
 */

import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver-types';
import { definedBeyondMissions } from '../core/missionVocabulary/candidates';
import { targetSection } from '../core/missionVocabulary/insertEntry';
import type { VocabularyEntry } from '../core/missionVocabulary/types';
import type { Sense } from '../core/types';
import { Commands, isFindingData, type DefineInSpecArgs, type PromoteTermArgs } from '../shared/protocol';
import { fileUri } from './paths';
import { contains, termAt } from './termAt';
import type { CheckedDocument } from './types';

export const vocabularyActionTitles = {
  defineInSpec: (term: string) => `Define '${term}' in this spec's Domain Language`,
  promote: (term: string) => `Promote '${term}' to the team glossary`,
};

/** The spec whose vocabulary section takes new entries for this document's mission: the document itself, or its mission's spec. */
export function vocabularyTarget(doc: CheckedDocument): string | undefined {
  const own = doc.report.vocabulary;
  if (own && targetSection(own)) return doc.path;
  return doc.report.missionVocabulary.find((s) => targetSection(s.vocabulary))?.file;
}

/** "Define 'Term' in this spec's Domain Language" for the unknown terms among `diagnostics`. */
export function defineInSpecActions(doc: CheckedDocument, diagnostics: readonly Diagnostic[], textAt: (range: Range) => string | undefined): CodeAction[] {
  const spec = vocabularyTarget(doc);
  if (spec === undefined) return [];
  const out: CodeAction[] = [];
  const seen = new Set<string>();
  for (const diagnostic of diagnostics) {
    const data = diagnostic.data;
    if (!isFindingData(data) || (data.conflictType !== 'unknown' && data.conflictType !== 'unresolved_critical') || seen.has(data.term)) continue;
    seen.add(data.term);
    const written = (textAt(diagnostic.range) ?? data.term).replace(/\s+/g, ' ').trim() || data.term;
    const args: DefineInSpecArgs = { uri: doc.uri, specUri: fileUri(spec), missionId: doc.missionId, missionSlug: doc.missionSlug, term: written };
    const title = vocabularyActionTitles.defineInSpec(written);
    out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title, command: Commands.defineInSpec, arguments: [args] } });
  }
  return out;
}

/** "Promote 'Term' to the team glossary" for the vocabulary entry or the term at `range`. */
export function promoteActions(doc: CheckedDocument, range: Range): CodeAction[] {
  const sense = entryAt(doc, range) ?? senseAt(doc, range);
  if (!sense || definedBeyondMissions(doc.glossary, sense.surface)) return [];
  const term = sense.written;
  const args: PromoteTermArgs = { uri: doc.uri, term: sense.surface, definition: sense.definition, ...(sense.synonymsToAvoid.length > 0 ? { synonymsToAvoid: sense.synonymsToAvoid } : {}) };
  const title = vocabularyActionTitles.promote(term);
  return [{ title, kind: CodeActionKind.QuickFix, command: { title, command: Commands.promoteTerm, arguments: [args] } }];
}

interface Promotable {
  surface: string;
  /** As the document writes it. */
  written: string;
  definition: string;
  synonymsToAvoid: string[];
}

/** The document's own vocabulary entry whose term is at `range`. */
function entryAt(doc: CheckedDocument, range: Range): Promotable | undefined {
  const vocabulary = doc.report.vocabulary;
  if (!vocabulary) return undefined;
  const entry = vocabulary.entries.find((e: VocabularyEntry) => contains(vocabulary.lines.rangeOf(e.start, e.end), range.start));
  if (!entry) return undefined;
  // Its sense says what the section says in all (Domain Language first, the words to avoid kept).
  const sense = doc.glossary.sensesOf(entry.surface).find((s) => s.origin.kind === 'spec');
  return { surface: entry.surface, written: entry.term, definition: sense?.definition ?? entry.definition, synonymsToAvoid: sense?.synonymsToAvoid ?? [] };
}

/** The term at `range` when a mission's own vocabulary is what defines it. */
function senseAt(doc: CheckedDocument, range: Range): Promotable | undefined {
  const hit = termAt(doc, range.start);
  if (!hit) return undefined;
  const first: Sense | undefined = doc.glossary.sensesOf(hit.candidate.surface).find((s) => s.status !== 'deprecated');
  if (first?.origin.kind !== 'spec') return undefined;
  const index = hit.candidate.occurrences.indexOf(hit.range);
  const written = (index >= 0 ? hit.candidate.texts[index] : undefined) ?? first.surface;
  return { surface: first.surface, written, definition: first.definition, synonymsToAvoid: first.synonymsToAvoid };
}
