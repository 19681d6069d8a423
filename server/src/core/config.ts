/**
 * The `glossary:` block of `.kittify/config.yaml` (SPEC §2). Spec Kitty's keys are `strictness`
 * and `check`; this product adds `disabled_extractors` and `ignore_words` (docs/configuration.md).
 */

import { isMap, parseDocument } from 'yaml';
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
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problems.push({ code: 'config.parse-error', message: `.kittify/config.yaml is not valid YAML: ${error.message.split('\n')[0]}`, severity: 'error', range: lines.rangeOf(error.pos[0], error.pos[1]) });
    return { config, problems, parsed: false };
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    problems.push({ code: 'config.invalid-root', message: '.kittify/config.yaml must be a mapping.', severity: 'error', range: lines.rangeOf(0, 0) });
    return { config, problems, parsed: true };
  }
  const glossaryNode = doc.get('glossary', true) as { range?: [number, number, number] } | undefined;
  const at = () => lines.rangeOf(glossaryNode?.range?.[0] ?? 0, glossaryNode?.range?.[1] ?? 0);
  const raw = (doc.toJS() as Record<string, unknown> | null)?.['glossary'];
  if (raw === undefined || raw === null) return { config, problems, parsed: true };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ code: 'config.invalid-glossary', message: '`glossary` in .kittify/config.yaml must be a mapping.', severity: 'error', range: at() });
    return { config, problems, parsed: true };
  }
  const block = raw as Record<string, unknown>;
  if (block['strictness'] !== undefined) {
    config.strictness = block['strictness'];
    if (!isStrictness(block['strictness'])) problems.push({ code: 'config.invalid-strictness', message: `glossary.strictness must be off, medium or max (got '${String(block['strictness'])}'); using medium.`, severity: 'warning', range: at() });
  }
  const check = block['check'];
  if (check === 'disabled' || check === false) config.check = false;
  else if (check !== undefined && check !== 'enabled' && check !== true) problems.push({ code: 'config.invalid-check', message: `glossary.check must be enabled or disabled (got '${String(check)}').`, severity: 'warning', range: at() });
  config.disabledExtractors = stringList(block['disabled_extractors'], 'disabled_extractors');
  config.ignoreWords = stringList(block['ignore_words'], 'ignore_words').map((w) => w.toLowerCase());
  return { config, problems, parsed: true };

  function stringList(value: unknown, key: string): string[] {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    problems.push({ code: 'config.invalid-list', message: `glossary.${key} must be a list of strings.`, severity: 'warning', range: at() });
    return [];
  }
}
