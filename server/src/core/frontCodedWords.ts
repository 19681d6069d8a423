/**
 * A sorted word list (one word per line, ending with a line break, as `sortedCommonWords` reads
 * it) kept front-coded, for a process that keeps the list for long (the language server; SPEC
 * §10: ≤ 80 MB with 200 specs open): each word as the length it shares with the word before it
 * (one character) and the rest of it, then a line break; every 32nd word whole, where a binary
 * search lands. The shipped lists take 1.17 MB so instead of 2.38 MB; coding them takes ~50 ms,
 * which a short-lived process (the CLI) does not spend, and the language server does not either:
 * the build codes the shipped lists once (`parts`, `fromParts`; node/codedWordLists.ts).
 */

/** Words per block: a block's first word is whole. */
const BLOCK = 32;
/** The longest shared length one character holds; a word sharing more starts a block. */
const MAX_SHARED = 255;
/** Characters coded per piece (a small typed array, reused). */
const PIECE = 16_384;

export class FrontCodedWords {
  private constructor(
    /** The coded words: [shared length as a character][the rest]\n, one after another. */
    private readonly coded: string,
    /** Where each block's first (whole) word starts in `coded`. */
    private readonly heads: Int32Array,
  ) {}

  /** A list coded before (by `of`, its `parts` kept): the same list. */
  static fromParts(coded: string, heads: Int32Array): FrontCodedWords {
    return new FrontCodedWords(coded, heads);
  }

  /** What `fromParts` takes: the coded words (one character per code unit, all below U+0100) and where its blocks start. */
  parts(): { coded: string; heads: Int32Array } {
    return { coded: this.coded, heads: this.heads };
  }

  /** The list `text` coded; undefined when it holds a character beyond U+00FF (not coded). */
  static of(text: string): FrontCodedWords | undefined {
    const parts: string[] = [];
    const piece = new Uint8Array(PIECE);
    let filled = 0;
    let coded = 0;
    const put = (code: number) => {
      if (filled === PIECE) {
        parts.push(String.fromCharCode.apply(null, piece as unknown as number[]));
        filled = 0;
      }
      piece[filled++] = code;
      coded++;
    };
    const heads: number[] = [];
    let previousFrom = 0;
    let previousTo = 0;
    for (let from = 0, count = 0; from < text.length; count++) {
      let to = text.indexOf('\n', from);
      if (to === -1) to = text.length;
      let shared = 0;
      if (count % BLOCK !== 0) {
        const most = Math.min(to - from, previousTo - previousFrom, MAX_SHARED + 1);
        while (shared < most && text.charCodeAt(from + shared) === text.charCodeAt(previousFrom + shared)) shared++;
      }
      if (count % BLOCK === 0 || shared > MAX_SHARED) {
        heads.push(coded);
        shared = 0;
      }
      put(shared);
      for (let i = from + shared; i < to; i++) {
        const code = text.charCodeAt(i);
        if (code > 0xff) return undefined;
        put(code);
      }
      put(10);
      previousFrom = from;
      previousTo = to;
      from = to + 1;
    }
    parts.push(String.fromCharCode.apply(null, piece.subarray(0, filled) as unknown as number[]));
    return new FrontCodedWords(parts.join(''), Int32Array.from(heads));
  }

  /** True when a word at least `minLength` long starts with `prefix`. */
  startsWord(prefix: string, minLength: number): boolean {
    if (this.heads.length === 0) return false;
    let current = '';
    for (let at = this.heads[this.blockOf(prefix)]!; at < this.coded.length; ) {
      const to = this.coded.indexOf('\n', at + 1);
      current = current.slice(0, this.coded.charCodeAt(at)) + this.coded.slice(at + 1, to);
      at = to + 1;
      if (current < prefix) continue;
      if (!current.startsWith(prefix)) return false;
      if (current.length >= minLength) return true;
    }
    return false;
  }

  /** Whether `word` is in the list (a search: words.ts keeps the answers). */
  find(word: string): boolean {
    if (this.heads.length === 0) return false;
    const block = this.blockOf(word);
    if (block === 0 && this.compareHead(word, 0) < 0) return false;
    const end = block + 1 < this.heads.length ? this.heads[block + 1]! : this.coded.length;
    // How much of `word` the last word read shares; that word is ordered before `word`.
    let common = 0;
    for (let at = this.heads[block]!; at < end; ) {
      const shared = this.coded.charCodeAt(at);
      const to = this.coded.indexOf('\n', at + 1);
      // Sharing less with the last word than `word` does: this word is after `word`, and so are the rest.
      if (shared < common) return false;
      // Sharing more: this word is before `word` where the last one was.
      if (shared === common) {
        let i = common;
        let j = at + 1;
        while (i < word.length && j < to && word.charCodeAt(i) === this.coded.charCodeAt(j)) {
          i++;
          j++;
        }
        if (j === to && i === word.length) return true;
        if (j !== to && (i === word.length || word.charCodeAt(i) < this.coded.charCodeAt(j))) return false;
        common = i;
      }
      at = to + 1;
    }
    return false;
  }

  /** The last block whose first word is not ordered after `word` (0 when none is). */
  private blockOf(word: string): number {
    let low = 0;
    let high = this.heads.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.compareHead(word, mid) >= 0) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** `word` compared with block `k`'s first word in code unit order: negative, 0 or positive. */
  private compareHead(word: string, k: number): number {
    const from = this.heads[k]! + 1;
    const length = this.coded.indexOf('\n', from) - from;
    const shared = Math.min(word.length, length);
    for (let i = 0; i < shared; i++) {
      const d = word.charCodeAt(i) - this.coded.charCodeAt(from + i);
      if (d !== 0) return d;
    }
    return word.length - length;
  }
}
