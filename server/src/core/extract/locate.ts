/**
 * The required `extraction.locate` unit: every occurrence of what the extractors proposed that the
 * glossary walk did not already place, found with a small trie of the proposed surfaces, then the
 * term candidates (sorted by first occurrence), whose ranges and texts are worked out when read.
 */

import { followsPrevious, type CheckContext, type Proposal } from '../check/context';
import type { Unit } from '../pipeline';
import { standalone, type LineIndex } from '../text';
import type { Range, TermCandidate } from '../types';
import { markedChange, occurrencesBySurface } from './glossaryMatch';
import { SurfaceTrie, type SharedRootLookups, type TrieMatch } from './trie';
import { rewalk, walkAll, type Walk } from './walk';

/** The trie of the proposed surfaces (phrase → surface), in the order given. */
function buildTrie(phrases: readonly [string, string][], shared: SharedRootLookups): SurfaceTrie {
  const trie = new SurfaceTrie(shared);
  // (The engine keeps the trie beyond this document: strings of their own, not views into it.)
  for (const [phrase, surface] of phrases) trie.add(standalone(phrase), standalone(surface));
  return trie;
}

/** What `extraction.locate` keeps for the next check of the document. */
interface LocateMemo {
  /** The phrases of the walk's trie, in the order they were added, joined (the trie's key). */
  keys: string;
  /** The same phrases, and the trie. */
  phrases: readonly (readonly [string, string])[];
  trie: SurfaceTrie;
  walk: Walk;
  /** Each candidate and its occurrences as offsets, by surface. */
  candidates: Map<string, { candidate: LocatedCandidate; pairs: ArrayLike<number> }>;
}

/**
 * Find every occurrence of the proposed surfaces that the glossary walk did not already place,
 * then turn proposals into candidates (sorted by first occurrence).
 */
export const locate: Unit<CheckContext> = {
  id: 'extraction.locate',
  phase: 'extraction',
  priority: 1000,
  required: true,
  run(context) {
    const { scan } = context;
    // Aliases first: the first registration of a phrase wins, and an alias ("WSP") must map to its
    // canonical term even when another extractor also proposed the alias itself.
    const phrases: [string, string][] = [];
    for (const [alias, canonical] of context.aliases) {
      if (context.proposals.has(canonical) && !context.excluded.has(canonical)) phrases.push([alias, canonical]);
    }
    for (const proposal of context.proposals.values()) {
      if (!context.occurrences.has(proposal.surface)) phrases.push([proposal.surface, proposal.surface]);
    }
    const previous = followsPrevious(context) ? (context.previous.memo.get('extraction.locate') as LocateMemo | undefined) : undefined;
    // The next check of a document (an edit, a re-check) usually proposes the same surfaces, and a
    // trie's per-word lookups then carry over: the engine keeps the last few tries. The same
    // phrases as the check before take its trie as they are (joining thousands of them into the
    // key, and hashing it, was a tenth of a keystroke on a 1 MB spec).
    const same = previous !== undefined && samePhrases(previous.phrases, phrases);
    const signature = same ? previous.keys : phrases.map(([phrase, surface]) => (phrase === surface ? phrase : `${phrase}\u0001${surface}`)).join('\u0000');
    const trie = same ? previous.trie : context.engine.locateTries.get(signature, () => buildTrie(phrases, context.engine.locateRoots));
    const rules = {
      skip: context.consumed,
      accept(match: TrieMatch) {
        for (let k = match.first; k <= match.last; k++) if (context.consumed[k]) return false;
        return true;
      },
    };
    // The tokens differ in the edited stretch, and the glossary walk's marks where it walked again.
    const change = previous && previous.keys === signature ? markedChange(context) : undefined;
    const buffer = context.engine.walkBuffer;
    const result = previous && change ? rewalk(trie, scan, rules, previous.walk, change, buffer) : walkAll(trie, scan, rules, buffer);
    const { tokens } = scan;
    const walk = result.walk;
    const groups = occurrencesBySurface(result.walk, tokens, trie.surfaceCount, context.engine.groups);
    for (let g = 0; g < groups.count; g++) {
      const name = trie.surfaceName(walk.id[groups.firstMatch[g]!]!);
      const known = context.occurrences.get(name); // an alias's canonical term found by the glossary walk
      if (known) context.occurrences.set(name, joined(known, groups.pairs[g]!));
      else context.occurrences.set(name, groups.pairs[g]!);
    }

    const made = materialize(context, previous);
    // By first occurrence (the offset orders as its line and character do), then surface: an
    // index sort over the first offsets (no map look-up per comparison).
    const firsts = new Float64Array(made.length);
    const madePairs: ArrayLike<number>[] = new Array(made.length);
    const order: number[] = new Array(made.length);
    for (let k = 0; k < made.length; k++) {
      const pairs = made[k]!.offsets;
      madePairs[k] = pairs;
      firsts[k] = pairs[0]!;
      order[k] = k;
    }
    order.sort((a, b) => firsts[a]! - firsts[b]! || (made[a]!.surface < made[b]!.surface ? -1 : 1));
    const candidates: TermCandidate[] = new Array(made.length);
    const bySurface = new Map<string, { candidate: LocatedCandidate; pairs: ArrayLike<number> }>();
    for (let k = 0; k < order.length; k++) {
      const candidate = made[order[k]!]!;
      candidates[k] = candidate;
      bySurface.set(candidate.surface, { candidate, pairs: madePairs[order[k]!]! });
    }
    context.candidates = candidates;
    context.memo.set('extraction.locate', { keys: signature, phrases, trie, walk: result.walk, candidates: bySurface } satisfies LocateMemo);
  },
};

