/**
 * The `glossary_match` extractor: the glossary's word trie walked over the tokens (longest match
 * first), each matched surface proposed once with all its occurrences; and what the other units
 * need to know about its walk after an edit (`markedChange`).
 */

import { followsPrevious, propose, sameSet, type CheckContext } from '../check/context';
import type { Unit } from '../pipeline';
import type { DocumentScan } from './scan';
import type { TrieMatch } from './trie';
import { rewalk, walkAll, type Walk, type WalkChange } from './walk';

/** What the glossary walk keeps for the next check of the document. */
interface GlossaryMemo {
  walk: Walk;
  /** Tokens walked again this time. */
  from: number;
  to: number;
}

export const glossaryMatch: Unit<CheckContext> = {
  id: 'glossary_match',
  phase: 'extraction',
  priority: 0,
  run(context) {
    const { scan, glossary } = context;
    if (glossary.trie.isEmpty) return;
    // Longest match first; a match of an excluded term is no match (the walk goes on after its
    // first word).
    const rules = context.excluded.size === 0 ? TAKE_ALL : { accept: (match: TrieMatch) => !context.excluded.has(match.surface) };
    const memo = followsPrevious(context) ? (context.previous.memo.get('glossary_match') as GlossaryMemo | undefined) : undefined;
    const edit = scan.edit;
    const reusable = memo && edit && context.previous!.glossary === glossary && sameSet(context.previous!.excluded, context.excluded);
    const buffer = context.engine.walkBuffer;
    const result = reusable ? rewalk(glossary.trie, scan, rules, memo.walk, { from: edit.before, to: edit.after, shift: edit.shift }, buffer) : walkAll(glossary.trie, scan, rules, buffer);
    context.memo.set('glossary_match', { walk: result.walk, from: result.from, to: result.to } satisfies GlossaryMemo);

    const { tokens } = scan;
    const { first, last } = result.walk;
    const walk = result.walk;
    const consumed = context.consumed;
    for (let k = 0; k < first.length; k++) for (let t = first[k]!; t <= last[k]!; t++) consumed[t] = 1;
    // Each matched surface once: proposed, and given its occurrences in one array of the right size
    // (a 1 MB spec has thousands of matches of a few hundred surfaces).
    const groups = occurrencesBySurface(result.walk, tokens, glossary.trie.surfaceCount, context.engine.groups);
    for (let g = 0; g < groups.count; g++) {
      const name = glossary.trie.surfaceName(walk.id[groups.firstMatch[g]!]!);
      propose(context, name, 'glossary_match');
      context.occurrences.set(name, groups.pairs[g]!);
    }
  },
};

/** The rules of a walk that takes every match (no excluded term: most documents). */
const TAKE_ALL = { accept: () => true };

/**
 * Scratch arrays of `occurrencesBySurface`, lent by the engine (all of `slotOf` is -1 between
 * uses).
 */
export class GroupingScratch {
  slotOf = new Int32Array(0);
  firstMatch = new Int32Array(0);
  fill = new Int32Array(0);
}

/**
 * The occurrences of a walk's matches grouped by surface (flat [start, end) offset pairs, in
 * order), the surfaces in the order of their first match. Per match only typed-array reads and
 * writes: the slot of each surface number is kept in a scratch array, cleared again after. The
 * groups are views of one typed array: they are made anew at every keystroke (an edit moves the
 * offsets) and kept by the candidates until the next, and as arrays of their own they were a
 * sixth of what a keystroke on a 1 MB spec allocated in the heap.
 */
export function occurrencesBySurface(walk: Walk, tokens: DocumentScan['tokens'], surfaces: number, scratch: GroupingScratch): { count: number; firstMatch: Int32Array; pairs: Int32Array[] } {
  const { first, last, id } = walk;
  if (scratch.slotOf.length < surfaces) scratch.slotOf = new Int32Array(Math.max(surfaces, 2 * scratch.slotOf.length)).fill(-1);
  if (scratch.firstMatch.length < id.length) {
    scratch.firstMatch = new Int32Array(Math.max(id.length, 2 * scratch.firstMatch.length));
    scratch.fill = new Int32Array(scratch.firstMatch.length);
  }
  const { slotOf, firstMatch, fill } = scratch;
  let count = 0;
  for (let k = 0; k < id.length; k++) {
    let slot = slotOf[id[k]!]!;
    if (slot < 0) {
      slot = slotOf[id[k]!] = count++;
      firstMatch[slot] = k;
      fill[slot] = 0;
    }
    fill[slot]! += 2;
  }
  // Group g's pairs start at `fill[g]` of one array; `fill[g]` then counts them up to the next.
  const all = new Int32Array(2 * id.length);
  const pairs: Int32Array[] = new Array(count);
  for (let g = 0, at = 0; g < count; g++) {
    const size = fill[g]!;
    pairs[g] = all.subarray(at, at + size);
    fill[g] = at;
    at += size;
  }
  for (let k = 0; k < id.length; k++) {
    const slot = slotOf[id[k]!]!;
    all[fill[slot]!] = tokens.start[first[k]!]!;
    all[fill[slot]! + 1] = tokens.end[last[k]!]!;
    fill[slot]! += 2;
  }
  for (let g = 0; g < count; g++) slotOf[id[firstMatch[g]!]!] = -1;
  return { count, firstMatch: firstMatch.subarray(0, count), pairs };
}

/**
 * Where the tokens or their glossary-match marks (`consumed`) may differ from the previous
 * check's, as a token stretch; undefined when they cannot be compared.
 */
export function markedChange(context: CheckContext): WalkChange | undefined {
  const edit = context.scan.edit;
  if (!edit || !followsPrevious(context)) return undefined;
  const glossary = context.memo.get('glossary_match') as GlossaryMemo | undefined;
  // Without a glossary walk now, there must have been none before either: no token is marked.
  if (glossary === undefined && context.previous.memo.get('glossary_match') !== undefined) return undefined;
  return { from: Math.min(edit.before, glossary?.from ?? edit.before), to: Math.max(edit.after, glossary?.to ?? edit.after), shift: edit.shift };
}
