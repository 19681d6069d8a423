/**
 * The extraction phase (SPEC §5): one pipeline unit per method, each with the method's name as
 * its id so settings can disable it (the glossary walk is in glossaryMatch.ts), plus the required
 * `extraction.locate` unit (locate.ts) that finds every occurrence of what was proposed and
 * builds the term candidates.
 */

import { followsPrevious, propose, type CheckContext, type RareWord, type SpelledOutWord } from '../check/context';
import type { EngineState } from '../check/engineState';
import { normalizeSurface } from '../normalize';
import { lowerBound, standalone } from '../text';
import type { Unit } from '../pipeline';
import { FUNCTION_WORDS, isClipping, isCommonWord, isFamiliarWord, isKnownWord } from '../words';
import { CodeSpanWords } from './codeWords';
import { caseOf, CAPITAL_MID, isCompoundPrefix, isIdentifierPart, isUnitOrFragment, LOWER, quotedShape, TERM_CONNECTORS } from './proseRules';
import { glossaryMatch, markedChange } from './glossaryMatch';
import { locate } from './locate';
import { hasMask, maskedString } from './maskedCodes';
import { isSpelledOut, mayBeSpelledOut } from './spelledOut';
import { SHAPE_ACRONYM, SHAPE_MIXED } from './tokens';
import { emptyFound, spliceFound, type Found } from './splice';

type Extractor = Unit<CheckContext>;

const metadataHint: Extractor = {
  id: 'metadata_hint',
  phase: 'extraction',
  priority: 10,
  run(context) {
    const front = context.scan.frontMatter;
    if (!front) return;
    for (const term of front.watchTerms) propose(context, normalizeSurface(term.value), 'metadata_hint', [[term.start, term.end]]);
    for (const { canonical } of front.aliases) propose(context, normalizeSurface(canonical.value), 'metadata_hint', [[canonical.start, canonical.end]]);
  },
};

// Straight or typographic double quotes around 1–4 words on one line. (A source, not a /g
// pattern: a global pattern carries its search position, so each search makes its own.)
const QUOTED_SOURCE = /"([^"\n\u001f]{1,160})"|\u201c([^\u201c\u201d\n\u001f]{1,160})\u201d/.source;

/**
 * The surface a quoted text proposes (proseRules.ts `quotedShape`). The engine remembers the
 * answers by the text: quotes recur in a document ("must", "done").
 */
function quotedSurface(engine: EngineState, quoted: string): string | undefined {
  let surface = engine.quotedSurfaces.get(quoted);
  if (surface === undefined) {
    surface = quotedShape(quoted) ?? null;
    engine.rememberQuoted(quoted, surface);
  }
  return surface ?? undefined;
}

/** Whether every word of a surface (and every part of a hyphenated word) needs no glossary. */
function allFamiliar(context: CheckContext, surface: string): boolean {
  for (const word of surface.split(/[\s-]+/)) {
    if (word !== '' && !TERM_CONNECTORS.has(word) && !isFamiliarWord(context.common, word) && !context.knownTerms.has(word)) return false;
  }
  return true;
}

/**
 * QUOTED_SOURCE's matches in the masked code units, from the offsets of their quote characters (", “, ”)
 * in order: `take(open, close)` for each, the offsets of its opening and closing quote. As the
 * pattern reads: from each quote in turn, a straight quote closes at the next straight quote, a
 * “ at the next “ or ” (which must be a ”), with 1–160 characters between and no line break or
 * mask among them; after a match the search goes on after it.
 */
