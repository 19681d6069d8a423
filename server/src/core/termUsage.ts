/**
 * A `TermUsage` (core/health.ts) gathered from check reports: the glossary matches of each
 * checked spec, by term. The CLI and the language server read the term index instead
 * (terms/indexUsage.ts); this one builds a usage from any reports a caller has (the core tests'
 * way to give health its input without a workspace).
 */

import type { TermUse, TermUsage } from './health';
import type { Range, Sense, TermCandidate } from './types';

/** One checked spec's uses of glossary terms. */
export interface SpecUses {
  path: string;
  missionId: string;
  /**
   * Occurrences by normalized surface, four numbers each: start line, start character, end line,
   * end character. (The language server keeps this for every spec of a folder: as range objects,
   * three per occurrence, it was 5 MB for the 400 specs of SPEC §10's workspace.)
   */
  uses: ReadonlyMap<string, Int32Array>;
  /** The senses the spec's mission defines for itself (its spec's vocabulary sections) that its check used. */
  missionSenses?: readonly Sense[];
}

export class CollectedUsage implements TermUsage {
  /** By term: the specs using it, in path order, with their packed ranges. */
  private readonly uses = new Map<string, { spec: SpecUses; ranges: Int32Array }[]>();
  /** By term: its uses as `usesOf` gives them, made on the first question. */
  private readonly listed = new Map<string, TermUse[]>();
  private readonly outsideProse = new Set<string>();
  readonly documents: number;
  readonly missionSenses: readonly Sense[];

  /**
   * A spec's uses from its check's candidates: the glossary's matches (every surface and synonym
   * to avoid, in prose, in any case, plural or hyphenated form), and the candidates of other
   * methods that are glossary terms (`isTerm`): a front-matter alias (`WP: work package`) makes
   * each `WP` a use of `work package`. Other candidates are words no glossary holds.
   */
  static specUses(path: string, missionId: string, candidates: readonly TermCandidate[], isTerm: (surface: string) => boolean = () => false): SpecUses {
    const uses = new Map<string, Int32Array>();
    for (const candidate of candidates) if (candidate.method === 'glossary_match' || isTerm(candidate.surface)) uses.set(candidate.surface, packRanges(candidate.occurrences));
    return { path, missionId, uses };
  }

  /** `specs` in the order uses are listed (path order). */
  constructor(specs: Iterable<SpecUses>) {
    let documents = 0;
    const own = new Map<string, Sense>();
    for (const spec of specs) {
      documents++;
      for (const sense of spec.missionSenses ?? []) {
        const origin = sense.origin as { file?: unknown };
        own.set(`${String(origin.file)}\u0000${sense.surface}`, sense);
      }
      for (const [term, ranges] of spec.uses) {
        let list = this.uses.get(term);
        if (!list) this.uses.set(term, (list = []));
        list.push({ spec, ranges });
      }
    }
    this.documents = documents;
    this.missionSenses = [...own.values()];
  }

  usesOf(term: string): readonly TermUse[] {
    let listed = this.listed.get(term);
    if (listed === undefined) {
      listed = [];
      for (const { spec, ranges } of this.uses.get(term) ?? []) {
        for (let i = 0; i < ranges.length; i += 4) listed.push({ path: spec.path, missionId: spec.missionId, range: { start: { line: ranges[i]!, character: ranges[i + 1]! }, end: { line: ranges[i + 2]!, character: ranges[i + 3]! } } });
      }
      this.listed.set(term, listed);
    }
    return listed;
  }

  /** The terms among `terms` with no use in prose. */
  termsWithoutUse(terms: Iterable<string>): string[] {
    return [...terms].filter((term) => !this.uses.has(term));
  }

  /** A term with no use in prose that a spec writes elsewhere (code, link targets, front matter). */
  markWrittenOutsideProse(term: string): void {
    this.outsideProse.add(term);
  }

  writtenOutsideProse(term: string): boolean {
    return this.outsideProse.has(term);
  }
}

function packRanges(ranges: readonly Range[]): Int32Array {
  const packed = new Int32Array(ranges.length * 4);
  ranges.forEach((range, i) => {
    packed[i * 4] = range.start.line;
    packed[i * 4 + 1] = range.start.character;
    packed[i * 4 + 2] = range.end.line;
    packed[i * 4 + 3] = range.end.character;
  });
  return packed;
}
