/**
 * The glossary's word trie takes memory in proportion to the words of its surfaces: at most one
 * node per word, and a few tens of bytes of tables per node, however long the phrases are
 * (issue 19: a 3.6 MB seed of long multi-word surfaces took 0.8 GB, about 500 bytes per word in
 * objects and maps). The index of a seed that size is held to a memory bound here (V8's own
 * collector run before each reading, so only what the index keeps counts); the process as a
 * whole is measured by the benchmark (`npm run bench -- --only seed`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

  it('indexes a 3.6 MB seed of 18,000 surfaces of 8–20 words in under 40 MB (it took ~150 MB)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const surfaces = longSurfaces(18_000, 40_000, 19);
    const senses = surfaces.map(sense);
    const words = surfaces.reduce((sum, s) => sum + s.split(' ').length, 0);
    expect(words).toBeGreaterThan(250_000);
    const held = () => {
      gc();
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const before = held();
    const index = new GlossaryIndex(senses);
    const after = held();
    expect(index.trie.surfaceCount).toBe(new Set(surfaces).size);
    expect((after - before) / 1024 / 1024).toBeLessThan(40);
  });

  it('shares the nodes of shared prefixes', () => {
    const { trie } = new GlossaryIndex(['work package', 'work package lane', 'work packages', 'work item', 'spec-driven', 'spec driven'].map(sense));
    // work, package, lane, item, spec, -driven, driven, and the root ("work packages" is
    // normalized to "work package").
    expect(trie.nodes).toBe(8);
  });
});
