/**
 * Word trie over normalized surfaces, walked token by token: whole words only, case-insensitive,
 * plural and possessive forms of the last word accepted, longest match first. Lookup cost per
 * token is one or two Map gets, so it stays flat as the glossary grows.
 */

import { singularize } from '../normalize';
import { isWhitespaceGap, type Tokens } from './tokens';

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Surface (normalized) that ends at this node, if any. */
  terminal?: string;
}

const WORD_SPLIT = /[A-Za-z0-9_\u00C0-\u024F]+(?:['\u2019][A-Za-z\u00C0-\u024F]+)*/g;

export interface TrieMatch {
  surface: string;
  /** Index of the first and last token of the match. */
  first: number;
  last: number;
}

export class SurfaceTrie {
  private readonly root: TrieNode = { children: new Map() };
  private size = 0;

  get isEmpty(): boolean {
    return this.size === 0;
  }

  /**
   * Add a key phrase that resolves to `surface`. Phrases whose words are separated by anything
   * other than spaces (e.g. "ci/cd") are stored with the separator folded into the next word.
   */
  add(phrase: string, surface: string): void {
    const words = splitPhrase(phrase);
    if (words.length === 0) return;
    let node = this.root;
    for (const word of words) {
      let child = node.children.get(word);
      if (!child) {
        child = { children: new Map() };
        node.children.set(word, child);
      }
      node = child;
    }
    if (node.terminal === undefined) this.size++;
    // First registration wins: a glossary surface is never overridden by a synonym pointing elsewhere.
    node.terminal ??= surface;
  }

  /** Longest match starting at token `i`, or undefined. `lower` gives the lowercase token text. */
  matchAt(tokens: Tokens, i: number, text: string, lower: (i: number) => string): TrieMatch | undefined {
    let node: TrieNode | undefined = this.root;
    let best: TrieMatch | undefined;
    for (let j = i; j < tokens.count && node; j++) {
      let separator = '';
      if (j > i) {
        const gapStart = tokens.end[j - 1]!;
        const gapEnd = tokens.start[j]!;
        if (isWhitespaceGap(text, gapStart, gapEnd)) separator = ' ';
        else if (gapEnd - gapStart <= 3 && isPunctuationGap(text, gapStart, gapEnd)) separator = text.slice(gapStart, gapEnd);
        else break;
      }
      const bare = lower(j);
      const exact: TrieNode | undefined = node.children.get(separator + bare);
      if (exact?.terminal !== undefined) best = { surface: exact.terminal, first: i, last: j };
      else {
        for (const variant of lastWordVariants(bare, text, tokens, j)) {
          const alt = node.children.get(separator + variant);
          if (alt?.terminal !== undefined) {
            best = { surface: alt.terminal, first: i, last: j };
            break;
          }
        }
      }
      node = exact;
    }
    return best;
  }
}

/** Forms a document word may take when it ends a surface: plural and acronym plural ("APIs"). */
const NO_VARIANTS: string[] = [];

function lastWordVariants(word: string, text: string, tokens: Tokens, j: number): string[] {
  // Every variant drops a final "s": most words need no further work.
  if (word.charCodeAt(word.length - 1) !== 115) return NO_VARIANTS;
  const variants: string[] = [];
  const singular = singularize(word);
  if (singular !== word) variants.push(singular);
  const length = tokens.end[j]! - tokens.start[j]!;
  if (length >= 3 && length <= 6 && word.endsWith('s') && text.charCodeAt(tokens.end[j]! - 1) === 115 && isUpperRun(text, tokens.start[j]!, tokens.end[j]! - 1)) {
    variants.push(word.slice(0, -1));
  }
  return variants;
}

function isUpperRun(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/**
 * Trie keys of a phrase: the first word, then each later word prefixed by its separator (" " for
 * any whitespace, else the literal punctuation, e.g. "-driven" in "spec-driven").
 */
export function splitPhrase(phrase: string): string[] {
  const lower = phrase.toLowerCase().trim();
  const keys: string[] = [];
  let previousEnd = -1;
  WORD_SPLIT.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WORD_SPLIT.exec(lower)) !== null) {
    if (previousEnd < 0) keys.push(match[0]);
    else {
      const gap = lower.slice(previousEnd, match.index);
      keys.push((/^\s+$/.test(gap) ? ' ' : gap) + match[0]);
    }
    previousEnd = match.index + match[0].length;
  }
  return keys;
}

function isPunctuationGap(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // - / . + & : only; never the mask, quotes or brackets.
    if (c !== 45 && c !== 47 && c !== 46 && c !== 43 && c !== 38 && c !== 58) return false;
  }
  return true;
}
