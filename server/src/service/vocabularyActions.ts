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
import { writtenAt } from './codeActions';
import { fileUri } from './paths';
import { contains, termAt } from './termAt';
import type { CheckedDocument } from './types';
import { missionOf } from './wording';

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

/**
 * "Define 'Term' in this spec's Domain Language" for the unknown terms among `diagnostics`: the
 * term as written at the diagnostic, the normalized term and the mission as the other quick fixes
 * pass them (the server checks them again when the command runs, lsp/commandTarget.ts).
 */
export function defineInSpecActions(doc: CheckedDocument, diagnostics: readonly Diagnostic[], textAt?: (range: Range) => string | undefined): CodeAction[] {
  const spec = vocabularyTarget(doc);
  if (spec === undefined) return [];
  const out: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = diagnostic.data;
    if (!isFindingData(data) || (data.conflictType !== 'unknown' && data.conflictType !== 'unresolved_critical')) continue;
    const existing = out.find((a) => (a.command?.arguments?.[0] as DefineInSpecArgs | undefined)?.term === data.term);
    if (existing) {
      existing.diagnostics = [...(existing.diagnostics ?? []), diagnostic];
      continue;
    }
    const written = writtenAt(data.term, diagnostic.range, textAt);
    const args: DefineInSpecArgs = {
      uri: doc.uri,
      missionId: doc.missionId,
      stepId: doc.stepId,
      term: data.term,
      ...(written !== data.term ? { written } : {}),
      specUri: fileUri(spec),
      missionSlug: missionOf(doc),
    };
    const title = vocabularyActionTitles.defineInSpec(written);
    out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title, command: Commands.defineInSpec, arguments: [args] } });
  }
  return out;
}

/** "Promote 'Term' to the team glossary" for the vocabulary entry or the term at `range`. */
export function promoteActions(doc: CheckedDocument, range: Range): CodeAction[] {
  const sense = entryAt(doc, range) ?? senseAt(doc, range);
  if (!sense || definedBeyondMissions(doc.glossary, sense.surface)) return [];
  const written = sense.written;
  // (The definition travels for clients that show arguments; the server takes it from the vocabulary again.)
  const args: PromoteTermArgs = { uri: doc.uri, term: sense.surface, ...(written !== sense.surface ? { written } : {}), definition: sense.definition, ...(sense.synonymsToAvoid.length > 0 ? { synonymsToAvoid: sense.synonymsToAvoid } : {}) };
  const title = vocabularyActionTitles.promote(written);
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
  return { surface: first.surface, written: hit.written, definition: first.definition, synonymsToAvoid: first.synonymsToAvoid };
}
