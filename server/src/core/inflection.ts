/**
 * Inflections, derivations and British spellings of a word, for the common-word test only: is
 * "retargeted", "activatable", "unconfigured" or "behavioural" a form of a word the lists hold?
 * This is not SPEC §4's surface normalization (normalize.ts), which stays predictable for writers
 * and never changes what a term is called; here a word is only *recognised* as ordinary.
 *
 * The rules are the regular affixes of English word formation (as Hunspell's affix files have
 * them): each strips one suffix or prefix and restores what the spelling changed (a final e, a
 * doubled consonant, y → i), and each British spelling is tried in its American form. A word is
 * derived when some chain of at most three such steps reaches a listed word.
 */

/** One suffix rule: a word ending in `suffix` may come from the stem plus each of `restore`. */
interface SuffixRule {
  suffix: string;
  /** What to add back to the stem; UNDOUBLE drops a doubled final consonant (swapp → swap). */
  restore: readonly string[];
}

const UNDOUBLE = '\u0000';

// Longer suffixes first: "-ability" is tried before "-ity", "-ization" before "-ation".
const SUFFIXES: readonly SuffixRule[] = [
  { suffix: 'abilities', restore: ['able'] },
  { suffix: 'ability', restore: ['able'] },
  { suffix: 'ibility', restore: ['ible'] },
  { suffix: 'izations', restore: ['ize', ''] },
  { suffix: 'ization', restore: ['ize', ''] },
  { suffix: 'isation', restore: ['ise', 'ize', ''] },
  { suffix: 'ations', restore: ['ate', 'e', ''] },
  { suffix: 'ation', restore: ['ate', 'e', ''] },
  { suffix: 'iness', restore: ['y'] },
  { suffix: 'ness', restore: [''] },
  { suffix: 'ments', restore: [''] },
  { suffix: 'ment', restore: [''] },
  { suffix: 'less', restore: [''] },
  { suffix: 'ables', restore: ['', 'e', UNDOUBLE, 'ate'] },
  { suffix: 'able', restore: ['', 'e', UNDOUBLE, 'ate'] },
  { suffix: 'ible', restore: ['', 'e'] },
  { suffix: 'ities', restore: ['', 'e'] },
  { suffix: 'ity', restore: ['', 'e'] },
  { suffix: 'ally', restore: ['al', 'ic'] },
  { suffix: 'ily', restore: ['y'] },
  { suffix: 'ly', restore: ['', 'le'] },
  { suffix: 'ied', restore: ['y'] },
  { suffix: 'ies', restore: ['y'] },
  { suffix: 'ier', restore: ['y'] },
  { suffix: 'ing', restore: ['', 'e', UNDOUBLE] },
  { suffix: 'ed', restore: ['', 'e', UNDOUBLE] },
  { suffix: 'ers', restore: ['', 'e', UNDOUBLE] },
  { suffix: 'er', restore: ['', 'e', UNDOUBLE] },
  { suffix: 'ors', restore: ['', 'e'] },
  { suffix: 'or', restore: ['', 'e'] },
  { suffix: 'izes', restore: ['', 'y', 'e'] },
  { suffix: 'ize', restore: ['', 'y', 'e'] },
  { suffix: 'ises', restore: ['', 'y', 'e'] },
  { suffix: 'ise', restore: ['', 'y', 'e'] },
  { suffix: 'ism', restore: [''] },
  { suffix: 'ful', restore: [''] },
  { suffix: 'al', restore: ['', 'e'] },
  { suffix: 'es', restore: [''] },
  { suffix: 's', restore: [''] },
];

/** Prefixes of English word formation ("unconfigured", "repointed", "substep"). */
const PREFIXES: readonly string[] = [
  'counter', 'under', 'super', 'inter', 'intra', 'multi', 'pseudo', 'cross', 'micro', 'macro', 'over', 'anti',
  'auto', 'semi', 'post', 'meta', 'mini', 'self', 'non', 'pre', 'sub', 'dis', 'mis', 'out', 'mid', 'un', 're', 'de', 'co',
];

