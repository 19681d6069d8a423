/**
 * Greedy longest-match walks of a word trie over the tokens (the glossary walk, and the walk that
 * locates every other proposed surface), and how to redo only part of one after an edit.
 *
 * A walk visits token i: unless `skip` marks it, the longest match starting there is taken when
 * `accept` allows it, and the walk goes on after the match; otherwise it goes on at i + 1. A match
 * starting at i reads at most `trie.depth` tokens, so positions more than `depth` tokens before an
 * edited stretch decide as before; after the stretch, once the walk visits a token the previous
 * walk visited too, everything from there on is the previous walk, shifted.
 */

import { grown, lowerBound } from '../text';
import type { DocumentScan } from './scan';
import type { SurfaceTrie, TrieMatch } from './trie';

/**
 * The accepted matches of a walk, in order. (Typed arrays: they are kept from one check of a
 * document to the next, and their contents live outside the heap the collector copies. A match's
 * surface is the trie's `surfaceName(id)`: an array of the surfaces, as long as the walk, was a
 * tenth of what a keystroke on a 1 MB spec left for the collector.)
 */
export interface Walk {
  first: Int32Array;
  last: Int32Array;
  /** The trie's number of each surface (`SurfaceTrie.surfaceId`). */
  id: Int32Array;
}

/**
 * Where a walk writes its matches before they are copied out at their final size. Walks never
 * run inside one another: an engine keeps one and lends it to every walk (see check/engineState.ts).
 */
export class WalkBuffer {
  first = new Int32Array(1024);
  last = new Int32Array(1024);
  id = new Int32Array(1024);
  count = 0;
  /** Scratch: the tokens where a match may start (`SurfaceTrie.startCandidates`). */
  starts = new Int32Array(1024);

  push(first: number, last: number, id: number): void {
    if (this.count === this.first.length) {
      this.first = grown(this.first, 2 * this.count);
      this.last = grown(this.last, 2 * this.count);
      this.id = grown(this.id, 2 * this.count);
    }
    this.first[this.count] = first;
    this.last[this.count] = last;
    this.id[this.count] = id;
    this.count++;
  }

  /** Empties the buffer (its room is kept). */
  reset(): void {
    this.count = 0;
  }
}

export interface WalkRules {
  /** Tokens the walk passes over without looking for a match. */
  skip?: Uint8Array;
  /** Whether a match found is taken (else the walk goes on at the next token). */
  accept(match: TrieMatch): boolean;
}

/** Where the tokens (or the skip marks) of this walk differ from those of the previous one. */
export interface WalkChange {
  /** New tokens [0, from) are the previous ones. */
  from: number;
  /** New tokens [to, count) are the previous tokens [to - shift, …). */
  to: number;
  shift: number;
}

export interface WalkResult {
  walk: Walk;
  /** The stretch of tokens walked again (the whole document for a full walk). */
  from: number;
  to: number;
}

export function emptyWalk(): Walk {
  return { first: new Int32Array(0), last: new Int32Array(0), id: new Int32Array(0) };
}

/** The whole walk; `buffer` is lent for its matches. */
export function walkAll(trie: SurfaceTrie, scan: DocumentScan, rules: WalkRules, buffer: WalkBuffer): WalkResult {
  buffer.reset();
  const to = walkFrom(trie, scan, rules, 0, buffer, undefined);
  const walk: Walk = { first: buffer.first.slice(0, buffer.count), last: buffer.last.slice(0, buffer.count), id: buffer.id.slice(0, buffer.count) };
  buffer.reset();
  return { walk, from: 0, to };
}

