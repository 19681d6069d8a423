/**
 * The facade of the core: `createEngine({ commonWords })` returns a frozen engine that checks
 * documents. The CLI makes one per process, the language server one per session; tests make
 * their own. Everything checks share — the lexicon of words seen, buffers lent from one check to
 * the next, memos of pure functions, a workspace's vocabulary — belongs to the engine
 * (engineState.ts), so two engines never see each other's state and nothing in the core is
 * process-wide.
 */

import { checkDocument, type CheckOptions, type DocumentReport } from './check';
import { EngineState, type Vocabulary } from './engineState';
import { createIncrementalChecker, type IncrementalChecker } from './incremental';
import type { CommonWords } from '../words';

export type { CheckOptions, DocumentReport } from './check';
export type { IncrementalChecker } from './incremental';
export type { Vocabulary } from './engineState';

export interface EngineOptions {
  /** Ordinary English (the host loads the shipped list; the core does no I/O). */
  commonWords: CommonWords;
}

export interface Engine {
  /** The engine's list of ordinary English. */
  readonly commonWords: CommonWords;
  /** One document → findings, severity and the gate's decision. */
  checkDocument(text: string, options: CheckOptions): DocumentReport;
  /**
   * A checker for one document that is being edited: each check re-does only what the edit can
   * change, with exactly the result of `checkDocument`.
   */
  createIncrementalChecker(): IncrementalChecker;
  /**
   * Common words and known terms with a workspace's `ignore_words` added (pass them on as the
   * check's `common` and `knownTerms`): the same object for the same list, so what checks learn
   * about words under it carries over from one check to the next.
   */
  vocabulary(ignoreWords?: readonly string[]): Vocabulary;
  /** Forget the words learnt so far (the next check learns them again; for benchmarks and tests). */
  resetLexicon(): void;
}

export function createEngine(options: EngineOptions): Engine {
  const state = new EngineState(options.commonWords);
  return Object.freeze({
    commonWords: options.commonWords,
    checkDocument: (text: string, check: CheckOptions) => checkDocument(state, text, check),
    createIncrementalChecker: () => createIncrementalChecker(state),
    vocabulary: (ignoreWords?: readonly string[]) => state.vocabulary(ignoreWords),
    resetLexicon: () => state.resetLexicon(),
  });
}
