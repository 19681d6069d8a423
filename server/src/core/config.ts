/**
 * The `glossary:` block of `.kittify/config.yaml` (SPEC §2). Spec Kitty's keys are `strictness`
 * and `check`; this product adds `disabled_extractors` and `ignore_words` (docs/configuration.md).
 * Every problem points at the offending node (the value, or the key of a repeated key).
 */

import { isMap, isScalar, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { findPair, reportDuplicateKeys, scalarValue } from './yamlNodes';
import { LineIndex } from './text';
import type { SourceProblem } from './types';
import { isStrictness } from './policy';
import { normalizeSurface } from './normalize';
import { EXTRACTOR_IDS } from './extract/extractors';

export interface GlossaryConfig {
  /** Raw value; validated when strictness is resolved (an invalid one falls back to medium). */
  strictness?: unknown;
  check: boolean;
  disabledExtractors: string[];
  /** Extra words never reported as repeated nouns or unknown terms. */
  ignoreWords: string[];
}

export const DEFAULT_CONFIG: GlossaryConfig = { check: true, disabledExtractors: [], ignoreWords: [] };

export function parseGlossaryConfig(text: string): { config: GlossaryConfig; problems: SourceProblem[]; parsed: boolean } {
  const lines = new LineIndex(text);
  const problems: SourceProblem[] = [];
  const config: GlossaryConfig = { ...DEFAULT_CONFIG, disabledExtractors: [], ignoreWords: [] };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problems.push({ code: 'config.parse-error', message: `.kittify/config.yaml is not valid YAML: ${error.message.split('\n')[0]}`, severity: 'error', range: lines.rangeOf(error.pos[0], error.pos[1]) });
    return { config, problems, parsed: false };
  }
  const report = configProblems(lines, problems);
  const block = glossaryBlock(doc.contents, report);
  if (block) readGlossaryBlock(block, config, report);
  return { config, problems, parsed: true };
}

/** Reports problems at the nodes of config.yaml. */
interface ConfigProblems {
  add(code: string, message: string, severity: 'error' | 'warning', node: Node | null | undefined): void;
  /** Repeated keys of `map` (`where` says which map, for the message): only the first one is read. */
  duplicates(map: YAMLMap, where: string): void;
}

function configProblems(lines: LineIndex, problems: SourceProblem[]): ConfigProblems {
  const add: ConfigProblems['add'] = (code, message, severity, node) => problems.push({ code, message, severity, range: lines.rangeOf(node?.range?.[0] ?? 0, node?.range?.[1] ?? 0) });
  return {
    add,
    duplicates: (map, where) =>
      reportDuplicateKeys(map, (key, first, duplicate) =>
        add('config.duplicate-key', `Duplicate key \`${key}\`${where} (first at line ${lines.positionAt(first.range?.[0] ?? 0).line + 1}); only the first one is read.`, 'warning', duplicate),
      ),
  };
}

/** The `glossary:` mapping, when there is one; a root or block that is no mapping is reported. */
function glossaryBlock(root: Node | null, report: ConfigProblems): YAMLMap | undefined {
  if (root === null || (isScalar(root) && root.value === null)) return undefined;
  if (!isMap(root)) {
    report.add('config.invalid-root', '.kittify/config.yaml must be a mapping.', 'error', root);
    return undefined;
  }
  report.duplicates(root, '');
  const glossaryPair = findPair(root, 'glossary');
  const block = glossaryPair?.value as Node | null | undefined;
  if (!glossaryPair || block === null || block === undefined || (isScalar(block) && block.value === null)) return undefined;
  if (!isMap(block)) {
    report.add('config.invalid-glossary', '`glossary` in .kittify/config.yaml must be a mapping.', 'error', block);
    return undefined;
  }
  report.duplicates(block, ' in `glossary`');
  return block;
}

/** The keys of the `glossary:` block into `config`; a value of the wrong kind is reported and ignored. */
function readGlossaryBlock(block: YAMLMap, config: GlossaryConfig, report: ConfigProblems): void {
  const valueNode = (key: string) => findPair(block, key)?.value as Node | null | undefined;
  const strictnessNode = valueNode('strictness');
  if (strictnessNode !== undefined) {
    const value = scalarValue(strictnessNode);
    if (value !== null) {
      // A collection or an alias is kept as its YAML text, for the messages of the documents it applies to.
      config.strictness = isScalar(strictnessNode) ? value : String(strictnessNode).trim();
      if (!isStrictness(value)) report.add('config.invalid-strictness', `glossary.strictness must be off, medium or max (got ${shown(value)}); using medium.`, 'warning', strictnessNode);
    }
  }
  const checkNode = valueNode('check');
  const check = scalarValue(checkNode);
  if (check === 'disabled' || check === false) config.check = false;
  else if (check !== null && check !== 'enabled' && check !== true) report.add('config.invalid-check', `glossary.check must be enabled or disabled (got ${shown(check)}).`, 'warning', checkNode);
  config.disabledExtractors = stringList(valueNode('disabled_extractors'), 'disabled_extractors', report);
  reportUnknownExtractors(valueNode('disabled_extractors'), config.disabledExtractors, report);
  config.ignoreWords = ignoredForms(stringList(valueNode('ignore_words'), 'ignore_words', report));
}

/**
 * The forms `ignore_words` stands for: each item as written (lowercase, spaces collapsed) and as
 * SPEC §4 names the term (its last word singular), as front matter's `glossary_exclude_terms`
 * reads its items: `[tranches]` ignores "tranche" too, `["data  pipelines "]` the term
 * `data pipeline`.
 */
export function ignoredForms(items: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const item of items) {
    const written = item.toLowerCase().trim().replace(/\s+/g, ' ');
    if (written === '') continue;
    forms.add(written);
    forms.add(normalizeSurface(written));
  }
  return [...forms];
}

/** An id that names no extractor disables nothing: a typo said, at its item (as `--disable-extractor` refuses one). */
function reportUnknownExtractors(node: Node | null | undefined, ids: readonly string[], report: ConfigProblems): void {
  const known = EXTRACTOR_IDS as readonly string[];
  if (ids.every((id) => known.includes(id))) return;
  const items = isSeq(node) ? (node.items as (Node | null)[]) : [];
  for (const id of ids) {
    if (known.includes(id)) continue;
    const at = items.find((item) => scalarValue(item) === id) ?? node;
    report.add('config.unknown-extractor', `glossary.disabled_extractors: '${id}' is no extractor (known: ${known.join(', ')}); it disables nothing.`, 'warning', at);
  }
}

function stringList(node: Node | null | undefined, key: string, report: ConfigProblems): string[] {
  if (node === undefined || node === null || scalarValue(node) === null) return [];
  if (isSeq(node)) {
    const out: string[] = [];
    for (const item of node.items as (Node | null)[]) {
      const value = scalarValue(item);
      if (typeof value === 'string') out.push(value);
      else report.add('config.invalid-list', `glossary.${key} must be a list of strings; this item is ignored.`, 'warning', item ?? node);
    }
    return out;
  }
  report.add('config.invalid-list', `glossary.${key} must be a list of strings (got ${shown(scalarValue(node))}).`, 'warning', node);
  return [];
}

/** A value as messages show it. */
function shown(value: unknown): string {
  return isSeq(value) ? 'a list' : isMap(value) ? 'a mapping' : `'${String(value)}'`;
}
