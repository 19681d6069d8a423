/**
 * A `TermUsage` (core/health.ts) gathered from check reports: the glossary matches of each
 * checked document, by term. The CLI fills one by checking every spec of the workspace; the
 * language server does the same until its workspace index answers `usesOf` itself.
 */

import type { TermUse, TermUsage } from './health';
import type { TermCandidate } from './types';

export class CollectedUsage implements TermUsage {
  private readonly uses = new Map<string, TermUse[]>();
  private read = 0;
  private readonly outsideProse = new Set<string>();

  get documents(): number {
    return this.read;
  }

  /**
   * One checked document's terms (add documents in path order). Only glossary matches are uses:
   * every surface and synonym to avoid of the glossary is matched in prose, in any case, plural
   * or hyphenated form, and the other extractors only find words no glossary holds.
   */
  addDocument(path: string, missionId: string, candidates: readonly TermCandidate[]): void {
    this.read++;
    for (const candidate of candidates) {
      if (candidate.method !== 'glossary_match') continue;
      let list = this.uses.get(candidate.surface);
      if (!list) this.uses.set(candidate.surface, (list = []));
      for (const range of candidate.occurrences) list.push({ path, missionId, range });
    }
  }

  usesOf(term: string): readonly TermUse[] {
    return this.uses.get(term) ?? [];
  }

  /** Terms with no use in prose that a spec writes elsewhere (code, link targets, front matter). */
  termsWithoutUse(terms: Iterable<string>): string[] {
    return [...terms].filter((term) => !this.uses.has(term));
  }

  markWrittenOutsideProse(term: string): void {
    this.outsideProse.add(term);
  }

  writtenOutsideProse(term: string): boolean {
    return this.outsideProse.has(term);
  }
}
