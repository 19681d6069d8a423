/**
 * Where each entry of a seed glossary file writes its `surface:` value (and its `see_also` terms):
 * what references, highlight and rename need (the parsed senses only know the range of the whole entry). Read with
 * the same YAML library and the same rules as core/seeds.ts: an entry that is an alias of an
 * anchored one, or whose surface is an alias, follows the anchor and is not a place to edit.
 */

import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node, type YAMLSeq } from 'yaml';
import { normalizeSurface } from '../core/normalize';
import { LineIndex } from '../core/text';
import type { Position, Range } from '../core/types';

export interface SeedSurface {
  /** Zero-based index of the entry in `terms`. */
  index: number;
  /** The surface, normalized. */
  surface: string;
  /** The range of the scalar as written (quotes included). */
  range: Range;
  /** How the scalar is written: plain, 'single' or "double" quoted, or a block scalar. */
  style: 'plain' | 'single' | 'double' | 'block';
}

/** The written surfaces of a seed file's entries, in file order (none when it does not parse). */
export function seedSurfaces(text: string): SeedSurface[] {
  const terms = termsList(text);
  if (!terms) return [];
  const lines = new LineIndex(text);
  const out: SeedSurface[] = [];
  terms.items.forEach((item, index) => {
    if (!isMap(item)) return; // an alias entry follows its anchor
    const written = scalarOf(item.items.find((pair) => isScalar(pair.key) && pair.key.value === 'surface')?.value as Node | null | undefined, lines);
    if (written) out.push({ index, ...written });
  });
  return out;
}

/** The `terms:` list of a seed file's text (none when it does not parse). */
function termsList(text: string): YAMLSeq | undefined {
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  } catch {
    return undefined;
  }
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const terms = doc.contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'terms')?.value as Node | null | undefined;
  return isSeq(terms) ? terms : undefined;
}

/** A string scalar as written (normalized, its range and style); none for an alias or another kind of node. */
function scalarOf(value: Node | null | undefined, lines: LineIndex): Omit<SeedSurface, 'index'> | undefined {
  if (!isScalar(value) || typeof value.value !== 'string' || !value.range || isAlias(value)) return undefined;
  const style = value.type === 'QUOTE_SINGLE' ? 'single' : value.type === 'QUOTE_DOUBLE' ? 'double' : value.type === 'PLAIN' ? 'plain' : 'block';
  return { surface: normalizeSurface(value.value), range: lines.rangeOf(value.range[0], value.range[1]), style };
}

/**
 * Where the entries of a seed file write a `see_also` reference to a term (the `term:` value of a
 * `{term: …}` item, normalized; the item's other keys name no term), in file order: what a rename
 * of that term changes with it. Aliases follow their anchor and are not places to edit.
 */
export function seeAlsoTerms(text: string): SeedSurface[] {
  const terms = termsList(text);
  if (!terms) return [];
  const lines = new LineIndex(text);
  const out: SeedSurface[] = [];
  terms.items.forEach((item, index) => {
    if (!isMap(item)) return;
    const list = item.items.find((pair) => isScalar(pair.key) && pair.key.value === 'see_also')?.value as Node | null | undefined;
    if (!isSeq(list)) return;
    for (const reference of list.items) {
      if (!isMap(reference)) continue;
      const value = reference.items.find((pair) => isScalar(pair.key) && pair.key.value === 'term')?.value as Node | null | undefined;
      const written = scalarOf(value, lines);
      if (written) out.push({ index, ...written });
    }
  });
  return out;
}

/** The entry surface under `position` (both ends included). */
export function seedSurfaceAt(surfaces: readonly SeedSurface[], position: Position): SeedSurface | undefined {
  return surfaces.find((s) => !after(s.range.start, position) && !after(position, s.range.end));
}

function after(a: Position, b: Position): boolean {
  return a.line > b.line || (a.line === b.line && a.character > b.character);
}

/** A new surface written as a YAML scalar in the style of the one it replaces (plain when it can stay plain). */
export function yamlScalar(value: string, style: SeedSurface['style']): string {
  if (style === 'single') return `'${value.replace(/'/g, "''")}'`;
  if (style === 'double' || !/^[a-z0-9][a-z0-9 _.-]*$/.test(value) || /^(?:true|false|yes|no|on|off|null|~|\d[\d.e+-]*)$/.test(value)) return JSON.stringify(value);
  return value;
}
