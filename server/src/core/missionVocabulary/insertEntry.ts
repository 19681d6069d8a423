/**
 * "Define 'term' in this spec's Domain Language" (SPEC §9): a new entry written as the section's
 * own entries are — a table row with the same columns, pipes and term markup, or a list item
 * with the same marker, markup and separator, after the last one — in the Domain Language
 * section, else in Glossary, Terminology, Definitions or Key Entities. A section without entries
 * gets a list item.
 */

import type { DocumentVocabulary, SectionName, VocabularyEntryPlace, VocabularySection } from './types';

export interface EntryInsertion {
  /** Insert `text` at offset `at` (nothing is replaced). */
  at: number;
  text: string;
  /** The definition in the text once inserted, [start, end) (to select it for the writer). */
  definitionStart: number;
  definitionEnd: number;
  /** The section it goes into. */
  section: SectionName;
}

const PREFERENCE: readonly SectionName[] = ['domain language', 'glossary', 'terminology', 'definitions', 'key entities'];

/** The section a new entry goes into, if the document has one. */
export function targetSection(vocabulary: DocumentVocabulary): VocabularySection | undefined {
  for (const name of PREFERENCE) {
    const section = vocabulary.sections.find((s) => s.name === name);
    if (section) return section;
  }
  return undefined;
}

/** `term` as written in the document; `definition` (one line) or a placeholder for the writer to replace. */
export function insertEntry(text: string, vocabulary: DocumentVocabulary, term: string, definition: string): EntryInsertion | undefined {
  const section = targetSection(vocabulary);
  if (!section) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const flat = definition.replace(/\s+/g, ' ').trim();
  const last = section.last;
  if (last?.form === 'table') return tableRow(text, section, last, term, flat, eol);
  if (last?.form === 'list') return listItem(text, section, last, term, flat, eol);
  return firstItem(text, section, term, flat, eol);
}

function tableRow(text: string, section: VocabularySection, last: VocabularyEntryPlace, term: string, definition: string, eol: string): EntryInsertion {
  const lineStart = text.lastIndexOf('\n', last.start - 1) + 1;
  const lineEnd = endOfLine(text, last.start);
  const line = text.slice(lineStart, lineEnd);
  // The row's lead (indentation, container markers) up to its first cell or pipe.
  const prefix = text.slice(lineStart, last.start);
  const leadingPipe = text[last.start] === '|';
  const trailingPipe = /\|\s*$/.test(line);
  const cell = text.slice(last.contentStart, last.termEnd);
  const open = /^(\*\*|__|`)/.exec(cell)?.[1] ?? '';
  const columns = Math.max(2, section.columns ?? 2);
  const definitionColumn = Math.min(section.definitionColumn ?? 1, columns - 1);
  const cells = Array.from({ length: columns }, () => '');
  cells[0] = `${open}${escapePipes(term)}${close(open)}`;
  cells[definitionColumn] = escapePipes(definition);
  const head = `${prefix}${leadingPipe ? '| ' : ''}${cells.slice(0, definitionColumn).join(' | ')} | `;
  const row = `${head}${cells[definitionColumn]}${definitionColumn + 1 < columns ? ` | ${cells.slice(definitionColumn + 1).join(' | ')}` : ''}${trailingPipe ? ' |' : ''}`;
  const inserted = eol + row;
  const definitionStart = lineEnd + eol.length + head.length;
  return { at: lineEnd, text: inserted, definitionStart, definitionEnd: definitionStart + cells[definitionColumn]!.length, section: section.name };
}

function listItem(text: string, section: VocabularySection, last: VocabularyEntryPlace, term: string, definition: string, eol: string): EntryInsertion {
  const lineStart = text.lastIndexOf('\n', last.start - 1) + 1;
  const prefix = text.slice(lineStart, last.start);
  // A paragraph entry ("**Term**: …" on its own) is followed by another paragraph: a blank line between.
  const paragraph = last.start === last.contentStart;
  const marker = paragraph ? '' : nextMarker(text.slice(last.start, last.contentStart));
  const open = text.slice(last.contentStart, last.termStart);
  const inner = text.slice(last.termStart, last.termEnd);
  // What came between the term's markup and its definition: ": ", " — ", or a colon inside the bold.
  const colonInside = /[:\u2014\u2013]\s*$/.exec(inner)?.[0].trim();
  const between = text.slice(last.termEnd + close(open).length, last.definitionStart).replace(/\([^()]*\)/, '').replace(/\s+/g, ' ').replace(/^ (?=:)/, '');
  const separator = colonInside ? `${colonInside}${close(open)} ` : `${close(open)}${between.trim() === '' ? ': ' : between.startsWith(' ') ? between : between.trimStart()}`;
  const head = `${prefix}${marker}${open}${term}${separator}`;
  const at = last.end;
  const lead = paragraph ? eol + eol : eol;
  const definitionStart = at + lead.length + head.length;
  return { at, text: lead + head + definition, definitionStart, definitionEnd: definitionStart + definition.length, section: section.name };
}

/** A section with no entry yet: a list item after its last line of content. */
function firstItem(text: string, section: VocabularySection, term: string, definition: string, eol: string): EntryInsertion {
  let at = section.end;
  while (at > section.headingEnd && /\s/.test(text[at - 1]!)) at--;
  const head = `- **${term}**: `;
  const lead = eol + eol;
  const definitionStart = at + lead.length + head.length;
  return { at, text: lead + head + definition, definitionStart, definitionEnd: definitionStart + definition.length, section: section.name };
}

/** The list marker after `marker` ("- " stays, "3. " becomes "4. "). */
function nextMarker(marker: string): string {
  const ordered = /^(\d+)([.)])(\s*)$/.exec(marker);
  if (ordered) return `${Number(ordered[1]) + 1}${ordered[2]}${ordered[3] || ' '}`;
  return /\s$/.test(marker) ? marker : `${marker} `;
}

function close(open: string): string {
  return [...open].reverse().join('');
}

function escapePipes(cell: string): string {
  return cell.replace(/\|/g, '\\|');
}

function endOfLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  const end = newline === -1 ? text.length : newline;
  return end > from && text[end - 1] === '\r' ? end - 1 : end;
}
