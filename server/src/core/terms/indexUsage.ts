/**
 * The term index (termIndex.ts) read as glossary health's `TermUsage` (core/health.ts): where the
 * specs use each term, which terms are written only outside prose, and the senses missions define
 * in their specs — all recorded when each document was indexed, so health needs no pass of its
 * own over the workspace.
 */

import type { TermUsage, TermUse as HealthUse } from '../health';
import type { Sense } from '../types';
import type { TermIndex } from './termIndex';

/**
 * A `TermUsage` over `index` as it is now (answers are read when asked: make one per health run).
 * `pathOf` names a document (its key) as messages show it.
 */
export type IndexUsage = TermUsage & Required<Pick<TermUsage, 'writtenOutsideProse' | 'hasUses' | 'missionSenses'>>;

export function indexUsage(index: TermIndex, pathOf: (document: string) => string): IndexUsage {
  return {
    documents: index.checkedCount,
    usesOf(term: string): readonly HealthUse[] {
      const out: HealthUse[] = [];
      // Documents in path order, as a walk of the folder lists them; within one, in document order.
      for (const document of index.documentsUsing(term).sort()) {
        const missionId = index.detailsOf(document)?.missionId ?? '';
        const path = pathOf(document);
        // The term's own uses (a synonym to avoid is a use of the word written, not of the term it stands for).
        for (const use of index.usesIn(document, term)) if (!use.synonym) out.push({ path, missionId, range: use.range });
      }
      return out;
    },
    // (Asked of every live entry: the first use found answers, no list of every use is made.)
    hasUses: (term: string) => index.documentsUsing(term).some((document) => index.usesIn(document, term).some((use) => !use.synonym)),
    writtenOutsideProse: (term: string) => index.writtenElsewhere(term),
    missionSenses: missionSensesOf(index),
  };
}

/** The senses missions define in their specs, once each (by spec file and surface). */
export function missionSensesOf(index: Pick<TermIndex, 'allDetails'>): Sense[] {
  const own = new Map<string, Sense>();
  for (const details of index.allDetails()) {
    for (const sense of details.missionSenses ?? []) {
      const origin = sense.origin as { file?: unknown };
      own.set(`${String(origin.file)}\u0000${sense.surface}`, sense);
    }
  }
  return [...own.values()];
}
