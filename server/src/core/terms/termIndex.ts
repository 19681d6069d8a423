/**
 * The workspace's term index: for every spec of a workspace folder, where each glossary term
 * occurs — its own surface, and the synonyms to avoid that stand for it (marked as such). Built
 * from the engine's checks (`glossaryOccurrences` reads a DocumentReport; no second matcher), so
 * an occurrence is exactly what the check reports: prose only, never code, links or paths.
 *
 * Plain data, no I/O: the language server owns one per folder and feeds it documents as they
 * are read from disk or edited. It holds no text and no Range objects: each document keeps one
 * Int32Array of its occurrences sorted by term, so 10,000 specs fit in tens of megabytes, and a
 * term's documents are found through a posting set.
 *
 * `usesOf(term)` is the API other features (references, rename, glossary health) read.
 */

import type { DocumentReport } from '../check/check';
import type { GlossaryIndex } from '../glossary';
import { normalizeSurface } from '../normalize';
import type { Position, Range, Sense } from '../types';
import { formOf, type WrittenForm } from './form';

/** One occurrence of a term in a document. */
export interface TermOccurrence {
  /** The term (normalized surface of a glossary entry). */
  term: string;
  /** The normalized surface found here: the term itself, or a synonym to avoid that stands for it. */
  surface: string;
  range: Range;
  /** Letter case and number as written (see form.ts). */
  form: WrittenForm;
}

/** A use of a term somewhere in the workspace. */
export interface TermUse extends TermOccurrence {
  /** The document's key (the server uses its absolute path). */
  document: string;
  /** True when `surface` is a synonym to avoid of the term, not the term itself. */
  synonym: boolean;
}

/**
 * What glossary health (core/health.ts) reads of a document besides its uses, gathered in the same
 * pass (indexUsage.ts makes the index a `TermUsage`).
 */
export interface DocumentDetails {
  /** The document's mission (a deprecated term's uses in a mission that defines it are its own). */
  missionId: string;
  /** False when checking is switched off for the document: it is no spec read (default true). */
  checked?: boolean;
  /** Glossary terms with no use in the document's prose that its text writes elsewhere (`mission_id` in code). */
  writtenElsewhere?: readonly string[];
  /** The senses its mission defines in its spec(s) that the document was checked with. */
  missionSenses?: readonly Sense[];
}

/** Ints per occurrence: term id, surface id, start line, start character, end line, end character, form. */
const STRIDE = 7;

export class TermIndex {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  /** Per document: its occurrences, sorted by term id, then position. */
  private readonly docs = new Map<string, Int32Array>();
  /** Per term id: the documents that use it (directly or through a synonym). */
  private readonly postings = new Map<number, Set<string>>();
  private readonly details = new Map<string, DocumentDetails>();
  /** Per term: the number of documents that write it only outside prose. */
  private readonly elsewhere = new Map<string, number>();
  private checkedDocs = 0;

  /** Replaces what the index knows of `document` (`details`: what health reads besides the uses). */
  set(document: string, occurrences: readonly TermOccurrence[], details?: DocumentDetails): void {
    this.delete(document);
    if (details) {
      this.details.set(document, details);
      for (const term of details.writtenElsewhere ?? []) this.elsewhere.set(term, (this.elsewhere.get(term) ?? 0) + 1);
    }
    if (details?.checked !== false) this.checkedDocs++;
    if (occurrences.length === 0) {
      this.docs.set(document, EMPTY);
      return;
    }
    const rows = occurrences.map((o) => [this.id(o.term), this.id(o.surface), o.range.start.line, o.range.start.character, o.range.end.line, o.range.end.character, o.form] as const);
    rows.sort((a, b) => a[0] - b[0] || a[2] - b[2] || a[3] - b[3]);
    const data = new Int32Array(rows.length * STRIDE);
    rows.forEach((row, i) => data.set(row, i * STRIDE));
    this.docs.set(document, data);
    for (const row of rows) {
      let set = this.postings.get(row[0]);
      if (!set) this.postings.set(row[0], (set = new Set()));
      set.add(document);
    }
  }

  delete(document: string): void {
    const data = this.docs.get(document);
    if (!data) return;
    this.docs.delete(document);
    const details = this.details.get(document);
    if (details?.checked !== false) this.checkedDocs--;
    if (details) {
      this.details.delete(document);
      for (const term of details.writtenElsewhere ?? []) {
        const left = this.elsewhere.get(term)! - 1;
        if (left === 0) this.elsewhere.delete(term);
        else this.elsewhere.set(term, left);
      }
    }
    for (let i = 0; i < data.length; i += STRIDE) {
      const set = this.postings.get(data[i]!);
      if (!set) continue;
      set.delete(document);
      if (set.size === 0) this.postings.delete(data[i]!);
    }
  }

  clear(): void {
    this.docs.clear();
    this.postings.clear();
    this.details.clear();
    this.elsewhere.clear();
    this.checkedDocs = 0;
  }

  /** What was recorded of a document besides its uses (undefined when nothing was). */
  detailsOf(document: string): DocumentDetails | undefined {
    return this.details.get(document);
  }

