/**
 * The vocabulary of an edited document without reading it again, when the edit cannot have
 * changed it (the keystroke path of SPEC §10: reading the sections of a 1 MB spec takes a block
 * scan of all of it, ~2 ms). The re-scan of the edit (extract/rescan.ts) says which stretch of
 * the text it read again: from there on the block structure is the previous one, moved by the
 * edit's length. When that stretch touches no section and holds no heading, before or after the
 * edit, every section and entry is the previous one, moved.
 */

import { lowerBound, type LineIndex } from '../text';
import type { DocumentVocabulary, VocabularyEntry, VocabularySection } from './types';

/** The stretch an edit's re-scan read again (scan.ts `ScanEdit`): new text [restart, end) was old [restart, end - delta). */
export interface ReadAgain {
  restart: number;
  end: number;
  delta: number;
}

// A line that could be a heading (ATX, in any container) or a setext underline (or a thematic break).
const HEADING_LIKE = /^[ \t>*+\-\d.)]*#|^[ \t>]*(?:=+|-+)[ \t]*$/m;
const HEADING_LIKE_LINE = /^[ \t>*+\-\d.)]*#|^[ \t>]*(?:=+|-+)[ \t]*\r?$/;

/**
 * The starts of the lines of `text` that could be headings or setext underlines. (A loop over the
 * line starts: a multiline regular expression tries its `^` at every character of a 1 MB text.)
 */
export function headingLikeLines(text: string): number[] {
  const out: number[] = [];
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (lineMayBeHeading(text, start, end)) out.push(start);
    start = end + 1;
  }
  return out;
}

/** Whether text[start, end) (one line) may be a heading or a setext underline: checked by its first characters first. */
function lineMayBeHeading(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 35 /* # */ || c === 61 /* = */ || c === 45 /* - */) return HEADING_LIKE_LINE.test(text.slice(start, end));
    // Only blanks, container and list markers and digits may come before the '#', '=' or '-'.
    if (!(c === 32 || c === 9 || c === 62 || c === 42 || c === 43 || c === 46 || c === 41 || (c >= 48 && c <= 57))) return false;
  }
  return false;
}

/** `previous` moved by the edit, or undefined when the edit may have changed the vocabulary. */
export function shiftedVocabulary(previous: DocumentVocabulary, text: string, lines: LineIndex, edit: ReadAgain): DocumentVocabulary | undefined {
  const { restart, end, delta } = edit;
  const oldEnd = end - delta;
  if (restart >= text.length && delta === 0) return { ...previous, lines };
  for (const section of previous.sections) if (section.start < Math.max(oldEnd, restart + 1) && restart < section.end) return undefined;
  const k = lowerBound(previous.headingStarts, restart);
  if (k < previous.headingStarts.length && previous.headingStarts[k]! < Math.max(oldEnd, restart + 1)) return undefined;
  if (HEADING_LIKE.test(text.slice(restart, end))) return undefined;
  if (delta === 0) return { ...previous, lines };
  // (Objects of one shape, written out: this runs on every keystroke in a document with sections.)
  const sections = previous.sections.map((s) => (s.start >= oldEnd ? movedSection(s, delta) : s));
  const entries = previous.entries.map((e) => (e.start >= oldEnd ? movedEntry(e, delta) : e));
  const problems = previous.problems.map((p) => (p.start >= oldEnd ? { code: p.code, message: p.message, start: p.start + delta, end: p.end + delta } : p));
  const headingStarts = previous.headingStarts.slice();
  for (let k = lowerBound(headingStarts, oldEnd); k < headingStarts.length; k++) headingStarts[k] += delta;
  return { lines, sections, entries, problems, headingStarts, key: previous.key };
}

function movedSection(s: VocabularySection, delta: number): VocabularySection {
  const moved: VocabularySection = { name: s.name, level: s.level, start: s.start + delta, headingEnd: s.headingEnd + delta, end: s.end + delta, form: s.form };
  if (s.columns !== undefined) moved.columns = s.columns;
  if (s.definitionColumn !== undefined) moved.definitionColumn = s.definitionColumn;
  const last = s.last;
  if (last) moved.last = { form: last.form, start: last.start + delta, contentStart: last.contentStart + delta, termStart: last.termStart + delta, termEnd: last.termEnd + delta, definitionStart: last.definitionStart + delta, end: last.end + delta };
  return moved;
}

function movedEntry(e: VocabularyEntry, delta: number): VocabularyEntry {
  return { term: e.term, surface: e.surface, aliases: e.aliases, definition: e.definition, avoid: e.avoid, section: e.section, form: e.form, start: e.start + delta, end: e.end + delta, termStart: e.termStart + delta, termEnd: e.termEnd + delta };
}
