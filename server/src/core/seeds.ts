/**
 * Seed glossary loading and validation (SPEC §3). Every entry and every problem carries a source
 * range, so the YAML file itself can show diagnostics. A bad entry is skipped on its own: it
 * never drops the rest of the file.
 */

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { isNormalized, normalizeSurface } from './normalize';
import { LineIndex } from './text';
import { SENSE_STATUSES, type Range, type ScopeId, type Sense, type SenseStatus, type SourceProblem } from './types';

export interface SeedFile {
  scope: ScopeId;
  file: string;
  senses: Sense[];
  problems: SourceProblem[];
  /** False when the YAML could not be parsed at all; callers keep the last good version. */
  parsed: boolean;
}

const KNOWN_KEYS = new Set(['surface', 'definition', 'confidence', 'status', 'synonyms_to_avoid', 'see_also', 'introduced_in_mission']);

export function parseSeedFile(text: string, file: string, scope: ScopeId, origin: 'seed' | 'bundled' = 'seed'): SeedFile {
  const lines = new LineIndex(text);
  const problems: SourceProblem[] = [];
  let errorCount = 0; // problems of severity error so far (kept so entries need not re-count)
  const rangeOfNode = (node: Node | null | undefined): Range => {
    const r = node?.range;
    return r ? lines.rangeOf(r[0], r[1]) : lines.rangeOf(0, 0);
  };
  const report = (code: string, message: string, node: Node | null | undefined, severity: 'error' | 'warning' = 'error') => {
    if (severity === 'error') errorCount++;
    problems.push({ code, message, severity, range: rangeOfNode(node) });
  };

  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: new LineCounter(), prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const [start, end] = error.pos;
      problems.push({ code: 'glossary.parse-error', message: `YAML syntax error: ${firstLine(error.message)}`, severity: 'error', range: lines.rangeOf(start, Math.max(start, end)) });
    }
    return { scope, file, senses: [], problems, parsed: false };
  }
  for (const warning of doc.warnings) {
    problems.push({ code: 'glossary.yaml-warning', message: firstLine(warning.message), severity: 'warning', range: lines.rangeOf(warning.pos[0], warning.pos[1]) });
  }

  const senses: Sense[] = [];
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return { scope, file, senses, problems, parsed: true };
  }
  if (!isMap(root)) {
    report('glossary.invalid-root', 'A seed glossary must be a mapping with a `terms:` list.', root);
    return { scope, file, senses, problems, parsed: true };
  }
  reportDuplicateKeys(root, (key, first, pair) =>
    report(
      'glossary.duplicate-key',
      `Duplicate top-level key \`${key}\` (first at line ${lines.positionAt(first.range?.[0] ?? 0).line + 1}); only the first one is read.`,
      pair,
    ),
  );
  const termsPair = findPair(root, 'terms');
  if (!termsPair) {
    report('glossary.missing-terms', 'The seed glossary has no `terms:` list.', root, 'warning');
    return { scope, file, senses, problems, parsed: true };
  }
  const terms = termsPair.value as Node | null;
  if (terms === null || (isScalar(terms) && terms.value === null)) return { scope, file, senses, problems, parsed: true };
  if (!isSeq(terms)) {
    report('glossary.invalid-terms', '`terms` must be a list of entries.', terms);
    return { scope, file, senses, problems, parsed: true };
  }

  terms.items.forEach((item, index) => {
    const node = item as Node | null;
    if (!isMap(node)) {
      report('glossary.invalid-entry', `Entry ${index + 1} must be a mapping with \`surface\` and \`definition\`.`, node ?? terms);
      return;
    }
    const sense = readEntry(node, index);
    if (sense) senses.push(sense);
  });
  return { scope, file, senses, problems, parsed: true };

  function readEntry(entry: YAMLMap, index: number): Sense | undefined {
    const before = errorCount;
    const seen = new Set<string>();
    for (const pair of entry.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (seen.has(key)) report('glossary.duplicate-key', `Duplicate key \`${key}\` in entry ${index + 1}.`, pair.key as Node);
      seen.add(key);
      if (!KNOWN_KEYS.has(key)) report('glossary.unknown-key', `Unknown key \`${key}\` is ignored.`, pair.key as Node, 'warning');
    }

    const surfaceNode = findPair(entry, 'surface')?.value as Node | undefined;
    const surfaceValue = scalarValue(surfaceNode);
    let surface = '';
    if (surfaceNode === undefined) report('glossary.missing-surface', `Entry ${index + 1} has no \`surface\`.`, entry);
    else if (typeof surfaceValue !== 'string' || surfaceValue.trim() === '') report('glossary.invalid-surface', '`surface` must be a non-empty string.', surfaceNode);
    else if (!isNormalized(surfaceValue)) report('glossary.surface-not-normalized', `\`surface\` must be normalized (lowercase, trimmed, single spaces): write '${surfaceValue.toLowerCase().trim().replace(/\s+/g, ' ')}'.`, surfaceNode);
    else surface = surfaceValue;

    const definitionNode = findPair(entry, 'definition')?.value as Node | undefined;
    const definitionValue = scalarValue(definitionNode);
    let definition = '';
    if (definitionNode === undefined) report('glossary.missing-definition', `Entry ${index + 1}${surface ? ` ('${surface}')` : ''} has no \`definition\`.`, entry);
    else if (typeof definitionValue !== 'string' || definitionValue.trim() === '') report('glossary.invalid-definition', '`definition` must be a non-blank string.', definitionNode);
    else definition = definitionValue.trim();

    let confidence = 1.0;
    const confidenceNode = findPair(entry, 'confidence')?.value as Node | undefined;
    if (confidenceNode !== undefined) {
      const value = scalarValue(confidenceNode);
      if (typeof value !== 'number' || !Number.isFinite(value)) report('glossary.invalid-confidence', '`confidence` must be a number between 0 and 1 (not a string or boolean).', confidenceNode);
      else if (value < 0 || value > 1) report('glossary.invalid-confidence', `\`confidence\` must be between 0 and 1, got ${value}.`, confidenceNode);
      else confidence = value;
    }

    let status: SenseStatus = 'draft';
    const statusNode = findPair(entry, 'status')?.value as Node | undefined;
    if (statusNode !== undefined) {
      const value = scalarValue(statusNode);
      if (typeof value !== 'string' || !(SENSE_STATUSES as readonly string[]).includes(value)) report('glossary.invalid-status', '`status` must be one of active, draft, deprecated.', statusNode);
      else status = value as SenseStatus;
    }

    const synonymsToAvoid = readStringList(findPair(entry, 'synonyms_to_avoid')?.value as Node | undefined, 'synonyms_to_avoid').map(normalizeSurface).filter((s) => s.length > 0);
    const seeAlso = readSeeAlso(findPair(entry, 'see_also')?.value as Node | undefined);

    let introducedInMission: string | undefined;
    const introducedNode = findPair(entry, 'introduced_in_mission')?.value as Node | undefined;
    if (introducedNode !== undefined) {
      const value = scalarValue(introducedNode);
      if (typeof value === 'string' || typeof value === 'number') introducedInMission = String(value);
      else if (value !== null) report('glossary.invalid-introduced-in-mission', '`introduced_in_mission` must be a string.', introducedNode);
    }

    if (errorCount > before || !surface || !definition) return undefined;
    const range = rangeOfNode(entry);
    return {
      surface,
      scope,
      definition,
      confidence,
      status,
      synonymsToAvoid,
      seeAlso,
      ...(introducedInMission !== undefined ? { introducedInMission } : {}),
      origin: { kind: origin, file, range, index },
    };
  }

  function readStringList(node: Node | undefined, key: string): string[] {
    if (node === undefined || scalarValue(node) === null) return [];
    if (isScalar(node) && typeof node.value === 'string') return [node.value];
    if (!isSeq(node)) {
      report(`glossary.invalid-${key.replace(/_/g, '-')}`, `\`${key}\` must be a list of strings.`, node);
      return [];
    }
    const out: string[] = [];
    for (const item of node.items) {
      const value = scalarValue(item as Node);
      if (typeof value === 'string' && value.trim() !== '') out.push(value);
      else report(`glossary.invalid-${key.replace(/_/g, '-')}`, `Every item of \`${key}\` must be a non-empty string.`, (item as Node) ?? node);
    }
    return out;
  }

  /**
   * `see_also` items as Spec Kitty writes them: mappings of strings (`{term: worktree}`, or other
   * references such as `{tactic: …, path: …}`) or plain strings. Only `term` values are kept.
   */
  function readSeeAlso(node: Node | undefined): string[] {
    if (node === undefined || scalarValue(node) === null) return [];
    if (!isSeq(node)) {
      report('glossary.invalid-see-also', '`see_also` must be a list of `{term: ...}` items.', node);
      return [];
    }
    const out: string[] = [];
    for (const item of node.items) {
      const itemNode = item as Node;
      const direct = scalarValue(itemNode);
      if (typeof direct === 'string' && direct.trim() !== '') {
        out.push(normalizeSurface(direct));
        continue;
      }
      if (!isMap(itemNode) || itemNode.items.some((pair) => !isScalar(pair.value) || typeof (pair.value as { value: unknown }).value !== 'string')) {
        report('glossary.invalid-see-also', 'Each `see_also` item must be a mapping of strings such as `{term: <surface>}`.', itemNode ?? node);
        continue;
      }
      const term = scalarValue(findPair(itemNode, 'term')?.value as Node | undefined);
      if (typeof term === 'string' && term.trim() !== '') out.push(normalizeSurface(term));
    }
    return out;
  }
}

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

function scalarValue(node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  if (isScalar(node)) return node.value;
  return node; // a collection: callers treat non-scalars as the wrong type
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