export function quotedSpans(masked: Uint16Array, quotes: readonly number[], take: (open: number, close: number) => void): void {
  let k = 0;
  while (k < quotes.length) {
    const open = quotes[k]!;
    const kind = masked[open]!;
    let j = k + 1;
    if (kind === 34) while (j < quotes.length && masked[quotes[j]!] !== 34) j++;
    else if (kind === 0x201c) while (j < quotes.length && masked[quotes[j]!] === 34) j++;
    else j = quotes.length; // ” opens nothing
    const close = j < quotes.length ? quotes[j]! : -1;
    if (close !== -1 && close - open - 1 >= 1 && close - open - 1 <= 160 && (kind === 34 || masked[close] === 0x201d) && !breaksOrMasks(masked, open + 1, close)) {
      take(open, close);
      k = j + 1;
    } else k++;
  }
}

/** Whether one of the code units [from, to) is a line break or MASK (the pattern's excluded characters besides the quotes). */
function breaksOrMasks(masked: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = masked[i]!;
    if (c === 10 || c === 0x1f) return true;
  }
  return false;
}

const quotedPhrase: Extractor = {
  id: 'quoted_phrase',
  phase: 'extraction',
  priority: 20,
  run(context) {
    const { masked, text } = context.scan;
    // The quote opening at `index`, whose text (between the quotes) is `quoted`.
    const take = (index: number, quoted: string, out: Found<string>) => {
      const surface = quotedSurface(context.engine, quoted);
      if (surface !== undefined) {
        out.at.push(index);
        out.value.push(surface);
      }
    };
    // Quotes never span lines: after an edit only the re-scanned lines are searched again. The
    // pattern runs over the text; a match holding a masked character (a quote in a code span, …)
    // is not one in the masked document, so that line is searched again in its masked form. (A
    // match with no masked character is one there too, and none starts earlier: masking only
    // turns characters into MASK, which no match can hold.)
    const find = (from: number, to: number, out: Found<string>) => {
      const quotes = context.scan.tokens.quotes;
      if (quotes && from === 0 && to === text.length) {
        // The tokenizer listed every quote character of the masked text: no need to search for them.
        quotedSpans(masked, quotes, (open, close) => take(open, text.slice(open + 1, close), out));
        return;
      }
      const pattern = new RegExp(QUOTED_SOURCE, 'g');
      const inLinePattern = new RegExp(QUOTED_SOURCE, 'g');
      pattern.lastIndex = from;
      // test() rather than exec(): no match array per quote. A match ends at lastIndex with its
      // closing quote; it opens at the last opening quote before that (its text holds none).
      while (pattern.test(text)) {
        const end = pattern.lastIndex;
        const index = text.lastIndexOf(text.charCodeAt(end - 1) === 34 ? '"' : '\u201c', end - 2);
        if (index >= to) break;
        if (!hasMask(masked, index, end)) {
          take(index, text.slice(index + 1, end - 1), out);
          continue;
        }
        const lineStart = text.lastIndexOf('\n', index) + 1;
        let lineEnd = text.indexOf('\n', index);
        if (lineEnd === -1) lineEnd = text.length;
        const line = maskedString(masked, lineStart, lineEnd);
        // Matches of the masked line from where this one starts (earlier ones were taken already).
        inLinePattern.lastIndex = index - lineStart;
        let inLine: RegExpExecArray | null;
        while ((inLine = inLinePattern.exec(line)) !== null && lineStart + inLine.index < to) take(lineStart + inLine.index, inLine[1] ?? inLine[2] ?? '', out);
        pattern.lastIndex = lineEnd;
      }
    };
    const previous = followsPrevious(context) ? (context.previous.memo.get('quoted_phrase') as Found<string> | undefined) : undefined;
    const edit = context.scan.edit;
    let found: Found<string>;
    if (previous && edit) found = spliceFound(previous, edit.restart, edit.end, edit.delta, find);
    else find(0, text.length, (found = emptyFound()));
    context.memo.set('quoted_phrase', found);
    // A phrase made only of familiar words is not a term ("nice to have", "issue tracker"). Asked
    // once per surface, and carried to the next check with the same word lists: on a 1 MB spec,
    // splitting and looking up every quote's words again was a twentieth of a keystroke.
    const familiar = decisions<boolean>(context, 'quoted_phrase.familiar', found.value.length);
    for (const surface of found.value) {
      let isFamiliar = familiar.get(surface);
      // (A string of its own: a surface sliced from the text would keep that version of it alive.)
      if (isFamiliar === undefined) familiar.set(standalone(surface), (isFamiliar = allFamiliar(context, surface)));
      if (!isFamiliar) propose(context, surface, 'quoted_phrase');
    }
  },
};

