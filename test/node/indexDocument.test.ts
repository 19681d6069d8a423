/**
 * The term index checks a spec with the occurrence units only (OCCURRENCE_PIPELINE: no semantic
 * check, no gate): its occurrences and details are those of the whole check, on the real specs
 * and documentation pages with the real core glossary.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createEngine } from '../../server/src/core/check/engine';
import { glossaryOccurrences } from '../../server/src/core/terms/termIndex';
import { analyzeDocument } from '../../server/src/node/analyzer';
import { DocumentIndexer, NOT_INDEXED } from '../../server/src/node/indexDocument';
import { loadCommonWords } from '../../server/src/node/packageFiles';
import { loadWorkspace } from '../../server/src/node/workspace';
import { CORPUS, CORPUS_ABSENT, CORPUS_PRESENT } from '../helpers/corpus';

function markdownUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? markdownUnder(full) : name.endsWith('.md') ? [full] : [];
    });
}

describe.skipIf(!CORPUS_PRESENT)('the index check', () => {
  test(`finds what the whole check finds (${CORPUS_PRESENT ? 'the real corpora' : CORPUS_ABSENT})`, async () => {
    const root = path.join(CORPUS, 'spec-kitty');
    const snapshot = await loadWorkspace(root);
    const engine = createEngine({ commonWords: loadCommonWords() });
    const files = [...markdownUnder(path.join(root, 'kitty-specs')), ...markdownUnder(path.join(CORPUS, 'spec-kitty-docs')).slice(0, 120)];
    const indexer = new DocumentIndexer();
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const whole = analyzeDocument(engine, snapshot, { path: file, text, settings: { disabledExtractors: NOT_INDEXED } }).report;
      const indexed = indexer.index(engine, snapshot, file, text, new Map());
      expect(indexed.occurrences).toEqual(whole.checked ? glossaryOccurrences(whole, whole.glossary) : []);
      expect(indexed.details.missionId).toBeDefined();
      compared += indexed.occurrences.length;
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
