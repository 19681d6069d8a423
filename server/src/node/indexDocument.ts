/**
 * One document as the term index records it (core/terms/termIndex.ts): checked by the engine as
 * `check` checks it, with only the glossary-match extractor, against its mission's glossary (its
 * mission's own vocabulary included); its glossary terms' occurrences; and, from the same text
 * and check, what glossary health reads besides them (`DocumentDetails`: its mission, whether it
 * was checked, the seed terms it writes outside prose, its mission's own senses). The language
 * server's index (lsp/termIndexer.ts) and `validate`'s usage (workspaceUsage.ts) both index
 * documents with this.
 */

import { OCCURRENCE_PIPELINE } from '../core/check/check';
import { METHOD_ORDER } from '../core/check/context';
import type { Engine } from '../core/check/engine';
import type { GlossaryIndex } from '../core/glossary';
import { glossaryOccurrences, type DocumentDetails, type TermOccurrence } from '../core/terms/termIndex';
import type { Sense } from '../core/types';
import { analyzeDocument } from './analyzer';
import type { MetaCache } from './identity';
import type { SpecVocabularies } from './specVocabularies';
import type { WorkspaceSnapshot } from './workspace';
import { seedTerms, usageKnowable, writtenTermsSearch, type OutsideProseSearch } from './writtenTerms';

/** Extractors the index does not need: it records glossary terms only. */
export const NOT_INDEXED = METHOD_ORDER.filter((m) => m !== 'glossary_match');

export interface IndexedDocument {
  occurrences: TermOccurrence[];
  details: DocumentDetails;
}

/** Indexes documents; keeps what is the same for many of them (per snapshot, per glossary). */
export class DocumentIndexer {
  /** Per snapshot: how to find its seed terms written in a text. */
  private readonly searches = new WeakMap<WorkspaceSnapshot, OutsideProseSearch | null>();
  /** Per glossary a spec was checked with: the senses its mission's specs define. */
  private readonly ownSenses = new WeakMap<GlossaryIndex, readonly Sense[]>();

  index(engine: Engine, snapshot: WorkspaceSnapshot, file: string, text: string, metaCache: MetaCache, vocabularies?: SpecVocabularies): IndexedDocument {
    // (Where terms occur, and no findings: the index has no use for them.)
    const analyzed = analyzeDocument(engine, snapshot, { path: file, text, settings: { disabledExtractors: NOT_INDEXED }, metaCache, pipeline: OCCURRENCE_PIPELINE, ...(vocabularies ? { vocabularies } : {}) });
    const { report } = analyzed;
    const missionId = analyzed.identity.missionId;
    if (!report.checked) return { occurrences: [], details: { missionId, checked: false } };
    // (The glossary it was checked against: the folder's, with its mission's own vocabulary.)
    const occurrences = glossaryOccurrences(report, report.glossary);
    // The seed terms the text writes without a use in its prose: in code, links, front matter,
    // its own vocabulary section (one search of the text for all of them).
    const usedHere = new Set<string>();
    for (const o of occurrences) if (o.surface === o.term) usedHere.add(o.term);
    const search = this.searchFor(snapshot);
    const writtenElsewhere = search ? search.termsIn(text, usedHere) : [];
    const missionSenses = this.missionSensesOf(report.glossary);
    return { occurrences, details: { missionId, ...(writtenElsewhere.length > 0 ? { writtenElsewhere } : {}), ...(missionSenses.length > 0 ? { missionSenses } : {}) } };
  }

  private searchFor(snapshot: WorkspaceSnapshot): OutsideProseSearch | undefined {
    let search = this.searches.get(snapshot);
    if (search === undefined) this.searches.set(snapshot, (search = (usageKnowable(snapshot) ? writtenTermsSearch(seedTerms(snapshot)) : undefined) ?? null));
    return search ?? undefined;
  }

  private missionSensesOf(glossary: GlossaryIndex): readonly Sense[] {
    let senses = this.ownSenses.get(glossary);
    if (senses === undefined) this.ownSenses.set(glossary, (senses = glossary.senses.filter((s) => s.scope === 'mission_local' && s.origin.kind === 'spec')));
    return senses;
  }
}
