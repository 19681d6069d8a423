/**
 * Seed glossary loading and validation (SPEC §3), in agreement with Spec Kitty's own schema
 * (`reference/spec-kitty-glossary/src/glossary/seed_schema.py`: pydantic, `extra="forbid"`,
 * loaded with ruamel.yaml):
 *
 * - What Spec Kitty refuses is an **error** at the offending node, and the message says that
 *   Spec Kitty refuses the whole file: an unknown key on an entry or at the top level, a missing
 *   `terms:` (an empty file too), a `see_also` item that is not a mapping of strings, a
 *   `synonyms_to_avoid` that is not a list of strings, an `introduced_in_mission` that is not a
 *   string (`041` unquoted is a number), a duplicate key, wrong types and values of the four
 *   main fields.
 * - What it accepts is read: YAML anchors and aliases (its `save_seed_file` writes them when two
 *   entries share metadata, e.g. `synonyms_to_avoid: &id001` … `*id001`), merge keys (`<<:`),
 *   quoted and block scalars, header comments, empty `synonyms_to_avoid` items, inner spaces in a
 *   surface (read collapsed, with a warning).
 * - One bad entry never drops the rest of the file: spec-glossary reads every entry whose
 *   surface, definition, confidence and status are usable, and ignores a wrong optional field
 *   or an unknown key (reported as above).
 * - A placeholder definition (empty, `TODO…`, `TBD`, a bracketed template hint) is a warning and
 *   the entry does not define the term (SPEC §3): Spec Kitty accepts the text, but it says nothing.
 *
 * Every entry and every problem carries a source range, so the YAML file itself can show the
 * diagnostics (the language server publishes these problems on the file).
 */

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { isNormalized, normalizeSurface } from './normalize';
import { placeholderKind } from './placeholder';
import { readSimpleSeed } from './simpleSeed';
import { LineIndex } from './text';
import { findPair, reportDuplicateKeys, scalarValue } from './yamlNodes';
import { SENSE_STATUSES, type Range, type ScopeId, type SeedFieldRanges, type Sense, type SenseStatus, type SourceProblem } from './types';

export interface SeedFile {
  scope: ScopeId;
  file: string;
  senses: Sense[];
  problems: SourceProblem[];
  /** False when the YAML could not be parsed at all; callers keep the last good version. */
  parsed: boolean;
}

/** The keys Spec Kitty's `GlossarySeedTerm` allows (`extra="forbid"`). */
export const ENTRY_KEYS: readonly string[] = ['surface', 'definition', 'confidence', 'status', 'synonyms_to_avoid', 'see_also', 'introduced_in_mission'];
const KNOWN_KEYS = new Set(ENTRY_KEYS);
const KNOWN_KEYS_TEXT = ENTRY_KEYS.join(', ');
const MERGE_KEY = '<<';

/** Appended to every error Spec Kitty's schema shares: it then loads nothing from the file. */
export const SPEC_KITTY_REFUSES = 'Spec Kitty refuses the whole file';

export function parseSeedFile(text: string, file: string, scope: ScopeId, origin: 'seed' | 'bundled' = 'seed'): SeedFile {
  return new SeedReader(text, file, scope, origin).read();
}

/** A key of an entry with the node of its value (after following aliases) and where it is written. */
interface Field {
  key: string;
  /** The value, aliases resolved; null for an empty value. */
  value: Node | null;
  /** Where to report a problem with the value (the alias itself when the value is one). */
  at: Node;
  keyNode: Node;
}

