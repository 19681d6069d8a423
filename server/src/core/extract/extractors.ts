/**
 * The extraction phase (SPEC §5): one pipeline unit per method, each with the method's name as
 * its id so settings can disable it (the glossary walk is in glossaryMatch.ts), plus the required
 * `extraction.locate` unit (locate.ts) that finds every occurrence of what was proposed and
 * builds the term candidates.
 */

import { followsPrevious, propose, type CheckContext, type RareWord } from '../check/context';
import { normalizeSurface } from '../normalize';
import type { Unit } from '../pipeline';
import { FUNCTION_WORDS, isClipping, isCommonWord, isFamiliarWord, isKnownWord } from '../words';
import { CodeSpanWords } from './codeWords';
import { glossaryMatch, markedChange } from './glossaryMatch';
import { locate } from './locate';
import { hasMask, maskedString } from './maskedCodes';
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

// Straight or typographic double quotes around 1–4 words on one line.
const QUOTED = /"([^"\n\u001f]{1,160})"|\u201c([^\u201c\u201d\n\u001f]{1,160})\u201d/g;
const QUOTED_LINE = new RegExp(QUOTED.source, 'g');
const QUOTED_WORD = /^[\p{L}\p{N}][\p{L}\p{N}_'\u2019-]*$/u;

/** What a quoted text proposes, by the text: quotes recur in a document ("must", "done"). */
const quotedSurfaces = new Map<string, string | null>();

/**
 * Words that may join the words of a term ("point of sale", "terms and conditions"); any other
 * function word makes a quoted text a message or a sentence ("not shipped", "is this live").
 */
const TERM_CONNECTORS = new Set(['of', 'and', 'or', 'for', 'per', 'in', 'on', 'to', 'at', 'by', 'with', 'vs', 'via']);
const ARTICLES = new Set(['a', 'an', 'the']);
/** Code in quotes: an underscore, a digit, a dot inside, or a capital after a lowercase letter. */
const IDENTIFIER_IN_QUOTES = /[_0-9]|[a-z]\.[a-z]|[a-z][A-Z]/;
const CAPITALISED = /^\p{Lu}/u;
/** "don't", "it's", "we'll": a contraction belongs to a sentence. */
const CONTRACTION = /['\u2019](?:t|re|ll|ve|d|m)$|^(?:it|that|there|here|what|who|he|she)['\u2019]s$/i;

/**
 * The surface a quoted text proposes, from its shape alone; undefined for none. A term is 1–4
 * words that are not all function words, and not:
 * - a message or sentence: it ends in "?" or "!", holds a comma or a contraction, or holds a
 *   function word other than a connector once a leading article is dropped ("not confirmed",
 *   "make the model static");
 * - a title: two or more words, each capitalised but the connectors ("Get Started");
 * - code: an identifier shape ("for_review", "003-admin-panel", "EnvironmentContext").
 * Whether its words are all familiar is decided when it is proposed (it depends on the word lists).
 */
function quotedSurface(quoted: string): string | undefined {
  let surface = quotedSurfaces.get(quoted);
  if (surface === undefined) {
    surface = quotedShape(quoted) ?? null;
    if (quotedSurfaces.size >= 10_000) quotedSurfaces.clear();
    quotedSurfaces.set(quoted, surface);
  }
  return surface ?? undefined;
}

function quotedShape(quoted: string): string | undefined {
  const trimmed = quoted.trim();
  if (/[?!]$/.test(trimmed) || trimmed.includes(',')) return undefined;
  const inner = trimmed.replace(/[.;:]+$/, '');
  let words = inner.split(/\s+/).filter(Boolean);
  if (words.length < 1 || words.length > 4 || !words.every((w) => QUOTED_WORD.test(w)) || !/\p{L}/u.test(inner)) return undefined;
  if (words.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) return undefined;
  if (words.some((w) => IDENTIFIER_IN_QUOTES.test(w) || CONTRACTION.test(w))) return undefined;
  if (words.length > 1 && ARTICLES.has(words[0]!.toLowerCase())) words = words.slice(1);
  if (words.some((w) => FUNCTION_WORDS.has(w.toLowerCase()) && !TERM_CONNECTORS.has(w.toLowerCase()))) return undefined;
  if (words.length > 1 && words.every((w) => CAPITALISED.test(w) || TERM_CONNECTORS.has(w.toLowerCase()))) return undefined;
  const normalized = normalizeSurface(words.join(' '));
  return normalized.length > 1 ? normalized : undefined;
}

/** Whether every word of a surface (and every part of a hyphenated word) needs no glossary. */
function allFamiliar(context: CheckContext, surface: string): boolean {
  for (const word of surface.split(/[\s-]+/)) {
    if (word !== '' && !TERM_CONNECTORS.has(word) && !isFamiliarWord(context.common, word) && !context.knownTerms.has(word)) return false;
  }
  return true;
}

/**
 * QUOTED's matches in the masked code units, from the offsets of their quote characters (", “, ”)
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
      const surface = quotedSurface(quoted);
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
      QUOTED.lastIndex = from;
      // test() rather than exec(): no match array per quote. A match ends at lastIndex with its
      // closing quote; it opens at the last opening quote before that (its text holds none).
      while (QUOTED.test(text)) {
        const end = QUOTED.lastIndex;
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
        QUOTED_LINE.lastIndex = index - lineStart;
        let inLine: RegExpExecArray | null;
        while ((inLine = QUOTED_LINE.exec(line)) !== null && lineStart + inLine.index < to) take(lineStart + inLine.index, inLine[1] ?? inLine[2] ?? '', out);
        QUOTED.lastIndex = lineEnd;
      }
    };
    const previous = followsPrevious(context) ? (context.previous.memo.get('quoted_phrase') as Found<string> | undefined) : undefined;
    const edit = context.scan.edit;
    let found: Found<string>;
    if (previous && edit) found = spliceFound(previous, edit.restart, edit.end, edit.delta, find);
    else find(0, text.length, (found = emptyFound()));
    context.memo.set('quoted_phrase', found);
    // A phrase made only of familiar words is not a term ("nice to have", "issue tracker").
    for (const surface of found.value) if (!allFamiliar(context, surface)) propose(context, surface, 'quoted_phrase');
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
    for (let k = 0; k < found.value.length; k++) {
      const raw = found.value[k]!;
      if (seen.has(raw)) continue;
      const i = found.at[k]!;
      if (isUnitOrFragment(masked, tokens.start[i]!, tokens.end[i]!)) continue;
      seen.add(raw);
      const surface = (raw.endsWith('s') ? raw.slice(0, -1) : raw).toLowerCase();
      if (isShoutedWord(context, surface)) continue;
      propose(context, surface, 'acronym');
    }
  },
};

/**
 * Capitals that are no acronym of their own: a unit after a number ("5 MB", "2 GB"), or a part of
 * an abbreviation joined by a slash, semicolon or ampersand ("TL;DR", "CI/CD", "R&D").
 */
function isUnitOrFragment(masked: Uint16Array, start: number, end: number): boolean {
  let k = start - 1;
  if (k >= 0 && masked[k] === 32) k--;
  if (end - start <= 3 && masked[end - 1] !== 115 && k >= 0 && masked[k]! >= 48 && masked[k]! <= 57) return true;
  const joins = (c: number | undefined) => c === 47 || c === 59 || c === 38;
  const upper = (c: number | undefined) => c !== undefined && c >= 65 && c <= 90;
  return (joins(masked[end]) && upper(masked[end + 1])) || (start >= 2 && joins(masked[start - 1]) && upper(masked[start - 2]));
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
    for (let k = 0; k < found.value.length; k++) {
      const raw = found.value[k]!;
      if (seen.has(raw)) continue;
      seen.add(raw);
      // Identifiers written in prose are code (snake_case, camelCase, digits, a call or a dotted
      // name), and so is a PascalCase name made of familiar words ("EventStore", "PowerShell"):
      // a PascalCase compound is proposed only for a coined word inside it, a mixed-case
      // abbreviation ("HiC") when the shared vocabulary does not know it.
      if (!PASCAL.test(raw) || /[0-9]/.test(raw) || isIdentifierPart(masked, tokens.start[found.at[k]!]!, tokens.end[found.at[k]!]!)) continue;
      const parts = raw.match(PASCAL_PARTS) ?? [];
      const lower = raw.toLowerCase();
      if (parts.some((part) => part.length === 1) || parts.every((part) => part.length <= 2)) {
        // Capitals inside a short word make it an abbreviation ("HiC", "ReDoS"), never the
        // English word it may spell: only the shared vocabulary knows it.
        if (!context.knownTerms.has(lower) && !isKnownWord(context.common, lower)) propose(context, normalizeSurface(raw), 'casing_pattern');
        continue;
      }
      if (parts.every((part) => part.length <= 2 || isFamiliarWord(context.common, part) || context.knownTerms.has(part.toLowerCase()))) continue;
      propose(context, normalizeSurface(raw), 'casing_pattern');
    }
  },
};

