/**
 * Interning of token texts: every token gets the id of its lowercase text, so extractors work on
 * small integers instead of allocating a string per token (a 1 MB spec has ~170,000 tokens but
 * only a few thousand distinct words), and facts about a word (its glossary trie node, whether it
 * is common English, its singular) are computed once per word instead of once per occurrence.
 *
 * A lexicon outlives one check: an engine keeps one for all its checks (check/engineState.ts), so
 * an edit only interns the words it touches and a new document mostly words already known.
 */

import { normalizeSurface, singularize } from '../normalize';
import { grown, standalone } from '../text';

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the ASCII-lowercased code units of text[start, end), cut to 30 bits. */
export function foldedHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let k = start; k < end; k++) {
    let c = text.charCodeAt(k);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h & 0x3fffffff;
}

export class Lexicon {
  /** Lowercase text of each word id. */
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly singulars: (string | undefined)[] = [];
  private readonly surfaces: (string | undefined)[] = [];
  private readonly caches = new WeakMap<object, unknown>();
  private readonly flagSets = new WeakMap<object, Uint8Array>();

  // Open-addressing table over spellings (ASCII-lowercased), so a token is looked up from its
  // characters without slicing it. Spellings differing only outside ASCII ("É"/"é") get separate
  // entries that share one word id.
  // Slot i holds [hash, entry + 1] at 2i, 2i + 1 (0: empty), so a probe reads one cache line.
  private table: Int32Array = new Int32Array(2 << 12);
  private mask = (1 << 12) - 1;
  private entryHash: Int32Array = new Int32Array(1 << 11);
  private entryWord: Int32Array = new Int32Array(1 << 11);
  private readonly entryKey: string[] = [];

  // Words of up to 16 ASCII letters and digits by their packed codes (see tokens.ts): slot i holds
  // the two halves at 2i, 2i + 1 of `packedKeys` and the word id + 1 at i of `packedIds` (0: empty).
  private packedKeys: Float64Array = new Float64Array(2 << 12);
  private packedIds: Int32Array = new Int32Array(1 << 12);
  private packedMask = (1 << 12) - 1;
  private packedCount = 0;

  get size(): number {
    return this.words.length;
  }

  /** Number of distinct spellings interned (at least `size`). */
  get spellings(): number {
    return this.entryKey.length + this.packedCount;
  }

