/**
 * The extraction phase (SPEC §5): one pipeline unit per method, each with the method's name as
 * its id so settings can disable it, plus the required `extraction.locate` unit that finds every
 * occurrence of what was proposed and builds the term candidates.
 */

import { followsPrevious, propose, sameSet, type CheckContext, type Proposal } from '../check/context';
import { normalizeSurface } from '../normalize';
import type { Unit } from '../pipeline';
import type { LineIndex } from '../text';
import type { Range, TermCandidate } from '../types';
import { FUNCTION_WORDS, isCommonWord } from '../words';
import { hasMask, maskedString } from './maskedCodes';
import type { DocumentScan } from './scan';
import { SHAPE_ACRONYM, SHAPE_MIXED } from './tokens';
import { SurfaceTrie, type TrieMatch } from './trie';
import { emptyFound, spliceFound, type Found } from './splice';
import { rewalk, walkAll, type Walk, type WalkChange } from './walk';

type Extractor = Unit<CheckContext>;

/** What the glossary walk keeps for the next check of the document. */
interface GlossaryMemo {
  walk: Walk;
  /** Tokens walked again this time. */
  from: number;
  to: number;
}

const glossaryMatch: Extractor = {
  id: 'glossary_match',
  phase: 'extraction',
  priority: 0,
  run(context) {
    const { scan, glossary } = context;
    if (glossary.trie.isEmpty) return;
    // Longest match first; a match of an excluded term is no match (the walk goes on after its
    // first word).
    const rules = { accept: (match: TrieMatch) => !context.excluded.has(match.surface) };
    const memo = followsPrevious(context) ? (context.previous.memo.get('glossary_match') as GlossaryMemo | undefined) : undefined;
    const edit = scan.edit;
    const reusable = memo && edit && context.previous!.glossary === glossary && sameSet(context.previous!.excluded, context.excluded);
    const result = reusable ? rewalk(glossary.trie, scan, rules, memo.walk, { from: edit.before, to: edit.after, shift: edit.shift }) : walkAll(glossary.trie, scan, rules);
    context.memo.set('glossary_match', { walk: result.walk, from: result.from, to: result.to } satisfies GlossaryMemo);

    const { tokens } = scan;
    const { first, last, surface } = result.walk;
    const consumed = context.consumed;
    for (let k = 0; k < first.length; k++) for (let t = first[k]!; t <= last[k]!; t++) consumed[t] = 1;
    // Each matched surface once: proposed, and given its occurrences in one array of the right size
    // (a 1 MB spec has thousands of matches of a few hundred surfaces).
    const groups = occurrencesBySurface(result.walk, tokens, glossary.trie.surfaceCount);
    for (let g = 0; g < groups.count; g++) {
      const name = surface[groups.firstMatch[g]!]!;
      propose(context, name, 'glossary_match');
      context.occurrences.set(name, groups.pairs[g]!);
    }
  },
};

/**
 * The occurrences of a walk's matches grouped by surface (flat [start, end) offset pairs, in
 * order), the surfaces in the order of their first match. Per match only typed-array reads and
 * writes: the slot of each surface number is kept in a scratch array, cleared again after.
 */
function occurrencesBySurface(walk: Walk, tokens: DocumentScan['tokens'], surfaces: number): { count: number; firstMatch: Int32Array; pairs: number[][] } {
  const { first, last, id } = walk;
  if (GROUPS.slotOf.length < surfaces) GROUPS.slotOf = new Int32Array(Math.max(surfaces, 2 * GROUPS.slotOf.length)).fill(-1);
  if (GROUPS.firstMatch.length < id.length) {
    GROUPS.firstMatch = new Int32Array(Math.max(id.length, 2 * GROUPS.firstMatch.length));
    GROUPS.fill = new Int32Array(GROUPS.firstMatch.length);
  }
  const { slotOf, firstMatch, fill } = GROUPS;
  let count = 0;
  for (let k = 0; k < id.length; k++) {
    let slot = slotOf[id[k]!]!;
    if (slot < 0) {
      slot = slotOf[id[k]!] = count++;
      firstMatch[slot] = k;
      fill[slot] = 0;
    }
    fill[slot]! += 2;
  }
  const pairs: number[][] = new Array(count);
  for (let g = 0; g < count; g++) {
    pairs[g] = new Array<number>(fill[g]!);
    fill[g] = 0;
  }
  for (let k = 0; k < id.length; k++) {
    const slot = slotOf[id[k]!]!;
    const list = pairs[slot]!;
    list[fill[slot]!] = tokens.start[first[k]!]!;
    list[fill[slot]! + 1] = tokens.end[last[k]!]!;
    fill[slot]! += 2;
  }
  for (let g = 0; g < count; g++) slotOf[id[firstMatch[g]!]!] = -1;
  return { count, firstMatch: firstMatch.subarray(0, count), pairs };
}

