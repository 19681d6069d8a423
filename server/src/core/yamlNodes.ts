/**
 * Reading the `yaml` library's nodes: what the seed, config.yaml and front matter readers share
 * (a key's pair, repeated keys, a node's plain value).
 */

import { isScalar, type Node, type Pair, type YAMLMap } from 'yaml';

/** Calls `found` for every key of `map` that repeats an earlier key (YAML forbids duplicates). */
export function reportDuplicateKeys(map: YAMLMap, found: (key: string, first: Node, duplicate: Node) => void): void {
  const seen = new Map<string, Node>();
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const first = seen.get(key);
    if (first) found(key, first, pair.key as Node);
    else seen.set(key, pair.key as Node);
  }
}

/** The pair of a mapping whose key is the scalar `key`. */
export function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && pair.key.value === key) as Pair | undefined;
}

/** A scalar's value; null for a missing node; the node itself for a collection (callers treat it as the wrong type). */
export function scalarValue(node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  return isScalar(node) ? node.value : node;
}
