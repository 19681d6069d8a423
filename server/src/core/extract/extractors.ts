/**
 * The extraction phase (SPEC §5): one pipeline unit per method, each with the method's name as
 * its id so settings can disable it, plus the required `extraction.locate` unit that finds every
 * occurrence of what was proposed and builds the term candidates.
 */

import { addOccurrence, propose, type CheckContext } from '../check/context';
import { normalizeSurface } from '../normalize';
import type { Unit } from '../pipeline';
import type { TermCandidate } from '../types';
import { FUNCTION_WORDS, isCommonWord } from '../words';
import { SurfaceTrie } from './trie';

type Extractor = Unit<CheckContext>;

const glossaryMatch: Extractor = {
  id: 'glossary_match',
  phase: 'extraction',
  priority: 0,
  run(context) {
    const { scan, glossary } = context;
    if (glossary.trie.isEmpty) return;
    const { tokens } = scan;
    for (let i = 0; i < tokens.count; i++) {
      const match = glossary.trie.matchAt(tokens, i, scan.masked, scan.lower);
      if (!match || context.excluded.has(match.surface)) continue;
      propose(context, match.surface, 'glossary_match');
      addOccurrence(context, match.surface, tokens.start[match.first]!, tokens.end[match.last]!);
      for (let k = match.first; k <= match.last; k++) context.consumed[k] = 1;
      i = match.last;
    }
  },
};

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
const QUOTED_WORD = /^[\p{L}\p{N}][\p{L}\p{N}_'\u2019-]*$/u;

const quotedPhrase: Extractor = {
  id: 'quoted_phrase',
  phase: 'extraction',
  priority: 20,
  run(context) {
    const { masked } = context.scan;
    QUOTED.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = QUOTED.exec(masked)) !== null) {
      const inner = (match[1] ?? match[2] ?? '').trim().replace(/[.,;:!?]+$/, '');
      const words = inner.split(/\s+/).filter(Boolean);
      if (words.length < 1 || words.length > 4) continue;
      if (!words.every((w) => QUOTED_WORD.test(w)) || !/\p{L}/u.test(inner)) continue;
      if (words.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) continue;
      const surface = normalizeSurface(inner);
      if (surface.length > 1) propose(context, surface, 'quoted_phrase');
    }
  },
};

const ACRONYM = /^[A-Z]{2,5}s?$/;

const acronym: Extractor = {
  id: 'acronym',
  phase: 'extraction',
  priority: 30,
  run(context) {
    const { scan } = context;
    const seen = new Set<string>();
    for (let i = 0; i < scan.tokens.count; i++) {
      const length = scan.tokens.end[i]! - scan.tokens.start[i]!;
      if (length < 2 || length > 6) continue;
      const raw = scan.masked.slice(scan.tokens.start[i]!, scan.tokens.end[i]!);
      if (seen.has(raw) || !ACRONYM.test(raw)) continue;
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
    const { scan } = context;
    const seen = new Set<string>();
    for (let i = 0; i < scan.tokens.count; i++) {
      const raw = scan.masked.slice(scan.tokens.start[i]!, scan.tokens.end[i]!);
      if (raw.length < 3 || seen.has(raw)) continue;
      seen.add(raw);
      if (CAMEL.test(raw) || PASCAL.test(raw) || SNAKE.test(raw)) propose(context, normalizeSurface(raw), 'casing_pattern');
    }
  },
};

// "pre-existing", "non-goal": a prefix joined by a hyphen is not a word of its own.
const HYPHEN_PREFIXES = new Set('pre non sub post multi anti semi auto inter intra meta micro macro mini pseudo quasi bi tri uni mid'.split(' '));

function isCompoundPrefix(text: string, end: number, lower: string): boolean {
  return text.charCodeAt(end) === 45 && HYPHEN_PREFIXES.has(lower) && /[A-Za-z]/.test(text[end + 1] ?? '');
}

const PLAIN_WORD = /^[A-Za-z\u00C0-\u024F][a-z\u00DF-\u024F]{2,}$/;

const repeatedNoun: Extractor = {
  id: 'repeated_noun',
  phase: 'extraction',
  priority: 50,
  run(context) {
    const { scan } = context;
    const counts = new Map<string, number>();
    for (let i = 0; i < scan.tokens.count; i++) {
      if (scan.inHeading[i] || context.consumed[i]) continue;
      const length = scan.tokens.end[i]! - scan.tokens.start[i]!;
      if (length < 3) continue;
      const lower = scan.lower(i);
      if (isCompoundPrefix(scan.masked, scan.tokens.end[i]!, lower)) continue;
      counts.set(lower, (counts.get(lower) ?? 0) + 1);
    }
    const bySurface = new Map<string, number>();
    for (const [lower, count] of counts) {
      if (!PLAIN_WORD.test(lower) || isCommonWord(context.common, lower)) continue;
      const surface = normalizeSurface(lower);
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
    const trie = new SurfaceTrie();
    // Aliases first: the first registration of a phrase wins, and an alias ("WSP") must map to its
    // canonical term even when another extractor also proposed the alias itself.
    for (const [alias, canonical] of context.aliases) {
      if (context.proposals.has(canonical) && !context.excluded.has(canonical)) trie.add(alias, canonical);
    }
    for (const proposal of context.proposals.values()) {
      if (!context.occurrences.has(proposal.surface)) trie.add(proposal.surface, proposal.surface);
    }
    if (!trie.isEmpty) {
      const { tokens } = scan;
      for (let i = 0; i < tokens.count; i++) {
        if (context.consumed[i]) continue;
        const match = trie.matchAt(tokens, i, scan.masked, scan.lower);
        if (!match) continue;
        let free = true;
        for (let k = match.first; k <= match.last; k++) if (context.consumed[k]) free = false;
        if (!free) continue;
        addOccurrence(context, match.surface, tokens.start[match.first]!, tokens.end[match.last]!);
        i = match.last;
      }
    }

    const candidates: TermCandidate[] = [];
    for (const proposal of context.proposals.values()) {
      const offsets = [...(context.occurrences.get(proposal.surface) ?? []), ...proposal.explicit];
      if (offsets.length === 0) continue;
      offsets.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const unique = offsets.filter((o, k) => k === 0 || o[0] !== offsets[k - 1]![0]);
      candidates.push({
        surface: proposal.surface,
        method: proposal.method,
        confidence: proposal.confidence,
        occurrences: unique.map(([s, e]) => scan.lines.rangeOf(s, e)),
        texts: unique.map(([s, e]) => scan.text.slice(s, e)),
      });
    }
    candidates.sort((a, b) => a.occurrences[0]!.start.line - b.occurrences[0]!.start.line || a.occurrences[0]!.start.character - b.occurrences[0]!.start.character || (a.surface < b.surface ? -1 : 1));
    context.candidates = candidates;
  },
};

export const EXTRACTORS: readonly Extractor[] = [glossaryMatch, metadataHint, quotedPhrase, acronym, casingPattern, repeatedNoun, locate];
export const EXTRACTOR_IDS = ['glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun'] as const;
