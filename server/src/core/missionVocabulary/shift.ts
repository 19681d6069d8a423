/**
 * The vocabulary of an edited document without reading it again, when the edit cannot have
 * changed it (the keystroke path of SPEC §10: reading the sections of a 1 MB spec takes a block
 * scan of all of it, ~2 ms). The re-scan of the edit (extract/rescan.ts) says which stretch of
 * the text it read again: from there on the block structure is the previous one, moved by the
 * edit's length. When that stretch touches no section and holds no heading, before or after the
 * edit, every section and entry is the previous one, moved.
 */

import type { LineIndex } from '../text';
import type { DocumentVocabulary, VocabularyEntry, VocabularyProblem, VocabularySection } from './types';

/** The stretch an edit's re-scan read again (scan.ts `ScanEdit`): new text [restart, end) was old [restart, end - delta). */
export interface ReadAgain {
  restart: number;
  end: number;
  delta: number;
}

// A line that could be a heading (ATX, in any container) or a setext underline (or a thematic break).
const HEADING_LIKE = /^[ \t>*+\-\d.)]*#|^[ \t>]*(?:=+|-+)[ \t]*\r?$/m;

/**
 * `previous` (the vocabulary of `oldText`) moved by the edit that made `text`, or undefined when
 * the edit may have changed the vocabulary: the stretch read again touches a section, or holds a
 * line that could be a heading or a setext underline, before or after the edit.
 */
export function shiftedVocabulary(previous: DocumentVocabulary, oldText: string, text: string, lines: LineIndex, edit: ReadAgain): DocumentVocabulary | undefined {
  const { restart, end, delta } = edit;
  const oldEnd = end - delta;
  if (restart >= text.length && delta === 0) return { ...previous, lines };
  // (A section its container ends may grow with the container up to its reach: a line indented
  // into the list item, a lazy line of the quote.)
  for (const section of previous.sections) if (section.start < Math.max(oldEnd, restart + 1) && restart < (section.reach ?? section.end)) return undefined;
  if (HEADING_LIKE.test(oldText.slice(restart, oldEnd)) || HEADING_LIKE.test(text.slice(restart, end))) return undefined;
  if (delta === 0) return { ...previous, lines };
  // (Objects of one shape, written out: this runs on every keystroke in a document with sections.)
  const sections = previous.sections.map((s) => (s.start >= oldEnd ? movedSection(s, delta) : s));
  const entries = previous.entries.map((e) => (e.start >= oldEnd ? movedEntry(e, delta) : e));
  const problems = previous.problems.map((p) => (p.start >= oldEnd ? movedProblem(p, delta) : p));
  return { lines, sections, entries, problems, key: previous.key };
}

function movedProblem(p: VocabularyProblem, delta: number): VocabularyProblem {
  const moved: VocabularyProblem = { code: p.code, message: p.message, start: p.start + delta, end: p.end + delta };
  if (p.surface !== undefined && p.termStart !== undefined && p.termEnd !== undefined) {
    moved.surface = p.surface;
    moved.termStart = p.termStart + delta;
    moved.termEnd = p.termEnd + delta;
  }
  return moved;
}

function movedSection(s: VocabularySection, delta: number): VocabularySection {
  const moved: VocabularySection = { name: s.name, level: s.level, start: s.start + delta, headingEnd: s.headingEnd + delta, end: s.end + delta, form: s.form };
  if (s.reach !== undefined) moved.reach = s.reach + delta;
  if (s.columns !== undefined) moved.columns = s.columns;
  if (s.definitionColumn !== undefined) moved.definitionColumn = s.definitionColumn;
  const last = s.last;
  if (last) moved.last = { form: last.form, start: last.start + delta, contentStart: last.contentStart + delta, termStart: last.termStart + delta, termEnd: last.termEnd + delta, definitionStart: last.definitionStart + delta, end: last.end + delta };
  return moved;
}

function movedEntry(e: VocabularyEntry, delta: number): VocabularyEntry {
  return { term: e.term, surface: e.surface, aliases: e.aliases, definition: e.definition, avoid: e.avoid, section: e.section, form: e.form, start: e.start + delta, end: e.end + delta, termStart: e.termStart + delta, termEnd: e.termEnd + delta };
}
