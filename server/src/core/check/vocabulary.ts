/**
 * A mission's own vocabulary in the check (SPEC §3): the first unit of the extraction phase reads
 * the document's vocabulary sections (again only when an edit may have changed them) and makes
 * the check's glossary the given one plus the senses of the document's own entries and of its
 * mission's spec; a unit after the semantic check drops what it found inside those sections (a
 * definition is not a use of its words, and its "Avoid" column names the words it bans).
 */

import { readVocabulary } from '../missionVocabulary/read';
import { shiftedVocabulary } from '../missionVocabulary/shift';
import type { DocumentVocabulary, VocabularyOrigin, VocabularySource } from '../missionVocabulary/types';
import type { GlossaryIndex } from '../glossary';
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
    // The glossary of the check before, when it was made of the same glossary and vocabularies
    // (most keystrokes): naming them for the engine's look-up joins every entry's key, a string
    // as long as the vocabulary sections (tens of KB on a 1 MB spec with many).
    const before = followsPrevious(context) ? (context.previous.memo.get(GLOSSARY_ID) as GlossaryMemo | undefined) : undefined;
    const made: GlossaryMemo = { base: context.glossary, key: vocabulary.key, origin: context.documentOrigin, mission: context.missionVocabulary, glossary: context.glossary };
    if (before && sameMaking(before, made)) made.glossary = before.glossary;
    else {
      const sources: VocabularySource[] = [];
      if (vocabulary.entries.length > 0 && context.documentOrigin) sources.push({ ...context.documentOrigin, vocabulary });
      for (const source of context.missionVocabulary) if (source.vocabulary.entries.length > 0) sources.push(source);
      if (sources.length > 0) made.glossary = context.engine.glossaryWithVocabulary(context.glossary, sources);
    }
    context.glossary = made.glossary;
    context.memo.set(GLOSSARY_ID, made);
  },
};

const GLOSSARY_ID = 'extraction.vocabulary.glossary';

/** What the check's glossary was made of (see readDocumentVocabulary), and what it is. */
interface GlossaryMemo {
  base: GlossaryIndex;
  /** The document's own entries (`DocumentVocabulary.key`). */
  key: string;
  origin: VocabularyOrigin | undefined;
  mission: readonly VocabularySource[];
  glossary: GlossaryIndex;
}

/** Whether the two glossaries are made of the same glossary, entries, provenance and mission vocabularies. */
function sameMaking(a: GlossaryMemo, b: GlossaryMemo): boolean {
  if (a.base !== b.base || a.key !== b.key || a.mission.length !== b.mission.length) return false;
  if (a.origin !== b.origin && (a.origin === undefined || b.origin === undefined || a.origin.file !== b.origin.file || a.origin.missionId !== b.origin.missionId || a.origin.missionSlug !== b.origin.missionSlug)) return false;
  for (let k = 0; k < a.mission.length; k++) if (a.mission[k] !== b.mission[k]) return false;
  return true;
}

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