const acronym: Extractor = {
  id: 'acronym',
  phase: 'extraction',
  priority: 30,
  run(context) {
    // The lexer already knows which tokens match ACRONYM.
    const { masked, tokens } = context.scan;
    const seen = new Set<string>();
    const found = tokensShaped(context, 'acronym', SHAPE_ACRONYM, 2);
    const decided = decisions<string | null>(context, 'acronym.decisions', found.value.length);
    const letters = (raw: string) => (raw.endsWith('s') ? raw.slice(0, -1) : raw).toLowerCase();
    spelledOutSurfaces(context, 'acronym', found, letters, letters);
    for (let k = 0; k < found.value.length; k++) {
      const raw = found.value[k]!;
      if (seen.has(raw)) continue;
      const i = found.at[k]!;
      if (isUnitOrFragment(masked, tokens.start[i]!, tokens.end[i]!)) continue;
      seen.add(raw);
      let surface = decided.get(raw);
      if (surface === undefined) {
        const lower = letters(raw);
        decided.set(standalone(raw), (surface = isShoutedWord(context, lower) ? null : standalone(lower)));
      }
      if (surface !== null) propose(context, surface, 'acronym');
    }
  },
};

/**
 * Adds to `context.spelledOut` the surfaces of the abbreviations among `found` that the document
 * spells out somewhere (spelledOut.ts): it says there what they mean, so they are no unknown terms
 * anywhere in it. Where each is spelled out is kept for the next check of the document (memo
 * `<extractor>.spelled`, token indexes): after an edit only the abbreviations of the re-scanned
 * lines are looked at again (an abbreviation and its long form share a line), not every one of
 * the document at each keystroke (~0.3 ms on 1 MB of real specs).
 */
function spelledOutSurfaces(context: CheckContext, extractor: string, found: Found<string>, letters: (raw: string) => string, surfaceOf: (raw: string) => string): void {
  const { masked, tokens } = context.scan;
  const detect = (from: number, to: number, out: Found<string>) => {
    for (let k = lowerBound(found.at, from); k < found.at.length && found.at[k]! < to; k++) {
      const i = found.at[k]!;
      if (mayBeSpelledOut(masked, tokens.start[i]!, tokens.end[i]!) && isSpelledOut(masked, tokens.start[i]!, tokens.end[i]!, letters(found.value[k]!))) {
        out.at.push(i);
        out.value.push(found.value[k]!);
      }
    }
  };
  const spelledAt = keptFound(context, `${extractor}.spelled`, detect);
  const spelled = context.spelledOut;
  for (const raw of spelledAt.value) {
    // (Normalized only here: casing_pattern's surface is the full normalization, not cheap.)
    const surface = surfaceOf(raw);
    if (spelled.has(surface)) continue;
    const bare = raw.endsWith('s') ? raw.slice(0, -1) : raw;
    spelled.set(surface, { forms: new Set([raw, bare, `${bare}s`]), found });
    // (A quoted "DRG", proposed before: the document says what it means all the same.)
    if (context.proposals.get(surface)?.method === 'quoted_phrase') context.proposals.delete(surface);
  }
}

/**
 * The abbreviations a check found spelled out that neither its glossary nor its known terms
 * define, nor the front matter excludes or asks about (a proposal of its own), with their uses
 * (each written as one of its forms) and first line: what the glossary candidates count of them.
 * One pass over each list of tokens, whatever the number of abbreviations.
 */