/** Reads one seed file: the steps of `read()`, each a method, sharing the file's problem list. */
class SeedReader {
  private readonly lines: LineIndex;
  private readonly problems: SourceProblem[] = [];
  private doc: Document | undefined;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly scope: ScopeId,
    private readonly origin: 'seed' | 'bundled',
  ) {
    this.lines = new LineIndex(text);
  }

  read(): SeedFile {
    // A seed written as Spec Kitty writes them is read without the library (simpleSeed.ts).
    const simple = readSimpleSeed(this.text);
    let contents: Node | null;
    if (simple !== undefined) {
      contents = simple;
    } else {
      const doc = this.parseYaml();
      if (doc === undefined) return this.result([], false);
      this.doc = doc;
      contents = doc.contents as Node | null;
    }
    const root = this.rootMapping(contents);
    const terms = root === undefined ? undefined : this.termsList(root);
    return this.result(terms === undefined ? [] : this.readEntries(terms), true);
  }

  private result(senses: Sense[], parsed: boolean): SeedFile {
    return { scope: this.scope, file: this.file, senses, problems: this.problems, parsed };
  }

  // --- steps --------------------------------------------------------------------------------

  /** The YAML document, or undefined (with the syntax errors reported) when it does not parse. */
  private parseYaml(): Document | undefined {
    const doc = parseDocument(this.text, { uniqueKeys: false, lineCounter: new LineCounter(), prettyErrors: false });
    if (doc.errors.length > 0) {
      // The first error only, as Spec Kitty's reader and our config reader say it: the parser's
      // later errors mostly follow from it (one unclosed `[` typed mid-file gave an error on every
      // line after it), and nothing of the file is read anyway.
      const error = doc.errors[0]!;
      const [start, end] = error.pos;
      const more = doc.errors.length > 1 ? ` (the parser reports ${doc.errors.length - 1} more after it, most likely caused by this one)` : '';
      this.problems.push({ code: 'glossary.parse-error', message: `YAML syntax error: ${firstLine(error.message)}${more}`, severity: 'error', range: this.lines.rangeOf(start, Math.max(start, end)) });
      return undefined;
    }
    for (const warning of doc.warnings) {
      this.problems.push({ code: 'glossary.yaml-warning', message: firstLine(warning.message), severity: 'warning', range: this.lines.rangeOf(warning.pos[0], warning.pos[1]) });
    }
    return doc;
  }

  /** The top-level mapping, with its keys checked (only `terms`); undefined when there is none. */
  private rootMapping(contents: Node | null): YAMLMap | undefined {
    const root = this.deref(contents);
    if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
      this.refuse('glossary.missing-terms', 'The file is empty: a seed glossary is a mapping with a `terms:` list (write `terms: []` for none).', 'nothing is read from it', contents);
      return undefined;
    }
    if (!isMap(root)) {
      this.refuse('glossary.invalid-root', 'A seed glossary must be a mapping with a `terms:` list.', 'nothing is read from it', root);
      return undefined;
    }
    reportDuplicateKeys(root, (key, first, duplicate) =>
      this.refuse('glossary.duplicate-key', `Duplicate top-level key \`${key}\` (first at line ${this.lines.positionAt(first.range?.[0] ?? 0).line + 1}).`, 'only the first one is read', duplicate),
    );
    for (const pair of root.items) {
      const key = keyOf(pair);
      if (key !== 'terms') this.refuse('glossary.unknown-key', `Unknown top-level key \`${key}\`: a seed glossary holds only \`terms\`.`, 'the key is ignored', (pair.key as Node | null) ?? root);
    }
    return root;
  }

  /** The `terms` list; undefined when it is missing, empty or not a list (reported). */
  private termsList(root: YAMLMap): YAMLSeq | undefined {
    const pair = findPair(root, 'terms');
    if (pair === undefined) {
      this.refuse('glossary.missing-terms', 'The seed glossary has no `terms:` list.', 'no entry is read', root);
      return undefined;
    }
    const terms = this.deref(pair.value as Node | null);
    // `terms:` with no value is an empty list for Spec Kitty too.
    if (terms === null || (isScalar(terms) && terms.value === null)) return undefined;
    if (!isSeq(terms)) {
      this.refuse('glossary.invalid-terms', '`terms` must be a list of entries.', 'no entry is read', (pair.value as Node | null) ?? root);
      return undefined;
    }
    return terms;
  }

  private readEntries(terms: YAMLSeq): Sense[] {
    const senses: Sense[] = [];
    // Entries listed again by an alias (`- *w`: how Spec Kitty writes a repeated entry): read again,
    // but a mistake in one is one mistake at one place, said once.
    const read = new Set<YAMLMap>();
    terms.items.forEach((item, index) => {
      const written = item as Node | null;
      const node = this.deref(written);
      if (!isMap(node)) {
        this.refuse('glossary.invalid-entry', `Entry ${index + 1} must be a mapping with \`surface\` and \`definition\`.`, 'the entry is skipped', written ?? terms);
        return;
      }
      const again = read.has(node);
      read.add(node);
      const problems = this.problems.length;
      const sense = this.readEntry(node, written!, index);
      if (again) this.problems.length = problems;
      if (sense) senses.push(sense);
    });
    return senses;
  }

  /**
   * One entry. It becomes a sense when its surface, definition, confidence and status are
   * usable and the definition is not a placeholder; optional fields that are wrong are ignored.
   */
  private readEntry(entry: YAMLMap, written: Node, index: number): Sense | undefined {
    const fields = this.entryFields(entry, index);
    if (fields === undefined) return undefined;
    const surface = this.readSurface(fields.get('surface'), entry, index);
    const definition = this.readDefinition(fields.get('definition'), entry, index, surface);
    const confidence = this.readConfidence(fields.get('confidence'));
    const status = this.readStatus(fields.get('status'));
    const ranges: SeedFieldRanges = { surface: this.rangeOf(fields.get('surface')?.at), synonymsToAvoid: [], seeAlso: [] };
    const synonymsToAvoid = this.readSynonyms(fields.get('synonyms_to_avoid'), ranges.synonymsToAvoid);
    const seeAlso = this.readSeeAlso(fields.get('see_also'), ranges.seeAlso);
    const introducedInMission = this.readIntroducedInMission(fields.get('introduced_in_mission'));
    if (surface === undefined || definition === undefined || confidence === undefined || status === undefined) return undefined;
    return {
      surface,
      scope: this.scope,
      definition,
      confidence,
      status,
      synonymsToAvoid,
      seeAlso,
      ...(introducedInMission !== undefined ? { introducedInMission } : {}),
      origin: { kind: this.origin, file: this.file, range: this.rangeOf(written), index, fields: ranges },
    };
  }

  /**
   * The entry's keys with their values. Merge keys (`<<: *anchor`) add the keys of the merged
   * mappings that the entry does not set itself. Unknown keys are reported (and ignored); a
   * duplicate key makes the entry unreadable (which value was meant?): undefined.
   */
  private entryFields(entry: YAMLMap, index: number): Map<string, Field> | undefined {
    const fields = new Map<string, Field>();
    let duplicate = false;
    const merged: Field[] = [];
    for (const pair of entry.items) {
      const key = keyOf(pair);
      const keyNode = (pair.key as Node | null) ?? entry;
      const written = pair.value as Node | null;
      if (key === MERGE_KEY) {
        merged.push(...this.mergedFields(written, keyNode));
        continue;
      }
      if (fields.has(key)) {
        this.refuse('glossary.duplicate-key', `Duplicate key \`${key}\` in entry ${index + 1}.`, 'the entry is skipped', keyNode);
        duplicate = true;
        continue;
      }
      if (!KNOWN_KEYS.has(key)) {
        this.refuse('glossary.unknown-key', `Unknown key \`${key}\` in entry ${index + 1}: an entry has only ${KNOWN_KEYS_TEXT}.`, 'the key is ignored', keyNode);
        continue;
      }
      fields.set(key, { key, value: this.deref(written), at: written ?? keyNode, keyNode });
    }
    for (const field of merged) {
      if (fields.has(field.key)) continue; // the entry's own key wins over a merged one
      if (!KNOWN_KEYS.has(field.key)) {
        this.refuse('glossary.unknown-key', `Unknown key \`${field.key}\` merged into entry ${index + 1}: an entry has only ${KNOWN_KEYS_TEXT}.`, 'the key is ignored', field.keyNode);
        continue;
      }
      fields.set(field.key, field);
    }
    return duplicate ? undefined : fields;
  }

  /** The fields a merge key brings: from one mapping or a list of mappings, earlier ones first. */
  private mergedFields(written: Node | null, keyNode: Node): Field[] {
    const value = this.deref(written);
    const sources = isSeq(value) ? value.items.map((item) => this.deref(item as Node | null)) : [value];
    const out: Field[] = [];
    for (const source of sources) {
      if (!isMap(source)) {
        this.refuse('glossary.invalid-entry', 'A merge key (`<<`) must name a mapping (`<<: *anchor`).', 'it is ignored', written ?? keyNode);
        continue;
      }
      for (const pair of source.items) {
        const key = keyOf(pair);
        if (key === MERGE_KEY || out.some((f) => f.key === key)) continue;
        // Problems with a merged value are reported where the merge is written.
        out.push({ key, value: this.deref(pair.value as Node | null), at: written ?? keyNode, keyNode });
      }
    }
    return out;
  }

  private readSurface(field: Field | undefined, entry: YAMLMap, index: number): string | undefined {
    if (field === undefined) {
      this.refuse('glossary.missing-surface', `Entry ${index + 1} has no \`surface\`.`, 'the entry is skipped', entry);
      return undefined;
    }
    const value = this.stringOf(field.value, '`surface`', field.at);
    if (typeof value !== 'string' || value === '') {
      this.refuse('glossary.invalid-surface', '`surface` must be a non-empty string.', 'the entry is skipped', field.at);
      return undefined;
    }
    // Spec Kitty's rule: the surface equals its lowercase, stripped form.
    const expected = pythonStrip(value.toLowerCase());
    if (value !== expected) {
      const wanted = normalizeSurface(value) === '' ? expected : value.toLowerCase().trim().replace(/\s+/g, ' ');
      this.refuse('glossary.surface-not-normalized', `\`surface\` must be normalized (lowercase, trimmed, single spaces): write '${wanted}'.`, 'the entry is skipped', field.at);
      return undefined;
    }
    if (!isNormalized(value)) {
      // (JavaScript's trim and \s also take U+FEFF, which Python's strip keeps: a surface ending in
      // one passes Spec Kitty's check but must not be read with a trailing space.)
      const collapsed = value.trim().replace(/\s+/g, ' ');
      this.warn('glossary.surface-spacing', `\`surface\` has repeated or unusual spaces; it is read as '${collapsed}' (write it so).`, field.at);
      return collapsed;
    }
    return value;
  }

  private readDefinition(field: Field | undefined, entry: YAMLMap, index: number, surface: string | undefined): string | undefined {
    const named = surface ? ` ('${surface}')` : '';
    if (field === undefined) {
      this.refuse('glossary.missing-definition', `Entry ${index + 1}${named} has no \`definition\`.`, 'the entry is skipped', entry);
      return undefined;
    }
    const value = this.stringOf(field.value, '`definition`', field.at);
    if (typeof value !== 'string' || pythonStrip(value) === '') {
      this.refuse('glossary.invalid-definition', '`definition` must be a non-blank string.', 'the entry is skipped', field.at);
      return undefined;
    }
    const definition = value.trim();
    const kind = placeholderKind(definition, surface);
    if (kind !== undefined) {
      const what = kind === 'template' ? "a template's hint" : kind === 'marker' ? 'a placeholder' : 'no words';
      const of = surface ? ` of '${surface}'` : '';
      this.warn('glossary.placeholder-definition', `The definition${of} is ${what} ("${clip(definition)}"), not a definition: the entry does not define the term until it is written.`, field.at);
      return undefined;
    }
    return definition;
  }

  private readConfidence(field: Field | undefined): number | undefined {
    if (field === undefined) return 1.0;
    let value = scalarValue(field.value);
    // `!!float 1`: the YAML 1.2 core schema leaves an integer-looking text under a float tag
    // unresolved (a string); ruamel reads the number.
    if (typeof value === 'string' && isScalar(field.value) && /^tag:yaml\.org,2002:(?:float|int)$/.test(field.value.tag ?? '') && value.trim() !== '' && Number.isFinite(Number(value))) value = Number(value);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.refuse('glossary.invalid-confidence', '`confidence` must be a number between 0 and 1 (not a string or boolean).', 'the entry is skipped', field.at);
      return undefined;
    }
    if (value < 0 || value > 1) {
      this.refuse('glossary.invalid-confidence', `\`confidence\` must be between 0 and 1, got ${value}.`, 'the entry is skipped', field.at);
      return undefined;
    }
    return value;
  }

  private readStatus(field: Field | undefined): SenseStatus | undefined {
    if (field === undefined) return 'draft';
    const value = this.stringOf(field.value, '`status`', field.at);
    if (typeof value !== 'string' || !(SENSE_STATUSES as readonly string[]).includes(value)) {
      this.refuse('glossary.invalid-status', '`status` must be one of active, draft, deprecated.', 'the entry is skipped', field.at);
      return undefined;
    }
    return value as SenseStatus;
  }

  /** `synonyms_to_avoid`: a list of strings (empty strings are allowed and mean nothing). `at`: where each kept item is. */
  private readSynonyms(field: Field | undefined, at: Range[]): string[] {
    if (field === undefined || scalarValue(field.value) === null) return [];
    const list = field.value;
    if (!isSeq(list)) {
      this.refuse('glossary.invalid-synonyms-to-avoid', '`synonyms_to_avoid` must be a list of strings (`[work dir]`).', 'it is ignored', field.at);
      return [];
    }
    const out: string[] = [];
    for (const item of list.items) {
      const node = this.deref(item as Node | null);
      const value = this.stringOf(node, 'An item of `synonyms_to_avoid`', (item as Node | null) ?? field.at);
      if (typeof value !== 'string') {
        this.refuse('glossary.invalid-synonyms-to-avoid', 'Every item of `synonyms_to_avoid` must be a string.', 'the item is ignored', (item as Node | null) ?? field.at);
        continue;
      }
      const normalized = normalizeSurface(value);
      if (normalized === '') continue;
      out.push(normalized);
      at.push(this.rangeOf((item as Node | null) ?? field.at));
    }
    return out;
  }

  /**
   * `see_also`: a list of mappings of strings as Spec Kitty writes them (`{term: worktree}`, or
   * other references such as `{tactic: …, path: …}`). Only `term` values are kept.
   */
  private readSeeAlso(field: Field | undefined, at: Range[]): string[] {
    if (field === undefined || scalarValue(field.value) === null) return [];
    const list = field.value;
    if (!isSeq(list)) {
      this.refuse('glossary.invalid-see-also', '`see_also` must be a list of `{term: ...}` items.', 'it is ignored', field.at);
      return [];
    }
    const out: string[] = [];
    for (const item of list.items) {
      const written = item as Node | null;
      const node = this.deref(written);
      if (!isMap(node) || node.items.some((pair) => !isScalar(pair.key) || typeof pair.key.value !== 'string' || typeof scalarValue(this.deref(pair.value as Node | null)) !== 'string')) {
        this.refuse('glossary.invalid-see-also', 'Each `see_also` item must be a mapping of strings such as `{term: <surface>}`.', 'the item is ignored', written ?? field.at);
        continue;
      }
      for (const pair of node.items) this.stringOf(this.deref(pair.value as Node | null), `\`see_also\` value \`${keyOf(pair)}\``, (pair.value as Node | null) ?? written);
      const termValue = findPair(node, 'term')?.value as Node | null | undefined;
      const term = scalarValue(this.deref(termValue));
      if (typeof term !== 'string' || term.trim() === '') continue;
      out.push(normalizeSurface(term));
      at.push(this.rangeOf(termValue ?? written ?? field.at));
    }
    return out;
  }

  private readIntroducedInMission(field: Field | undefined): string | undefined {
    if (field === undefined) return undefined;
    const value = this.stringOf(field.value, '`introduced_in_mission`', field.at);
    if (value === null) return undefined;
    if (typeof value === 'string') return value;
    const hint = typeof value === 'number' ? ` (quote it: "${sourceText(this.text, field.value) ?? String(value)}")` : '';
    this.refuse('glossary.invalid-introduced-in-mission', `\`introduced_in_mission\` must be a string${hint}.`, 'it is ignored', field.at);
    return undefined;
  }

  // --- helpers ------------------------------------------------------------------------------

  /**
   * The value of a scalar meant to be a string. Spec Kitty's loader (ruamel, round trip) reads a
   * scalar with an explicit tag (`!!str 041`, `!custom x`) as an object, which its schema refuses
   * where a string is wanted: reported, and the text is read all the same.
   */
  private stringOf(node: Node | null, what: string, at: Node | null | undefined): unknown {
    const value = scalarValue(node);
    if (typeof value !== 'string' || !isScalar(node)) return value;
    if (node.tag !== undefined) {
      this.refuse('glossary.tagged-string', `${what} has an explicit YAML tag (\`${sourceTag(this.text, node) ?? node.tag}\`): Spec Kitty's YAML loader then reads an object, not a string; remove the tag.`, 'the text is read', at);
    } else if (node.type === 'PLAIN' && RUAMEL_NOT_A_STRING.test(value)) {
      this.refuse('glossary.unquoted-value', `${what} \`${value}\` is read by Spec Kitty's YAML loader as a date or a number, not a string; quote it ("${value}").`, 'the text is read', at);
    }
    return value;
  }

  /** Follows an alias (`*id001`) to the node it names; other nodes are returned as they are. */
  private deref(node: Node | null | undefined): Node | null {
    if (node === undefined || node === null) return null;
    if (!isAlias(node)) return node;
    return (node.resolve(this.doc!) as Node | undefined) ?? null;
  }

  private rangeOf(node: Node | null | undefined): Range {
    const r = node?.range;
    return r ? this.lines.rangeOf(r[0], r[1]) : this.lines.rangeOf(0, 0);
  }

  /** An error Spec Kitty's schema shares: the message says so, and what spec-glossary does instead. */
  private refuse(code: string, message: string, ours: string, node: Node | null | undefined): void {
    this.problems.push({ code, message: `${message} ${SPEC_KITTY_REFUSES}; spec-glossary reads the rest (${ours}).`, severity: 'error', range: this.rangeOf(node) });
  }

  private warn(code: string, message: string, node: Node | null | undefined): void {
    this.problems.push({ code, message, severity: 'warning', range: this.rangeOf(node) });
  }
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : '';
}