  /**
   * Word id of text[start, end), whose `foldedHash` is `hash`. `lower` tells that the token has
   * no upper-case ASCII letter, so it can be compared with a key as it is.
   */
  idOf(text: string, start: number, end: number, hash: number, lower = false): number {
    const length = end - start;
    const mask = this.mask;
    const table = this.table;
    let slot = hash & mask;
    for (;;) {
      const entry = table[2 * slot + 1]!;
      if (entry === 0) return this.insert(text, start, end, hash, slot);
      if (table[2 * slot] === hash) {
        const key = this.entryKey[entry - 1]!;
        if (key.length === length && (lower ? same(text, start, key) : sameFolded(text, start, key))) return this.entryWord[entry - 1]!;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Word id of text[start, end), a word of at most 16 ASCII letters and digits whose packed codes
   * are `head` (characters 1–8) and `tail` (9–16).
   */
  idOfPacked(text: string, start: number, end: number, head: number, tail: number): number {
    const mask = this.packedMask;
    const keys = this.packedKeys;
    // head < 2^48: its low and high halves, mixed with tail's.
    let h = Math.imul((head | 0) ^ Math.imul((head / 4294967296) | 0, 0x9e3779b1) ^ Math.imul(tail | 0, 0x85ebca6b), 0xc2b2ae35);
    h ^= h >>> 15;
    let slot = h & mask;
    for (;;) {
      const id = this.packedIds[slot]!;
      if (id === 0) break;
      if (keys[2 * slot] === head && keys[2 * slot + 1] === tail) return id - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.wordId(text.slice(start, end).toLowerCase());
    keys[2 * slot] = head;
    keys[2 * slot + 1] = tail;
    this.packedIds[slot] = id + 1;
    if (++this.packedCount * 2 > this.packedIds.length) this.rehashPacked();
    return id;
  }

  /** Id of a lowercase word, or -1 when no token has had that text. */
  lookup(lower: string): number {
    return this.ids.get(lower) ?? -1;
  }

  /** `singularize` of word `id`, computed once. */
  singular(id: number): string {
    let singular = this.singulars[id];
    if (singular === undefined) this.singulars[id] = singular = singularize(this.words[id]!);
    return singular;
  }

  /** `normalizeSurface` of word `id` (the glossary form of a one-word term), computed once. */
  surface(id: number): string {
    let surface = this.surfaces[id];
    if (surface === undefined) this.surfaces[id] = surface = normalizeSurface(this.words[id]!);
    return surface;
  }

  /** Per-word data owned by `owner` (a glossary trie, a common-word list), created on first use. */
  cache<T>(owner: object, create: () => T): T {
    let cache = this.caches.get(owner) as T | undefined;
    if (cache === undefined) this.caches.set(owner, (cache = create()));
    return cache;
  }

  /** Replaces the per-word data owned by `owner`. */
  setCache(owner: object, cache: unknown): void {
    this.caches.set(owner, cache);
  }

  /**
   * One byte per word id for what `owner` (a common-word list, …) says about the word: 0 until the
   * caller sets it. Grows with the lexicon; call again after interning more words.
   */
  flags(owner: object): Uint8Array {
    let flags = this.flagSets.get(owner);
    if (!flags || flags.length < this.words.length) {
      flags = grown(flags ?? new Uint8Array(0), Math.max(256, this.words.length * 2));
      this.flagSets.set(owner, flags);
    }
    return flags;
  }

  private wordId(lower: string): number {
    let id = this.ids.get(lower);
    if (id === undefined) {
      // (Kept as long as the lexicon: a string of its own, not a view into the document.)
      lower = standalone(lower);
      id = this.words.length;
      this.words.push(lower);
      this.ids.set(lower, id);
    }
    return id;
  }

  private rehashPacked(): void {
    const oldKeys = this.packedKeys;
    const oldIds = this.packedIds;
    const slots = oldIds.length * 2;
    this.packedKeys = new Float64Array(2 * slots);
    this.packedIds = new Int32Array(slots);
    this.packedMask = slots - 1;
    for (let k = 0; k < oldIds.length; k++) {
      const id = oldIds[k]!;
      if (id === 0) continue;
      const head = oldKeys[2 * k]!;
      const tail = oldKeys[2 * k + 1]!;
      let h = Math.imul((head | 0) ^ Math.imul((head / 4294967296) | 0, 0x9e3779b1) ^ Math.imul(tail | 0, 0x85ebca6b), 0xc2b2ae35);
      h ^= h >>> 15;
      let slot = h & this.packedMask;
      while (this.packedIds[slot] !== 0) slot = (slot + 1) & this.packedMask;
      this.packedKeys[2 * slot] = head;
      this.packedKeys[2 * slot + 1] = tail;
      this.packedIds[slot] = id;
    }
  }

  private insert(text: string, start: number, end: number, hash: number, slot: number): number {
    const raw = text.slice(start, end);
    const lower = raw.toLowerCase();
    const id = this.wordId(lower);
    const k = this.entryKey.length;
    if (k === this.entryHash.length) {
      this.entryHash = grown(this.entryHash, 2 * k);
      this.entryWord = grown(this.entryWord, 2 * k);
    }
    const key = foldAscii(raw, lower);
    this.entryKey.push(key === lower ? this.words[id]! : standalone(key));
    this.entryHash[k] = hash;
    this.entryWord[k] = id;
    this.table[2 * slot] = hash;
    this.table[2 * slot + 1] = k + 1;
    // At most half full.
    if ((k + 1) * 4 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = this.table.length; // twice as many slots as before
    const table = new Int32Array(slots * 2);
    const mask = slots - 1;
    for (let k = 0; k < this.entryKey.length; k++) {
      const hash = this.entryHash[k]!;
      let slot = hash & mask;
      while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = hash;
      table[2 * slot + 1] = k + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

function same(text: string, start: number, key: string): boolean {
  for (let j = 0; j < key.length; j++) if (text.charCodeAt(start + j) !== key.charCodeAt(j)) return false;
  return true;
}

function sameFolded(text: string, start: number, key: string): boolean {
  for (let j = 0; j < key.length; j++) {
    let c = text.charCodeAt(start + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== key.charCodeAt(j)) return false;
  }
  return true;
}

/** The spelling with only ASCII letters lowercased (what `foldedHash` hashes). */
function foldAscii(raw: string, lower: string): string {
  for (let j = 0; j < raw.length; j++) if (raw.charCodeAt(j) > 127) return raw.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  return lower;
}