export function countSpelledOut(context: Pick<CheckContext, 'scan' | 'spelledOut' | 'glossary' | 'knownTerms' | 'excluded' | 'proposals'>): SpelledOutWord[] {
  const { tokens, lines } = context.scan;
  const byList = new Map<Found<string>, Map<string, SpelledOutWord>>();
  // (By the first code unit: most tokens are passed over with one look in a table; abbreviations
  // are ASCII capitals, so the table's 128 entries hold every first one.)
  const firsts = new Uint8Array(128);
  const out: SpelledOutWord[] = [];
  for (const [surface, { forms, found }] of context.spelledOut) {
    if (context.glossary.has(surface) || context.knownTerms.has(surface) || context.excluded.has(surface) || context.proposals.has(surface)) continue;
    const word: SpelledOutWord = { surface, count: 0, line: 0 };
    out.push(word);
    let byForm = byList.get(found);
    if (!byForm) byList.set(found, (byForm = new Map()));
    for (const form of forms) {
      byForm.set(form, word);
      const first = form.charCodeAt(0);
      if (first < 128) firsts[first] = 1;
    }
  }
  for (const [found, byForm] of byList) {
    for (let k = 0; k < found.value.length; k++) {
      const raw = found.value[k]!;
      const first = raw.charCodeAt(0);
      if (first < 128 && firsts[first] === 0) continue;
      const word = byForm.get(raw);
      // (Tokens are in document order: the first use is the first line.)
      if (word && word.count++ === 0) word.line = lines.positionAt(tokens.start[found.at[k]!]!).line;
    }
  }
  return out;
}

/** All-caps ordinary words ("MUST", "NOT", "READ FIRST") are emphasis, not acronyms. */
function isShoutedWord(context: CheckContext, lower: string): boolean {
  if (FUNCTION_WORDS.has(lower)) return true;
  return lower.length >= 4 && isCommonWord(context.common, lower);
}

const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
/** The parts of a PascalCase word: capitalised words, runs of capitals ("WPStatus" → WP, Status). */
const PASCAL_PARTS = /[A-Z]+(?![a-z])|[A-Z][a-z]+/g;

const casingPattern: Extractor = {
  id: 'casing_pattern',
  phase: 'extraction',
  priority: 40,
  run(context) {
    // Every pattern needs ASCII letters of both cases, or an underscore (SHAPE_MIXED).
    const { masked, tokens } = context.scan;
    const seen = new Set<string>();
    const found = tokensShaped(context, 'casing_pattern', SHAPE_MIXED, 3);
    const decided = decisions<string | null>(context, 'casing_pattern.decisions', found.value.length);
    // (A mixed-case abbreviation spelled out: "Human-in-Charge (HiC)".)
    spelledOutSurfaces(context, 'casing_pattern', found, (raw) => raw.toLowerCase(), normalizeSurface);
    for (let k = 0; k < found.value.length; k++) {
      const raw = found.value[k]!;
      if (seen.has(raw)) continue;
      seen.add(raw);
      let surface = decided.get(raw);
      if (surface === undefined) decided.set(standalone(raw), (surface = casingSurface(context, raw)));
      // (Only the word's first occurrence is looked at, as a check of the whole document does.)
      if (surface !== null && !isIdentifierPart(masked, tokens.start[found.at[k]!]!, tokens.end[found.at[k]!]!)) propose(context, surface, 'casing_pattern');
    }
  },
};

/**
 * What casing_pattern proposes for a word written with mixed case, wherever it is written (null:
 * nothing). Identifiers written in prose are code (snake_case, camelCase, digits, a call or a
 * dotted name: the last two are asked of each occurrence), and so is a PascalCase name made of
 * familiar words ("EventStore", "PowerShell"): a PascalCase compound is proposed only for a
 * coined word inside it, a mixed-case abbreviation ("HiC") when the shared vocabulary does not
 * know it.
 */
