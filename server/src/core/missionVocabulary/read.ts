/**
 * Reading a document's vocabulary sections from its CommonMark block structure
 * (markdown/blocks.ts `documentBlocks`): headings give the sections, table rows their cells,
 * list items their paragraphs — so escaped pipes, sections nested in list items or block quotes
 * and lazy continuation lines read as markdown-it reads them.
 *
 * A section runs from its heading to the next heading of the same or a higher level (SPEC §3).
 * Its entries:
 * - table rows: the term is the first cell; the definition the cell under a Definition /
 *   Meaning / Description header (else the second cell); an "Avoid" column the words to avoid;
 * - list items (and paragraphs) that start with the term in bold or code, then `:`, `—`, `–` or
 *   ` - `, then the definition. An item that is only the term takes its definition from what it
 *   holds (nested paragraphs or items).
 * An entry whose definition (or term) is a placeholder is a problem, not an entry.
 */

import { BlockKind, documentBlocks, type BlockList } from '../markdown/blocks';
import { isPlaceholderDefinition, placeholderKind } from '../placeholder';
import { LineIndex, standalone } from '../text';
import { wordsToAvoid } from './avoid';
import { mayHoldSections, sectionName } from './headings';
import { plainText } from './inlineText';
import { contentKey } from './key';
import { leadingTerm } from './leadingTerm';
import { parseTerm, type ParsedTerm } from './terms';
import type { DocumentVocabulary, VocabularyEntry, VocabularyEntryPlace } from './types';

const DEFINITION_HEADER = /definition|meaning|description/i;
const AVOID_HEADER = /avoid/i;

/** `blocks`: the document's blocks when the caller has them (a whole-document scan read them). */
export function readVocabulary(text: string, lines: LineIndex = new LineIndex(text), blocks?: BlockList): DocumentVocabulary {
  const vocabulary: DocumentVocabulary = { lines, sections: [], entries: [], problems: [], key: '' };
  // (Most documents name no section at all: no block scan for them.)
  if (blocks || mayHoldSections(text)) new SectionReader(text, blocks ?? documentBlocks(text), vocabulary).read();
  vocabulary.key = contentKey(vocabulary);
  return vocabulary;
}

/** The end (after its line break) of the first line from `from` (a line start) that is not blank; the text's end when there is none. */
function firstLineEndFrom(text: string, from: number): number {
  let at = from;
  for (;;) {
    const newline = text.indexOf('\n', at);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    if (text.slice(at, lineEnd).trim() !== '' || lineEnd === text.length) return lineEnd;
    at = lineEnd;
  }
}

class SectionReader {
  constructor(
    private readonly text: string,
    private readonly blocks: BlockList,
    private readonly out: DocumentVocabulary,
  ) {}

  read(): void {
    const { blocks, out } = this;
    const headings: number[] = [];
    for (let i = 0; i < blocks.count; i++) {
      if (blocks.kind(i) === BlockKind.Heading) headings.push(i);
    }
    const openedBy: number[] = [];
    for (let h = 0; h < headings.length; h++) {
      const i = headings[h]!;
      const name = sectionName(this.contentOf(i), blocks.level(i));
      if (!name) continue;
      let end = this.text.length;
      for (let k = h + 1; k < headings.length; k++) {
        if (blocks.level(headings[k]!) <= blocks.level(i)) {
          end = blocks.lineStart(headings[k]!);
          break;
        }
      }
      // A heading inside a list item or a block quote opens a section of that container only: it
      // does not run on over the document's own prose after it.
      const container = blocks.parent(i);
      const natural = end;
      if (container >= 0) end = Math.min(end, blocks.end(container));
      // (Only an edit up to the first line after the container can lengthen it: that line made a
      // lazy or indented continuation, or its marker taken away. Later lines follow that one.)
      const reach = end < natural ? Math.min(natural, firstLineEndFrom(this.text, end)) : end;
      out.sections.push({ name, level: blocks.level(i), start: blocks.lineStart(i), headingEnd: blocks.end(i), end, form: 'none', ...(reach > end ? { reach } : {}) });
      openedBy.push(i);
    }
    // (Once every section is known: a section nested in another has its blocks to itself.)
    for (let s = 0; s < out.sections.length; s++) this.readEntries(s, openedBy[s]!);
  }

