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
  return LETTERS_ONLY.test(word) ? bySuffixRules(word, hasVowel) : word;
}

/**
 * SPEC §4's suffix rules on a lowercase word of letters (which letters count is the caller's
 * test); `stemHasVowel` judges the stem a dropped final `s` leaves. The word itself when no rule
 * applies.
 */
function bySuffixRules(word: string, stemHasVowel: (stem: string) => boolean): string {
  if (word.length > 3 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches') || word.endsWith('shes')) {
    return word.slice(0, -2);
  }
  if (word.length > 3 && word.endsWith('s') && !KEEP_FINAL_S.some((end) => word.endsWith(end))) {
    const stem = word.slice(0, -1);
    if (stemHasVowel(stem)) return stem;
  }
  return word;
}

function hasVowel(stem: string): boolean {
  return VOWEL.test(stem);
}

/** A vowel, accents aside ("zorbé"). */
function hasVowelAccentsAside(stem: string): boolean {
  return VOWEL.test(stem.normalize('NFD'));
}

/**
 * The singular a plural stands for where `singularize` does not give it:
 * - plurals SPEC §4 keeps as they are (it keeps words ending in -as, -is, -os and -us: canvas,
 *   basis, chaos, status), so "scenarios", "schemas", "menus" and "canvases", "aliases",
 *   "statuses" stand for "scenario", "schema", "menu", "canvas", "alias", "status" (a stem of
 *   four letters or more);
 * - a few irregular plurals specs use ("acceptance criteria" for the glossary's "acceptance
 *   criterion"; IRREGULAR_PLURALS);
 * - plurals of words with letters beyond a–z, which `singularize` leaves alone ("cafés").
 * The glossary walk reads such a word as the end of a surface that is this singular
 * (extract/trie.ts), and a rename writes the plural of a new name so (terms/form.ts);
 * normalization itself is unchanged. Undefined when the word is no such plural.
 */
export function pluralStem(word: string): string | undefined {
  const irregular = IRREGULAR_PLURALS.get(word);
  if (irregular !== undefined) return irregular;
  const length = word.length;
  if (NOT_ASCII.test(word)) {
    const stem = lettersPluralStem(word);
    if (stem !== undefined) return stem;
  }
  // (A stem of at least four letters: "bias", "plus", "iris" and "bios" are words of their own,
  // not plurals of "bia", "plu", "iri" or "bio".)
  if (length < 5 || word.charCodeAt(length - 1) !== 115) return undefined;
  // -ses after a vowel and s: canvas-es, alias-es, status-es.
  if (length >= 6 && word.charCodeAt(length - 2) === 101 && word.charCodeAt(length - 3) === 115 && isAiou(word.charCodeAt(length - 4))) return word.slice(0, -2);
  return isAiou(word.charCodeAt(length - 2)) ? word.slice(0, -1) : undefined;
}

const NOT_ASCII = /[^\x00-\x7f]/;
const LETTERS = /^[\p{L}\p{M}]+$/u;

/**
 * SPEC §4's rules for a word of letters beyond a–z ("cafés", "zorbés"), which normalization
 * leaves as written (Spec Kitty's `normalize_term` singularizes `[a-z]+` only, so a term's name is
 * the same in both tools): the glossary walk still reads "Cafés" as a use of `café`.
 */
function lettersPluralStem(word: string): string | undefined {
  if (!LETTERS.test(word)) return undefined;
  const singular = bySuffixRules(word, hasVowelAccentsAside);
  return singular !== word ? singular : undefined;
}

/** Whether a document word may be a plural whose singular ends a surface: it ends in s, or is an irregular plural. */
export function mayBePlural(word: string): boolean {
  return word.charCodeAt(word.length - 1) === 115 || IRREGULAR_PLURALS.has(word);
}

/** The irregular plural of a singular in IRREGULAR_PLURALS (for a rename), if it has one. */
export function irregularPluralOf(singular: string): string | undefined {
  return IRREGULAR_SINGULARS.get(singular);
}

/**
 * Irregular plurals of nouns specs use → their singulars (Latin and Greek). Not those that are
 * also verbs ("analyses", "diagnoses", "synthesises" a spec), nor everyday English ("people").
 */
const IRREGULAR_PLURALS: ReadonlyMap<string, string> = new Map([
  ['criteria', 'criterion'],
  ['phenomena', 'phenomenon'],
  ['indices', 'index'],
  ['matrices', 'matrix'],
  ['vertices', 'vertex'],
  ['appendices', 'appendix'],
  ['hypotheses', 'hypothesis'],
  ['theses', 'thesis'],
  ['crises', 'crisis'],
]);
const IRREGULAR_SINGULARS: ReadonlyMap<string, string> = new Map([...IRREGULAR_PLURALS].map(([plural, singular]) => [singular, plural]));

function isAiou(code: number): boolean {
  return code === 97 || code === 105 || code === 111 || code === 117; // a i o u
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

/**
 * The term a name typed by a writer stands for (a CLI argument): `normalizeSurface(written)`,
 * unless `known` lacks it and holds the singular `pluralStem` reads in its last word ("Cafés" for
 * `café`, "scenarios" for `scenario`, "acceptance criteria" for `acceptance criterion`), as the
 * glossary walk reads those words in a document.
 */
export function termNamed(written: string, known: (term: string) => boolean): string {
  const term = normalizeSurface(written);
  if (term === '' || known(term)) return term;
  const lastWordAt = term.lastIndexOf(' ') + 1;
  const stem = pluralStem(term.slice(lastWordAt));
  if (stem === undefined) return term;
  const singular = term.slice(0, lastWordAt) + stem;
  return known(singular) ? singular : term;
}

/** True when `text` is already in normalized form (seed surfaces must be). */
export function isNormalized(text: string): boolean {
  return text === text.toLowerCase().trim().replace(/\s+/g, ' ');
}
