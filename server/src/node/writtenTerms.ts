/**
 * Terms written anywhere in a text, code included: `mission_id` in backticks, `work_packages` in
 * a code block. Glossary health asks it of the terms no prose uses (a term written only in code
 * is not unused); the term index records, per document, the seed terms it writes without a use in
 * its prose (node/indexDocument.ts).
 */

import { normalizeSurface, pluralStem, singularize } from '../core/normalize';
import type { WorkspaceSnapshot } from './workspace';

/** Whether term use can be known in this folder: not when its config switches the glossary matcher off. */
export function usageKnowable(snapshot: WorkspaceSnapshot): boolean {
  return !snapshot.config.disabledExtractors.includes('glossary_match');
}

/** How to find terms in a spec's raw text. */
export interface OutsideProseSearch {
  /** The terms looked for, sorted and joined: the same key, the same search. */
  key: string;
  /**
   * The terms `text` writes anywhere, but for those in `known` (terms the caller already knows
   * the text writes: its prose uses). Knowing them lets the search skip the runs that could only
   * find them — most places a common first word such as "mission" starts.
   */
  termsIn(text: string, known?: ReadonlySet<string>): string[];
}

/** The normalized surfaces of the folder's seed files' senses (the terms health judges, and the bundled core's). */
export function seedTerms(snapshot: WorkspaceSnapshot): Set<string> {
  return new Set(snapshot.seeds.flatMap((s) => s.seed.senses).map((s) => normalizeSurface(s.surface)));
}

/** How to find `terms` written anywhere in a text (code included); undefined for no terms. */
export function writtenTermsSearch(terms: Iterable<string>): OutsideProseSearch | undefined {
  const left = [...terms].filter((t) => t !== '').sort();
  if (left.length === 0) return undefined;
  // A term by its words: `mission_id`, `mission-id` and `mission id` are written alike in code.
  const byWords = new Map<string, string[]>();
  const firstWords = new Set<string>();
  let longest = 1;
  for (const term of left) {
    const words = term.split(WORD_JOINERS);
    longest = Math.max(longest, words.length);
    firstWords.add(words[0]!);
    const key = words.join(' ');
    const same = byWords.get(key);
    if (same) same.push(term);
    else byWords.set(key, [term]);
  }
  const reach = reachByFirstWord(left, firstWords);
  // Where a run may start: any first word, found by walking a trie of them from each place no
  // word character precedes (a regular expression of every first word cost ~2× the whole search).
  const firstTrie = new FirstWordTrie(firstWords);
  const continued = new Set<string>();
  for (const key of byWords.keys()) {
    const words = key.split(' ');
    for (let k = 1; k < words.length; k++) continued.add(words.slice(0, k).join(' '));
  }
  const asWritten = new AsWrittenReader(reach);
  const index = { byWords, firstWords, longest, firstTrie, reach, continued, asWritten };
  return { key: left.join('\n'), termsIn: (text, known) => termsWrittenIn(text, index, known) };
}

/**
 * Per first word, every term (of `sorted`, in its order) a run read where that word was matched can
 * find. The search takes the longest first word at a place and a run goes on only when the word
 * ends there or after a plural s, so the run's first word is `first` or `first` + s: it finds
 * terms whose first word is one of those, or (one word) the singular of the latter. (A superset
 * is harmless: it only skips fewer runs.) Looked up by the terms' first words, not by trying every
 * term for every first word: that was quadratic, minutes for a seed of 18,000 long surfaces.
 */
function reachByFirstWord(sorted: readonly string[], firstWords: ReadonlySet<string>): Map<string, string[]> {
  // Positions in `sorted` of the terms by their first word, and of the one-word terms.
  const byHead = new Map<string, number[]>();
  const oneWord = new Map<string, number[]>();
  sorted.forEach((term, position) => {
    const words = term.split(WORD_JOINERS);
    for (const map of words.length === 1 ? [byHead, oneWord] : [byHead]) {
      const list = map.get(words[0]!);
      if (list) list.push(position);
      else map.set(words[0]!, [position]);
    }
  });
  const reach = new Map<string, string[]>();
  for (const first of firstWords) {
    const positions = new Set([...(byHead.get(first) ?? []), ...(byHead.get(`${first}s`) ?? []), ...(oneWord.get(singularize(`${first}s`)) ?? []), ...(oneWord.get(singularize(first)) ?? [])]);
    reach.set(first, [...positions].sort((a, b) => a - b).map((position) => sorted[position]!));
  }
  return reach;
}

