/**
 * Adding a draft entry to a seed glossary as text edits that keep the file's comments and layout:
 * the new list item goes after the last one of `terms:` with the same indentation (and the same
 * blank line between entries, if the file uses one). Handles a missing file, an empty file,
 * `terms:` with no value, `terms: []` and flow lists. A file that does not parse is not touched.
 */

import { isMap, isScalar, isSeq, parseDocument, type Node, type YAMLSeq } from 'yaml';
import type { Range, TextEdit } from 'vscode-languageserver-types';
import { normalizeSurface } from '../core/normalize';
import { isPlaceholderDefinition } from '../core/placeholder';
import { findPair } from '../core/yamlNodes';
import { LineIndex } from '../core/text';

export interface SeedInsertion {
  /** True when the file does not exist yet: create it, then apply `edits` to the empty file. */
  create: boolean;
  /** Edits against the current text (the empty text when `create`). */
  edits: TextEdit[];
  /** The file's text once the edits are applied. */
  result: string;
  /** The new entry's definition value in `result`, to select it for the writer to replace. */
  selection: Range;
}

export type SeedInsertionOutcome = ({ ok: true } & SeedInsertion) | { ok: false; message: string };

export function draftDefinition(term: string): string {
  return `TODO: define ${term}`;
}

const SCOPE_TITLES: Record<string, string> = {
  mission_local: 'Mission glossary (mission_local): terms of one mission, checked before every other scope.',
  team_domain: 'Team glossary (team_domain): the vocabulary of the team that owns this workspace.',
  audience_domain: 'Audience glossary (audience_domain): the words readers and customers see.',
  spec_kitty_core: 'Core glossary (spec_kitty_core).',
};

/** What else the new entry says (a term promoted from a mission's own vocabulary is active, with its words to avoid). */
export interface EntryExtras {
  status?: 'draft' | 'active';
  synonymsToAvoid?: readonly string[];
}

/**
 * The definition value of an entry for `term` still waiting for its definition (a placeholder,
 * e.g. the draft a Define action inserted), as a range in `text`; undefined when there is none.
 */
export function findDraftEntry(text: string, term: string): Range | undefined {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const terms = findPair(doc.contents, 'terms')?.value;
  if (!isSeq(terms)) return undefined;
  for (const item of terms.items) {
    if (!isMap(item)) continue;
    const surface = findPair(item, 'surface')?.value;
    const definition = findPair(item, 'definition')?.value;
    if (!isScalar(surface) || typeof surface.value !== 'string' || normalizeSurface(surface.value) !== term) continue;
    if (!isScalar(definition) || !definition.range) continue;
    if (definition.value !== null && (typeof definition.value !== 'string' || !isPlaceholderDefinition(definition.value, term))) continue;
    const lines = new LineIndex(text);
    return lines.rangeOf(definition.range[0], definition.range[1]);
  }
  return undefined;
}

/**
 * `existing`: the file's current text (the editor buffer when open), undefined when it does not
 * exist. The entry is `surface: term`, `definition: <definition or a TODO>`, `status: draft`
 * (or as `extras` say).
 */
export function insertDraftEntry(existing: string | undefined, scope: string, term: string, definition = draftDefinition(term), extras: EntryExtras = {}): SeedInsertionOutcome {
  const entry: NewEntry = { term, definition, extras };
  if (existing === undefined) return newFile(scope, entry);
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const doc = parseDocument(existing, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) return { ok: false, message: `the file has YAML errors (${doc.errors[0]!.message.split('\n')[0]}); fix them first` };
  const root = doc.contents as Node | null;
  const emptyRoot = root === null || (isScalar(root) && root.value === null && (!root.range || root.range[1] === root.range[0]));
  if (emptyRoot || (isMap(root) && !root.flow && !findPair(root, 'terms'))) return withTermsKey(existing, eol, entry);
  if (!isMap(root) || root.flow) return { ok: false, message: 'the file is not a block mapping with a `terms:` list' };

  const pair = findPair(root, 'terms')!;
  const value = pair.value as Node | null;
  const lines = new LineIndex(existing);
  if (value === null || (isScalar(value) && value.value === null) || (isSeq(value) && value.flow && value.items.length === 0)) {
    return intoEmptyTerms(existing, eol, entry, lines.lineEnd(lines.positionAt((pair.key as Node).range![1]).line), value);
  }
  if (!isSeq(value)) return { ok: false, message: '`terms` is not a list' };
  if (value.flow) return intoFlowList(existing, entry, value);
  return afterLastItem(existing, eol, entry, lines, value);
}

/** The entry to add: the term, its definition and what else it says. */
interface NewEntry {
  term: string;
  definition: string;
  extras: EntryExtras;
}

/** A file that does not exist yet: a title comment, `terms:` and the entry. */
function newFile(scope: string, { term, definition, extras }: NewEntry): SeedInsertionOutcome {
  const header = `# ${SCOPE_TITLES[scope] ?? `Glossary (${scope}).`}\n\nterms:\n`;
  const entry = blockEntry(term, definition, 2, 4, '\n', extras);
  return finish('', [{ at: 0, end: 0, text: header + entry.text }], header.length + entry.definitionAt, definition, true);
}

/** No `terms:` yet: add the key and the entry at the end of the file. */
function withTermsKey(existing: string, eol: string, { term, definition, extras }: NewEntry): SeedInsertionOutcome {
  const lead = existing.length === 0 || existing.endsWith('\n') ? '' : eol;
  const head = `${lead}terms:${eol}`;
  const entry = blockEntry(term, definition, 2, 4, eol, extras);
  return finish(existing, [{ at: existing.length, end: existing.length, text: head + entry.text }], existing.length + head.length + entry.definitionAt, definition, false);
}

