/**
 * Word tokens of the masked document. Stored as parallel arrays (start, end) because a 1 MB spec
 * has ~170,000 words and objects per word would dominate the check's cost.
 */

export interface Tokens {
  count: number;
  start: Int32Array;
  end: Int32Array;
  /** Text of token i (possessive `'s` already removed). */
  text(i: number): string;
}

// Letters (incl. Latin-1/Extended-A/B), digits and underscores, with inner apostrophes so
// possessives and contractions stay one token.
const WORD = /[A-Za-z0-9_\u00C0-\u024F]+(?:['\u2019][A-Za-z\u00C0-\u024F]+)*/g;

export function tokenize(masked: string): Tokens {
  let capacity = Math.max(16, masked.length >> 3);
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let count = 0;
  WORD.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WORD.exec(masked)) !== null) {
    let s = match.index;
    let e = s + match[0].length;
    // `_emphasis_` markers are not part of the word.
    while (s < e && masked.charCodeAt(s) === 95) s++;
    while (e > s && masked.charCodeAt(e - 1) === 95) e--;
    // Possessive: "mission's" / "mission’s" is an occurrence of "mission".
    if (e - s > 2 && (masked.charCodeAt(e - 1) === 115 || masked.charCodeAt(e - 1) === 83)) {
      const apostrophe = masked.charCodeAt(e - 2);
      if (apostrophe === 39 || apostrophe === 0x2019) e -= 2;
    }
    if (e <= s) continue;
    if (count === capacity) {
      capacity *= 2;
      const grownStart = new Int32Array(capacity);
      grownStart.set(start);
      start = grownStart;
      const grownEnd = new Int32Array(capacity);
      grownEnd.set(end);
      end = grownEnd;
    }
    start[count] = s;
    end[count] = e;
    count++;
  }
  return { count, start, end, text: (i) => masked.slice(start[i]!, end[i]!) };
}

/** True when only spaces, tabs and at most one line break separate two tokens. */
export function isWhitespaceGap(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  let breaks = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (++breaks > 1) return false;
    } else if (c !== 32 && c !== 9 && c !== 13) {
      return false;
    }
  }
  return true;
}