  /** The entries of section `index`, whose heading is block `heading`. */
  private readEntries(index: number, heading: number): void {
    const { blocks } = this;
    const section = this.out.sections[index]!;
    // A nested section's blocks belong to it alone.
    const nested = this.out.sections.filter((s, k) => k !== index && s.start > section.start && s.start < section.end);
    const inner = (start: number) => nested.length > 0 && nested.some((s) => s.start <= start && start < s.end);
    let header: string[] | undefined;
    for (let i = heading + 1; i < blocks.count && blocks.lineStart(i) < section.end; i++) {
      if (inner(blocks.lineStart(i))) continue;
      switch (blocks.kind(i)) {
        case BlockKind.TableRow:
          if (blocks.level(i) === 0) {
            header = this.cells(i).map((cell) => plainText(cell));
            section.columns = header.length;
            section.definitionColumn = definitionColumnOf(header);
          } else if (header) this.tableRow(index, i, header);
          break;
        case BlockKind.ListItem:
          if (!this.insideItemOf(i, section.headingEnd)) this.listItem(index, i);
          break;
        case BlockKind.Paragraph:
          if (!this.insideItemOf(i, section.headingEnd)) this.paragraph(index, i);
          break;
      }
    }
  }

  /**
   * Whether block `i` lies in a list item that starts after `headingEnd`, one of the section's
   * own items: a nested item is an attribute of an entry, not an entry (the item holding a
   * heading such as "1. ## Key Entities" starts before it).
   */
  private insideItemOf(i: number, headingEnd: number): boolean {
    const { blocks } = this;
    for (let p = blocks.parent(i); p >= 0; p = blocks.parent(p)) {
      if (blocks.kind(p) === BlockKind.ListItem) return blocks.lineStart(p) >= headingEnd;
    }
    return false;
  }

  private tableRow(section: number, row: number, header: readonly string[]): void {
    const cells = this.cells(row);
    const ranges = this.rangesOf(row);
    if (cells.length === 0) return;
    const definitionColumn = definitionColumnOf(header);
    const avoidColumn = header.findIndex((h, k) => k > 0 && AVOID_HEADER.test(h));
    const term = parseTerm(cells[0]!);
    if (!term) return;
    const definition = plainText(cells[definitionColumn] ?? '');
    const avoid = avoidColumn > 0 && avoidColumn !== definitionColumn ? wordsToAvoid(cells[avoidColumn] ?? '') : [];
    const { blocks } = this;
    // The term inside its cell's markup, when the cell writes it as it reads ("**Quarkle** (QK)").
    const at = cells[0]!.indexOf(term.term);
    const termStart = at >= 0 ? ranges[0]! + at : ranges[0]!;
    const termEnd = at >= 0 ? termStart + term.term.length : ranges[1]!;
    const place = { form: 'table' as const, start: blocks.start(row), contentStart: ranges[0]!, termStart, termEnd, definitionStart: ranges[2 * definitionColumn] ?? ranges[1]!, end: blocks.end(row) };
    this.add(section, term, definition, avoid, place, blocks.end(row));
  }

  private listItem(section: number, item: number): void {
    const { blocks } = this;
    const first = item + 1;
    if (first >= blocks.count || blocks.parent(first) !== item || blocks.kind(first) !== BlockKind.Paragraph) return;
    const ranges = this.rangesOf(first);
    const lead = leadingTerm(this.text, ranges[0]!, ranges[1]!);
    if (!lead) return;
    let definition = plainText([this.text.slice(lead.definitionStart, ranges[1]!), ...this.lineTexts(first).slice(1)].join(' '));
    if (definition !== '' && !lead.separated) return; // "**Note** that …": bold prose, not an entry
    // "- **Mission**" alone, its attributes nested below it.
    if (definition === '') definition = this.heldText(item, first);
    // An item that is only a name in code ("- `src/glossary/`") lists a thing, it defines none.
    if (definition === '' && !lead.separated && lead.code) return;
    const term = parseTerm(lead.term);
    if (!term) return;
    const place = { form: 'list' as const, start: blocks.start(item), contentStart: ranges[0]!, termStart: lead.termStart, termEnd: lead.termEnd, definitionStart: lead.definitionStart, end: this.contentEnd(item) };
    this.add(section, term, definition, [], place, ranges[1]!);
  }