function casingSurface(context: CheckContext, raw: string): string | null {
  if (!PASCAL.test(raw) || /[0-9]/.test(raw)) return null;
  const parts = raw.match(PASCAL_PARTS) ?? [];
  const lower = raw.toLowerCase();
  if (parts.some((part) => part.length === 1) || parts.every((part) => part.length <= 2)) {
    // Capitals inside a short word make it an abbreviation ("HiC", "ReDoS"), never the English
    // word it may spell: only the shared vocabulary knows it.
    return !context.knownTerms.has(lower) && !isKnownWord(context.common, lower) ? standalone(normalizeSurface(raw)) : null;
  }
  if (parts.every((part) => part.length <= 2 || isFamiliarWord(context.common, part) || context.knownTerms.has(part.toLowerCase()))) return null;
  return standalone(normalizeSurface(raw));
}

/** What an extractor decided per word, for these word lists (see `decisions`). */
interface Decisions<T> {
  common: CheckContext['common'];
  knownTerms: CheckContext['knownTerms'];
  byWord: Map<string, T>;
}

/**
 * An extractor's decisions per word or surface as written (kept in the memo under `key`: the
 * surface acronym or casing_pattern proposes, or null; whether a quoted phrase is familiar),
 * carried from the check before when it had the same word lists: the words of a document are
 * asked about once, not at every keystroke (on a 1 MB spec, a twentieth of one each). `found`
 * words are looked at now; words typed and gone are let go once the map is much larger.
 */
function decisions<T>(context: CheckContext, key: string, found: number): Map<string, T> {
  const before = followsPrevious(context) ? (context.previous.memo.get(key) as Decisions<T> | undefined) : undefined;
  const carried = before && before.common === context.common && before.knownTerms === context.knownTerms && before.byWord.size <= 2 * found + 1024 ? before : { common: context.common, knownTerms: context.knownTerms, byWord: new Map<string, T>() };
  context.memo.set(key, carried);
  return carried.byWord;
}

const PLAIN_WORD = /^[A-Za-z\u00C0-\u024F][a-z\u00DF-\u024F]{2,}$/;
/**
 * repeated_noun's byte per word id and common-word list (`Lexicon.flags`): the low two bits say
 * whether the word can be proposed at all (0: not asked yet); the next two whether its glossary
 * form is familiar, asked once instead of at every check (on 1 MB of specs, thousands of words).
 */
const RARE_BITS = 3;
const NOT_RARE = 1;
const RARE = 2;
const SURFACE_KNOWN = 4;
const SURFACE_FAMILIAR = 8;

const repeatedNoun: Extractor = {
  id: 'repeated_noun',
  phase: 'extraction',
  priority: 50,
  run(context) {
    // Only plain words that need a glossary can be proposed: the lexicon remembers which words
    // those are (per common-word list), and only their tokens are counted.
    const rare = context.scan.lexicon.flags(context.common);
    const counted = countedWords(context, rare);
    context.memo.set('repeated_noun', counted);
    context.rareWords = proposeRepeated(context, rare, tallyBySurface(context, counted), codeSpanWords(context));
  },
};

/** What repeated_noun counted of a glossary form: its uses, the lowercase and the capitalised ones inside a sentence, and a token of its first use. */
interface Tally {
  count: number;
  lower: number;
  capital: number;
  first: number;
}

/**
 * The tokens repeated_noun counts (`at`), each with its word id and how it is written (`value`:
 * id * 4 + caseOf), kept for the next check: after an edit only the changed tokens are counted.
 */
