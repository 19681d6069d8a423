/**
 * Adding one item to a list under a key path of a YAML text (`glossary` → `ignore_words` of
 * `.kittify/config.yaml`, `glossary_exclude_terms` of a spec's front matter) as text edits that
 * keep the file's comments and layout: a flow list (`[a, b]`) gets one more item, a block list
 * one more `- item` line at its indentation, a missing key a new line after its mapping's last
 * key, an empty value `[item]`. A text with YAML errors, or whose keys hold something else (a
 * list where a mapping belongs), is not touched: the caller offers nothing then.
 */

import { isMap, isScalar, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { findPair } from '../core/yamlNodes';
import { scalar } from './seedEdit';

/** An edit by offsets in the text. */
export interface OffsetEdit {
  at: number;
  end: number;
  text: string;
}

export type ListAddition = { ok: true; edits: OffsetEdit[] } | { ok: false; message: string };

/** Whether the list at `keyPath` already holds an item equal to `item` by `same`. */
export function yamlListHas(text: string, keyPath: readonly string[], same: (value: string) => boolean): boolean {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  let node = doc.contents as Node | null;
  for (const key of keyPath) {
    if (!isMap(node)) return false;
    node = (findPair(node, key)?.value ?? null) as Node | null;
  }
  if (isSeq(node)) return node.items.some((item) => isScalar(item) && typeof item.value === 'string' && same(item.value));
  return isScalar(node) && typeof node.value === 'string' && same(node.value);
}

export function addToYamlList(text: string, keyPath: readonly string[], item: string): ListAddition {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) return { ok: false, message: `it has YAML errors (${doc.errors[0]!.message.split('\n')[0]})` };
  const root = doc.contents as Node | null;
  const value = scalar(item);
  if (root === null || (isScalar(root) && root.value === null)) {
    // An empty document (or only comments): the keys at the end.
    const lead = text.length === 0 || text.endsWith('\n') ? '' : eol;
    return { ok: true, edits: [{ at: text.length, end: text.length, text: lead + nested(keyPath, value, 0, eol) + eol }] };
  }
  if (!isMap(root)) return { ok: false, message: 'it is not a mapping of keys to values' };
  return addUnder(text, root, keyPath, value, eol);
}

/** The keys of `path` as new block lines at `indent` ending in `last: [value]` (no final newline). */
function nested(path: readonly string[], value: string, indent: number, eol: string): string {
  const lines = path.map((key, i) => `${' '.repeat(indent + 2 * i)}${key}:` + (i === path.length - 1 ? ` [${value}]` : ''));
  return lines.join(eol);
}

function addUnder(text: string, map: YAMLMap, path: readonly string[], value: string, eol: string): ListAddition {
  const [key, ...rest] = path as [string, ...string[]];
  const pair = findPair(map, key);
  if (!pair) return addKey(text, map, path, value, eol);
  const node = pair.value as Node | null;
  const keyNode = pair.key as Node;
  if (isScalar(node) && node.value === null && node.range && text.slice(node.range[0], node.range[1]).trim() !== '') {
    // `key: ~` or `key: null`: the value in its place.
    const flowValue = rest.reduceRight((inner, k) => `{${k}: ${inner}}`, `[${value}]`);
    return { ok: true, edits: [{ at: node.range[0], end: node.range[1], text: flowValue }] };
  }
  if (node === null || (isScalar(node) && node.value === null)) {
    // `key:` with nothing after it: the value right after the colon.
    const colon = text.indexOf(':', keyNode.range![1]);
    if (rest.length === 0) return { ok: true, edits: [{ at: colon + 1, end: colon + 1, text: ` [${value}]` }] };
    const indent = columnOf(text, keyNode.range![0]) + 2;
    return { ok: true, edits: [{ at: colon + 1, end: colon + 1, text: eol + nested(rest, value, indent, eol) }] };
  }
  if (rest.length > 0) return isMap(node) ? addUnder(text, node, rest, value, eol) : { ok: false, message: `\`${key}\` is not a mapping` };
  if (isSeq(node)) {
    if (node.flow) {
      const close = text.lastIndexOf(']', node.range![1] - 1);
      let at = close;
      while (at > 0 && /\s/.test(text[at - 1]!)) at--;
      return { ok: true, edits: [{ at, end: at, text: node.items.length > 0 ? `, ${value}` : value }] };
    }
    const last = node.items[node.items.length - 1] as Node;
    const dash = columnOf(text, node.range![0]);
    const lineEnd = text.indexOf('\n', contentEnd(text, last.range![1]));
    if (lineEnd === -1) return { ok: true, edits: [{ at: text.length, end: text.length, text: `${eol}${' '.repeat(dash)}- ${value}` }] };
    return { ok: true, edits: [{ at: lineEnd + 1, end: lineEnd + 1, text: `${' '.repeat(dash)}- ${value}${eol}` }] };
  }
  if (isScalar(node) && node.range) {
    // One word where a list belongs: the list of both.
    return { ok: true, edits: [{ at: node.range[0], end: node.range[1], text: `[${text.slice(node.range[0], node.range[1])}, ${value}]` }] };
  }
  return { ok: false, message: `\`${key}\` is not a list` };
}

/** A key the mapping lacks: a new line after its last key (or `key: …` inside a flow mapping). */
function addKey(text: string, map: YAMLMap, path: readonly string[], value: string, eol: string): ListAddition {
  if (map.flow) {
    const close = text.lastIndexOf('}', map.range![1] - 1);
    let at = close;
    while (at > 0 && /\s/.test(text[at - 1]!)) at--;
    const flowValue = path.slice(1).reduceRight((inner, key) => `{${key}: ${inner}}`, `[${value}]`);
    return { ok: true, edits: [{ at, end: at, text: `${map.items.length > 0 ? ', ' : ''}${path[0]}: ${flowValue}` }] };
  }
  const first = map.items[0]!.key as Node;
  const indent = columnOf(text, first.range![0]);
  const last = map.items[map.items.length - 1]!;
  const end = contentEnd(text, ((last.value as Node | null)?.range ?? (last.key as Node).range!)[1]);
  const lineEnd = text.indexOf('\n', end);
  const lines = nested(path, value, indent, eol);
  if (lineEnd === -1) return { ok: true, edits: [{ at: text.length, end: text.length, text: eol + lines }] };
  return { ok: true, edits: [{ at: lineEnd + 1, end: lineEnd + 1, text: lines + eol }] };
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** Offset just after the last non-blank character before `offset`. */
function contentEnd(text: string, offset: number): number {
  let end = offset;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}