interface WordIndex {
  /** Terms by their words joined with one space. */
  byWords: ReadonlyMap<string, readonly string[]>;
  /** The first word of every term (a one-word term's singular form): where a run may start. */
  firstWords: ReadonlySet<string>;
  longest: number;
  /** The first words, to find the longest one at a place of the lowercased text. */
  firstTrie: FirstWordTrie;
  /** Per first word, the terms a run starting with it can find. */
  reach: ReadonlyMap<string, readonly string[]>;
  /** The words of a term but its last, joined with one space, for every term (and every such start of them). */
  continued: ReadonlySet<string>;
  /** The same search over the text as written (most texts). */
  asWritten: AsWrittenReader;
}

/**
 * First words by their characters: the longest of them written at a place. Node n's child by an
 * ASCII code c is `ascii[n * 128 + c]` (0: none; the root is node 0), by another code in `other`
 * — and by every code there when the trie has more nodes than the table can number (the first
 * words of a seed of thousands of long surfaces).
 */
class FirstWordTrie {
  private readonly ascii: Uint16Array | undefined;
  private readonly other = new Map<number, number>();
  /** The first word ending at each node ('' where none does). */
  private readonly words: string[] = [''];

  constructor(words: Iterable<string>) {
    const list = [...words];
    const size = 1 + list.reduce((n, w) => n + w.length, 0);
    this.ascii = size <= 0xffff ? new Uint16Array(size * 128) : undefined;
    for (const word of list) {
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const code = word.charCodeAt(i);
        let child = this.child(node, code);
        if (child === 0) {
          child = this.words.length;
          this.words.push('');
          if (code < 128 && this.ascii) this.ascii[node * 128 + code] = child;
          else this.other.set(node * 0x10000 + code, child);
        }
        node = child;
      }
      this.words[node] = word;
    }
  }

  private child(node: number, code: number): number {
    return code < 128 && this.ascii ? this.ascii[node * 128 + code]! : (this.other.get(node * 0x10000 + code) ?? 0);
  }

  /** The longest first word `lower` writes at `at` (undefined: none). */
  longestAt(lower: string, at: number): string | undefined {
    let longest: string | undefined;
    for (let i = at, node = 0; i < lower.length; i++) {
      node = this.child(node, lower.charCodeAt(i));
      if (node === 0) break;
      if (this.words[node] !== '') longest = this.words[node];
    }
    return longest;
  }
}

const WORD_JOINERS = /[\s_-]+/;
const WORD = /[\p{L}\p{N}]+/gu;
const JOINER_GAP = /^[\s_-]+$/;

/**
 * The terms (`index`) a text writes anywhere: runs of up to `longest` words joined by spaces, `_`
 * or `-`, any case, the last word also as its singular; a run does not start or end inside an
 * identifier (`mission` is not written in `mission_id`). A run is read only where a word some
 * term starts with begins, found by a trie of every first word over the lowercased text.
 */
