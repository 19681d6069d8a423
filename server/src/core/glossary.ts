/**
 * The active glossary: every sense of every scope (seed files, the bundled core, senses added by
 * events), indexed by surface and compiled into a word trie for matching. Built once per glossary
 * version and shared by every check.
 */

import { normalizeSurface } from './normalize';
import { SurfaceTrie, type SharedRootLookups } from './extract/trie';
import { SCOPE_ORDER, type Sense } from './types';

export interface GlossaryLayer {
  /** The glossary this one adds senses to (see `GlossaryIndex.withSenses`). */
  base: GlossaryIndex;
  /** Surfaces and words to avoid of the added senses: only their resolution can differ from the base's. */
  own: ReadonlySet<string>;
}

export class GlossaryIndex {
  /**
   * Set on a glossary made by `withSenses`: what it adds to which glossary (a term none of the
   * added senses names resolves as in the base, so resolutions can be shared with it).
   */
  readonly layer: GlossaryLayer | undefined;

  /** Senses per surface in resolution order: scope order, then the order they were given in. */
  private readonly bySurface = new Map<string, Sense[]>();
  /** synonym_to_avoid word → the senses that list it. */
  private readonly bySynonym = new Map<string, Sense[]>();
  readonly trie: SurfaceTrie;

  /**
   * `roots`: root lookups the trie shares with other glossaries' (see SharedRootLookups): for
   * glossaries made per mission, whose tries would each keep arrays as long as the lexicon.
   */
  constructor(
    readonly senses: readonly Sense[],
    options: { roots?: SharedRootLookups; layer?: GlossaryLayer; extends?: { from: GlossaryIndex; added: readonly Sense[] } } = {},
  ) {
    this.trie = new SurfaceTrie(options.roots);
    this.layer = options.layer;
    if (options.extends) {
      this.fillLayer(options.extends.added, options.extends.from);
      return;
    }
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

  /**
   * This glossary with `senses` (of the mission_local scope) added ahead of its own (a mission's
   * own vocabulary ahead of the mission_local seed file). The result remembers its base (`layer`).
   */
  withSenses(senses: readonly Sense[], roots?: SharedRootLookups): GlossaryIndex {
    const own = new Set<string>();
    for (const sense of senses) {
      own.add(normalizeSurface(sense.surface));
      for (const word of sense.synonymsToAvoid) own.add(word);
    }
    if (this.layer) for (const word of this.layer.own) own.add(word);
    return new GlossaryIndex([...senses, ...this.senses], { ...(roots ? { roots } : {}), layer: { base: this.layer?.base ?? this, own }, extends: { from: this, added: senses } });
  }

  /**
   * The indexes of `base` with `added` (mission_local senses, in order) ahead: the base's are
   * copied as they are (already in resolution order, surfaces normalized) instead of sorted and
   * normalized again — a check per mission makes one of these per document.
   */
  private fillLayer(added: readonly Sense[], base: GlossaryIndex): void {
    for (const sense of added) {
      const surface = normalizeSurface(sense.surface);
      if (!surface) continue;
      push(this.bySurface, surface, sense);
      this.trie.add(surface, surface);
    }
    for (const [surface, senses] of base.bySurface) {
      const list = this.bySurface.get(surface);
      // (A mission's log records an entry of its spec when the definition is written there, and
      // as such an event sense: the entry itself, not a second sense of the term.)
      if (list) list.push(...senses.filter((s) => !recordOfAdded(s, list)));
      else this.bySurface.set(surface, senses.slice());
      this.trie.add(surface, surface);
    }
    for (const sense of added) {
      if (sense.status === 'deprecated') continue;
      for (const synonym of sense.synonymsToAvoid) {
        push(this.bySynonym, synonym, sense);
        this.trie.add(synonym, synonym);
      }
    }
    for (const [synonym, senses] of base.bySynonym) {
      const list = this.bySynonym.get(synonym);
      if (list) list.push(...senses);
      else this.bySynonym.set(synonym, senses.slice());
      this.trie.add(synonym, synonym);
    }
  }
}

/** Whether `sense` is a mission_local event sense with the definition of one of `added` (same surface). */
function recordOfAdded(sense: Sense, added: readonly Sense[]): boolean {
  return sense.origin.kind === 'event' && sense.scope === 'mission_local' && added.some((a) => a.scope === 'mission_local' && a.definition === sense.definition);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
