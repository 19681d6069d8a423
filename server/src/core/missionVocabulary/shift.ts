/**
 * The vocabulary of an edited document without reading it again, when the edit cannot have
 * changed it (the keystroke path of SPEC §10: reading the sections of a 1 MB spec takes a block
 * scan of all of it, ~2 ms). The re-scan of the edit (extract/rescan.ts) says which stretch of
 * the text it read again: from there on the block structure is the previous one, moved by the
 * edit's length. When that stretch touches no section and holds no heading, before or after the
 * edit, every section and entry is the previous one, moved.
 */

import { lowerBound, type LineIndex } from '../text';
import type { DocumentVocabulary, VocabularyEntry, VocabularyProblem, VocabularySection } from './types';

/** The stretch an edit's re-scan read again (scan.ts `ScanEdit`): new text [restart, end) was old [restart, end - delta). */
export interface ReadAgain {
  restart: number;
  end: number;
  delta: number;
}

// A line that could be a heading (ATX, in any container) or a setext underline (or a thematic break).
const HEADING_LIKE = /^[ \t>*+\-\d.)]*#|^[ \t>]*(?:=+|-+)[ \t]*$/m;
const HEADING_LIKE_LINES = new RegExp(HEADING_LIKE.source, 'gm');

/** The starts of the lines of `text` that could be headings or setext underlines. */
export function headingLikeLines(text: string): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(HEADING_LIKE_LINES)) out.push(match.index);
  return out;
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
  const moved = (offset: number) => (offset >= oldEnd ? offset + delta : offset);
  const sections = previous.sections.map((s): VocabularySection => (s.start >= oldEnd ? movedSection(s, delta) : s));
  const entries = previous.entries.map((e): VocabularyEntry => (e.start >= oldEnd ? { ...e, start: e.start + delta, end: e.end + delta, termStart: e.termStart + delta, termEnd: e.termEnd + delta } : e));
  const problems = previous.problems.map((p): VocabularyProblem => (p.start >= oldEnd ? { ...p, start: p.start + delta, end: p.end + delta } : p));
  const headingStarts = previous.headingStarts.map(moved);
  return { ...previous, lines, sections, entries, problems, headingStarts };
}

function movedSection(s: VocabularySection, delta: number): VocabularySection {
  const moved: VocabularySection = { ...s, start: s.start + delta, headingEnd: s.headingEnd + delta, end: s.end + delta };
  if (s.last) moved.last = { ...s.last, start: s.last.start + delta, contentStart: s.last.contentStart + delta, termStart: s.last.termStart + delta, termEnd: s.last.termEnd + delta, definitionStart: s.last.definitionStart + delta, end: s.last.end + delta };
  return moved;
}