function termsWrittenIn(text: string, index: WordIndex, known: ReadonlySet<string> = NONE): string[] {
  const found = new Set<string>();
  if (index.asWritten.read(text, index, known, found)) return [...found].filter((term) => !known.has(term));
  found.clear();
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    // First words whose every reachable term is known or found: their runs are not read again.
    const exhausted = new Set<string>();
    const done = (term: string) => known.has(term) || found.has(term);
    const n = lower.length;
    // (Where a word character precedes, no run starts: `mission` is not written in "submission".)
    let afterWord = false;
    for (let at = 0; at < n; at++) {
      const code = lower.charCodeAt(at);
      const follows = afterWord;
      afterWord = code < 128 ? ASCII_WORD[code] === 1 || code === UNDERSCORE : isWordUnit(code);
      if (follows) continue;
      const first = index.firstTrie.longestAt(lower, at);
      if (first === undefined || exhausted.has(first)) continue;
      if (index.reach.get(first)!.every(done)) {
        exhausted.add(first);
        continue;
      }
      // The longest first word written here: a word that goes on past it (but for a plural s or
      // es) is no term's first word — most places ("missionary", "specification") end here.
      const after = at + first.length;
      const goesOn = LETTER_OR_DIGIT.test(lower[after] ?? ' ') && !(lower[after] === 's' && !LETTER_OR_DIGIT.test(lower[after + 1] ?? ' ')) && !(lower[after] === 'e' && lower[after + 1] === 's' && !LETTER_OR_DIGIT.test(lower[after + 2] ?? ' '));
      if (!goesOn) readRun(text, lower, at, index, found);
    }
  } else {
    // (Lowercasing changed the length — a few letters outside ASCII do: offsets would not agree.)
    WORD.lastIndex = 0;
    for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
      const first = match[0].toLowerCase();
      if (index.firstWords.has(first) || (first.endsWith('s') && index.firstWords.has(singularize(first))) || index.firstWords.has(pluralStem(first) ?? '')) readRunAnyScript(text, match.index, index, found);
    }
  }
  const out: string[] = [];
  for (const term of found) if (!known.has(term)) out.push(term);
  return out;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * `termsWrittenIn`'s search over the text as written, its ASCII capitals read as lower case: what
 * the search of its lowercased copy finds, unless the text holds another code unit that
 * lowercasing changes (or a surrogate, lowercased as a pair): then `read` says so and the copy is
 * read. No copy of most texts (lowercasing was ~13% of the search), and one loop with the trie's
 * tables at hand; a first word's run is passed over where it cannot find a term not yet found
 * (`mayFindMore`).
 */
class AsWrittenReader {
  /** The trie of first words: node n's child by ASCII code c (either case) is `ascii[n * 128 + c]`, 0 for none. */
  private readonly ascii: Uint16Array;
  /** Per node: the first word ending there ('' where none does). */
  private readonly words: string[] = [''];
  /** Per node ending a first word: the terms a run from it can find (see `reachable`), of one word and of more. */
  private readonly single: (readonly string[])[] = [];
  private readonly multi: (readonly string[])[] = [];
  /**
   * Per node ending a first word whose runs `mayFindMore` can judge (`judged`: a word of ASCII
   * letters and digits whose terms' second words start with one): bit c of
   * `second[node * 4 + (c >> 5)]` for each ASCII code c a second word starts with (either case).
   */
  private readonly second: Uint32Array;
  private readonly judged: Uint8Array;
  /** Per node: the search that found every term of its runs known or found (`stamp`). */
  private readonly exhausted: Uint32Array;
  private stamp = 0;
  /** False when a first word holds a code from 128 on (or the trie would be too large): the copy is read. */
  private readonly usable: boolean;

