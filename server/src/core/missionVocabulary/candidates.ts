/**
 * What missions' own vocabularies add to the glossary candidates (SPEC §6, §8): the terms a
 * mission defines for itself that neither the team nor the core glossary (nor the audience's)
 * defines, with the mission's definition, and every use of them — also where they resolve, in
 * the defining mission's documents — so they rank by the specs that use them.
 */

import type { CheckOptions, DocumentReport } from '../check/check';
import type { CandidateDefinition, VocabularyUse } from '../candidates';
import { missionName } from '../check/wording';
import { EXTRACTOR_IDS } from '../extract/extractors';
import { GlossaryIndex } from '../glossary';
import type { Sense } from '../types';
import { vocabularySenses } from './senses';

/** Whether a scope other than mission_local defines `surface` (then there is nothing to promote). */
export function definedBeyondMissions(glossary: GlossaryIndex, surface: string): boolean {
  return glossary.sensesOf(surface).some((s) => s.scope !== 'mission_local' && s.status !== 'deprecated');
}

/**
 * The uses in a checked document of terms that missions' own vocabularies define (outside the
 * sections themselves), and the definitions its own sections give. `path` and `line`s as the
 * candidates list shows them (line 1-based).
 */
export function vocabularyCandidates(report: DocumentReport, where: { path: string; file: string; missionId: string; missionSlug?: string | undefined }): { uses: VocabularyUse[]; definitions: CandidateDefinition[] } {
  const uses: VocabularyUse[] = [];
  const sections = report.vocabulary?.sections ?? [];
  const lines = report.vocabulary?.lines;
  const inSection = (offset: number) => sections.some((s) => s.start <= offset && offset < s.end);
  for (const candidate of report.candidates) {
    const sense = report.glossary.sensesOf(candidate.surface).find((s) => s.status !== 'deprecated');
    if (sense?.origin.kind !== 'spec') continue;
    // An alias counts for its term.
    const term = sense.seeAlso[0] ?? sense.surface;
    if (definedBeyondMissions(report.glossary, term)) continue;
    let count = 0;
    let line = -1;
    for (const range of candidate.occurrences) {
      if (lines && inSection(lines.offsetAt(range.start))) continue;
      count++;
      if (line < 0 || range.start.line < line) line = range.start.line;
    }
    if (count > 0) uses.push({ term, count, line: line + 1 });
  }
  const definitions: CandidateDefinition[] = [];
  const own = report.vocabulary;
  if (own && own.entries.length > 0) {
    const mission = missionName(where.missionId, where.missionSlug);
    for (const sense of vocabularySenses([{ file: where.file, missionId: where.missionId, missionSlug: mission, vocabulary: own }]).senses) {
      if (sense.origin.kind !== 'spec' || sense.seeAlso.length > 0 || definedBeyondMissions(report.glossary, sense.surface)) continue;
      definitions.push({ term: sense.surface, mission, path: where.path, line: sense.origin.range.start.line + 1, definition: sense.definition });
    }
  }
  return { uses, definitions };
}

/**
 * How to count every use of the terms missions define, in any document (also of missions that do
 * not define them, where nothing else extracts "coordination branch"): a check against a
 * glossary of those terms alone, with the glossary walk as its only extractor. The uses are then
 * `vocabularyCandidates(report, …).uses`. (Used by the candidates lists, never by `check`.)
 */
export function definedTermsCheck(definitions: readonly CandidateDefinition[]): Pick<CheckOptions, 'glossary' | 'disabledExtractors'> {
  const senses: Sense[] = [];
  const seen = new Set<string>();
  const nowhere = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  for (const d of definitions) {
    if (seen.has(d.term)) continue;
    seen.add(d.term);
    senses.push({ surface: d.term, scope: 'mission_local', definition: d.definition, confidence: 1, status: 'active', synonymsToAvoid: [], seeAlso: [], origin: { kind: 'spec', file: d.path, range: nowhere, missionId: d.mission, missionSlug: d.mission } });
  }
  return { glossary: new GlossaryIndex(senses), disabledExtractors: EXTRACTOR_IDS.filter((id) => id !== 'glossary_match') };
}
