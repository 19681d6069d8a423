/**
 * The `glossary:` block of `.kittify/config.yaml` (SPEC §2). Spec Kitty's keys are `strictness`
 * and `check`; this product adds `disabled_extractors` and `ignore_words` (docs/configuration.md).
 * Every problem points at the offending node (the value, or the key of a repeated key).
 */

import { isMap, isScalar, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { findPair, reportDuplicateKeys } from './seeds';
import { LineIndex } from './text';
import type { SourceProblem } from './types';
import { isStrictness } from './policy';

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
  const rangeOf = (node: Node | null | undefined) => lines.rangeOf(node?.range?.[0] ?? 0, node?.range?.[1] ?? 0);
  const warn = (code: string, message: string, node: Node | null | undefined) => problems.push({ code, message, severity: 'warning', range: rangeOf(node) });
  const duplicates = (map: YAMLMap, where: string) =>
    reportDuplicateKeys(map, (key, first, duplicate) =>
      warn('config.duplicate-key', `Duplicate key \`${key}\`${where} (first at line ${lines.positionAt(first.range?.[0] ?? 0).line + 1}); only the first one is read.`, duplicate),
    );

  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problems.push({ code: 'config.parse-error', message: `.kittify/config.yaml is not valid YAML: ${error.message.split('\n')[0]}`, severity: 'error', range: lines.rangeOf(error.pos[0], error.pos[1]) });
    return { config, problems, parsed: false };
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { config, problems, parsed: true };
  if (!isMap(root)) {
    problems.push({ code: 'config.invalid-root', message: '.kittify/config.yaml must be a mapping.', severity: 'error', range: rangeOf(root) });
    return { config, problems, parsed: true };
  }
  duplicates(root, '');
  const glossaryPair = findPair(root, 'glossary');
  const block = glossaryPair?.value as Node | null | undefined;
  if (!glossaryPair || block === null || block === undefined || (isScalar(block) && block.value === null)) return { config, problems, parsed: true };
  if (!isMap(block)) {
    problems.push({ code: 'config.invalid-glossary', message: '`glossary` in .kittify/config.yaml must be a mapping.', severity: 'error', range: rangeOf(block) });
    return { config, problems, parsed: true };
  }
  duplicates(block, ' in `glossary`');
  const valueNode = (key: string) => findPair(block, key)?.value as Node | null | undefined;
  const scalar = (node: Node | null | undefined): unknown => (node === null || node === undefined ? null : isScalar(node) ? node.value : node);
  const shown = (value: unknown) => (isSeq(value) ? 'a list' : isMap(value) ? 'a mapping' : `'${String(value)}'`);

  const strictnessNode = valueNode('strictness');
  if (strictnessNode !== undefined) {
    const value = scalar(strictnessNode);
    if (value !== null) {
      // A collection or an alias is kept as its YAML text, for the messages of the documents it applies to.
      config.strictness = isScalar(strictnessNode) ? value : String(strictnessNode).trim();
      if (!isStrictness(value)) warn('config.invalid-strictness', `glossary.strictness must be off, medium or max (got ${shown(value)}); using medium.`, strictnessNode);
    }
  }
  const checkNode = valueNode('check');
  const check = scalar(checkNode);
  if (check === 'disabled' || check === false) config.check = false;
  else if (check !== null && check !== 'enabled' && check !== true) warn('config.invalid-check', `glossary.check must be enabled or disabled (got ${shown(check)}).`, checkNode);
  config.disabledExtractors = stringList(valueNode('disabled_extractors'), 'disabled_extractors');
  config.ignoreWords = stringList(valueNode('ignore_words'), 'ignore_words').map((w) => w.toLowerCase());
  return { config, problems, parsed: true };

  function stringList(node: Node | null | undefined, key: string): string[] {
    if (node === undefined || node === null || scalar(node) === null) return [];
    if (isSeq(node)) {
      const out: string[] = [];
      for (const item of node.items as (Node | null)[]) {
        const value = scalar(item);
        if (typeof value === 'string') out.push(value);
        else warn('config.invalid-list', `glossary.${key} must be a list of strings; this item is ignored.`, item ?? node);
      }
      return out;
    }
    warn('config.invalid-list', `glossary.${key} must be a list of strings (got ${shown(scalar(node))}).`, node);
    return [];
  }
}
