/**
 * Word trie over normalized surfaces, walked token by token: whole words only, case-insensitive,
 * plural and possessive forms of the last word accepted, longest match first. What a word can do
 * at the root (start a surface, be a whole surface, be a plural of one) is worked out once per
 * word of the document's lexicon, so the walk costs one array read for most tokens and stays flat
 * as the glossary grows.
 */

import { grown } from '../text';
import type { Lexicon } from './lexicon';
import { isWhitespaceGap, SHAPE_ACRONYM_PLURAL, type Tokens } from './tokens';

interface TrieNode {
  /** Created with the first child: most nodes of a big glossary's trie are leaves. */
  children: Map<string, TrieNode> | undefined;
  /** Number of children (a field: Map#size is a slow getter in the hottest loop). */
  fanout: number;
  /** Children whose key is " word" (a whitespace separator), keyed by the bare word. */
  spaced: Map<string, TrieNode> | undefined;
  /** Surface (normalized) that ends at this node, if any. */
  terminal: string | undefined;
  /** Its number (`SurfaceTrie.surfaceId`), -1 when there is none. */
  terminalId: number;
  /** Whether a child's key starts with punctuation ("-driven"): only then is a punctuation gap read. */
  joined: boolean;
}

const WORD_SPLIT = /[A-Za-z0-9_\u00C0-\u024F]+(?:['\u2019][A-Za-z\u00C0-\u024F]+)*/g;

export interface TrieMatch {
  surface: string;
  /** The surface's number (`SurfaceTrie.surfaceId`). */
  id: number;
  /** Index of the first and last token of the match. */
  first: number;
  last: number;
}

/** Root lookups of one trie for the words of one lexicon. */
class RootCache {
  constructor(readonly version: number) {}

  /**
   * 0: not computed; 1: the word can start no match; 2: it may; 3: only when the next word, after
   * a space, can be the second word of a phrase it starts (the word is no surface itself, and no
   * phrase goes on from it after punctuation), which `startCandidates` checks without a call.
   */
  flags = new Uint8Array(0);
  exact: (TrieNode | undefined)[] = [];
  /** Terminal reached by the word or, failing that, by its singular. */
  terminal: (string | undefined)[] = [];
  /** Terminal reached by the word without its final "s" (acronym plurals such as "APIs"). */
  acronym: (string | undefined)[] = [];
  /** The numbers of `terminal` and `acronym`. */
  terminalId = new Int32Array(0);
  acronymId = new Int32Array(0);
  /** 0: not computed; 1: no form of the word follows a space in any phrase; 2: one may. */
  follows = new Uint8Array(0);
  /** Set with `follows`: the bits of the first words of the phrases a form of the word can be the second word of. */
  second = new Int32Array(0);
  /** The bit of a word of flag 3 (the first word of phrases only; see `SurfaceTrie.startBit`). */
  starter = new Int32Array(0);

  ensure(size: number): void {
    if (this.flags.length >= size) return;
    const length = Math.max(size, this.flags.length * 2, 256);
    this.flags = grown(this.flags, length);
    this.follows = grown(this.follows, length);
    this.second = grown(this.second, length);
    this.starter = grown(this.starter, length);
    this.terminalId = grown(this.terminalId, length);
    this.acronymId = grown(this.acronymId, length);
  }
}

function node(): TrieNode {
  // Every field set up front: one object shape for all nodes keeps property access fast.
  return { children: undefined, fanout: 0, spaced: undefined, terminal: undefined, terminalId: -1, joined: false };
}

export class SurfaceTrie {
  private readonly root: TrieNode = node();
  private size = 0;
  /** Words that follow a space in some phrase ("package" of "work package"). */
  private readonly followers = new Set<string>();
  /**
   * For a phrase's second word (after a space): the bits of the first words it follows. A first
   * word's bit is one of 31 (`startBit`), so two first words may share one: a pair that looks
   * possible is then tried and found not to match, never the other way round.
   */
  private readonly seconds = new Map<string, number>();
  private readonly startBits = new Map<string, number>();
  private longest = 0;
  /** Bumped by `add`, so lookups cached before are not used after. */
  private version = 0;
  private lastLexicon: Lexicon | undefined;
  private lastCache: RootCache | undefined;
  /** A small number for each surface a match can give (0, 1, 2, … in the order first added). */
  private readonly surfaceIds = new Map<string, number>();

  /** The number of a surface matches can give (see `surfaceCount`); -1 for any other string. */
  surfaceId(surface: string): number {
    return this.surfaceIds.get(surface) ?? -1;
  }

  /** How many surfaces matches can give: their numbers are 0 … surfaceCount - 1. */
  get surfaceCount(): number {
    return this.surfaceIds.size;
  }

  get isEmpty(): boolean {
    return this.size === 0;
  }

  /** The most tokens a match can span (words of the longest phrase). */
  get depth(): number {
    return this.longest;
  }

  /**
   * Add a key phrase that resolves to `surface`. Phrases whose words are separated by anything
   * other than spaces (e.g. "ci/cd") are stored with the separator folded into the next word.
   */
  add(phrase: string, surface: string): void {
    const words = splitPhrase(phrase);
    if (words.length === 0) return;
    this.longest = Math.max(this.longest, words.length);
    this.version++;
    let current = this.root;
    if (words.length > 1 && words[1]!.charCodeAt(0) === 32) {
      const second = words[1]!.slice(1);
      this.seconds.set(second, (this.seconds.get(second) ?? 0) | this.startBit(words[0]!));
    }
    for (const word of words) {
      let child = current.children?.get(word);
      if (!child) {
        child = node();
        (current.children ??= new Map()).set(word, child);
        current.fanout++;
        if (word.charCodeAt(0) === 32) {
          (current.spaced ??= new Map()).set(word.slice(1), child);
          this.followers.add(word.slice(1));
        } else if (current !== this.root) {
          current.joined = true;
        }
      }
      current = child;
    }
    if (!this.surfaceIds.has(surface)) this.surfaceIds.set(surface, this.surfaceIds.size);
    // First registration wins: a glossary surface is never overridden by a synonym pointing elsewhere.
    if (current.terminal === undefined) {
      this.size++;
      current.terminal = surface;
      current.terminalId = this.surfaceIds.get(surface)!;
    }
  }

  /**
   * The longest match starting at token `i`, written into `into` (no allocation); false when there
   * is none. `masked` holds the masked code units of `text`, the document the tokens index into;
   * `lexicon` holds their words.
   */
  matchInto(tokens: Tokens, i: number, masked: Uint16Array, text: string, lexicon: Lexicon, into: TrieMatch): boolean {
    const cache = this.rootCache(lexicon);
    const w = tokens.word[i]!;
    let flag = cache.flags[w]!;
    if (flag === 0) flag = this.computeRoot(cache, lexicon, w);
    if (flag === 1) return false;

    let found = false;
    let current = cache.exact[w];
    let first = cache.terminal[w];
    let firstId = cache.terminalId[w]!;
    if (first === undefined && (tokens.shape[i]! & SHAPE_ACRONYM_PLURAL) !== 0) {
      first = cache.acronym[w];
      firstId = cache.acronymId[w]!;
    }
    if (first !== undefined) {
      into.surface = first;
      into.id = firstId;
      into.first = into.last = i;
      found = true;
    }
    for (let j = i + 1; j < tokens.count && current !== undefined && current.fanout > 0; j++) {
      const gapStart = tokens.end[j - 1]!;
      const gapEnd = tokens.start[j]!;
      const wj = tokens.word[j]!;
      let separator: string;
      let exact: TrieNode | undefined;
      let end: TrieNode | undefined;
      if (isWhitespaceGap(masked, gapStart, gapEnd)) {
        separator = ' ';
      } else if (gapEnd - gapStart === 1 && masked[gapStart] === 45 && current.spaced !== undefined && !(current.joined && this.continues(current, '-', wj, j, tokens, lexicon))) {
        // A multi-word surface also matches its hyphen-joined form (SPEC §5: "work-package" is
        // "work package"), unless a surface is spelt with that hyphen ("spec-driven").
        separator = ' ';
      } else if (gapEnd - gapStart <= 3 && current.joined && isPunctuationGap(masked, gapStart, gapEnd)) {
        // (No phrase goes on from here after punctuation: no need to read the separator.)
        separator = text.slice(gapStart, gapEnd);
      } else break;
      if (separator === ' ') {
        // Most words follow a space in no phrase at all: then nothing can go on from here.
        let follows = cache.follows[wj]!;
        if (follows === 0) follows = this.computeFollows(cache, lexicon, wj);
        if (follows === 1) break;
      }
      const bare = lexicon.words[wj]!;
      exact = child(current, separator, bare);
      end = exact?.terminal !== undefined ? exact : undefined;
      if (end === undefined && bare.charCodeAt(bare.length - 1) === 115) end = this.pluralEnd(current, separator, wj, j, tokens, lexicon);
      if (end?.terminal !== undefined) {
        into.surface = end.terminal;
        into.id = end.terminalId;
        into.first = i;
        into.last = j;
        found = true;
      }
      current = exact;
    }
    return found;
  }

  /** The node a plural form of word `wj` (token j) ends a surface at after `separator`, if any. */
  private pluralEnd(current: TrieNode, separator: string, wj: number, j: number, tokens: Tokens, lexicon: Lexicon): TrieNode | undefined {
    // Forms a document word may take when it ends a surface: plural, acronym plural ("APIs").
    const bare = lexicon.words[wj]!;
    const singular = lexicon.singular(wj);
    let end = singular !== bare ? child(current, separator, singular) : undefined;
    if (end?.terminal === undefined && (tokens.shape[j]! & SHAPE_ACRONYM_PLURAL) !== 0) end = child(current, separator, bare.slice(0, -1));
    return end;
  }

  /** Whether a phrase goes on from `current` with word `wj` (token j, any form) after `separator`. */
  private continues(current: TrieNode, separator: string, wj: number, j: number, tokens: Tokens, lexicon: Lexicon): boolean {
    return child(current, separator, lexicon.words[wj]!) !== undefined || this.pluralEnd(current, separator, wj, j, tokens, lexicon)?.terminal !== undefined;
  }

  /**
   * For each word id of `lexicon`: 0 not yet known, 1 the word starts no match (so `matchInto`
   * would find none), 2 or 3 it may. Lets a walk skip most tokens without a call.
   */
  startFlags(lexicon: Lexicon): Uint8Array {
    return this.rootCache(lexicon).flags;
  }

  /**
   * The tokens [from, to) where a match may start, written into `out` (room for `to - from`);
   * returns how many. Tokens `skip` marks are left out. A token is left out only when `matchInto`
   * would find nothing there.
   *
   * Why a pass of its own: whether a token may start a match is close to random from one token
   * to the next, so a walk that tests each one in turn pays a mispredicted branch on a large share
   * of them; this pass decides with arithmetic and only counts. It also drops a phrase's first
   * word ("the" of "the section") when the next word cannot be the phrase's second.
   */
  startCandidates(tokens: Tokens, lexicon: Lexicon, skip: Uint8Array | undefined, from: number, to: number, out: Int32Array): number {
    const cache = this.rootCache(lexicon);
    const { flags, follows, second, starter } = cache;
    const words = tokens.word;
    let n = 0;
    // Every token but the document's last has a next one.
    const last = Math.min(to, tokens.count - 1);
    for (let i = from; i < last; i++) {
      const w = words[i]!;
      let flag = flags[w]!;
      if (flag === 0) flag = this.computeRoot(cache, lexicon, w);
      out[n] = i;
      // flags 2 and 3 → 1, flag 1 → 0.
      const may = flag >> 1;
      n += skip ? may & (skip[i]! ^ 1) : may;
    }
    // Then, of the first words of phrases (flag 3, odd), only those the next word can follow
    // (bit 31 is never set: (pair | -pair) >>> 31 is 1 exactly when pair is not 0). A pass over the
    // tokens kept rather than more reads for every token in the loop above.
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const i = out[k]!;
      const w = words[i]!;
      const wn = words[i + 1]!;
      if (follows[wn] === 0) this.computeFollows(cache, lexicon, wn);
      const pair = second[wn]! & starter[w]!;
      out[kept] = i;
      kept += ((flags[w]! & 1) ^ 1) | ((pair | -pair) >>> 31);
    }
    n = kept;
    if (last >= from && last < to) {
      // The last token: a phrase's first word cannot start a match there.
      const w = words[last]!;
      let flag = flags[w]!;
      if (flag === 0) flag = this.computeRoot(cache, lexicon, w);
      out[n] = last;
      if (flag === 2 && !(skip && skip[last])) n++;
    }
    return n;
  }

  private rootCache(lexicon: Lexicon): RootCache {
    let cache = this.lastCache;
    if (lexicon !== this.lastLexicon || cache === undefined || cache.version !== this.version) cache = this.switchLexicon(lexicon);
    cache.ensure(lexicon.size);
    return cache;
  }

  // (Apart from rootCache, which runs for every token a walk looks at: a closure in it would make
  // V8 allocate a context on each of those calls.)
  private switchLexicon(lexicon: Lexicon): RootCache {
    let cache = lexicon.cache(this, () => new RootCache(this.version));
    if (cache.version !== this.version) lexicon.setCache(this, (cache = new RootCache(this.version)));
    this.lastLexicon = lexicon;
    this.lastCache = cache;
    return cache;
  }

  /** The bit of a phrase's first word (one of 31, in the order first words come). */
  private startBit(first: string): number {
    let bit = this.startBits.get(first);
    if (bit === undefined) this.startBits.set(first, (bit = 1 << this.startBits.size % 31));
    return bit;
  }

  private computeFollows(cache: RootCache, lexicon: Lexicon, w: number): number {
    const bare = lexicon.words[w]!;
    let may = this.followers.has(bare);
    let second = this.seconds.get(bare) ?? 0;
    if (bare.charCodeAt(bare.length - 1) === 115) {
      // The forms a word may take when it ends a phrase (see matchInto): plural, acronym plural.
      const singular = lexicon.singular(w);
      const cut = bare.slice(0, -1);
      may ||= this.followers.has(singular) || this.followers.has(cut);
      second |= (this.seconds.get(singular) ?? 0) | (this.seconds.get(cut) ?? 0);
    }
    const follows = may ? 2 : 1;
    cache.follows[w] = follows;
    cache.second[w] = second;
    return follows;
  }

  private computeRoot(cache: RootCache, lexicon: Lexicon, w: number): number {
    const bare = lexicon.words[w]!;
    const exact = this.root.children?.get(bare);
    let end = exact?.terminal !== undefined ? exact : undefined;
    let acronym: TrieNode | undefined;
    if (end === undefined && bare.charCodeAt(bare.length - 1) === 115) {
      const singular = lexicon.singular(w);
      if (singular !== bare) end = this.root.children?.get(singular);
      acronym = this.root.children?.get(bare.slice(0, -1));
    }
    const terminal = end?.terminal;
    cache.exact[w] = exact;
    cache.terminal[w] = terminal;
    cache.terminalId[w] = terminal !== undefined ? end!.terminalId : -1;
    cache.acronym[w] = acronym?.terminal;
    cache.acronymId[w] = acronym?.terminal !== undefined ? acronym.terminalId : -1;
    let flag = 1;
    if (terminal !== undefined || acronym?.terminal !== undefined || exact?.joined) flag = 2;
    else if (exact !== undefined && exact.fanout > 0) {
      flag = 3;
      // (Every first word of flag 3 has a bit; all bits, should one not, only costs a try.)
      cache.starter[w] = this.startBits.get(bare) ?? 0x7fffffff;
    }
    cache.flags[w] = flag;
    return flag;
  }
}

function child(parent: TrieNode, separator: string, word: string): TrieNode | undefined {
  return separator === ' ' ? parent.spaced?.get(word) : parent.children?.get(separator + word);
}

/**
 * Trie keys of a phrase: the first word, then each later word prefixed by its separator (" " for
 * any whitespace, else the literal punctuation, e.g. "-driven" in "spec-driven").
 */
export function splitPhrase(phrase: string): string[] {
  const lower = phrase.toLowerCase().trim();
  const keys: string[] = [];
  let previousEnd = -1;
  let firstStart = 0;
  WORD_SPLIT.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WORD_SPLIT.exec(lower)) !== null) {
    if (previousEnd < 0) {
      keys.push(match[0]);
      firstStart = match.index;
    } else {
      const gap = lower.slice(previousEnd, match.index);
      keys.push((/^\s+$/.test(gap) ? ' ' : gap) + match[0]);
    }
    previousEnd = match.index + match[0].length;
  }
  // Letters the tokenizer does not know (CJK, Greek, …) before the first or after the last word
  // would be dropped, and "a一" would match every "a": such a phrase cannot be matched at all.
  if (keys.length > 0 && OTHER_LETTER.test(lower.slice(0, firstStart) + lower.slice(previousEnd))) return [];
  return keys;
}

const OTHER_LETTER = /[\p{L}\p{N}]/u;

function isPunctuationGap(masked: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = masked[i]!;
    // - / . + & : only; never the mask, quotes or brackets.
    if (c !== 45 && c !== 47 && c !== 46 && c !== 43 && c !== 38 && c !== 58) return false;
  }
  return true;
}
