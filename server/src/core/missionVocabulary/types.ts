/**
 * A document's own vocabulary (SPEC §3 "A mission's own vocabulary"): the sections that define
 * words (Domain Language, Key Entities, Terminology, Glossary, Definitions) and their entries, as
 * offsets into the document's text. Plain data; `read.ts` makes it from the text's CommonMark
 * block structure.
 */

import type { LineIndex } from '../text';

/** The section names SPEC §3 reads, normalized (lowercase). */
export type SectionName = 'domain language' | 'key entities' | 'terminology' | 'glossary' | 'definitions';

export interface VocabularySection {
  name: SectionName;
  /** Heading level (2–4). */
  level: number;
  /** The heading's line start (where the section starts) and the end of its text. */
  start: number;
  headingEnd: number;
  /**
   * Where the section ends: the line start of the next heading of the same or a higher level, or
   * the text's end; for a heading in a list item or a block quote, the container's end if sooner.
   */
  end: number;
  /**
   * Set when the container ended it: where the next such heading (or the text's end) is. An edit
   * before it may lengthen the container, and so the section (missionVocabulary/shift.ts).
   */
  reach?: number;
  /** How its entries are written: table rows or list items (the first entry's form; 'none' when it has none). */
  form: 'table' | 'list' | 'none';
  /** Its (last) table: how many columns the header has, and which one holds the definition. */
  columns?: number;
  definitionColumn?: number;
  /** Its last entry, placeholders included: where a new entry of the same form goes after. */
  last?: VocabularyEntryPlace;
}

/** Where an entry is written, enough to write another one like it (insertEntry.ts). */
export interface VocabularyEntryPlace {
  form: 'table' | 'list';
  /** The row's first non-blank character, or the list item's marker (or a paragraph's start). */
  start: number;
  /** Where the entry's content starts: its first cell, or the list item's first paragraph. */
  contentStart: number;
  /** The term inside its markup. */
  termStart: number;
  termEnd: number;
  /** Where its definition starts (a list entry), after the separator. */
  definitionStart: number;
  /** The end of the entry's last line of content. */
  end: number;
}

export interface VocabularyEntry {
  /** The term as written (markup stripped), e.g. "Work package". */
  term: string;
  /** Normalized surface (SPEC §4). */
  surface: string;
  /** Normalized aliases ("Work package (WP)" → `wp`). */
  aliases: string[];
  /** The definition, markup stripped, on one line. */
  definition: string;
  /** Normalized words to avoid, as the entry lists them (before the section's own words are taken out). */
  avoid: string[];
  /** The index of its section in `DocumentVocabulary.sections`. */
  section: number;
  form: 'table' | 'list';
  /** The entry's block: a table row or a list item's first line, [start, end). */
  start: number;
  end: number;
  /** The term's text (inside the markup; a table's whole first cell). */
  termStart: number;
  termEnd: number;
}

/** An entry that defines nothing yet: its definition (or its term) is a placeholder. */
export interface VocabularyProblem {
  code: 'domain.placeholder';
  message: string;
  start: number;
  end: number;
  /** The entry's term (normalized) and where it is, unless the term itself is the placeholder. */
  surface?: string;
  termStart?: number;
  termEnd?: number;
}

export interface DocumentVocabulary {
  /** The text's line index: offsets → LSP positions. */
  lines: LineIndex;
  sections: VocabularySection[];
  /** Entries with a usable term and definition, in document order. */
  entries: VocabularyEntry[];
  problems: VocabularyProblem[];
  /** What the entries say, as a string (key.ts): equal keys, equal senses. */
  key: string;
}

/** Where a vocabulary comes from: a document of a mission, for provenance ("<mission slug> spec.md:<line>"). */
export interface VocabularyOrigin {
  /** Absolute path of the document. */
  file: string;
  missionId: string;
  /** The mission as people name it: its folder under `kitty-specs/`, else its id (`missionName`). */
  missionSlug: string;
}

/** A mission document's vocabulary, as the check of another document of the mission receives it. */
export interface VocabularySource extends VocabularyOrigin {
  vocabulary: DocumentVocabulary;
}
