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
export function indexUsage(index: TermIndex, pathOf: (document: string) => string): TermUsage {
  return {
    documents: index.checkedCount,
    usesOf(term: string): readonly HealthUse[] {
      // The term's own uses (a synonym to avoid is a use of the word written, not of the term it stands for).
      const uses = index.usesOf(term).filter((use) => !use.synonym);
      // Documents in path order, as a walk of the folder lists them; within one, in document order.
      uses.sort((a, b) => (a.document < b.document ? -1 : a.document > b.document ? 1 : 0));
      return uses.map((use) => ({ path: pathOf(use.document), missionId: index.detailsOf(use.document)?.missionId ?? '', range: use.range }));
    },
    writtenOutsideProse: (term: string) => index.writtenElsewhere(term),
    missionSenses: missionSensesOf(index),
  };
}

/** The senses missions define in their specs, once each (by spec file and surface). */
function missionSensesOf(index: TermIndex): Sense[] {
  const own = new Map<string, Sense>();
  for (const details of index.allDetails()) {
    for (const sense of details.missionSenses ?? []) {
      const origin = sense.origin as { file?: unknown };
      own.set(`${String(origin.file)}\u0000${sense.surface}`, sense);
    }
  }
  return [...own.values()];
}