/** British spellings and their American forms, as word endings (tried on every form). */
const BRITISH_ENDINGS: readonly [string, string][] = [
  ['isations', 'izations'],
  ['isation', 'ization'],
  ['ising', 'izing'],
  ['ised', 'ized'],
  ['iser', 'izer'],
  ['ises', 'izes'],
  ['ise', 'ize'],
  ['ysing', 'yzing'],
  ['ysed', 'yzed'],
  ['yse', 'yze'],
  ['ourable', 'orable'],
  ['ourably', 'orably'],
  ['ourally', 'orally'],
  ['oural', 'oral'],
  ['oured', 'ored'],
  ['ouring', 'oring'],
  ['ours', 'ors'],
  ['our', 'or'],
  ['tres', 'ters'],
  ['tre', 'ter'],
  ['ogues', 'ogs'],
  ['ogue', 'og'],
  ['ences', 'enses'],
  ['ence', 'ense'],
  ['lled', 'led'],
  ['lling', 'ling'],
  ['ller', 'ler'],
];

const MIN_STEM = 3;
const MIN_PREFIXED = 4;
const MAX_STEPS = 3;
const LETTERS = /^[a-z]+$/;

/**
 * True when the lowercase `word` is a regular inflection, derivation or British spelling of a
 * word `isWord` accepts (the word itself is not tested: the caller has). Words that are not
 * letters only, or shorter than five letters, are never derived.
 */
export function derivesFrom(word: string, isWord: (candidate: string) => boolean): boolean {
  if (word.length < 5 || !LETTERS.test(word)) return false;
  const seen = new Set<string>([word]);
  return derive(word, isWord, seen, MAX_STEPS);
}

function derive(word: string, isWord: (candidate: string) => boolean, seen: Set<string>, steps: number): boolean {
  for (const candidate of oneStep(word)) {
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    if (isWord(candidate)) return true;
    if (steps > 1 && derive(candidate, isWord, seen, steps - 1)) return true;
  }
  return false;
}

/**
 * The rules that may apply to a word, by its last character (suffixes, British endings) or its
 * first (prefixes), in the order of the lists above: a word is tried against a few rules instead
 * of all 95. (The order matters: `derive` skips a word it has seen, so the first way a word is
 * reached decides how many steps are left from it.)
 */
const BRITISH_BY_LAST = byCharacter(BRITISH_ENDINGS, ([british]) => british.charCodeAt(british.length - 1));
const SUFFIXES_BY_LAST = byCharacter(SUFFIXES, ({ suffix }) => suffix.charCodeAt(suffix.length - 1));
const PREFIXES_BY_FIRST = byCharacter(PREFIXES, (prefix) => prefix.charCodeAt(0));
const NONE: readonly never[] = [];

function byCharacter<T>(rules: readonly T[], characterOf: (rule: T) => number): ReadonlyMap<number, readonly T[]> {
  const out = new Map<number, T[]>();
  for (const rule of rules) {
    const c = characterOf(rule);
    const list = out.get(c);
    if (list) list.push(rule);
    else out.set(c, [rule]);
  }
  return out;
}

/** The words one rule takes `word` back to. */
function oneStep(word: string): string[] {
  const out: string[] = [];
  const last = word.charCodeAt(word.length - 1);
  for (const [british, american] of BRITISH_BY_LAST.get(last) ?? NONE) {
    if (word.length > british.length + 1 && word.endsWith(british)) out.push(word.slice(0, -british.length) + american);
  }
  for (const { suffix, restore } of SUFFIXES_BY_LAST.get(last) ?? NONE) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (stem.length < MIN_STEM) continue;
    // "-s" after s, u or i is no plural ("status", "basis"); "-es" only after a sibilant.
    if (suffix === 's' && /[sui]$/.test(stem)) continue;
    if (suffix === 'es' && !/(?:s|x|z|ch|sh)$/.test(stem)) continue;
    for (const end of restore) {
      if (end === UNDOUBLE) {
        const last = stem[stem.length - 1]!;
        if (stem.length > MIN_STEM && last === stem[stem.length - 2] && !/[aeiouy]/.test(last)) out.push(stem.slice(0, -1));
      } else {
        out.push(stem + end);
      }
    }
  }
  for (const prefix of PREFIXES_BY_FIRST.get(word.charCodeAt(0)) ?? NONE) {
    if (word.length - prefix.length >= MIN_PREFIXED && word.startsWith(prefix)) out.push(word.slice(prefix.length));
  }
  return out;
}