// "pre-existing", "non-goal", "pre-#555": a prefix joined by a hyphen is not a word of its own.
const HYPHEN_PREFIXES = new Set('pre non sub post multi anti semi auto inter intra meta micro macro mini pseudo quasi bi tri uni mid re co de un'.split(' '));

/** A hyphen at `end` of the masked code units after a prefix word ("pre-", "non-"). */
function isCompoundPrefix(masked: Uint16Array, end: number, lower: string): boolean {
  return masked[end] === 45 && end + 1 < masked.length && !isBlank(masked[end + 1]!) && HYPHEN_PREFIXES.has(lower);
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isAsciiLetter(c: number | undefined): boolean {
  return c !== undefined && ((c | 32) >= 97 && (c | 32) <= 122);
}

/**
 * Whether the token [start, end) is part of an identifier or path written in prose: a dotted name
 * (`mission.status`, `yaml.safe_load`: a dot with a letter on both sides), a call (`frozenset(`),
 * a slash-joined path or slug (`QwenLM/qwen-code`), or the value of a command-line option
 * (`init --ai zorb`). Code is not vocabulary, even outside backticks.
 */
function isIdentifierPart(masked: Uint16Array, start: number, end: number): boolean {
  const after = masked[end];
  if (after === 40) return true; // "("
  if (after === 46 && isWordCode(masked[end + 1])) return true;
  if (start >= 2 && masked[start - 1] === 46 && isWordCode(masked[start - 2])) return true;
  return inSlashedChunk(masked, start, end) || afterOption(masked, start);
}

/** Whether the token at `start` is the value of a command-line option written in prose (`--ai zorb`, `--mode=zorb`). */
function afterOption(masked: Uint16Array, start: number): boolean {
  let k = start - 1;
  if (k >= 0 && (masked[k] === 32 || masked[k] === 61)) k--;
  else return false;
  while (k >= 0 && (isWordCode(masked[k]) || masked[k] === 45 || masked[k] === 95)) k--;
  // k is now before the option's name: it must have been "--name" at a word boundary.
  return k + 2 < start && masked[k + 1] === 45 && masked[k + 2] === 45 && (k < 0 || masked[k] === 32 || masked[k] === 10 || masked[k] === 9);
}

/** How far around a token `inSlashedChunk` looks. */
const CHUNK_REACH = 64;

/**
 * Whether the run of non-blank characters around [start, end) holds a slash between word
 * characters: a path or slug such as `QwenLM/qwen-code` or `Owner-ai/repo#12`.
 */
function inSlashedChunk(masked: Uint16Array, start: number, end: number): boolean {
  const from = Math.max(1, start - CHUNK_REACH);
  for (let k = start - 1; k >= from; k--) {
    const c = masked[k]!;
    if (isBlank(c) || c === 0x1f) break;
    if (c === 47 && isWordCode(masked[k - 1]) && isWordCode(masked[k + 1])) return true;
  }
  const to = Math.min(masked.length - 1, end + CHUNK_REACH);
  for (let k = end; k < to; k++) {
    const c = masked[k]!;
    if (isBlank(c) || c === 0x1f) break;
    if (c === 47 && isWordCode(masked[k - 1]) && isWordCode(masked[k + 1])) return true;
  }
  return false;
}

/** An ASCII letter or digit. */
function isWordCode(c: number | undefined): boolean {
  return c !== undefined && (isAsciiLetter(c) || (c >= 48 && c <= 57));
}

/**
 * How an occurrence is written, for telling names apart: LOWER ("claude"), CAPITAL_MID (capital
 * letter after other words of its sentence: "ask Claude"), OTHER (capital at the start of a
 * sentence, line, list item or cell, where any word is capitalised).
 */
const LOWER = 0;
const CAPITAL_MID = 1;
const OTHER = 2;

function caseOf(masked: Uint16Array, start: number): number {
  const first = masked[start]!;
  if (first >= 97 && first <= 122) return LOWER;
  if (first >= 0xdf && first <= 0x24f && String.fromCharCode(first).toLowerCase() === String.fromCharCode(first)) return LOWER;
  // What comes before it in its sentence: skip spaces and emphasis, quotes and brackets.
  let k = start - 1;
  while (k >= 0) {
    const c = masked[k]!;
    if (c === 32 || c === 9 || c === 42 || c === 95 || c === 34 || c === 39 || c === 40 || c === 91 || c === 0x201c || c === 0x2018) k--;
    else break;
  }
  if (k < 0) return OTHER;
  const before = masked[k]!;
  // Line start, a sentence end, a list marker, a table cell, a heading or quote marker, a colon.
  if (before === 10 || before === 13 || before === 46 || before === 33 || before === 63 || before === 58 || before === 124 || before === 35 || before === 62 || before === 45 || before === 43 || before === 0x1f || before === 0x2014 || before === 0x2013) return OTHER;
  return CAPITAL_MID;
}

const PLAIN_WORD = /^[A-Za-z\u00C0-\u024F][a-z\u00DF-\u024F]{2,}$/;

// Scratch counts by word id of `repeated_noun`, three per word (occurrences, lowercase ones,
// capitalised ones inside a sentence): all 0 between uses; checks never run inside one another.
let tally = new Int32Array(1024);

const repeatedNoun: Extractor = {
  id: 'repeated_noun',
  phase: 'extraction',
  priority: 50,
  run(context) {
    const { scan } = context;
    const { tokens, masked, inHeading } = scan;
    const { consumed } = context;
    const words = scan.lexicon.words;
    // Only plain words that need a glossary can be proposed: the lexicon remembers which words
    // those are (per common-word list), and only their tokens are counted.
    const rare = scan.lexicon.flags(context.common);
    const count = (from: number, to: number, out: Found<number>) => {
      // (Locals: this loop looks at every token of the document.)
      const ids = tokens.word;
      const starts = tokens.start;
      const ends = tokens.end;
      const flags = rare;
      for (let i = from; i < to; i++) {
        const w = ids[i]!;
        let flag = flags[w]!;
        if (flag === 0) flags[w] = flag = PLAIN_WORD.test(words[w]!) && !isFamiliarWord(context.common, words[w]!) ? 2 : 1;
        if (flag === 1 || inHeading[i] || consumed[i]) continue;
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
    context.memo.set('repeated_noun', counted);
    // Counts per word (by id, in an array: a document has thousands of such tokens), in the order
    // the words were first counted.
    if (tally.length < 3 * words.length) tally = new Int32Array(Math.max(3 * words.length, 2 * tally.length));
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
    const bySurface = new Map<string, { count: number; lower: number; capital: number; first: number }>();
    for (let k = 0; k < order.length; k++) {
      const w = order[k]!;
      const surface = normalizeSurface(words[w]!);
      const entry = bySurface.get(surface) ?? { count: 0, lower: 0, capital: 0, first: firstAt[k]! };
      entry.count += tally[3 * w]!;
      entry.lower += tally[3 * w + 1]!;
      entry.capital += tally[3 * w + 2]!;
      bySurface.set(surface, entry);
      tally[3 * w] = tally[3 * w + 1] = tally[3 * w + 2] = 0;
    }
    // Capitalised and lowercase spellings count together. A word never written in lowercase and
    // capitalised inside a sentence is a name (a person, product or tool), not vocabulary. An
    // acronym or camelCase word counted here is also proposed by its own extractor, whose higher
    // confidence wins.
    // A word the document itself writes as code (`mutmut`, `mutmut run`) is an identifier.
    // Fewer than three uses here: a rare word, which the glossary candidates add up across a
    // workspace (a word used twice in each of forty specs is the team's).
    const previousCode = followsPrevious(context) ? (context.previous.memo.get('repeated_noun.code') as CodeSpanWords | undefined) : undefined;
    const edit = scan.edit;
    const code = previousCode && edit ? previousCode.edited(scan.text, edit.restart, edit.end, edit.delta) : CodeSpanWords.of(scan.text);
    context.memo.set('repeated_noun.code', code);
    const rareWords: RareWord[] = [];
    for (const [surface, { count, lower, capital, first }] of bySurface) {
      if ((lower === 0 && capital > 0) || isFamiliarWord(context.common, surface)) continue;
      if (code.has(surface) || code.has(words[tokens.word[first]!]!)) continue;
      if (count >= 3) propose(context, surface, 'repeated_noun');
      // (A clipping is weak evidence: it is not added up across documents.)
      else if (!context.knownTerms.has(surface) && !context.excluded.has(surface) && !isClipping(context.common, surface)) rareWords.push({ surface, count, lower, capital, line: scan.lines.positionAt(tokens.start[first]!).line });
    }
    context.rareWords = rareWords;
  },
};

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
  const previous = followsPrevious(context) ? (context.previous.memo.get(id) as Found<string> | undefined) : undefined;
  const edit = context.scan.edit;
  let found: Found<string>;
  if (previous && edit) found = spliceFound(previous, edit.before, edit.after, edit.shift, find);
  else find(0, tokens.count, (found = emptyFound()));
  context.memo.set(id, found);
  return found;
}

export const EXTRACTORS: readonly Extractor[] = [glossaryMatch, metadataHint, quotedPhrase, acronym, casingPattern, repeatedNoun, locate];
export const EXTRACTOR_IDS = ['glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun'] as const;
