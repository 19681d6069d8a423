/**
 * The active glossary: every sense of every scope (seed files, the bundled core, senses added by
 * events), indexed by surface and compiled into a word trie for matching. Built once per glossary
 * version and shared by every check.
 */

import { normalizeSurface } from './normalize';
import { SurfaceTrie } from './extract/trie';
import { SCOPE_ORDER, type Sense } from './types';

export class GlossaryIndex {
  /** Senses per surface in resolution order: scope order, then the order they were given in. */
  private readonly bySurface = new Map<string, Sense[]>();
  /** synonym_to_avoid word → the senses that list it. */
  private readonly bySynonym = new Map<string, Sense[]>();
  readonly trie = new SurfaceTrie();

  constructor(readonly senses: readonly Sense[]) {
    const ordered = senses
      .map((sense, index) => ({ sense, index }))
      .sort((a, b) => SCOPE_ORDER.indexOf(a.sense.scope) - SCOPE_ORDER.indexOf(b.sense.scope) || a.index - b.index)
      .map((entry) => entry.sense);
    for (const sense of ordered) {
      const surface = normalizeSurface(sense.surface);
      if (!surface) continue;
      push(this.bySurface, surface, sense);
      this.trie.add(surface, surface);
    }
    for (const sense of ordered) {
      if (sense.status === 'deprecated') continue;
      for (const synonym of sense.synonymsToAvoid) {
        push(this.bySynonym, synonym, sense);
        this.trie.add(synonym, synonym);
      }
    }
  }

  /** Every sense of a normalized surface, in resolution order. */
  sensesOf(surface: string): readonly Sense[] {
    return this.bySurface.get(surface) ?? [];
  }

  /** Non-deprecated senses that list `surface` among their synonyms to avoid. */
  preferredFor(surface: string): readonly Sense[] {
    return this.bySynonym.get(surface) ?? [];
  }

  has(surface: string): boolean {
    return this.bySurface.has(surface) || this.bySynonym.has(surface);
  }

  surfaces(): IterableIterator<string> {
    return this.bySurface.keys();
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
