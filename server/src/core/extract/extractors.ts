/**
 * The extraction phase (SPEC §5): one pipeline unit per method, each with the method's name as
 * its id so settings can disable it (the glossary walk is in glossaryMatch.ts), plus the required
 * `extraction.locate` unit (locate.ts) that finds every occurrence of what was proposed and
 * builds the term candidates.
 */

import { followsPrevious, propose, type CheckContext } from '../check/context';
import type { EngineState } from '../check/engineState';
import { normalizeSurface } from '../normalize';
import type { Unit } from '../pipeline';
import { FUNCTION_WORDS, isCommonWord } from '../words';
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

// Straight or typographic double quotes around 1–4 words on one line. (A source, not a /g
// pattern: a global pattern carries its search position, so each search makes its own.)
const QUOTED_SOURCE = /"([^"\n\u001f]{1,160})"|\u201c([^\u201c\u201d\n\u001f]{1,160})\u201d/.source;
const QUOTED_WORD = /^[\p{L}\p{N}][\p{L}\p{N}_'\u2019-]*$/u;

/**
 * The surface a quoted text proposes: 1–4 words, not all function words; undefined for none.
 * The engine remembers the answers: quotes recur in a document ("must", "done").
 */
function quotedSurface(engine: EngineState, quoted: string): string | undefined {
  let surface = engine.quotedSurfaces.get(quoted);
  if (surface === undefined) {
    surface = null;
    const inner = quoted.trim().replace(/[.,;:!?]+$/, '');
    const words = inner.split(/\s+/).filter(Boolean);
    if (words.length >= 1 && words.length <= 4 && words.every((w) => QUOTED_WORD.test(w)) && /\p{L}/u.test(inner) && !words.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) {
      const normalized = normalizeSurface(inner);
      if (normalized.length > 1) surface = normalized;
    }
    engine.rememberQuoted(quoted, surface);
  }
  return surface ?? undefined;
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
    for (const surface of found.value) propose(context, surface, 'quoted_phrase');
  },
};

const acronym: Extractor = {
  id: 'acronym',
  phase: 'extraction',
  priority: 30,
  run(context) {
    // The lexer already knows which tokens match ACRONYM.
    const seen = new Set<string>();
    for (const raw of tokensShaped(context, 'acronym', SHAPE_ACRONYM, 2).value) {
      if (seen.has(raw)) continue;
      seen.add(raw);
      const surface = (raw.endsWith('s') ? raw.slice(0, -1) : raw).toLowerCase();
      if (isShoutedWord(context, surface)) continue;
      propose(context, surface, 'acronym');
    }
  },
};

/** All-caps ordinary words ("MUST", "NOT", "READ FIRST") are emphasis, not acronyms. */
function isShoutedWord(context: CheckContext, lower: string): boolean {
  if (FUNCTION_WORDS.has(lower)) return true;
  return lower.length >= 4 && isCommonWord(context.common, lower);
}

const CAMEL = /^[a-z]+(?:[A-Z][a-z0-9]*)+$/;
const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

const casingPattern: Extractor = {
  id: 'casing_pattern',
  phase: 'extraction',
  priority: 40,
  run(context) {
    // Every pattern needs ASCII letters of both cases, or an underscore (SHAPE_MIXED).
    const seen = new Set<string>();
    for (const raw of tokensShaped(context, 'casing_pattern', SHAPE_MIXED, 3).value) {
      if (seen.has(raw)) continue;
      seen.add(raw);
      if (CAMEL.test(raw) || PASCAL.test(raw) || SNAKE.test(raw)) propose(context, normalizeSurface(raw), 'casing_pattern');
    }
  },
};

// "pre-existing", "non-goal": a prefix joined by a hyphen is not a word of its own.
const HYPHEN_PREFIXES = new Set('pre non sub post multi anti semi auto inter intra meta micro macro mini pseudo quasi bi tri uni mid'.split(' '));

/** A hyphen at `end` of the masked code units, then an ASCII letter, after a prefix word. */
function isCompoundPrefix(masked: Uint16Array, end: number, lower: string): boolean {
  const next = end + 1 < masked.length ? masked[end + 1]! | 32 : 0;
  return masked[end] === 45 && next >= 97 && next <= 122 && HYPHEN_PREFIXES.has(lower);
}

const PLAIN_WORD = /^[A-Za-z\u00C0-\u024F][a-z\u00DF-\u024F]{2,}$/;

const repeatedNoun: Extractor = {
  id: 'repeated_noun',
  phase: 'extraction',
  priority: 50,
  run(context) {
    const { scan } = context;
    const { tokens, masked, inHeading } = scan;
    const { consumed } = context;
    const words = scan.lexicon.words;
    // Only plain words that are not common English can be proposed: the lexicon remembers which
    // words those are (per common-word list), and only their tokens are counted.
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
        if (flag === 0) flags[w] = flag = PLAIN_WORD.test(words[w]!) && !isCommonWord(context.common, words[w]!) ? 2 : 1;
        if (flag === 1 || inHeading[i] || consumed[i]) continue;
        const end = ends[i]!;
        if (end - starts[i]! < 3) continue;
        if (masked[end] === 45 && isCompoundPrefix(masked, end, words[w]!)) continue;
        out.at.push(i);
        out.value.push(w);
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
    // (The engine's scratch counts: all 0 between uses.)
    const tally = context.engine.wordCounts(words.length);
    const order: number[] = [];
    for (const w of counted.value) if (tally[w]!++ === 0) order.push(w);
    const counts = order.map((w) => {
      const count = tally[w]!;
      tally[w] = 0;
      return count;
    });
    const bySurface = new Map<string, number>();
    for (let k = 0; k < order.length; k++) {
      const surface = normalizeSurface(words[order[k]!]!);
      bySurface.set(surface, (bySurface.get(surface) ?? 0) + counts[k]!);
    }
    // Capitalised and lowercase spellings count together. An acronym or camelCase word counted
    // here is also proposed by its own extractor, whose higher confidence wins.
    for (const [surface, count] of bySurface) {
      if (count >= 3 && !isCommonWord(context.common, surface)) propose(context, surface, 'repeated_noun');
    }
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
