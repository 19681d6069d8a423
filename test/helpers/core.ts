/** Shared helpers for core tests: the real common-word list and a glossary built from YAML text. */

import type { CheckOptions, DocumentReport } from '../../server/src/core/check/check';
import { createEngine } from '../../server/src/core/check/engine';
import { GlossaryIndex } from '../../server/src/core/glossary';
import { parseSeedFile } from '../../server/src/core/seeds';
import type { ScopeId } from '../../server/src/core/types';
import { loadCommonWords } from '../../server/src/node/packageFiles';

export const common = loadCommonWords();

/** The tests' engine (a test that needs a fresh one makes its own). */
export const engine = createEngine({ commonWords: common });

export function glossaryFrom(seeds: Partial<Record<ScopeId, string>>): GlossaryIndex {
  const senses = Object.entries(seeds).flatMap(([scope, text]) => parseSeedFile(text!, `${scope}.yaml`, scope as ScopeId).senses);
  return new GlossaryIndex(senses);
}

export const EMPTY_GLOSSARY = new GlossaryIndex([]);

export function check(text: string, options: Partial<CheckOptions> = {}): DocumentReport {
  return engine.checkDocument(text, { glossary: EMPTY_GLOSSARY, common, ...options });
}

/** Extracted candidates as "surface:method" strings, sorted. */
export function extracted(text: string, options: Partial<CheckOptions> = {}): string[] {
  return check(text, options)
    .candidates.map((c) => `${c.surface}:${c.method}`)
    .sort();
}