/**
 * Plain scalars that ruamel.yaml (YAML 1.2, Spec Kitty's loader) resolves to something other than
 * a string while the YAML 1.2 core schema we parse with keeps them as text: dates and timestamps,
 * numbers with `_` or `0b`/`0o`/leading-zero forms, and `=`. (ruamel's implicit resolvers.)
 */
const RUAMEL_NOT_A_STRING = new RegExp(
  [
    '^=$',
    '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$',
    '^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9][0-9_]*|[-+]?0x[0-9a-fA-F_]+)$',
    '^(?:[-+]?[0-9][0-9_]*\\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|\\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$',
  ].join('|'),
);

/** The tag as written before a scalar (`!!str`), when the source shows it. */
function sourceTag(text: string, node: Node): string | undefined {
  const start = node.range?.[0];
  if (start === undefined) return undefined;
  const before = text.slice(Math.max(0, start - 64), start);
  const match = /(![^\s]*)\s*$/.exec(before);
  return match?.[1];
}

/** The text a node was written as (for hints such as "quote it"). */
function sourceText(text: string, node: Node | null): string | undefined {
  const r = node?.range;
  return r ? text.slice(r[0], r[1]) : undefined;
}

// Python's str.strip(): whitespace as str.isspace() sees it (it differs from String#trim on
// U+001C–U+001F, U+0085, which Python strips, and U+FEFF, which it keeps).
// eslint-disable-next-line no-control-regex
const PY_SPACE = '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

function pythonStrip(text: string): string {
  return text.replace(PY_STRIP, '');
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
