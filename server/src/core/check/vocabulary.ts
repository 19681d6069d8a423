/**
 * A mission's own vocabulary in the check (SPEC §3): the first unit of the extraction phase reads
 * the document's vocabulary sections (again only when an edit may have changed them) and makes
 * the check's glossary the given one plus the senses of the document's own entries and of its
 * mission's spec; a unit after the semantic check drops what it found inside those sections (a
 * definition is not a use of its words, and its "Avoid" column names the words it bans).
 */

import { readVocabulary } from '../missionVocabulary/read';
import { shiftedVocabulary } from '../missionVocabulary/shift';
import type { DocumentVocabulary, VocabularySource } from '../missionVocabulary/types';
import type { Unit } from '../pipeline';
import type { Finding, SourceProblem } from '../types';
import { followsPrevious, type CheckContext } from './context';

const READ_ID = 'extraction.vocabulary';

export const readDocumentVocabulary: Unit<CheckContext> = {
  id: READ_ID,
  phase: 'extraction',
  // Before every extractor: the glossary walk needs the glossary with these senses.
  priority: -1000,
  required: true,
  run(context) {
    const vocabulary = documentVocabulary(context);
    context.vocabulary = vocabulary;
    context.memo.set(READ_ID, vocabulary);
    const sources: VocabularySource[] = [];
    if (vocabulary.entries.length > 0 && context.documentOrigin) sources.push({ ...context.documentOrigin, vocabulary });
    for (const source of context.missionVocabulary) if (source.vocabulary.entries.length > 0) sources.push(source);
    if (sources.length > 0) context.glossary = context.engine.glossaryWithVocabulary(context.glossary, sources);
  },
};

function documentVocabulary(context: CheckContext): DocumentVocabulary {
  const { scan } = context;
  const previous = followsPrevious(context) ? (context.previous.memo.get(READ_ID) as DocumentVocabulary | undefined) : undefined;
  const shifted = previous && scan.edit ? shiftedVocabulary(previous, context.previous!.scan.text, scan.text, scan.lines, scan.edit) : undefined;
  return shifted ?? readVocabulary(scan.text, scan.lines, scan.blocks);
}

export const dropFindingsInSections: Unit<CheckContext> = {
  id: 'semantic_check.vocabulary_sections',
  phase: 'semantic_check',
  after: ['semantic_check.resolve'],
  required: true,
  run(context) {
    const sections = context.vocabulary?.sections;
    if (!sections || sections.length === 0 || context.findings.length === 0) return;
    const lines = context.scan.lines;
    const kept: Finding[] = [];
    // Findings are in document order, sections too: one sweep.
    let s = 0;
    for (const finding of context.findings) {
      const at = lines.offsetOf(finding.range.start);
      while (s < sections.length && sections[s]!.end <= at) s++;
      if (s < sections.length && sections[s]!.start <= at) continue;
      kept.push(finding);
    }
    if (kept.length !== context.findings.length) context.findings = kept;
  },
};

/** The document's vocabulary problems (placeholder entries) as problems of its check. */
export function vocabularyProblems(vocabulary: DocumentVocabulary | undefined): SourceProblem[] {
  if (!vocabulary) return [];
  return vocabulary.problems.map((p) => ({ code: p.code, message: p.message, severity: 'warning' as const, range: vocabulary.lines.rangeOf(p.start, p.end) }));
}
