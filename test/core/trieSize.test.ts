/**
 * The glossary's word trie takes memory in proportion to the words of its surfaces: at most one
 * node per word, and a few tens of bytes of tables per node, however long the phrases are
 * (issue 19: a 3.6 MB seed of long multi-word surfaces took 0.8 GB, about 500 bytes per word in
 * objects and maps). The memory itself is measured by the benchmark, not here.
 */
import { describe, expect, it } from 'vitest';
import { GlossaryIndex } from '../../server/src/core/glossary';
import type { Sense } from '../../server/src/core/types';
import { prng } from '../robustness/helpers';

/** `count` surfaces of 8–20 words drawn from a vocabulary of `vocabulary` made-up words. */
function longSurfaces(count: number, vocabulary: number, seed: number): string[] {
  const random = prng(seed);
  const words = Array.from({ length: vocabulary }, (_, i) => `w${i.toString(36)}x`);
  return Array.from({ length: count }, () => Array.from({ length: 8 + Math.floor(random() * 13) }, () => words[Math.floor(random() * vocabulary)]!).join(' '));
}

function sense(surface: string, index: number): Sense {
  return { surface, scope: 'team_domain', definition: `Sense ${index}`, confidence: 0.8, status: 'active', synonymsToAvoid: [], seeAlso: [], origin: { kind: 'seed', file: 'x.yaml', range: { start: { line: index, character: 0 }, end: { line: index, character: 1 } }, index } };
}

describe('trie size', () => {
  it('has at most one node per surface word and tables of a few tens of bytes per node', () => {
    for (const count of [500, 1000, 2000, 4000]) {
      const surfaces = longSurfaces(count, 3000, count);
      const words = surfaces.reduce((sum, s) => sum + s.split(' ').length, 0);
      const { trie } = new GlossaryIndex(surfaces.map(sense));
      expect(trie.nodes).toBeLessThanOrEqual(words + 1);
      // Long random phrases share little more than their first word: nearly a node per word.
      expect(trie.nodes).toBeGreaterThan(words * 0.9);
      expect(trie.keys).toBeLessThanOrEqual(3000);
      expect(trie.tableBytes).toBeLessThanOrEqual(72 * trie.nodes + 4096);
      expect(trie.surfaceCount).toBe(new Set(surfaces).size);
    }
  });

  it('shares the nodes of shared prefixes', () => {
    const { trie } = new GlossaryIndex(['work package', 'work package lane', 'work packages', 'work item', 'spec-driven', 'spec driven'].map(sense));
    // work, package, lane, item, spec, -driven, driven, and the root ("work packages" is
    // normalized to "work package").
    expect(trie.nodes).toBe(8);
  });
});