  constructor(reach: ReadonlyMap<string, readonly string[]>) {
    const size = 1 + [...reach.keys()].reduce((n, w) => n + w.length, 0);
    this.usable = size <= 0xffff && [...reach.keys()].every((word) => /^[\x00-\x7f]*$/.test(word));
    this.ascii = new Uint16Array(this.usable ? size * 128 : 0);
    this.second = new Uint32Array(this.usable ? size * 4 : 0);
    this.judged = new Uint8Array(this.usable ? size : 0);
    this.exhausted = new Uint32Array(this.usable ? size : 0);
    for (const [word, terms] of this.usable ? reach : []) {
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const code = word.charCodeAt(i);
        let child = this.ascii[node * 128 + code]!;
        if (child === 0) {
          child = this.words.length;
          this.words.push('');
          this.ascii[node * 128 + code] = child;
          if (code >= 97 && code <= 122) this.ascii[node * 128 + code - 32] = child;
        }
        node = child;
      }
      this.words[node] = word;
      const split = terms.map((term) => term.split(WORD_JOINERS));
      this.single[node] = terms.filter((_, k) => split[k]!.length === 1);
      this.multi[node] = terms.filter((_, k) => split[k]!.length > 1);
      let judged = /^[a-z0-9]+$/.test(word);
      for (const words of split) {
        if (words.length < 2) continue;
        const c = words[1]!.charCodeAt(0);
        if (!(c < 128 && ASCII_WORD[c] === 1)) judged = false;
        else for (const code of c >= 97 && c <= 122 ? [c, c - 32] : [c]) this.second[node * 4 + (code >> 5)]! |= 1 << (code & 31);
      }
      this.judged[node] = judged ? 1 : 0;
    }
  }

  /** The terms `text` writes into `found`, as `termsWrittenIn` reads its copy; false where it must read the copy. */
  read(text: string, index: WordIndex, known: ReadonlySet<string>, found: Set<string>): boolean {
    if (!this.usable) return false;
    if (this.stamp === 0xffffffff) {
      this.exhausted.fill(0);
      this.stamp = 0;
    }
    const search = ++this.stamp;
    const ascii = this.ascii;
    const words = this.words;
    const done = (term: string) => known.has(term) || found.has(term);
    const n = text.length;
    // (Where a word character precedes, no run starts: `mission` is not written in "submission".)
    let afterWord = false;
    for (let at = 0; at < n; at++) {
      const code = text.charCodeAt(at);
      const follows = afterWord;
      if (code < 128) afterWord = ASCII_WORD[code] === 1 || code === UNDERSCORE;
      else {
        const kind = unitKind(code);
        if ((kind & CHANGED) !== 0) return false;
        afterWord = (kind & WORD_UNIT) !== 0;
        continue; // (no first word starts with it)
      }
      if (follows) continue;
      // The longest first word written here.
      let node = ascii[code]!;
      let longest = 0;
      for (let i = at + 1; node !== 0; i++) {
        if (words[node] !== '') longest = node;
        if (i >= n) break;
        const c = text.charCodeAt(i);
        // (A code from 128 on leads nowhere: no first word holds one; the loop above looks at it.)
        node = c < 128 ? ascii[node * 128 + c]! : 0;
      }
      if (longest === 0 || this.exhausted[longest] === search) continue;
      const singleDone = this.single[longest]!.every(done);
      if (singleDone && this.multi[longest]!.every(done)) {
        this.exhausted[longest] = search;
        continue;
      }
      // A word that goes on past the first word (but for a plural s or es) is no term's first
      // word — most places ("missionary", "specification") end here.
      const after = at + words[longest]!.length;
      const next = after < n ? text.charCodeAt(after) : SPACE;
      const plural = next === LOWER_S || next === UPPER_S;
      const beyond = after + 1 < n ? text.charCodeAt(after + 1) : SPACE;
      const pluralEs = (next === LOWER_E || next === UPPER_E) && (beyond === LOWER_S || beyond === UPPER_S) && !isLetterOrDigit(after + 2 < n ? text.charCodeAt(after + 2) : SPACE);
      if (isLetterOrDigit(next) && !(plural && !isLetterOrDigit(beyond)) && !pluralEs) continue;
      if (singleDone && this.judged[longest] === 1 && !this.mayFindMore(text, plural ? after + 1 : pluralEs ? after + 2 : after, longest)) continue;
      readRun(text, text, at, index, found, true);
    }
    return true;
  }

  /**
   * Whether the run whose first word (every one-word term of which is known or found) ends at
   * `end` may find a term of more words: joiners, then a word starting as one of theirs does.
   */
  private mayFindMore(text: string, end: number, node: number): boolean {
    const n = text.length;
    let i = end;
    let c = 0;
    while (i < n && (c = text.charCodeAt(i)) < 128 && ASCII_JOINER[c] === 1) i++;
    if (i === end || i === n) return i === end && i < n && c >= 128;
    if (c >= 128) return true; // (read as readRun reads it)
    return (this.second[node * 4 + (c >> 5)]! & (1 << (c & 31))) !== 0;
  }
}

const SPACE = 32;
const LOWER_S = 115;
const UPPER_S = 83;
const LOWER_E = 101;
const UPPER_E = 69;

/** What a UTF-16 code unit from 128 on is, alone: bits of `WORD_UNIT` and `CHANGED` (0: not asked yet). */
const UNIT_KINDS = new Uint8Array(0x10000);
const ASKED = 1;
/** `WORD_CHAR` matches it. */
const WORD_UNIT = 2;
/** Lowercasing changes it, or it is half of a surrogate pair (lowercased with its other half). */
const CHANGED = 4;

function unitKind(code: number): number {
  let kind = UNIT_KINDS[code]!;
  if (kind === 0) {
    const unit = String.fromCharCode(code);
    kind = ASKED | (WORD_CHAR.test(unit) ? WORD_UNIT : 0) | ((code >= 0xd800 && code <= 0xdfff) || unit.toLowerCase() !== unit ? CHANGED : 0);
    UNIT_KINDS[code] = kind;
  }
  return kind;
}