function countedWords(context: CheckContext, rare: Uint8Array): Found<number> {
  const { scan } = context;
  const { tokens, masked, inHeading } = scan;
  const { consumed } = context;
  const words = scan.lexicon.words;
  const count = (from: number, to: number, out: Found<number>) => {
    // (Locals: this loop looks at every token of the document.)
    const ids = tokens.word;
    const starts = tokens.start;
    const ends = tokens.end;
    const flags = rare;
    for (let i = from; i < to; i++) {
      const w = ids[i]!;
      let flag = flags[w]! & RARE_BITS;
      if (flag === 0) {
        flag = PLAIN_WORD.test(words[w]!) && !isFamiliarWord(context.common, words[w]!) ? RARE : NOT_RARE;
        flags[w] = flags[w]! | flag;
      }
      if (flag === NOT_RARE || inHeading[i] || consumed[i]) continue;
      const start = starts[i]!;
      const end = ends[i]!;
      if (end - start < 3) continue;
      if (masked[end] === 45 && isCompoundPrefix(masked, end, words[w]!)) continue;
      if (isIdentifierPart(masked, start, end)) continue;
      out.at.push(i);
      // The word and how this occurrence is written (see caseOf).
      out.value.push(w * 4 + caseOf(masked, start));
    }
  };
  const previous = followsPrevious(context) ? (context.previous.memo.get('repeated_noun') as Found<number> | undefined) : undefined;
  const change = previous && context.previous!.common === context.common ? markedChange(context) : undefined;
  let counted: Found<number>;
  if (previous && change) counted = spliceFound(previous, change.from, change.to, change.shift, count);
  else count(0, tokens.count, (counted = emptyFound()));
  return counted;
}

/**
 * The counted tokens added up by glossary form (a word's singular, in lowercase: capitalised and
 * lowercase spellings count together), in the order the words were first counted.
 */
function tallyBySurface(context: CheckContext, counted: Found<number>): Map<string, Tally> {
  const lexicon = context.scan.lexicon;
  // Counts per word (by id, in an array: a document has thousands of such tokens), in the order
  // the words were first counted.
  // (The engine's scratch counts, three per word (occurrences, lowercase ones, capitalised ones
  // inside a sentence): all 0 between uses.)
  const tally = context.engine.wordCounts(3 * lexicon.words.length);
  const order: number[] = [];
  const firstAt: number[] = [];
  for (let k = 0; k < counted.value.length; k++) {
    const value = counted.value[k]!;
    const w = value >> 2;
    const written = value & 3;
    if (tally[3 * w]!++ === 0) {
      order.push(w);
      firstAt.push(counted.at[k]!);
    }
    if (written === LOWER) tally[3 * w + 1]!++;
    else if (written === CAPITAL_MID) tally[3 * w + 2]!++;
  }
  const bySurface = new Map<string, Tally>();
  for (let k = 0; k < order.length; k++) {
    const w = order[k]!;
    const surface = lexicon.surface(w);
    const entry = bySurface.get(surface) ?? { count: 0, lower: 0, capital: 0, first: firstAt[k]! };
    entry.count += tally[3 * w]!;
    entry.lower += tally[3 * w + 1]!;
    entry.capital += tally[3 * w + 2]!;
    bySurface.set(surface, entry);
    tally[3 * w] = tally[3 * w + 1] = tally[3 * w + 2] = 0;
  }
  return bySurface;
}

/**
 * The words the document writes as code (`mutmut`, `mutmut run`), kept for the next check: after
 * an edit only the changed text is read again.
 */
function codeSpanWords(context: CheckContext): CodeSpanWords {
  const { scan } = context;
  const previousCode = followsPrevious(context) ? (context.previous.memo.get('repeated_noun.code') as CodeSpanWords | undefined) : undefined;
  const edit = scan.edit;
  const code = previousCode && edit ? previousCode.edited(scan.text, edit.restart, edit.end, edit.delta) : CodeSpanWords.of(scan.text);
  context.memo.set('repeated_noun.code', code);
  return code;
}

/**
 * Proposes the glossary forms used three times or more, and returns the rarer ones that need a
 * glossary (which the glossary candidates add up across a workspace).
 */