const GROUPS = { slotOf: new Int32Array(0), firstMatch: new Int32Array(0), fill: new Int32Array(0) };

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

/** The surface a quoted text proposes: 1–4 words, not all function words; undefined for none. */
function quotedSurface(quoted: string): string | undefined {
  let surface = quotedSurfaces.get(quoted);
  if (surface === undefined) {
    surface = null;
    const inner = quoted.trim().replace(/[.,;:!?]+$/, '');
    const words = inner.split(/\s+/).filter(Boolean);
    if (words.length >= 1 && words.length <= 4 && words.every((w) => QUOTED_WORD.test(w)) && /\p{L}/u.test(inner) && !words.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) {
      const normalized = normalizeSurface(inner);
      if (normalized.length > 1) surface = normalized;
    }
    if (quotedSurfaces.size >= 10_000) quotedSurfaces.clear();
    quotedSurfaces.set(quoted, surface);
  }
  return surface ?? undefined;
}

const quotedPhrase: Extractor = {
  id: 'quoted_phrase',
  phase: 'extraction',
  priority: 20,
  run(context) {
    const { masked, text } = context.scan;
    const take = (match: RegExpExecArray, index: number, out: Found<string>) => {
      const surface = quotedSurface(match[1] ?? match[2] ?? '');
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
      QUOTED.lastIndex = from;
      // test() rather than exec(): no match array per quote. A match ends at lastIndex with its
      // closing quote; it opens at the last opening quote before that (its text holds none).
      while (QUOTED.test(text)) {
        const end = QUOTED.lastIndex;
        const index = text.lastIndexOf(text.charCodeAt(end - 1) === 34 ? '"' : '\u201c', end - 2);
        if (index >= to) break;
        if (!hasMask(masked, index, end)) {
          const surface = quotedSurface(text.slice(index + 1, end - 1));
          if (surface !== undefined) {
            out.at.push(index);
            out.value.push(surface);
          }
          continue;
        }
        const lineStart = text.lastIndexOf('\n', index) + 1;
        let lineEnd = text.indexOf('\n', index);
        if (lineEnd === -1) lineEnd = text.length;
        const line = maskedString(masked, lineStart, lineEnd);
        // Matches of the masked line from where this one starts (earlier ones were taken already).
        QUOTED_LINE.lastIndex = index - lineStart;
        let inLine: RegExpExecArray | null;
        while ((inLine = QUOTED_LINE.exec(line)) !== null && lineStart + inLine.index < to) take(inLine, lineStart + inLine.index, out);
        QUOTED.lastIndex = lineEnd;
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
    // Counts per word, in the order the words were first counted.
    const counts = new Map<number, number>();
    for (const w of counted.value) counts.set(w, (counts.get(w) ?? 0) + 1);
    const bySurface = new Map<string, number>();
    for (const [w, count] of counts) {
      const surface = normalizeSurface(words[w]!);
      bySurface.set(surface, (bySurface.get(surface) ?? 0) + count);
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

/**
 * Where the tokens or their glossary-match marks (`consumed`) may differ from the previous
 * check's, as a token stretch; undefined when they cannot be compared.
 */
function markedChange(context: CheckContext): WalkChange | undefined {
  const edit = context.scan.edit;
  if (!edit || !followsPrevious(context)) return undefined;
  const glossary = context.memo.get('glossary_match') as GlossaryMemo | undefined;
  // Without a glossary walk now, there must have been none before either: no token is marked.
  if (glossary === undefined && context.previous.memo.get('glossary_match') !== undefined) return undefined;
  return { from: Math.min(edit.before, glossary?.from ?? edit.before), to: Math.max(edit.after, glossary?.to ?? edit.after), shift: edit.shift };
}

/**
 * The last few tries of proposed surfaces, by their phrases: the next check of a document (an
 * edit, a re-check) usually proposes the same ones, and a trie's per-word lookups then carry over.
 */
const locateTries = new Map<string, SurfaceTrie>();

function locateTrie(signature: string, phrases: readonly [string, string][]): SurfaceTrie {
  let trie = locateTries.get(signature);
  if (trie) {
    locateTries.delete(signature); // most recent last
  } else {
    trie = new SurfaceTrie();
    for (const [phrase, surface] of phrases) trie.add(phrase, surface);
    if (locateTries.size >= 8) locateTries.delete(locateTries.keys().next().value!);
  }
  locateTries.set(signature, trie);
  return trie;
}

/** What `extraction.locate` keeps for the next check of the document. */
interface LocateMemo {
  /** The phrases of the walk's trie, in the order they were added. */
  keys: string;
  walk: Walk;
  /** Each candidate and its occurrences as offsets, by surface. */
  candidates: Map<string, { candidate: TermCandidate; pairs: number[] }>;
}

/**
 * Find every occurrence of the proposed surfaces that the glossary walk did not already place,
 * then turn proposals into candidates (sorted by first occurrence).
 */
const locate: Extractor = {
  id: 'extraction.locate',
  phase: 'extraction',
  priority: 1000,
  required: true,
  run(context) {
    const { scan } = context;
    // Aliases first: the first registration of a phrase wins, and an alias ("WSP") must map to its
    // canonical term even when another extractor also proposed the alias itself.
    const phrases: [string, string][] = [];
    for (const [alias, canonical] of context.aliases) {
      if (context.proposals.has(canonical) && !context.excluded.has(canonical)) phrases.push([alias, canonical]);
    }
    for (const proposal of context.proposals.values()) {
      if (!context.occurrences.has(proposal.surface)) phrases.push([proposal.surface, proposal.surface]);
    }
    const signature = phrases.map(([phrase, surface]) => (phrase === surface ? phrase : `${phrase}\u0001${surface}`)).join('\u0000');
    const trie = locateTrie(signature, phrases);
    const previous = followsPrevious(context) ? (context.previous.memo.get('extraction.locate') as LocateMemo | undefined) : undefined;
    const rules = {
      skip: context.consumed,
      accept(match: TrieMatch) {
        for (let k = match.first; k <= match.last; k++) if (context.consumed[k]) return false;
        return true;
      },
    };
    // The tokens differ in the edited stretch, and the glossary walk's marks where it walked again.
    const change = previous && previous.keys === signature ? markedChange(context) : undefined;
    const result = previous && change ? rewalk(trie, scan, rules, previous.walk, change) : walkAll(trie, scan, rules);
    const { tokens } = scan;
    const { surface } = result.walk;
    const groups = occurrencesBySurface(result.walk, tokens, trie.surfaceCount);
    for (let g = 0; g < groups.count; g++) {
      const name = surface[groups.firstMatch[g]!]!;
      const known = context.occurrences.get(name); // an alias's canonical term found by the glossary walk
      if (known) for (const offset of groups.pairs[g]!) known.push(offset);
      else context.occurrences.set(name, groups.pairs[g]!);
    }

    const made = materialize(context, previous);
    // By first occurrence (the offset orders as its line and character do), then surface: an
    // index sort over the first offsets (no map look-up per comparison).
    const firsts = new Float64Array(made.length);
    const madePairs: number[][] = new Array(made.length);
    const order: number[] = new Array(made.length);
    for (let k = 0; k < made.length; k++) {
      const pairs = materialized.get(made[k]!)!;
      madePairs[k] = pairs;
      firsts[k] = pairs[0]!;
      order[k] = k;
    }
    order.sort((a, b) => firsts[a]! - firsts[b]! || (made[a]!.surface < made[b]!.surface ? -1 : 1));
    const candidates: TermCandidate[] = new Array(made.length);
    const bySurface = new Map<string, { candidate: TermCandidate; pairs: number[] }>();
    for (let k = 0; k < order.length; k++) {
      const candidate = made[order[k]!]!;
      candidates[k] = candidate;
      bySurface.set(candidate.surface, { candidate, pairs: madePairs[order[k]!]! });
    }
    context.candidates = candidates;
    context.memo.set('extraction.locate', { keys: signature, walk: result.walk, candidates: bySurface } satisfies LocateMemo);
  },
};

/** The occurrences of each candidate made by `materialize`, as flat [start, end) offset pairs. */
const materialized = new WeakMap<TermCandidate, number[]>();

/** The occurrence offsets (flat [start, end) pairs, in order) of a candidate made by `extraction.locate`. */
export function candidateOffsets(candidate: TermCandidate): readonly number[] | undefined {
  return materialized.get(candidate);
}

/**
 * What a candidate's `occurrences` and `texts` are worked out from, while one of them is not yet
 * (see `lazyCandidate`). A candidate reused by the next check of the document is re-pointed at
 * the new text (its values do not change), so it never keeps an old text alive.
 */
interface LazySource {
  pairs: number[];
  lines: LineIndex;
  text: string;
  ranges: boolean;
  texts: boolean;
}

const lazySources = new WeakMap<TermCandidate, LazySource>();

/** True when the candidate's ranges were not worked out yet. */
function unread(candidate: TermCandidate): boolean {
  return lazySources.get(candidate)?.ranges === false;
}

/**
 * A candidate whose `occurrences` and `texts` are worked out when first read: most candidates
 * (terms that resolve, ordinary words) yield no finding, and ranges for all their occurrences
 * would be most of a check's allocations. Reading them gives the same plain arrays as ever; once
 * read they are ordinary data properties.
 */
function lazyCandidate(proposal: Proposal, pairs: number[], lines: LineIndex, text: string): TermCandidate {
  const source: LazySource = { pairs, lines, text, ranges: false, texts: false };
  // Accessors in the literal itself (defineProperty per object is far slower); once read, each
  // becomes an ordinary data property.
  const settle = <K extends 'occurrences' | 'texts'>(key: K, value: TermCandidate[K]): TermCandidate[K] => {
    if (key === 'occurrences') source.ranges = true;
    else source.texts = true;
    if (source.ranges && source.texts) lazySources.delete(candidate);
    // (A frozen candidate keeps its accessors and works the value out on every read.)
    if (Object.isExtensible(candidate)) Object.defineProperty(candidate, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  const candidate: TermCandidate = {
    surface: proposal.surface,
    method: proposal.method,
    confidence: proposal.confidence,
    get occurrences(): Range[] {
      return settle('occurrences', source.lines.rangesOfSorted(source.pairs));
    },
    set occurrences(value: Range[]) {
      settle('occurrences', value);
    },
    get texts(): string[] {
      const { pairs, text } = source;
      const texts: string[] = new Array(pairs.length >> 1);
      for (let k = 0; k < texts.length; k++) texts[k] = text.slice(pairs[2 * k]!, pairs[2 * k + 1]!);
      return settle('texts', texts);
    },
    set texts(value: string[]) {
      settle('texts', value);
    },
  };
  lazySources.set(candidate, source);
  materialized.set(candidate, pairs);
  return candidate;
}

/**
 * Candidates of every proposal that occurs: occurrences sorted, one per start, as ranges. After an
 * edit, the ranges (and the candidate itself) of occurrences outside the edited text are the
 * previous check's: before the edit they are the same, after it they only move down by the
 * number of lines the edit added (the edited text ends at a line start).
 */
function materialize(context: CheckContext, previous: LocateMemo | undefined): TermCandidate[] {
  const { scan } = context;
  const edit = previous ? scan.edit : undefined;
  const found: { proposal: Proposal; pairs: number[]; old?: { candidate: TermCandidate; pairs: number[] }; head: number; tail: number }[] = [];
  for (const proposal of context.proposals.values()) {
    let pairs = context.occurrences.get(proposal.surface) ?? [];
    if (proposal.explicit.length > 0) pairs = pairs.concat(proposal.explicit.flat());
    if (pairs.length === 0) continue;
    pairs = uniqueStarts(sortPairs(pairs));
    const old = edit ? previous!.candidates.get(proposal.surface) : undefined;
    let head = 0;
    let tail = 0;
    if (old && edit) {
      const n = pairs.length;
      const m = old.pairs.length;
      while (head < n && head < m && pairs[head + 1]! <= edit.restart && pairs[head] === old.pairs[head] && pairs[head + 1] === old.pairs[head + 1]) head += 2;
      while (tail < n - head && tail < m - head && pairs[n - tail - 2]! >= edit.end && pairs[n - tail - 2]! - edit.delta === old.pairs[m - tail - 2] && pairs[n - tail - 1]! - edit.delta === old.pairs[m - tail - 1]) tail += 2;
    }
    found.push({ proposal, pairs, ...(old ? { old } : {}), head, tail });
  }
  const lineDelta = edit?.lineDelta ?? 0;
  const candidates: TermCandidate[] = [];
  for (const { proposal, pairs, old, head, tail } of found) {
    const count = pairs.length >> 1;
    const fresh = (pairs.length - head - tail) >> 1;
    if (old && fresh === 0 && lineDelta === 0 && old.pairs.length === pairs.length && old.candidate.method === proposal.method && old.candidate.confidence === proposal.confidence) {
      // Nothing about this candidate changed (what is still to be worked out now comes from the
      // new text, with the same result).
      const source = lazySources.get(old.candidate);
      if (source) Object.assign(source, { pairs, lines: scan.lines, text: scan.text });
      candidates.push(old.candidate);
      materialized.set(old.candidate, pairs);
      continue;
    }
    if (!old || unread(old.candidate)) {
      // Nothing read before to reuse: ranges and texts are worked out if and when they are read.
      candidates.push(lazyCandidate(proposal, pairs, scan.lines, scan.text));
      continue;
    }
    const occurrences: Range[] = new Array(count);
    const texts: string[] = new Array(count);
    const h = head >> 1;
    const t = tail >> 1;
    const ranges = scan.lines.rangesOfSorted(pairs, h, count - t);
    const oldCount = old.pairs.length >> 1;
    for (let k = 0; k < h; k++) {
      occurrences[k] = old.candidate.occurrences[k]!;
      texts[k] = old.candidate.texts[k]!;
    }
    for (let k = h; k < count - t; k++) {
      occurrences[k] = ranges[k - h]!;
      texts[k] = scan.text.slice(pairs[2 * k]!, pairs[2 * k + 1]!);
    }
    for (let k = count - t; k < count; k++) {
      const was = old.candidate.occurrences[oldCount - (count - k)]!;
      occurrences[k] = lineDelta === 0 ? was : { start: { line: was.start.line + lineDelta, character: was.start.character }, end: { line: was.end.line + lineDelta, character: was.end.character } };
      texts[k] = old.candidate.texts[oldCount - (count - k)]!;
    }
    const candidate: TermCandidate = { surface: proposal.surface, method: proposal.method, confidence: proposal.confidence, occurrences, texts };
    materialized.set(candidate, pairs);
    candidates.push(candidate);
  }
  return candidates;
}

/** Flat [start, end) pairs sorted by start, then end (a copy unless already sorted). */
function sortPairs(pairs: number[]): number[] {
  let sorted = true;
  for (let k = 2; k < pairs.length && sorted; k += 2) sorted = pairs[k - 2]! < pairs[k]! || (pairs[k - 2] === pairs[k] && pairs[k - 1]! <= pairs[k + 1]!);
  if (sorted) return pairs;
  const order: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) order.push(k);
  order.sort((a, b) => pairs[a]! - pairs[b]! || pairs[a + 1]! - pairs[b + 1]!);
  const out: number[] = [];
  for (const k of order) out.push(pairs[k]!, pairs[k + 1]!);
  return out;
}

/** Sorted pairs without those repeating the previous pair's start (the first of each start stays). */
function uniqueStarts(pairs: number[]): number[] {
  let k = 2;
  while (k < pairs.length && pairs[k] !== pairs[k - 2]) k += 2;
  if (k >= pairs.length) return pairs;
  const out = pairs.slice(0, k);
  for (; k < pairs.length; k += 2) if (pairs[k] !== out[out.length - 2]) out.push(pairs[k]!, pairs[k + 1]!);
  return out;
}

export const EXTRACTORS: readonly Extractor[] = [glossaryMatch, metadataHint, quotedPhrase, acronym, casingPattern, repeatedNoun, locate];
export const EXTRACTOR_IDS = ['glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun'] as const;
