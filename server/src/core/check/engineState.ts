/**
 * Everything the checks of one engine share: the lexicon of the words seen so far, buffers lent
 * from one check to the next, and bounded memos of pure functions. An `Engine` (engine.ts) owns
 * one; every check reaches it through its context (`context.engine`). Two engines share nothing,
 * and no part of the core keeps state of its own outside an engine.
 *
 * Checks of one engine never run inside one another (they are synchronous), so one set of
 * scratch buffers serves them all.
 */

import { GroupingScratch } from '../extract/glossaryMatch';
import { Lexicon } from '../extract/lexicon';
import { TokenBuffers } from '../extract/tokens';
import { SharedRootLookups, type SurfaceTrie } from '../extract/trie';
import { vocabularySenses } from '../missionVocabulary/senses';
import type { VocabularySource } from '../missionVocabulary/types';
import { WalkBuffer } from '../extract/walk';
import type { GlossaryIndex } from '../glossary';
import { standalone } from '../text';
import { WELL_KNOWN_TERMS, type CommonWords } from '../words';
import type { Resolution } from './resolve';

/** The common words and known terms of a workspace (the bundled ones plus its `ignore_words`). */
export interface Vocabulary {
  common: CommonWords;
  knownTerms: ReadonlySet<string>;
}

/** Resolutions of pin-free checks against one glossary with one vocabulary. */
export interface SharedResolutions {
  common: CommonWords;
  knownTerms: ReadonlySet<string>;
  resolutions: Map<string, Resolution>;
}

/** Past this many distinct spellings the lexicon is started afresh (typing adds partial words). */
const MAX_SPELLINGS = 250_000;
/** Quoted texts whose surface is remembered (the memo is emptied when full). */
const MAX_QUOTED = 10_000;
/** Tries of proposed surfaces kept (the most recently used). */
const MAX_LOCATE_TRIES = 8;
/** Vocabularies kept by their ignore list (a workspace has one; a server a few). */
const MAX_VOCABULARIES = 16;
/** Glossaries with a mission's own vocabulary kept per base glossary (the most recently used). */
const MAX_VOCABULARY_GLOSSARIES = 8;

export class EngineState {
  /** Token arrays, marks and masked code units lent to whole-document checks. */
  readonly tokenBuffers = new TokenBuffers();
  /** Where walks write their matches. */
  readonly walkBuffer = new WalkBuffer();
  /** Scratch of `occurrencesBySurface`. */
  readonly groups = new GroupingScratch();
  /** Quoted text → the surface it proposes (null: none). */
  readonly quotedSurfaces = new Map<string, string | null>();
  /** Tries of proposed surfaces by their phrases (see locate.ts). */
  readonly locateTries = new RecentlyUsed<string, SurfaceTrie>(MAX_LOCATE_TRIES);
  /** The root lookups those tries share (one set, as long as the lexicon). */
  readonly locateRoots = new SharedRootLookups();
  /** Pin-free resolutions per glossary (a replaced glossary takes its own with it). */
  readonly resolutions = new WeakMap<GlossaryIndex, SharedResolutions>();
  /** Per glossary, the glossaries made of it with missions' own vocabularies, by what those say. */
  private readonly vocabularyGlossaries = new WeakMap<GlossaryIndex, RecentlyUsed<string, GlossaryIndex>>();
  /** The root lookups of those glossaries' tries (see SharedRootLookups): one set for all of them. */
  private readonly vocabularyRoots = new SharedRootLookups();

  private currentLexicon: Lexicon | undefined;
  private counts = new Int32Array(1024);
  private readonly vocabularies = new RecentlyUsed<string, Vocabulary>(MAX_VOCABULARIES);
  private readonly vocabularyOfList = new WeakMap<readonly string[], Vocabulary>();

  constructor(readonly commonWords: CommonWords) {}

  /**
   * The lexicon of checks that bring none: words, and what is known about them (trie nodes,
   * common English), carry over from one document to the next, as specs share most of their
   * vocabulary. A new one once it has grown past its bound.
   */
  lexicon(): Lexicon {
    if (!this.currentLexicon || this.currentLexicon.spellings >= MAX_SPELLINGS) this.currentLexicon = new Lexicon();
    return this.currentLexicon;
  }

  /** Start the lexicon afresh (the next check learns every word again). */
  resetLexicon(): void {
    this.currentLexicon = undefined;
  }

  /** Scratch counts by word id, for at least `words` words; all 0, and to be left all 0. */
  wordCounts(words: number): Int32Array {
    if (this.counts.length < words) this.counts = new Int32Array(Math.max(words, 2 * this.counts.length));
    return this.counts;
  }

  /** Remember a quoted text's surface (the memo is emptied when full). */
  rememberQuoted(quoted: string, surface: string | null): void {
    if (this.quotedSurfaces.size >= MAX_QUOTED) this.quotedSurfaces.clear();
    // (Strings of their own: a slice of a document would keep all of it.)
    this.quotedSurfaces.set(standalone(quoted), surface === null ? null : standalone(surface));
  }

  /**
   * `base` with the senses of the vocabularies (the first source's first, SPEC §3): the same
   * object for vocabularies that say the same, so what checks keep per glossary (resolutions, the
   * glossary walk of a document being edited) carries over from one keystroke to the next.
   */
  glossaryWithVocabulary(base: GlossaryIndex, sources: readonly VocabularySource[]): GlossaryIndex {
    let made = this.vocabularyGlossaries.get(base);
    if (!made) this.vocabularyGlossaries.set(base, (made = new RecentlyUsed(MAX_VOCABULARY_GLOSSARIES)));
    const key = sources.map((s) => `${s.file}\u0003${s.missionId}\u0003${s.missionSlug}\u0003${s.vocabulary.key}`).join('\u0004');
    return made.get(key, () => base.withSenses(vocabularySenses(sources).senses, this.vocabularyRoots));
  }

  /**
   * The common words and known terms with `ignoreWords` added: the same object for the same
   * list (by identity, then by content), so every cache keyed by it keeps working from one check
   * to the next and across reloads of a workspace whose config did not change.
   */
  vocabulary(ignoreWords: readonly string[] = []): Vocabulary {
    let vocabulary = this.vocabularyOfList.get(ignoreWords);
    if (vocabulary) return vocabulary;
    const key = ignoreWords.join('\n');
    vocabulary = this.vocabularies.get(key, () => withIgnoredWords(this.commonWords, ignoreWords));
    this.vocabularyOfList.set(ignoreWords, vocabulary);
    return vocabulary;
  }
}

/** The list with `ignored` added to ordinary English; the shared vocabulary and prefixes are the list's. */
function withIgnoredWords(common: CommonWords, ignored: readonly string[]): Vocabulary {
  if (ignored.length === 0) return { common, knownTerms: WELL_KNOWN_TERMS };
  const extra = new Set(ignored);
  const widened: CommonWords = { has: (word) => extra.has(word) || common.has(word), ignored: extra };
  if (common.knows) widened.knows = (word) => common.knows!(word);
  if (common.startsWord) widened.startsWord = (prefix, minLength) => common.startsWord!(prefix, minLength);
  return { common: widened, knownTerms: new Set([...WELL_KNOWN_TERMS, ...ignored]) };
}

/** A map of at most `limit` entries that forgets the least recently used one. */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value of `key`, made by `create` when missing. */
  get(key: K, create: () => V): V {
    let value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key); // most recent last
    } else {
      value = create();
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, value);
    return value;
  }
}