function proposeRepeated(context: CheckContext, rare: Uint8Array, bySurface: Map<string, Tally>, code: CodeSpanWords): RareWord[] {
  const { scan } = context;
  const { tokens } = scan;
  const words = scan.lexicon.words;
  // Capitalised and lowercase spellings count together. A word never written in lowercase and
  // capitalised inside a sentence is a name (a person, product or tool), not vocabulary. An
  // acronym or camelCase word counted here is also proposed by its own extractor, whose higher
  // confidence wins.
  // A word the document itself writes as code (`mutmut`, `mutmut run`) is an identifier.
  // Fewer than three uses here: a rare word, which the glossary candidates add up across a
  // workspace (a word used twice in each of forty specs is the team's).
  const rareWords: RareWord[] = [];
  for (const [surface, { count, lower, capital, first }] of bySurface) {
    // (`first` is a token of a word whose glossary form is `surface`.)
    if ((lower === 0 && capital > 0) || familiarSurface(context, rare, tokens.word[first]!)) continue;
    if (code.has(surface) || code.has(words[tokens.word[first]!]!)) continue;
    if (count >= 3) propose(context, surface, 'repeated_noun');
    // (A clipping is weak evidence: it is not added up across documents.)
    else if (!context.knownTerms.has(surface) && !context.excluded.has(surface) && !isClipping(context.common, surface)) rareWords.push({ surface, count, lower, capital, line: scan.lines.positionAt(tokens.start[first]!).line });
  }
  return rareWords;
}

/** Whether a word's glossary form (its singular) is familiar, by word id, asked once per list (`rare`: repeated_noun's flags). */
function familiarSurface(context: CheckContext, rare: Uint8Array, w: number): boolean {
  let flag = rare[w]!;
  if ((flag & SURFACE_KNOWN) === 0) {
    flag |= SURFACE_KNOWN | (isFamiliarWord(context.common, context.scan.lexicon.surface(w)) ? SURFACE_FAMILIAR : 0);
    rare[w] = flag;
  }
  return (flag & SURFACE_FAMILIAR) !== 0;
}

/**
 * The tokens with the `shape` bit (and at least `minLength` characters) and their text, kept for
 * the next check: after an edit only the re-scanned tokens are looked at.
 */
function tokensShaped(context: CheckContext, id: string, shape: number, minLength: number): Found<string> {
  const { tokens, text } = context.scan;
  const take = (i: number, out: Found<string>) => {
    if ((tokens.shape[i]! & shape) === 0 || tokens.end[i]! - tokens.start[i]! < minLength) return;
    out.at.push(i);
    out.value.push(text.slice(tokens.start[i]!, tokens.end[i]!));
  };
  const find = (from: number, to: number, out: Found<string>) => {
    // (The tokenizer lists the few tokens with a shape: no need to look at the others.)
    const shaped = tokens.shaped;
    if (shaped && from === 0 && to === tokens.count) for (const i of shaped) take(i, out);
    else for (let i = from; i < to; i++) take(i, out);
  };
  return keptFound(context, id, find);
}

/**
 * The list kept under `key` by the check before, spliced after the edit (`find` looks at the
 * re-scanned tokens [from, to) only); without one, `find` over every token. Kept for the next.
 */
function keptFound<T>(context: CheckContext, key: string, find: (from: number, to: number, out: Found<T>) => void): Found<T> {
  const previous = followsPrevious(context) ? (context.previous.memo.get(key) as Found<T> | undefined) : undefined;
  const edit = context.scan.edit;
  let found: Found<T>;
  if (previous && edit) found = spliceFound(previous, edit.before, edit.after, edit.shift, find);
  else find(0, context.scan.tokens.count, (found = emptyFound()));
  context.memo.set(key, found);
  return found;
}

export const EXTRACTORS: readonly Extractor[] = [glossaryMatch, metadataHint, quotedPhrase, acronym, casingPattern, repeatedNoun, locate];
export { EXTRACTOR_IDS } from './extractorIds';