  /** The documents indexed whose check was not switched off. */
  get checkedCount(): number {
    return this.checkedDocs;
  }

  /** Whether some document writes `term` outside its prose (see DocumentDetails.writtenElsewhere). */
  writtenElsewhere(term: string): boolean {
    return this.elsewhere.has(term);
  }

  /** The details of every document (for the senses missions define). */
  allDetails(): IterableIterator<DocumentDetails> {
    return this.details.values();
  }

  has(document: string): boolean {
    return this.docs.has(document);
  }

  /** The documents indexed. */
  documents(): IterableIterator<string> {
    return this.docs.keys();
  }

  get documentCount(): number {
    return this.docs.size;
  }

  /** The terms used in at least one document, with the number of documents using each. */
  termsUsed(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, set] of this.postings) out.set(this.names[id]!, set.size);
    return out;
  }

  /** The documents that use `term` (its surface or one of its synonyms to avoid). */
  documentsUsing(term: string): string[] {
    const id = this.ids.get(term);
    return id === undefined ? [] : [...(this.postings.get(id) ?? [])];
  }

  /** Every use of `term` in the workspace, document by document, in document order. */
  usesOf(term: string): TermUse[] {
    const out: TermUse[] = [];
    for (const document of this.documentsUsing(term)) out.push(...this.usesIn(document, term));
    return out;
  }

  /** The uses of `term` in one document, in document order. */
  usesIn(document: string, term: string): TermUse[] {
    const id = this.ids.get(term);
    const data = this.docs.get(document);
    if (id === undefined || !data) return [];
    const out: TermUse[] = [];
    for (let i = firstRow(data, id); i < data.length && data[i] === id; i += STRIDE) out.push(this.row(document, data, i));
    return out;
  }

  /** The occurrence under `position` in a document (both ends included), if one is there. */
  occurrenceAt(document: string, position: Position): TermUse | undefined {
    const data = this.docs.get(document);
    if (!data) return undefined;
    let synonym: TermUse | undefined;
    for (let i = 0; i < data.length; i += STRIDE) {
      if (before(position, data[i + 2]!, data[i + 3]!) || before2(data[i + 4]!, data[i + 5]!, position)) continue;
      // (A word that is a term and a synonym to avoid of another is a use of its own term first.)
      if (data[i] === data[i + 1]) return this.row(document, data, i);
      synonym ??= this.row(document, data, i);
    }
    return synonym;
  }

  private row(document: string, data: Int32Array, i: number): TermUse {
    const term = this.names[data[i]!]!;
    const surface = this.names[data[i + 1]!]!;
    return {
      document,
      term,
      surface,
      synonym: surface !== term,
      range: { start: { line: data[i + 2]!, character: data[i + 3]! }, end: { line: data[i + 4]!, character: data[i + 5]! } },
      form: data[i + 6]!,
    };
  }

  private id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }
}

const EMPTY = new Int32Array(0);

/** Index of the first row of term `id` (rows are sorted by term id). */
function firstRow(data: Int32Array, id: number): number {
  let lo = 0;
  let hi = data.length / STRIDE;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (data[mid * STRIDE]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo * STRIDE;
}

/** `position` comes before (line, character). */
function before(position: Position, line: number, character: number): boolean {
  return position.line < line || (position.line === line && position.character < character);
}

/** (line, character) comes before `position`. */
function before2(line: number, character: number, position: Position): boolean {
  return line < position.line || (line === position.line && character < position.character);
}

/**
 * The glossary terms a check found in a document: each occurrence of a surface the glossary
 * defines, and each occurrence of a synonym to avoid under every term that lists it — except in
 * the document's own vocabulary sections (Domain Language…), where nothing is a use (SPEC §3):
 * an entry there is the term's definition.
 */
export function glossaryOccurrences(report: Pick<DocumentReport, 'candidates'> & Partial<Pick<DocumentReport, 'vocabulary'>>, glossary: GlossaryIndex): TermOccurrence[] {
  const out: TermOccurrence[] = [];
  const vocabulary = report.vocabulary;
  const sections = vocabulary && vocabulary.sections.length > 0 ? vocabulary.sections.map((s) => [vocabulary.lines.positionAt(s.start), vocabulary.lines.positionAt(s.end)] as const) : [];
  const inSection = (range: Range) => sections.some(([start, end]) => !before(range.start, start.line, start.character) && before(range.start, end.line, end.character));
  for (const candidate of report.candidates) {
    const surface = candidate.surface;
    const terms: string[] = [];
    if (glossary.sensesOf(surface).length > 0) terms.push(surface);
    for (const sense of glossary.preferredFor(surface)) {
      const term = normalizeSurface(sense.surface);
      if (term !== surface && !terms.includes(term)) terms.push(term);
    }
    if (terms.length === 0) continue;
    candidate.occurrences.forEach((range, i) => {
      if (sections.length > 0 && inSection(range)) return;
      const form = formOf(candidate.texts[i] ?? surface, surface);
      for (const term of terms) out.push({ term, surface, range, form });
    });
  }
  return out;
}