  private paragraph(section: number, block: number): void {
    const ranges = this.rangesOf(block);
    const lead = leadingTerm(this.text, ranges[0]!, ranges[1]!);
    if (!lead?.separated) return;
    const definition = plainText([this.text.slice(lead.definitionStart, ranges[1]!), ...this.lineTexts(block).slice(1)].join(' '));
    // "**`seams`**:" above a list is a label of what follows, not an entry left empty.
    if (definition === '') return;
    const term = parseTerm(lead.term);
    if (!term) return;
    const place = { form: 'list' as const, start: ranges[0]!, contentStart: ranges[0]!, termStart: lead.termStart, termEnd: lead.termEnd, definitionStart: lead.definitionStart, end: ranges[ranges.length - 1]! };
    this.add(section, term, definition, [], place, ranges[1]!);
  }

  /** The text of what list item `item` holds after its first paragraph `first`. */
  private heldText(item: number, first: number): string {
    const { blocks } = this;
    const parts: string[] = [];
    for (let i = first + 1; i < blocks.count && blocks.lineStart(i) < blocks.end(item); i++) {
      if (blocks.kind(i) === BlockKind.Paragraph) parts.push(plainText(this.lineTexts(i).join(' ')));
    }
    return parts.filter((p) => p !== '').join('; ');
  }

  /** `lineEnd`: the end of the entry's first line (a problem is reported on [place.start, lineEnd)). */
  private add(sectionIndex: number, term: ParsedTerm, definition: string, avoid: string[], place: VocabularyEntryPlace, lineEnd: number): void {
    const section = this.out.sections[sectionIndex]!;
    if (section.form === 'none') section.form = place.form;
    section.last = place;
    if (term.placeholder || isPlaceholderDefinition(definition, term.surface)) {
      this.out.problems.push({ code: 'domain.placeholder', message: placeholderMessage(term, definition, section.name), start: place.start, end: lineEnd, ...(term.placeholder ? {} : { surface: standalone(term.surface), termStart: place.termStart, termEnd: place.termEnd }) });
      return;
    }
    // (Strings of their own: a slice of the document would keep all of it alive in the glossaries made of it.)
    const entry: VocabularyEntry = { term: standalone(term.term), surface: standalone(term.surface), aliases: term.aliases.map(standalone), definition: standalone(definition), avoid: avoid.map(standalone), section: sectionIndex, form: place.form, start: place.start, end: lineEnd, termStart: place.termStart, termEnd: place.termEnd };
    this.out.entries.push(entry);
  }

  /** The end of the last line of what list item `item` holds. */
  private contentEnd(item: number): number {
    const { blocks } = this;
    let end = blocks.start(item);
    for (let i = item + 1; i < blocks.count && blocks.lineStart(i) < blocks.end(item); i++) {
      const kind = blocks.kind(i);
      if (kind !== BlockKind.ListItem && kind !== BlockKind.BlockQuote) end = Math.max(end, blocks.end(i));
    }
    return end;
  }

  private contentOf(block: number): string {
    return this.lineTexts(block).join(' ');
  }

  private lineTexts(block: number): string[] {
    const ranges = this.rangesOf(block);
    const out: string[] = [];
    for (let k = 0; k < ranges.length; k += 2) out.push(this.text.slice(ranges[k], ranges[k + 1]));
    return out;
  }

  private cells(row: number): string[] {
    return this.lineTexts(row);
  }

  private rangesOf(block: number): Int32Array {
    return this.blocks.ranges.subarray(this.blocks.first(block), this.blocks.last(block));
  }
}

/** The column under a Definition / Meaning / Description header, else the second. */
function definitionColumnOf(header: readonly string[]): number {
  return Math.max(1, header.findIndex((h, k) => k > 0 && DEFINITION_HEADER.test(h)));
}

function placeholderMessage(term: ParsedTerm, definition: string, section: string): string {
  const where = section.replace(/\b\w/g, (c) => c.toUpperCase());
  if (term.placeholder) return `The ${where} entry '${term.term}' is still the template's placeholder: name the term and define it (until then it defines nothing).`;
  const kind = placeholderKind(definition, term.surface);
  const what = kind === 'empty' ? 'has no definition' : kind === 'template' ? `has the template's placeholder definition "${definition}"` : `has a placeholder definition ("${definition}")`;
  return `'${term.term}' in ${where} ${what}: it defines nothing until its definition is written.`;
}