/** What `LETTER_OR_DIGIT` matches, one code unit (below 128 it is `WORD_CHAR` but for `_`). */
function isLetterOrDigit(code: number): boolean {
  return code < 128 ? ASCII_WORD[code] === 1 : (unitKind(code) & WORD_UNIT) !== 0;
}

/** Per UTF-16 code unit from 128 on, whether `WORD_CHAR` matches it alone (0: not asked yet, 1: yes, 2: no). */
const WORD_UNITS = new Uint8Array(0x10000);

function isWordUnit(code: number): boolean {
  let known = WORD_UNITS[code]!;
  if (known === 0) WORD_UNITS[code] = known = WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
  return known === 1;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The terms a run of words starting at `start` writes, into `found`. `lower` is the text
 * lowercased, of the same length (then offsets agree), or the text itself (`asWritten`): a run
 * of ASCII words and joiners is read from it code by code; one meeting any other character is
 * read again by `readRunAnyScript`.
 */
function readRun(text: string, lower: string, start: number, index: WordIndex, found: Set<string>, asWritten = false): void {
  if (text.charCodeAt(start - 1) === UNDERSCORE) return;
  const n = lower.length;
  let key = '';
  let i = start;
  let c = 0;
  for (let k = 0; k < index.longest; k++) {
    if (k > 0) {
      // One or more joiners, then the next word.
      const gap = i;
      while (i < n && (c = lower.charCodeAt(i)) < 128 && ASCII_JOINER[c] === 1) i++;
      if (i === n) return;
      if (c >= 128) return readRunAnyScript(text, start, index, found);
      if (i === gap || ASCII_WORD[c] !== 1) return;
    }
    const from = i;
    while (i < n && (c = lower.charCodeAt(i)) < 128 && ASCII_WORD[c] === 1) i++;
    if (i < n && c >= 128) return readRunAnyScript(text, start, index, found);
    // (`lower` is the text itself when read as written: the word is lowercased then.)
    const word = asWritten ? lower.slice(from, i).toLowerCase() : lower.slice(from, i);
    const stem = key;
    key = k === 0 ? word : `${key} ${word}`;
    if (c !== UNDERSCORE || i === n) addTerms(index, key, stem, word, k, found);
    // (No term goes on from here: the rest of the run finds nothing.)
    if (!index.continued.has(key)) return;
  }
}

/**
 * The terms of the run's words so far (`key`; its last word `word` also as its singular, or as
 * the singular of a plural normalization keeps or an irregular one, as the glossary walk reads it:
 * core/normalize.ts `pluralStem`).
 */
function addTerms(index: WordIndex, key: string, stem: string, word: string, k: number, found: Set<string>): void {
  for (const term of index.byWords.get(key) ?? []) found.add(term);
  if (word.endsWith('s')) for (const term of index.byWords.get(k === 0 ? singularize(word) : `${stem} ${singularize(word)}`) ?? []) found.add(term);
  const other = pluralStem(word);
  if (other !== undefined) for (const term of index.byWords.get(k === 0 ? other : `${stem} ${other}`) ?? []) found.add(term);
}

/** `readRun` for any script: words and gaps found by regular expressions. */
function readRunAnyScript(text: string, start: number, index: WordIndex, found: Set<string>): void {
  if (text[start - 1] === '_') return;
  RUN.lastIndex = start;
  let key = '';
  let end = start;
  for (let k = 0; k < index.longest; k++) {
    const next = RUN.exec(text);
    if (next === null || (k === 0 && next.index !== start) || (k > 0 && !JOINER_GAP.test(text.slice(end, next.index)))) return;
    const word = next[0].toLowerCase();
    const stem = key;
    key = k === 0 ? word : `${key} ${word}`;
    end = next.index + next[0].length;
    if (text[end] === '_') continue; // the run goes on inside an identifier
    addTerms(index, key, stem, word, k, found);
  }
}

const UNDERSCORE = 95;
/** ASCII letters and digits (what `[\p{L}\p{N}]` matches below 128), and the joiners `[\s_-]`. */
const ASCII_WORD = new Uint8Array(128);
const ASCII_JOINER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_WORD[c] = /[\p{L}\p{N}]/u.test(ch) ? 1 : 0;
  ASCII_JOINER[c] = /[\s_-]/.test(ch) ? 1 : 0;
}

const RUN = /[\p{L}\p{N}]+/gu;
