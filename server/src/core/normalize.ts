/**
 * "Stem-light" normalization (SPEC §4): lowercase, trim, collapse inner whitespace, and turn a
 * plural last word into its singular with a handful of suffix rules. Deliberately not a real
 * stemmer: it must be predictable for writers, who see the normalized surface in messages.
 */

const LETTERS_ONLY = /^[a-z]+$/;
const VOWEL = /[aeiouy]/;
const KEEP_FINAL_S = ['ss', 'us', 'is', 'os', 'as'];

/** Singular form of one lowercase word; words that are not letters only are left alone. */
export function singularize(word: string): string {
  if (!LETTERS_ONLY.test(word)) return word;
  if (word.length > 3 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches') || word.endsWith('shes')) {
    return word.slice(0, -2);
  }
  if (word.length > 3 && word.endsWith('s') && !KEEP_FINAL_S.some((end) => word.endsWith(end))) {
    const stem = word.slice(0, -1);
    if (VOWEL.test(stem)) return stem;
  }
  return word;
}

const WHITE_SPACE = /\s/;

/** Normalize a surface: lowercase, trim, collapse whitespace, singularize the last word. */
export function normalizeSurface(text: string): string {
  // One word (most surfaces: every word of a document is asked once): nothing to trim or join.
  if (!WHITE_SPACE.test(text)) return singularize(text.toLowerCase());
  const words = text.toLowerCase().trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return '';
  const last = words.length - 1;
  words[last] = singularize(words[last]!);
  return words.join(' ');
}

/** True when `text` is already in normalized form (seed surfaces must be). */
export function isNormalized(text: string): boolean {
  return text === text.toLowerCase().trim().replace(/\s+/g, ' ');
}
