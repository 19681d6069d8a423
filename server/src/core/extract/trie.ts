/**
 * Word trie over normalized surfaces, walked token by token: whole words only, case-insensitive,
 * plural and possessive forms of the last word accepted, longest match first. What a word can do
 * at the root (start a surface, be a whole surface, be a plural of one) is worked out once per
 * word of the document's lexicon, so the walk costs one array read for most tokens and stays flat
 * as the glossary grows.
 *
 * Nodes are numbers and their edges live in one open-addressing table keyed by (parent, key),
 * the keys interned once per distinct word: about 35 bytes per word of a surface, so a glossary
 * of long multi-word surfaces takes memory in proportion to its text (an object and two maps per
 * node took ~500 bytes per word: a 3.6 MB seed of long phrases held ~150 MB of trie, issue 19).
 */

import { grown } from '../text';
import type { Lexicon } from './lexicon';
import { irregularPluralOf, mayBePlural, pluralStem } from '../normalize';
import { isWhitespaceGap, SHAPE_ACRONYM_PLURAL, type Tokens } from './tokens';

/** The root node's number; no edge leads to it, so 0 also means "no node" where one is stored. */
const ROOT = 0;
/** No node (what a missing edge gives). */
const NONE = -1;
/** Node flags: a child's key starts with punctuation ("-driven"): only then is a punctuation gap read. */
const JOINED = 1;
/** Node flags: some child follows a space ("package" of "work package"). */
const SPACED = 2;