/** Whether the two lists hold the same phrases and surfaces in the same order. */
function samePhrases(a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k]![0] !== b[k]![0] || a[k]![1] !== b[k]![1]) return false;
  return true;
}

/** The occurrence offsets (flat [start, end) pairs, in order) of a candidate made by `extraction.locate`. */
export function candidateOffsets(candidate: TermCandidate): ArrayLike<number> | undefined {
  return candidate instanceof LocatedCandidate ? candidate.offsets : undefined;
}

/**
 * A candidate made by `extraction.locate`: its occurrences as offset pairs, and its `occurrences`
 * (ranges) and `texts` worked out from them when first read. Most candidates (terms that resolve,
 * ordinary words) yield no finding, and ranges for all their occurrences would be much of a
 * check's allocations. A class, not an object literal with accessors: such a literal makes its
 * own accessor functions and took ~0.4 µs per candidate here, a class instance a few ns; and the
 * offsets live in the candidate, not in a WeakMap beside it. Serialized (`toJSON`) it is the
 * plain candidate. A candidate reused by the next check of the document is re-pointed at the new
 * text (its values do not change), and one whose ranges and texts were both read lets the text
 * go, so it never keeps an old text alive.
 */
class LocatedCandidate implements TermCandidate {
  surface: string;
  method: TermCandidate['method'];
  confidence: number;
  #pairs: ArrayLike<number>;
  #lines: LineIndex | undefined;
  #text: string | undefined;
  #occurrences: Range[] | undefined;
  #texts: string[] | undefined;

  constructor(proposal: Proposal, pairs: ArrayLike<number>, lines: LineIndex, text: string) {
    this.surface = proposal.surface;
    this.method = proposal.method;
    this.confidence = proposal.confidence;
    this.#pairs = pairs;
    this.#lines = lines;
    this.#text = text;
  }

  get occurrences(): Range[] {
    if (this.#occurrences === undefined) {
      this.#occurrences = this.#lines!.rangesOfSorted(this.#pairs);
      this.#release();
    }
    return this.#occurrences;
  }

  set occurrences(value: Range[]) {
    this.#occurrences = value;
    this.#release();
  }

  get texts(): string[] {
    if (this.#texts === undefined) {
      const pairs = this.#pairs;
      const text = this.#text!;
      const texts: string[] = new Array(pairs.length >> 1);
      for (let k = 0; k < texts.length; k++) texts[k] = text.slice(pairs[2 * k]!, pairs[2 * k + 1]!);
      this.#texts = texts;
      this.#release();
    }
    return this.#texts;
  }

  set texts(value: string[]) {
    this.#texts = value;
    this.#release();
  }

  /** The occurrences as flat [start, end) offset pairs, in order. */
  get offsets(): ArrayLike<number> {
    return this.#pairs;
  }

  /** Whether the ranges were worked out (or set) yet. */
  get rangesRead(): boolean {
    return this.#occurrences !== undefined;
  }

  /** The same occurrences in an edited text (see `materialize`). */
  repoint(pairs: ArrayLike<number>, lines: LineIndex, text: string): void {
    this.#pairs = pairs;
    if (this.#lines === undefined) return;
    this.#lines = lines;
    this.#text = text;
  }

  toJSON(): TermCandidate {
    return { surface: this.surface, method: this.method, confidence: this.confidence, occurrences: this.occurrences, texts: this.texts };
  }

  #release(): void {
    if (this.#occurrences !== undefined && this.#texts !== undefined) {
      this.#lines = undefined;
      this.#text = undefined;
    }
  }
}

/**
 * Candidates of every proposal that occurs: occurrences sorted, one per start, as ranges. After an
 * edit, the ranges (and the candidate itself) of occurrences outside the edited text are the
 * previous check's: before the edit they are the same, after it they only move down by the
 * number of lines the edit added (the edited text ends at a line start).
 */
