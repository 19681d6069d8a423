/** The state one document check carries through the pipeline's phases. */

import type { DocumentScan } from '../extract/scan';
import type { Found } from '../extract/splice';
import type { GlossaryIndex } from '../glossary';
import type { Decision } from '../pipeline';
import type { CommonWords } from '../words';
import type { EngineState } from './engineState';
import type { ExtractionMethod, Finding, Pin, Strictness, TermCandidate } from '../types';
import type { DocumentVocabulary, VocabularyOrigin, VocabularySource } from '../missionVocabulary/types';

/** A word that needs a glossary, used too rarely in one document to be proposed there. */
export interface RareWord {
  /** Normalized. */
  surface: string;
  count: number;
  /** Occurrences written in lowercase, and capitalised inside a sentence (names are the latter only). */
  lower: number;
  capital: number;
  /** Zero-based line of the first occurrence. */
  line: number;
}

/** An abbreviation a document spells out (extract/spelledOut.ts), for the glossary candidates. */
export interface SpelledOutWord {
  /** Normalized. */
  surface: string;
  /** Occurrences in the document. */
  count: number;
  /** Zero-based line of the first occurrence. */
  line: number;
}

/** Where an abbreviation spelled out is written: its forms, and the tokens to count them among. */
export interface SpelledOutForms {
  /** As written ("DRG"; an acronym's plural too). */
  forms: Set<string>;
  /** The tokens it is written among (acronym's or casing_pattern's), in document order. */
  found: Found<string>;
}

/** Tie-break between methods of equal confidence: earlier wins. */
export const METHOD_ORDER: readonly ExtractionMethod[] = ['glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun'];

export const METHOD_CONFIDENCE: Record<ExtractionMethod, number> = {
  glossary_match: 1.0,
  metadata_hint: 1.0,
  quoted_phrase: 0.8,
  acronym: 0.8,
  casing_pattern: 0.8,
  repeated_noun: 0.5,
};

export interface Proposal {
  surface: string;
  method: ExtractionMethod;
  confidence: number;
  /** Occurrences known without searching the prose (front matter hint values), as offsets. */
  explicit: [number, number][];
}

export interface CheckContext {
  /** The engine running the check: its lexicon, lent buffers and memos. */
  engine: EngineState;
  scan: DocumentScan;
  /** The glossary the document is checked against: the given one, plus the mission's own vocabulary once read (check/vocabulary.ts). */
  glossary: GlossaryIndex;
  /** The document's own vocabulary sections (SPEC §3), read by the first extraction unit. */
  vocabulary?: DocumentVocabulary;
  /** Where the document is, to name its own entries' provenance; none: its entries define nothing. */
  documentOrigin: VocabularyOrigin | undefined;
  /** The vocabularies of the mission's spec (and other documents the caller found), after the document's own. */
  missionVocabulary: readonly VocabularySource[];
  common: CommonWords;
  pins: ReadonlyMap<string, Pin>;
  /** Terms that count as known without a glossary entry (well-known acronyms, ignore_words). */
  knownTerms: ReadonlySet<string>;
  critical: boolean;
  strictness: Strictness;
  /** Normalized terms removed from every method (front matter glossary_exclude_terms). */
  excluded: ReadonlySet<string>;
  /** Alias (normalized, as written in glossary_aliases keys) → canonical normalized surface. */
  aliases: ReadonlyMap<string, string>;
  proposals: Map<string, Proposal>;
  /**
   * Abbreviations the document spells out ("Doctrine Reference Graph (DRG)", extract/spelledOut.ts),
   * found by acronym and casing_pattern: the document says what they mean, so the extractors
   * that would make them unknown terms (those two, repeated_noun; quoted_phrase runs before
   * them) do not propose them. A glossary still decides them where it holds them
   * (glossary_match), and front matter can still ask (metadata_hint).
   */
  spelledOut: Map<string, SpelledOutForms>;
  /**
   * Occurrence offsets per surface, found by walking the prose: flat [start, end, start, end, …]
   * (views of one typed array per walk: see `occurrencesBySurface`).
   */
  occurrences: Map<string, ArrayLike<number>>;
  /** Tokens already claimed by a glossary match (longest match first). */
  consumed: Uint8Array;
  candidates: TermCandidate[];
  /**
   * Words that would be repeated nouns but occur fewer than three times here (repeated_noun):
   * reported nowhere, summed across a workspace by the glossary candidates (core/candidates.ts).
   */
  rareWords: RareWord[];
  findings: Finding[];
  decisions: Decision[];
  /**
   * The previous check of the same document, when it is checked again after an edit (the
   * incremental checker); `scan.edit` then says what changed. Units may reuse what it found for
   * the unchanged parts, and must give the same result as without it.
   */
  previous?: CheckContext;
  /** What units keep for the next check of the same document, by unit id. */
  memo: Map<string, unknown>;
}

/** True when `context.previous` is the check of the scan `context.scan` was re-scanned from. */
export function followsPrevious(context: CheckContext): context is CheckContext & { previous: CheckContext } {
  return context.previous !== undefined && context.scan.edit !== undefined && context.scan.edit.previous === context.previous.scan.serial;
}

export function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const value of a) if (!b.has(value)) return false;
  return true;
}

/** (Shared: a default `[]` would be a new array on each of the tens of thousands of calls a check makes.) */
const NO_OFFSETS: readonly [number, number][] = Object.freeze([]);

/** Record a proposal; the highest confidence wins, ties go to the earlier method. */
export function propose(context: CheckContext, surface: string, method: ExtractionMethod, explicit: readonly [number, number][] = NO_OFFSETS): void {
  if (!surface || context.excluded.has(surface)) return;
  // (Called for every glossary match: the rare case is asked last.)
  if (context.spelledOut.size > 0 && method !== 'glossary_match' && method !== 'metadata_hint' && context.spelledOut.has(surface)) return;
  const confidence = METHOD_CONFIDENCE[method];
  const existing = context.proposals.get(surface);
  if (!existing) {
    context.proposals.set(surface, { surface, method, confidence, explicit: [...explicit] });
    return;
  }
  if (explicit.length > 0) existing.explicit.push(...explicit);
  else if (existing.method === method) return; // the same proposal again (a term's every match)
  if (confidence > existing.confidence || (confidence === existing.confidence && METHOD_ORDER.indexOf(method) < METHOD_ORDER.indexOf(existing.method))) {
    existing.method = method;
    existing.confidence = confidence;
  }
}