const WORD_SPLIT = /[A-Za-z0-9_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F]+(?:['\u2019][A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F]+)*/.source;

export interface TrieMatch {
  surface: string;
  /** The surface's number (`SurfaceTrie.surfaceId`). */
  id: number;
  /** Index of the first and last token of the match. */
  first: number;
  last: number;
}

/** Root lookups of one trie (`owner`, at its `version`) for the words of one lexicon. */
class RootCache {
  owner: SurfaceTrie | undefined;
  lexicon: Lexicon | undefined;
  constructor(public version: number) {}

  /**
   * 0: not computed; 1: the word can start no match; 2: it may; 3: only when the next word, after
   * a space, can be the second word of a phrase it starts (the word is no surface itself, and no
   * phrase goes on from it after punctuation), which `startCandidates` checks without a call.
   */
  flags = new Uint8Array(0);
  /**
   * The root's child keyed by the word, as its node number (0, the root's, for none). (Typed
   * arrays as long as the lexicon cost no collector time and can be shared, see SharedRootLookups.)
   */
  exact = new Int32Array(0);
  /** The number of the surface reached by the word or, failing that, by its singular; -1: none. */
  terminalId = new Int32Array(0);
  /** The number of the surface reached by the word without its final "s" (acronym plurals such as "APIs"); -1: none. */
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
    this.exact = grown(this.exact, length);
    this.follows = grown(this.follows, length);
    this.second = grown(this.second, length);
    this.starter = grown(this.starter, length);
    this.terminalId = grown(this.terminalId, length);
    this.acronymId = grown(this.acronymId, length);
  }
}

/**
 * One set of root lookups shared by tries used one after another, such as the tries of the
 * surfaces proposed in each document: a trie that takes it empties it (its arrays are as long as
 * the lexicon; a set of them for every such trie was most of what checking many documents
 * allocated). The engine keeps one (check/engineState.ts).
 */
export class SharedRootLookups {
  private readonly cache = new RootCache(0);

  /**
   * The lookups, emptied for `owner` at `version` and `lexicon`. Such a trie holds a few hundred
   * surfaces: of the words the lexicon already holds, only the forms of its first words (see
   * `SurfaceTrie.rootForms`) can start a match, so every other word is marked as starting none
   * at once, instead of being looked up in the trie one by one as the walk meets it (for a
   * 20 KB spec, thousands of look-ups per new trie). Words the lexicon learns later are looked
   * up as usual.
   */
  take(owner: SurfaceTrie, lexicon: Lexicon, version: number): RootCache {
    const cache = this.cache;
    cache.owner = owner;
    cache.lexicon = lexicon;
    cache.version = version;
    cache.ensure(lexicon.size);
    // (Only these two say what is worked out; the other arrays are read only where they do.)
    cache.flags.fill(1, 0, lexicon.size);
    cache.flags.fill(0, lexicon.size);
    cache.follows.fill(0);
    for (const form of owner.rootForms()) {
      const id = lexicon.lookup(form);
      if (id >= 0) cache.flags[id] = 0;
    }
    return cache;
  }
}

export class SurfaceTrie {
  /**
   * `shared`: root lookups to share with other tries (see SharedRootLookups); without, the trie
   * keeps its own per lexicon (a glossary's trie, used for every document).
   */
  constructor(private readonly shared?: SharedRootLookups) {}

  /** Per node: the number of the surface that ends there (-1: none), its children, JOINED | SPACED. */
  private terminalIds = new Int32Array(64).fill(NONE);
  private fanouts = new Int32Array(64);
  private nodeFlags = new Uint8Array(64);
  private nodeCount = 1;
  /** Edges: open addressing on (parent, key), `edgeChild` 0 for a free slot. */
  private edgeParent = new Int32Array(64);
  private edgeKey = new Int32Array(64);
  private edgeChild = new Int32Array(64);
  private edgeCount = 0;
  /**
   * Edge keys, interned: a word after a space or at the root as it is ("package"), a word after
   * punctuation with it ("-driven"; never equal to a word, which starts with a letter or digit).
   */
  private readonly keyIds = new Map<string, number>();
  /** The distinct first words of the surfaces (the root's keys). */
  private readonly firstWords: string[] = [];
  /** The surfaces matches can give, by their number (`surfaceId`). */
  private readonly surfaceNames: string[] = [];
  private size = 0;
  /** Per interned key: 1 when the word follows a space in some phrase ("package" of "work package"). */
  private follower = new Uint8Array(64);
  /**
   * Per interned key, for a phrase's second word (after a space): the bits of the first words it
   * follows. A first word's bit is one of 31 (`startBitOf`), so two first words may share one: a
   * pair that looks possible is then tried and found not to match, never the other way round.
   */
  private secondBits = new Int32Array(64);
  /** Per interned key of a phrase's first word: its bit (0: none yet). */
  private startBitOf = new Int32Array(64);
  private startBitCount = 0;
  private longest = 0;
  /** Bumped by `add`, so lookups cached before are not used after. */
  private version = 0;
  private lastCache: RootCache | undefined;
  /** A small number for each surface a match can give (0, 1, 2, … in the order first added). */
  private readonly surfaceIds = new Map<string, number>();
  /** The number of a surface matches can give (see `surfaceCount`); -1 for any other string. */
  surfaceId(surface: string): number {
    return this.surfaceIds.get(surface) ?? -1;
  }

  /** The surface numbered `id` (`surfaceId`). */
  surfaceName(id: number): string {
    return this.surfaceNames[id]!;
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

  /** Nodes in the trie, the root included: at most one per word of the phrases added, plus one. */
  get nodes(): number {
    return this.nodeCount;
  }

  /** Distinct words (with their separator when it is punctuation) on the trie's edges. */
  get keys(): number {
    return this.keyIds.size;
  }

  /** Bytes of the trie's node, edge and key tables (the interned key strings and surface names come on top). */
  get tableBytes(): number {
    const tables = [this.terminalIds, this.fanouts, this.nodeFlags, this.edgeParent, this.edgeKey, this.edgeChild, this.follower, this.secondBits, this.startBitOf];
    return tables.reduce((sum, table) => sum + table.byteLength, 0);
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
    let current = ROOT;
    let firstKey = 0;
    for (let k = 0; k < words.length; k++) {
      const word = words[k]!;
      const spaced = word.charCodeAt(0) === 32;
      const keyId = this.intern(spaced ? word.slice(1) : word);
      if (k === 0) firstKey = keyId;
      else if (k === 1 && spaced) this.secondBits[keyId]! |= this.startBit(firstKey);
      let next = this.childOf(current, keyId);
      if (next === NONE) {
        next = this.addNode();
        this.addEdge(current, keyId, next);
        this.fanouts[current]!++;
        if (current === ROOT) this.firstWords.push(spaced ? word.slice(1) : word);
        else if (spaced) {
          this.nodeFlags[current]! |= SPACED;
          this.follower[keyId] = 1;
        } else this.nodeFlags[current]! |= JOINED;
      }
      current = next;
    }
    let surfaceId = this.surfaceIds.get(surface);
    if (surfaceId === undefined) {
      this.surfaceIds.set(surface, (surfaceId = this.surfaceIds.size));
      this.surfaceNames.push(surface);
    }
    // First registration wins: a glossary surface is never overridden by a synonym pointing elsewhere.
    if (this.terminalIds[current] === NONE) {
      this.size++;
      this.terminalIds[current] = surfaceId;
    }
  }

  /** The number of an edge key (1, 2, …), given on first use. */
  private intern(key: string): number {
    let keyId = this.keyIds.get(key);
    if (keyId === undefined) {
      this.keyIds.set(key, (keyId = this.keyIds.size + 1));
      if (keyId === this.follower.length) {
        this.follower = grown(this.follower, keyId * 2);
        this.secondBits = grown(this.secondBits, keyId * 2);
        this.startBitOf = grown(this.startBitOf, keyId * 2);
      }
    }
    return keyId;
  }

  private addNode(): number {
    const id = this.nodeCount++;
    if (id === this.terminalIds.length) {
      const length = id * 2;
      const terminals = new Int32Array(length).fill(NONE);
      terminals.set(this.terminalIds);
      this.terminalIds = terminals;
      this.fanouts = grown(this.fanouts, length);
      this.nodeFlags = grown(this.nodeFlags, length);
    }
    return id;
  }

  private addEdge(parent: number, keyId: number, child: number): void {
    // (At most three quarters full: linear probing stays short, and the table small.)
    if ((this.edgeCount + 1) * 4 > this.edgeChild.length * 3) this.growEdges();
    this.edgeCount++;
    this.place(parent, keyId, child);
  }

  private place(parent: number, keyId: number, child: number): void {
    const mask = this.edgeChild.length - 1;
    let slot = edgeHash(parent, keyId) & mask;
    while (this.edgeChild[slot] !== 0) slot = (slot + 1) & mask;
    this.edgeParent[slot] = parent;
    this.edgeKey[slot] = keyId;
    this.edgeChild[slot] = child;
  }

  private growEdges(): void {
    const [parents, keys, children] = [this.edgeParent, this.edgeKey, this.edgeChild];
    const length = children.length * 2;
    this.edgeParent = new Int32Array(length);
    this.edgeKey = new Int32Array(length);
    this.edgeChild = new Int32Array(length);
    for (let slot = 0; slot < children.length; slot++) if (children[slot] !== 0) this.place(parents[slot]!, keys[slot]!, children[slot]!);
  }

  /** The child of `parent` under key `keyId`; NONE when there is none. */
  private childOf(parent: number, keyId: number): number {
    const children = this.edgeChild;
    const mask = children.length - 1;
    for (let slot = edgeHash(parent, keyId) & mask; ; slot = (slot + 1) & mask) {
      const child = children[slot]!;
      if (child === 0) return NONE;
      if (this.edgeParent[slot] === parent && this.edgeKey[slot] === keyId) return child;
    }
  }

  /** The child of `parent` for `word` after `separator` (" " for any white space); NONE when there is none. */
  private child(parent: number, separator: string, word: string): number {
    const keyId = this.keyIds.get(separator === ' ' ? word : separator + word);
    return keyId === undefined ? NONE : this.childOf(parent, keyId);
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
    const rootChild = cache.exact[w]!;
    let current = rootChild > 0 ? rootChild : NONE;
    let firstId = cache.terminalId[w]!;
    if (firstId < 0 && (tokens.shape[i]! & SHAPE_ACRONYM_PLURAL) !== 0) firstId = cache.acronymId[w]!;
    if (firstId >= 0) {
      into.surface = this.surfaceNames[firstId]!;
      into.id = firstId;
      into.first = into.last = i;
      found = true;
    }
    const flags = this.nodeFlags;
    for (let j = i + 1; j < tokens.count && current !== NONE && this.fanouts[current]! > 0; j++) {
      const gapStart = tokens.end[j - 1]!;
      const gapEnd = tokens.start[j]!;
      const wj = tokens.word[j]!;
      let separator: string;
      if (isWhitespaceGap(masked, gapStart, gapEnd)) {
        separator = ' ';
      } else if (gapEnd - gapStart === 1 && masked[gapStart] === 45 && (flags[current]! & SPACED) !== 0 && !((flags[current]! & JOINED) !== 0 && this.continues(current, '-', wj, j, tokens, lexicon))) {
        // A multi-word surface also matches its hyphen-joined form (SPEC §5: "work-package" is
        // "work package"), unless a surface is spelt with that hyphen ("spec-driven").
        separator = ' ';
      } else if (gapEnd - gapStart <= 3 && (flags[current]! & JOINED) !== 0 && isPunctuationGap(masked, gapStart, gapEnd)) {
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
      const exact = this.child(current, separator, bare);
      let end = exact !== NONE && this.terminalIds[exact] !== NONE ? exact : NONE;
      if (end === NONE && mayBePlural(bare)) end = this.pluralEnd(current, separator, wj, j, tokens, lexicon);
      if (end !== NONE && this.terminalIds[end] !== NONE) {
        const id = this.terminalIds[end]!;
        into.surface = this.surfaceNames[id]!;
        into.id = id;
        into.first = i;
        into.last = j;
        found = true;
      }
      current = exact;
    }
    return found;
  }

  /** The node a plural form of word `wj` (token j) ends a surface at after `separator`; NONE when there is none. */
  private pluralEnd(current: number, separator: string, wj: number, j: number, tokens: Tokens, lexicon: Lexicon): number {
    // Forms a document word may take when it ends a surface: plural, acronym plural ("APIs"), a
    // plural `singularize` does not give ("scenarios", "canvases", "criteria": see pluralStem).
    const bare = lexicon.words[wj]!;
    const singular = lexicon.singular(wj);
    let end = singular !== bare ? this.child(current, separator, singular) : NONE;
    if ((end === NONE || this.terminalIds[end] === NONE) && (tokens.shape[j]! & SHAPE_ACRONYM_PLURAL) !== 0) end = this.child(current, separator, bare.slice(0, -1));
    if (end === NONE || this.terminalIds[end] === NONE) {
      const stem = pluralStem(bare);
      if (stem !== undefined) end = this.child(current, separator, stem);
    }
    return end;
  }

  /** Whether a phrase goes on from `current` with word `wj` (token j, any form) after `separator`. */
  private continues(current: number, separator: string, wj: number, j: number, tokens: Tokens, lexicon: Lexicon): boolean {
    if (this.child(current, separator, lexicon.words[wj]!) !== NONE) return true;
    const end = this.pluralEnd(current, separator, wj, j, tokens, lexicon);
    return end !== NONE && this.terminalIds[end] !== NONE;
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
    // (A shared cache may have been taken by another trie since.)
    if (cache === undefined || cache.owner !== this || cache.lexicon !== lexicon || cache.version !== this.version) cache = this.switchLexicon(lexicon);
    cache.ensure(lexicon.size);
    return cache;
  }

  // (Apart from rootCache, which runs for every token a walk looks at: a closure in it would make
  // V8 allocate a context on each of those calls.)
  private switchLexicon(lexicon: Lexicon): RootCache {
    let cache: RootCache;
    if (this.shared) {
      cache = this.shared.take(this, lexicon, this.version);
    } else {
      cache = lexicon.cache(this, () => new RootCache(this.version));
      if (cache.version !== this.version) lexicon.setCache(this, (cache = new RootCache(this.version)));
      cache.owner = this;
      cache.lexicon = lexicon;
    }
    this.lastCache = cache;
    return cache;
  }

  /**
   * Every word that can start a match, as the lexicon holds it (lowercase): each first word of a
   * surface, and the forms whose singular (`singularize`), acronym singular ("APIs") or
   * irregular singular ("criteria") it is.
   */
  rootForms(): string[] {
    const forms: string[] = [];
    for (const first of this.firstWords) {
      forms.push(first, first + 's', first + 'es');
      if (first.endsWith('y')) forms.push(first.slice(0, -1) + 'ies');
      const irregular = irregularPluralOf(first);
      if (irregular !== undefined) forms.push(irregular);
    }
    return forms;
  }

  /** The bit of a phrase's first word, by its key (one of 31, in the order first words come). */
  private startBit(firstKey: number): number {
    let bit = this.startBitOf[firstKey]!;
    if (bit === 0) this.startBitOf[firstKey] = bit = 1 << this.startBitCount++ % 31;
    return bit;
  }

  /** Whether `word` follows a space in some phrase, and the bits of the first words it is the second of. */
  private followFacts(word: string): number {
    const keyId = this.keyIds.get(word);
    // (Bit 31 of the bits is never set: it marks a follower here.)
    return keyId === undefined ? 0 : (this.follower[keyId]! << 31) | this.secondBits[keyId]!;
  }

  private computeFollows(cache: RootCache, lexicon: Lexicon, w: number): number {
    const bare = lexicon.words[w]!;
    let facts = this.followFacts(bare);
    if (mayBePlural(bare)) {
      // The forms a word may take when it ends a phrase (see matchInto): plural, acronym plural.
      const stem = pluralStem(bare);
      facts |= this.followFacts(lexicon.singular(w)) | this.followFacts(bare.slice(0, -1)) | (stem !== undefined ? this.followFacts(stem) : 0);
    }
    const follows = facts < 0 ? 2 : 1;
    cache.follows[w] = follows;
    cache.second[w] = facts & 0x7fffffff;
    return follows;
  }

  private computeRoot(cache: RootCache, lexicon: Lexicon, w: number): number {
    const bare = lexicon.words[w]!;
    const exact = this.child(ROOT, ' ', bare);
    let end = exact !== NONE && this.terminalIds[exact] !== NONE ? exact : NONE;
    let acronym = NONE;
    if (end === NONE && mayBePlural(bare)) {
      const singular = lexicon.singular(w);
      if (singular !== bare) end = this.child(ROOT, ' ', singular);
      // A plural `singularize` does not give ("scenarios", "canvases", "criteria": see pluralStem).
      const stem = pluralStem(bare);
      if ((end === NONE || this.terminalIds[end] === NONE) && stem !== undefined) end = this.child(ROOT, ' ', stem);
      // The word less its s, for an acronym's plural ("APIs": matchInto takes it only from one).
      if (bare.charCodeAt(bare.length - 1) === 115) acronym = this.child(ROOT, ' ', bare.slice(0, -1));
    }
    const terminalId = end !== NONE ? this.terminalIds[end]! : NONE;
    const acronymId = acronym !== NONE ? this.terminalIds[acronym]! : NONE;
    cache.exact[w] = exact !== NONE ? exact : 0;
    cache.terminalId[w] = terminalId;
    cache.acronymId[w] = acronymId;
    let flag = 1;
    if (terminalId !== NONE || acronymId !== NONE || (exact !== NONE && (this.nodeFlags[exact]! & JOINED) !== 0)) flag = 2;
    else if (exact !== NONE && this.fanouts[exact]! > 0) {
      flag = 3;
      // (Every first word of flag 3 has a bit; all bits, should one not, only costs a try.)
      const bit = this.startBitOf[this.keyIds.get(bare)!]!;
      cache.starter[w] = bit !== 0 ? bit : 0x7fffffff;
    }
    cache.flags[w] = flag;
    return flag;
  }
}

/** Slot of the edge (parent, key) in a table of a power-of-two size (masked by the caller). */
function edgeHash(parent: number, keyId: number): number {
  return (Math.imul(parent, 0x9e3779b1) ^ Math.imul(keyId, 0x85ebca77)) >>> 7;
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
  const words = new RegExp(WORD_SPLIT, 'g');
  let match: RegExpExecArray | null;
  while ((match = words.exec(lower)) !== null) {
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
    // - / . + & : × ÷ only; never the mask, quotes or brackets.
    if (c !== 45 && c !== 47 && c !== 46 && c !== 43 && c !== 38 && c !== 58 && c !== 0xd7 && c !== 0xf7) return false;
  }
  return true;
}
