/**
 * Glossary candidates (SPEC §6, §8): the workspace's undefined terms, ranked by the number of
 * specs that use them, then by occurrences: the list a team works through to grow its glossary.
 * A word one spec repeats may be anything; a word forty specs use and no glossary defines is the
 * team's own vocabulary. Pure: what the checks found in, a ranked list out; the CLI and the
 * language server read the files and print or send the list.
 *
 * Terms that missions define in their own spec but the team and core glossaries lack are
 * candidates too, with those definitions attached (`CandidateDefinition`), and their uses count
 * where they resolve too (`VocabularyUse`): the adapters work both out of the checks
 * (missionVocabulary/candidates.ts).
 */

import type { RareWord, SpelledOutWord } from './check/context';
import type { ConflictType, Finding } from './types';

/** One checked document: where it is and what its check found. */
export interface CandidateSource {
  /** Path as the caller wants it shown (relative to the current directory or workspace root). */
  path: string;
  missionId: string;
  findings: readonly Pick<Finding, 'term' | 'conflictType' | 'range'>[];
  /** Words needing a glossary that the document uses too rarely to report (DocumentReport.rareWords). */
  rareWords?: readonly RareWord[];
  /** Abbreviations the document spells out and no glossary defines (DocumentReport.spelledOut): undefined terms too. */
  spelledOut?: readonly SpelledOutWord[];
  /** Uses of terms that missions' own vocabularies define (missionVocabulary/candidates.ts). */
  vocabularyUses?: readonly VocabularyUse[];
}

/** A term a mission's own vocabulary defines, used in a document (where it may resolve). */
export interface VocabularyUse {
  term: string;
  count: number;
  /** 1-based line of the first use. */
  line: number;
}

/** A definition a mission's own spec gives of a term (SPEC §3), for `definitions`. */
export interface CandidateDefinition {
  term: string;
  mission: string;
  path: string;
  /** 1-based. */
  line: number;
  definition: string;
}

/** One candidate, in the JSON shape of SPEC §8. */
export interface GlossaryCandidate {
  term: string;
  /** Documents that use the term. */
  specs: number;
  occurrences: number;
  /** One per document (its first use, line 1-based), most-used documents first, at most `maxExamples`. */
  examples: { path: string; line: number }[];
  definitions: { mission: string; path: string; line: number; definition: string }[];
}

export interface CandidateOptions {
  /** Only terms used in at least this many documents (default 1). */
  minSpecs?: number;
  /** Examples listed per term (default 3). */
  maxExamples?: number;
  /** Missions' own definitions of terms the team and core glossaries lack. */
  definitions?: readonly CandidateDefinition[];
}

/** A word no document repeats is a candidate when the workspace uses it this often. */
const RARE_MIN_DOCUMENTS = 2;
const RARE_MIN_OCCURRENCES = 3;

/** Findings that make a term a candidate: it is defined nowhere. */
const UNDEFINED: ReadonlySet<ConflictType> = new Set<ConflictType>(['unknown', 'unresolved_critical']);

/** A term's uses in one document: its first line (1-based) and how often. */
interface DocumentUse {
  path: string;
  line: number;
  count: number;
}

/** A term's uses across the workspace, one entry per document. */
interface TermUses {
  occurrences: number;
  documents: DocumentUse[];
}

/**
 * The candidates of the documents' findings: every term with an unknown (or unresolved
 * critical) finding, the words documents use too rarely to report that add up across them, and
 * every term a mission defines for itself; ranked by documents using it, then occurrences, then
 * term.
 */
