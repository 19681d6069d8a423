/**
 * YAML front matter at the top of a spec: located by its `---` fences, parsed with positions so
 * hint values (glossary_watch_terms, glossary_aliases) can be reported where they are written.
 */

import { isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { readSimpleMapping, simpleMappingData } from './simpleYaml';
import type { SourceProblem } from '../types';
import { LineIndex } from '../text';
import { findPair, scalarValue } from '../yamlNodes';

/** A string value found in front matter with its offsets in the whole document. */
export interface LocatedString {
  value: string;
  start: number;
  end: number;
}

export interface FrontMatter {
  /** Offsets of the whole block, fences included; end is exclusive. */
  start: number;
  end: number;
  /** Plain JS value of the block (an object when it is a mapping, else undefined). */
  data: Record<string, unknown> | undefined;
  watchTerms: LocatedString[];
  /** glossary_aliases: key (alias as written) → canonical value. */
  aliases: { alias: LocatedString; canonical: LocatedString }[];
  excludeTerms: string[];
  problems: SourceProblem[];
}

/** Front matter larger than this is not parsed (it is still masked from extraction). */
const MAX_FRONT_MATTER_CHARS = 256 * 1024;

const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/;

// A first line of a YAML mapping: a key and a colon (`title: …`, `"key":`, `? `), a flow mapping or a comment.
const MAPPING_LINE = /^\s*(?:[^\s#:][^:]*:(?:\s|$)|["'][^"']*["']\s*:|\?\s|\{|#)/;

/**
 * Find the front matter block, if the document starts with one. A `---` followed by a blank line
 * and text that is no mapping is a thematic break, as markdown-it reads it (a document that opens
 * with a rule, a paragraph and a rule), not front matter.
 */
export function locateFrontMatter(text: string): { start: number; end: number; bodyStart: number; bodyEnd: number } | undefined {
  const offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = text.indexOf('\n', offset);
  if (firstEnd === -1 || !OPEN.test(text.slice(offset, firstEnd))) return undefined;
  if (opensWithRule(text, firstEnd + 1)) return undefined;
  let lineStart = firstEnd + 1;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (CLOSE.test(text.slice(lineStart, lineEnd))) {
      return { start: offset, end: Math.min(text.length, lineEnd + 1), bodyStart: firstEnd + 1, bodyEnd: lineStart };
    }
    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

/** Whether the lines from `from` are a blank line, then (after any more) a line that opens no mapping. */
function opensWithRule(text: string, from: number): boolean {
  let lineEnd = text.indexOf('\n', from);
  if (lineEnd === -1) lineEnd = text.length;
  if (text.slice(from, lineEnd).trim() !== '') return false;
  for (let lineStart = lineEnd + 1; lineStart < text.length; lineStart = lineEnd + 1) {
    lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === '') continue;
    return !CLOSE.test(line) && !MAPPING_LINE.test(line);
  }
  return false;
}

export function parseFrontMatter(text: string, lines: LineIndex = new LineIndex(text)): FrontMatter | undefined {
  const located = locateFrontMatter(text);
  if (!located) return undefined;
  const result: FrontMatter = { start: located.start, end: located.end, data: undefined, watchTerms: [], aliases: [], excludeTerms: [], problems: [] };
  const source = text.slice(located.bodyStart, located.bodyEnd);
  const problem: Problem = (message, start, end) =>
    result.problems.push({ code: 'frontmatter.invalid', message, severity: 'warning', range: lines.rangeOf(start, end) });

  if (source.length > MAX_FRONT_MATTER_CHARS) {
    problem(`Front matter is larger than ${MAX_FRONT_MATTER_CHARS / 1024} KiB and was not read.`, located.start, located.bodyStart);
    return result;
  }
  const mapping = parseMapping(source, located, problem);
  if (!mapping) return result;
  const { root } = mapping;
  const nodeProblem: NodeProblem = (message, node) =>
    problem(message, located.bodyStart + (node?.range?.[0] ?? 0), located.bodyStart + (node?.range?.[1] ?? 0));
  dropRepeatedKeys(root, located.bodyStart, lines, nodeProblem);
  checkKnownKeys(root, nodeProblem);
  try {
    const data = mapping.data();
    if (data && typeof data === 'object' && !Array.isArray(data)) result.data = data as Record<string, unknown>;
  } catch (error) {
    problem(`Front matter could not be read: ${(error as Error).message}`, located.start, located.end);
    return result;
  }
  readHints(root, { source, bodyStart: located.bodyStart, result, problem, nodeProblem });
  return result;
}

/** Reports a problem between two offsets of the document. */
type Problem = (message: string, start: number, end: number) => void;
/** Reports a problem at a node of the front matter. */
type NodeProblem = (message: string, node: Node | null | undefined) => void;

/**
 * The block's root mapping, and its plain value (asked for once repeated keys are dropped);
 * undefined, with the problem reported, when the block is not YAML, is empty or is no mapping.
 */
function parseMapping(source: string, located: { start: number; end: number; bodyStart: number }, problem: Problem): { root: YAMLMap; data: () => unknown } | undefined {
  // The simple front matter real specs have is read directly; anything else by the library.
  const simple = readSimpleMapping(source);
  const doc = simple ? undefined : parseDocument(source, { uniqueKeys: false, prettyErrors: false });
  if (doc && doc.errors.length > 0) {
    const first = doc.errors[0]!;
    problem(`Front matter is not valid YAML: ${first.message.split('\n')[0]}`, located.bodyStart + first.pos[0], located.bodyStart + Math.max(first.pos[0], first.pos[1]));
    return undefined;
  }
  const root = simple ?? doc!.contents;
  if (root === null) return undefined;
  if (!isMap(root)) {
    problem('Front matter must be a mapping of keys to values; it was ignored.', located.start, located.end);
    return undefined;
  }
  return { root, data: () => (simple ? simpleMappingData(simple) : (doc!.toJS({ maxAliasCount: 50 }) as unknown)) };
}

/** A repeated key: the first one counts (as in seed files and config.yaml); the rest are dropped. */
function dropRepeatedKeys(root: YAMLMap, bodyStart: number, lines: LineIndex, nodeProblem: NodeProblem): void {
  const seenKeys = new Map<string, Node>();
  root.items = root.items.filter((pair) => {
    if (!isScalar(pair.key)) return true;
    const key = String(pair.key.value);
    const first = seenKeys.get(key);
    if (!first) {
      seenKeys.set(key, pair.key as Node);
      return true;
    }
    nodeProblem(`Duplicate front matter key \`${key}\` (first at line ${lines.positionAt(bodyStart + (first.range?.[0] ?? 0)).line + 1}); only the first one is read.`, pair.key as Node);
    return false;
  });
}

/** What the hint readers need: the block's text and offset, and where their findings go. */
interface HintContext {
  source: string;
  bodyStart: number;
  result: FrontMatter;
  problem: Problem;
  nodeProblem: NodeProblem;
}

/** glossary_watch_terms, glossary_exclude_terms and glossary_aliases, with their positions. */
function readHints(root: YAMLMap, hints: HintContext): void {
  const { result, nodeProblem } = hints;
  for (const node of hintList(root, 'glossary_watch_terms', hints)) {
    const value = locatedString(node, hints);
    if (value && value.value.trim()) result.watchTerms.push(value);
    else if (!value && scalarValue(node) !== null) nodeProblem('Every item of `glossary_watch_terms` must be a term (a string); this one is ignored.', node);
  }
  for (const node of hintList(root, 'glossary_exclude_terms', hints)) {
    const value = locatedString(node, hints);
    if (value && value.value.trim()) result.excludeTerms.push(value.value);
    else if (!value && scalarValue(node) !== null) nodeProblem('Every item of `glossary_exclude_terms` must be a term (a string); this one is ignored.', node);
  }
  readAliases(pairOf(root, 'glossary_aliases')?.value, hints);
}

function readAliases(aliases: Node | null | undefined, hints: HintContext): void {
  if (aliases && isMap(aliases)) {
    for (const pair of aliases.items as Pair<Node, Node>[]) {
      const alias = locatedString(pair.key, hints);
      const canonical = pair.value ? locatedString(pair.value, hints) : undefined;
      if (alias && canonical && alias.value.trim() && canonical.value.trim()) hints.result.aliases.push({ alias, canonical });
      else if (scalarValue(pair.value) !== null || !alias) hints.nodeProblem('Each `glossary_aliases` entry must map an alias to a term (both strings); this one is ignored.', pair.value ?? pair.key);
    }
  } else if (aliases && !(isScalar(aliases) && aliases.value === null)) {
    hints.problem('`glossary_aliases` must be a mapping of alias to term.', hints.bodyStart + (aliases.range?.[0] ?? 0), hints.bodyStart + (aliases.range?.[1] ?? 0));
  }
}

function pairOf(root: YAMLMap, key: string): Pair<Node, Node> | undefined {
  return findPair(root, key) as Pair<Node, Node> | undefined;
}

/** The items of a hint list (a lone string counts as a list of one). */
function hintList(root: YAMLMap, key: string, hints: HintContext): Node[] {
  const value = pairOf(root, key)?.value;
  if (!value) return [];
  if (isSeq(value)) return value.items as Node[];
  if (isScalar(value) && typeof value.value === 'string') return [value];
  hints.problem(`\`${key}\` must be a list of terms.`, hints.bodyStart + (value.range?.[0] ?? 0), hints.bodyStart + (value.range?.[1] ?? 0));
  return [];
}

/** A string (or number) scalar's value with its offsets in the whole document. */
function locatedString(node: Node, { source, bodyStart }: HintContext): LocatedString | undefined {
  if (!isScalar(node) || node.range === undefined || node.range === null) return undefined;
  if (typeof node.value !== 'string' && typeof node.value !== 'number') return undefined;
  const value = String(node.value);
  const [s, e] = node.range;
  // Point at the characters of the value itself, not surrounding quotes.
  const raw = source.slice(s, e);
  const inner = raw.indexOf(value);
  const start = bodyStart + (inner >= 0 ? s + inner : s);
  return { value, start, end: inner >= 0 ? start + value.length : bodyStart + e };
}

/**
 * Wrong types of the keys this product reads are reported where they are written; the value is
 * then ignored (treated as absent). `glossary_check_strictness` is reported by the check itself,
 * the hint lists by the code that reads them.
 */
function checkKnownKeys(root: YAMLMap, report: (message: string, node: Node | null | undefined) => void): void {
  for (const pair of root.items as Pair<Node, Node | null>[]) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const value = scalarValue(pair.value);
    if (value === null) continue;
    switch (key) {
      case 'mission_id':
      case 'step_id':
        if (!((typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value)))) report(`\`${key}\` must be a non-empty string; it is ignored.`, pair.value);
        break;
      case 'critical_step':
        if (typeof value !== 'boolean') report('`critical_step` must be true or false; it is ignored (not critical).', pair.value);
        break;
      case 'glossary_check':
        if (value !== 'enabled' && value !== 'disabled' && typeof value !== 'boolean') report('`glossary_check` must be enabled or disabled; it is ignored (checked).', pair.value);
        break;
      case 'glossary_fields':
        if (typeof value === 'string') break;
        if (!isSeq(pair.value) || pair.value.items.some((item) => typeof scalarValue(item as Node) !== 'string')) report('`glossary_fields` must be a list of section headings (strings); other values are ignored.', pair.value);
        break;
    }
  }
}