/** `terms:`, `terms: ~` or `terms: []`: clear the value, put a block list under the key (whose line ends at `keyLineEnd`). */
function intoEmptyTerms(existing: string, eol: string, { term, definition, extras }: NewEntry, keyLineEnd: number, value: Node | null): SeedInsertionOutcome {
  const entry = blockEntry(term, definition, 2, 4, eol, extras);
  const insert: RawEdit = { at: keyLineEnd, end: keyLineEnd, text: eol + entry.text.slice(0, -eol.length) };
  const cleared = value !== null && value.range && value.range[1] > value.range[0] ? { at: value.range[0], end: value.range[1], text: '' } : undefined;
  const shift = cleared && cleared.end <= keyLineEnd ? cleared.end - cleared.at : 0;
  const edits = cleared ? [insert, cleared].sort((a, b) => a.at - b.at) : [insert];
  return finish(existing, edits, keyLineEnd - shift + eol.length + entry.definitionAt, definition, false);
}

/** `terms: [{...}, {...}]`: add one more flow mapping before the closing bracket. */
function intoFlowList(existing: string, { term, definition, extras }: NewEntry, value: YAMLSeq): SeedInsertionOutcome {
  const close = existing.lastIndexOf(']', value.range![1]);
  const prefix = `, {surface: ${scalar(term)}, definition: `;
  const avoid = extras.synonymsToAvoid?.length ? `, synonyms_to_avoid: [${extras.synonymsToAvoid.map(scalar).join(', ')}]` : '';
  const text = `${prefix}${scalar(definition)}, status: ${extras.status ?? 'draft'}${avoid}}`;
  let at = close;
  while (at > 0 && /\s/.test(existing[at - 1]!)) at--;
  return finish(existing, [{ at, end: at, text }], at + prefix.length, definition, false);
}

/** A block list: the new item after the last one, indented as the list is (blank line between items if the list has them). */
function afterLastItem(existing: string, eol: string, { term, definition, extras }: NewEntry, lines: LineIndex, value: YAMLSeq): SeedInsertionOutcome {
  const items = value.items as Node[];
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const dashColumn = lines.positionAt(value.range![0]).character;
  const keyColumn = first.range ? lines.positionAt(first.range[0]).character : dashColumn + 2;
  const end = contentEnd(existing, last.range![1]);
  const newline = existing.indexOf('\n', end);
  const blank = items.length >= 2 && /\n[ \t]*\r?\n/.test(existing.slice(contentEnd(existing, items[items.length - 2]!.range![1]), last.range![0])) ? eol : '';
  const entry = blockEntry(term, definition, dashColumn, Math.max(keyColumn, dashColumn + 2), eol, extras);
  if (newline === -1) {
    const text = eol + blank + entry.text;
    return finish(existing, [{ at: existing.length, end: existing.length, text }], existing.length + eol.length + blank.length + entry.definitionAt, definition, false);
  }
  const at = newline + 1;
  return finish(existing, [{ at, end: at, text: blank + entry.text }], at + blank.length + entry.definitionAt, definition, false);
}

interface RawEdit {
  at: number;
  end: number;
  text: string;
}

/** Applies the edits (sorted, non-overlapping) and turns offsets into LSP ranges. */
function finish(existing: string, edits: RawEdit[], definitionAt: number, definition: string, create: boolean): SeedInsertionOutcome {
  const before = new LineIndex(existing);
  let result = '';
  let cursor = 0;
  for (const edit of edits) {
    result += existing.slice(cursor, edit.at) + edit.text;
    cursor = edit.end;
  }
  result += existing.slice(cursor);
  const after = new LineIndex(result);
  const valueLength = scalar(definition).length;
  return {
    ok: true,
    create,
    edits: edits.map((e) => ({ range: before.rangeOf(e.at, e.end), newText: e.text })),
    result,
    selection: after.rangeOf(definitionAt, definitionAt + valueLength),
  };
}

/** The list item; `definitionAt` is the offset of the definition value within `text`. */
function blockEntry(term: string, definition: string, dash: number, key: number, eol: string, extras: EntryExtras): { text: string; definitionAt: number } {
  const first = `${' '.repeat(dash)}-${' '.repeat(Math.max(1, key - dash - 1))}surface: ${scalar(term)}${eol}`;
  const defKey = `${' '.repeat(key)}definition: `;
  const avoid = extras.synonymsToAvoid?.length ? `${' '.repeat(key)}synonyms_to_avoid: [${extras.synonymsToAvoid.map(scalar).join(', ')}]${eol}` : '';
  const text = `${first}${defKey}${scalar(definition)}${eol}${' '.repeat(key)}status: ${extras.status ?? 'draft'}${eol}${avoid}`;
  return { text, definitionAt: first.length + defKey.length };
}

/** A YAML scalar for a string: plain when that is safe, else double-quoted (JSON is valid YAML). */
export function scalar(value: string): string {
  const plainSafe = /^[A-Za-z][A-Za-z0-9 ._/()'-]*$/.test(value) && !/\s$/.test(value) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(value);
  return plainSafe ? value : JSON.stringify(value);
}

/** Offset just after the last non-blank character before `offset`. */
function contentEnd(text: string, offset: number): number {
  let end = offset;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}