export function rankCandidates(sources: Iterable<CandidateSource>, options: CandidateOptions = {}): GlossaryCandidate[] {
  const minSpecs = Math.max(1, options.minSpecs ?? 1);
  const maxExamples = Math.max(0, options.maxExamples ?? 3);
  const sourceList = [...sources];
  const uses = undefinedTermUses(sourceList);
  addRareWords(uses, sourceList);
  const definitions = addDefinedTerms(uses, options.definitions ?? []);
  addVocabularyUses(uses, definitions, sourceList);
  const out: GlossaryCandidate[] = [];
  for (const [term, use] of uses) {
    const defined = definitions.get(term) ?? [];
    // (A mission's entry writes the term in its spec: that spec counts, and so does the entry, as
    // one occurrence; else a term only defined read "1 spec, 0 occurrences".)
    const specs = new Set([...use.documents.map((d) => d.path), ...defined.map((d) => d.path)]).size;
    if (specs < minSpecs) continue;
    out.push({ term, specs, occurrences: use.occurrences + defined.length, examples: examplesOf(use, maxExamples), definitions: defined.map(({ mission, path, line, definition }) => ({ mission, path, line, definition })) });
  }
  return out.sort((a, b) => b.specs - a.specs || b.occurrences - a.occurrences || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** The uses of every term with an unknown (or unresolved critical) finding. */
function undefinedTermUses(sources: readonly CandidateSource[]): Map<string, TermUses> {
  const uses = new Map<string, TermUses>();
  for (const source of sources) {
    const inDocument = new Map<string, DocumentUse>();
    for (const finding of source.findings) {
      if (!UNDEFINED.has(finding.conflictType)) continue;
      let use = uses.get(finding.term);
      if (!use) uses.set(finding.term, (use = { occurrences: 0, documents: [] }));
      use.occurrences++;
      const line = finding.range.start.line + 1;
      const here = inDocument.get(finding.term);
      if (here) {
        here.count++;
        if (line < here.line) here.line = line;
      } else {
        const entry = { path: source.path, line, count: 1 };
        inDocument.set(finding.term, entry);
        use.documents.push(entry);
      }
    }
    // (Not reported there, as the document spells them out; the glossary still lacks them.)
    for (const word of source.spelledOut ?? []) {
      let use = uses.get(word.surface);
      if (!use) uses.set(word.surface, (use = { occurrences: 0, documents: [] }));
      use.occurrences += word.count;
      use.documents.push({ path: source.path, line: word.line + 1, count: word.count });
    }
  }
  return uses;
}

/**
 * Rare words add up across documents: used by other documents too, a term's count grows; a
 * word no document repeats is a candidate once the workspace uses it at least three times in
 * at least two documents (a word used twice in each of forty specs is the team's).
 * A word never written in lowercase anywhere is a name (or only ever starts sentences).
 */
function addRareWords(uses: Map<string, TermUses>, sources: readonly CandidateSource[]): void {
  const rare = new Map<string, { occurrences: number; lower: number; documents: DocumentUse[] }>();
  for (const source of sources) {
    for (const word of source.rareWords ?? []) {
      let use = rare.get(word.surface);
      if (!use) rare.set(word.surface, (use = { occurrences: 0, lower: 0, documents: [] }));
      use.occurrences += word.count;
      use.lower += word.lower;
      use.documents.push({ path: source.path, line: word.line + 1, count: word.count });
    }
  }
  for (const [term, extra] of rare) {
    const use = uses.get(term);
    if (use) {
      // (A document with findings of the term already counts every occurrence of it there.)
      const reported = new Set(use.documents.map((d) => d.path));
      for (const document of extra.documents) {
        if (reported.has(document.path)) continue;
        use.documents.push(document);
        use.occurrences += document.count;
      }
    } else if (extra.documents.length >= RARE_MIN_DOCUMENTS && extra.occurrences >= RARE_MIN_OCCURRENCES && extra.lower > 0) {
      uses.set(term, { occurrences: extra.occurrences, documents: extra.documents });
    }
  }
}

/** Missions' own definitions by term; every term defined is a candidate (with no uses yet if it had none). */
function addDefinedTerms(uses: Map<string, TermUses>, definitionList: readonly CandidateDefinition[]): Map<string, CandidateDefinition[]> {
  const definitions = new Map<string, CandidateDefinition[]>();
  for (const definition of definitionList) {
    const list = definitions.get(definition.term) ?? [];
    list.push(definition);
    definitions.set(definition.term, list);
    // A term only its own mission uses is still a candidate: its definition says what it is.
    if (!uses.has(definition.term)) uses.set(definition.term, { occurrences: 0, documents: [] });
  }
  return definitions;
}

/** Uses of the terms missions define, where they resolve too (in the defining missions' documents). */
function addVocabularyUses(uses: Map<string, TermUses>, definitions: ReadonlyMap<string, unknown>, sources: readonly CandidateSource[]): void {
  for (const source of sources) {
    for (const use of source.vocabularyUses ?? []) {
      const entry = definitions.has(use.term) ? uses.get(use.term) : undefined;
      if (!entry) continue;
      const here = entry.documents.find((d) => d.path === source.path);
      if (here) {
        // (Occurrences reported as unknown there are counted already: only what resolved adds.)
        continue;
      }
      entry.documents.push({ path: source.path, line: use.line, count: use.count });
      entry.occurrences += use.count;
    }
  }
}

/** One example per document, the documents using the term most first (then by path). */
function examplesOf(use: TermUses, maxExamples: number): { path: string; line: number }[] {
  return [...use.documents]
    .sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, maxExamples)
    .map(({ path, line }) => ({ path, line }));
}