/** The walk of the edited tokens, reusing `previous` (the walk of the tokens before the edit). */
export function rewalk(trie: SurfaceTrie, scan: DocumentScan, rules: WalkRules, previous: Walk, change: WalkChange, buffer: WalkBuffer): WalkResult {
  const n = previous.first.length;
  // Restart `depth` tokens before the change, at a token the previous walk visited.
  let restart = Math.max(0, change.from - trie.depth);
  let k = lowerBound(previous.last, restart);
  if (k < n && previous.first[k]! < restart) restart = previous.first[k]!;
  // The matches of the stretch walked again; the whole walk is then put together at its final
  // size.
  buffer.reset();
  const region = buffer;
  // Converge at a token past the change that the previous walk visited (not inside one of its
  // matches): from there on the two walks agree.
  let j = k;
  const converged = (i: number): boolean => {
    if (i < change.to) return false;
    const q = i - change.shift;
    while (j < n && previous.last[j]! < q) j++;
    return !(j < n && previous.first[j]! < q);
  };
  const stop = walkFrom(trie, scan, rules, restart, region, converged);
  const tail = stop < scan.tokens.count ? n - j : 0;
  const r = region.count;
  const size = k + r + tail;
  // Made in the previous walk's arrays when they have room (the previous walk is not read again):
  // three new arrays as long as the walk per keystroke were most of the memory a keystroke on a
  // 1 MB spec took outside the heap. The matches after the stretch move (a move of memory), then
  // the stretch's are written before them.
  const walk = roomFor(previous, size, k, j, tail);
  walk.first.set(region.first.subarray(0, r), k);
  walk.last.set(region.last.subarray(0, r), k);
  walk.id.set(region.id.subarray(0, r), k);
  if (change.shift !== 0) {
    for (let m = k + r; m < size; m++) {
      walk.first[m]! += change.shift;
      walk.last[m]! += change.shift;
    }
  }
  buffer.reset();
  return { walk, from: restart, to: stop };
}

/**
 * Arrays for a walk of `size` matches: its first `keep` are `previous`'s first ones, the `tail`
 * at `size - tail` on are `previous`'s from `from` on (not yet shifted); the caller writes those
 * between. In `previous`'s own arrays when they have room (views of them: the walk keeps its
 * exact length), else in new ones with room to grow.
 */
function roomFor(previous: Walk, size: number, keep: number, from: number, tail: number): Walk {
  const capacity = previous.first.buffer.byteLength / Int32Array.BYTES_PER_ELEMENT;
  const inPlace = size <= capacity && previous.first.byteOffset === 0 && previous.last.byteOffset === 0 && previous.id.byteOffset === 0;
  const room = inPlace ? capacity : size + (size >> 3) + 64;
  const make = (array: Int32Array): Int32Array => {
    let all: Int32Array;
    if (inPlace) {
      // (Over the whole buffer: the tail may move past the previous walk's end.)
      all = new Int32Array(array.buffer, 0, capacity);
      all.copyWithin(size - tail, from, from + tail);
    } else {
      all = new Int32Array(room);
      all.set(array.subarray(0, keep));
      all.set(array.subarray(from, from + tail), size - tail);
    }
    return all.length === size ? all : all.subarray(0, size);
  };
  return { first: make(previous.first), last: make(previous.last), id: make(previous.id) };
}

/** Walks from token `from` until `stop` says so (or the end); returns where it stopped. */
function walkFrom(trie: SurfaceTrie, scan: DocumentScan, rules: WalkRules, from: number, out: WalkBuffer, stop: ((i: number) => boolean) | undefined): number {
  const { tokens, masked, text, lexicon } = scan;
  if (trie.isEmpty) {
    for (let i = from; i < tokens.count; i++) if (stop && stop(i)) return i;
    return tokens.count;
  }
  const skip = rules.skip;
  const match: TrieMatch = { surface: '', id: -1, first: 0, last: 0 };
  if (!stop) {
    // The tokens where a match may start, then only those: the same matches (see startCandidates).
    if (out.starts.length < tokens.count - from) out.starts = new Int32Array(Math.max(tokens.count - from, 2 * out.starts.length));
    const starts = out.starts;
    const n = trie.startCandidates(tokens, lexicon, skip, from, tokens.count, starts);
    let next = from; // the first token not inside a match taken
    for (let k = 0; k < n; k++) {
      const i = starts[k]!;
      if (i < next || !trie.matchInto(tokens, i, masked, text, lexicon, match) || !rules.accept(match)) continue;
      out.push(match.first, match.last, match.id);
      next = match.last + 1;
    }
    return tokens.count;
  }
  const flags = trie.startFlags(lexicon);
  const words = tokens.word;
  for (let i = from; i < tokens.count; i++) {
    if (stop(i)) return i;
    if ((skip && skip[i]) || flags[words[i]!] === 1) continue;
    if (!trie.matchInto(tokens, i, masked, text, lexicon, match) || !rules.accept(match)) continue;
    out.push(match.first, match.last, match.id);
    // The tokens inside the match are passed over; a stop can only fall on a visited token.
    i = match.last;
  }
  return tokens.count;
}