function materialize(context: CheckContext, previous: LocateMemo | undefined): LocatedCandidate[] {
  const { scan } = context;
  const edit = previous ? scan.edit : undefined;
  const found: { proposal: Proposal; pairs: ArrayLike<number>; old?: { candidate: LocatedCandidate; pairs: ArrayLike<number> }; head: number; tail: number }[] = [];
  for (const proposal of context.proposals.values()) {
    let pairs: ArrayLike<number> = context.occurrences.get(proposal.surface) ?? NO_PAIRS;
    if (proposal.explicit.length > 0) pairs = joined(pairs, proposal.explicit.flat());
    if (pairs.length === 0) continue;
    pairs = uniqueStarts(sortPairs(pairs));
    const old = edit ? previous!.candidates.get(proposal.surface) : undefined;
    let head = 0;
    let tail = 0;
    if (old && edit) {
      const n = pairs.length;
      const m = old.pairs.length;
      while (head < n && head < m && pairs[head + 1]! <= edit.restart && pairs[head] === old.pairs[head] && pairs[head + 1] === old.pairs[head + 1]) head += 2;
      while (tail < n - head && tail < m - head && pairs[n - tail - 2]! >= edit.end && pairs[n - tail - 2]! - edit.delta === old.pairs[m - tail - 2] && pairs[n - tail - 1]! - edit.delta === old.pairs[m - tail - 1]) tail += 2;
    }
    found.push({ proposal, pairs, ...(old ? { old } : {}), head, tail });
  }
  const lineDelta = edit?.lineDelta ?? 0;
  const candidates: LocatedCandidate[] = [];
  for (const { proposal, pairs, old, head, tail } of found) {
    const count = pairs.length >> 1;
    const fresh = (pairs.length - head - tail) >> 1;
    if (old && fresh === 0 && lineDelta === 0 && old.pairs.length === pairs.length && old.candidate.method === proposal.method && old.candidate.confidence === proposal.confidence) {
      // Nothing about this candidate changed (what is still to be worked out now comes from the
      // new text, with the same result).
      old.candidate.repoint(pairs, scan.lines, scan.text);
      candidates.push(old.candidate);
      continue;
    }
    const candidate = new LocatedCandidate(proposal, pairs, scan.lines, scan.text);
    candidates.push(candidate);
    // Nothing read before to reuse: ranges and texts are worked out if and when they are read.
    if (!old || !old.candidate.rangesRead) continue;
    const occurrences: Range[] = new Array(count);
    const texts: string[] = new Array(count);
    const h = head >> 1;
    const t = tail >> 1;
    const ranges = scan.lines.rangesOfSorted(pairs, h, count - t);
    const oldCount = old.pairs.length >> 1;
    for (let k = 0; k < h; k++) {
      occurrences[k] = old.candidate.occurrences[k]!;
      texts[k] = old.candidate.texts[k]!;
    }
    for (let k = h; k < count - t; k++) {
      occurrences[k] = ranges[k - h]!;
      texts[k] = scan.text.slice(pairs[2 * k]!, pairs[2 * k + 1]!);
    }
    for (let k = count - t; k < count; k++) {
      const was = old.candidate.occurrences[oldCount - (count - k)]!;
      occurrences[k] = lineDelta === 0 ? was : { start: { line: was.start.line + lineDelta, character: was.start.character }, end: { line: was.end.line + lineDelta, character: was.end.character } };
      texts[k] = old.candidate.texts[oldCount - (count - k)]!;
    }
    candidate.occurrences = occurrences;
    candidate.texts = texts;
  }
  return candidates;
}

const NO_PAIRS: ArrayLike<number> = Object.freeze([]);

/** The pairs of `a`, then those of `b`, in an array of their own. */
function joined(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = Array.from(a);
  for (let k = 0; k < b.length; k++) out.push(b[k]!);
  return out;
}

/** Flat [start, end) pairs sorted by start, then end (a copy unless already sorted). */
function sortPairs(pairs: ArrayLike<number>): ArrayLike<number> {
  let sorted = true;
  for (let k = 2; k < pairs.length && sorted; k += 2) sorted = pairs[k - 2]! < pairs[k]! || (pairs[k - 2] === pairs[k] && pairs[k - 1]! <= pairs[k + 1]!);
  if (sorted) return pairs;
  const order: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) order.push(k);
  order.sort((a, b) => pairs[a]! - pairs[b]! || pairs[a + 1]! - pairs[b + 1]!);
  const out: number[] = [];
  for (const k of order) out.push(pairs[k]!, pairs[k + 1]!);
  return out;
}

/** Sorted pairs without those repeating the previous pair's start (the first of each start stays). */
function uniqueStarts(pairs: ArrayLike<number>): ArrayLike<number> {
  let k = 2;
  while (k < pairs.length && pairs[k] !== pairs[k - 2]) k += 2;
  if (k >= pairs.length) return pairs;
  const out: number[] = [];
  for (let i = 0; i < k; i++) out.push(pairs[i]!);
  for (; k < pairs.length; k += 2) if (pairs[k] !== out[out.length - 2]) out.push(pairs[k]!, pairs[k + 1]!);
  return out;
}
