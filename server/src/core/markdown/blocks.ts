/**
 * CommonMark's block structure, as markdown-it reads it, found line by line: containers (block
 * quotes, list items), leaves (paragraphs, headings, fenced and indented code, HTML blocks, link
 * reference definitions, GFM tables, thematic breaks), lazy continuation lines, a leaf that ends
 * with its container. The result is a list of blocks in document order (`Block`): masking reads
 * it, and so can anything else that needs the document's structure (headings with their levels,
 * table rows with their cells, list items).
 *
 * The scan is one pass over the lines, linear in the text. The state at a line start is a small
 * number (blockState.ts); where nothing before a line start depends on the text after it, the
 * scan can record that state (a checkpoint), start again from it, and stop where its state meets
 * an earlier scan's (incremental masking, see mask.ts). Two things look ahead and so keep such
 * line starts from being checkpoints: a table header needs its delimiter row, and a link
 * reference definition may take the lines after its first (its extent is decided by reading on;
 * the lines it leaves are then read again as blocks).
 */

import {
  ASTERISK,
  BACKTICK,
  BYTE_ORDER_MARK,
  DASH,
  GREATER_THAN,
  HASH,
  LESS_THAN,
  OPEN_BRACKET,
  PLUS,
  TILDE,
  UNDERSCORE,
  isDigit,
  isSpaceOrTab,
} from './chars';
import {
  atxHeadingContent,
  atxHeadingLevel,
  closesFence,
  fenceOpening,
  isThematicBreak,
  listMarker,
  setextLevel,
  tableCells,
  tableDelimiterColumns,
  type ListMarker,
} from './blockStarts';
import {
  DEFINITION,
  EMPTY_STATE,
  FENCE,
  HTML,
  INDENTED_CODE,
  ITEM,
  NO_LEAF,
  PARAGRAPH,
  QUOTE,
  TABLE,
  BlockStates,
  type BlockStateParts,
} from './blockState';
import { readDefinition, type DefinitionLines, type DefinitionRead } from './definitions';
import { locateFrontMatter } from './frontMatter';
import { FIRST_KIND_ENDING_ON_BLANK, endsHtmlBlock, htmlBlockKind } from './html';
import { BlockKind, BlockList } from './blockList';
import { CODE_INDENT, LineCursor } from './lineCursor';

export { BlockKind, BlockList, type Block } from './blockList';

/** What `scanBlocks` found. */
export interface BlockScan {
  blocks: BlockList;
  /** Where the scan ended: a line start (it stopped there) or the text's end. */
  end: number;
  /** Flat [offset, state] pairs: the checkpoints after `from` (when asked for). */
  checkpoints: number[];
  /** The link reference definitions: where each starts, and its label (as in their blocks). */
  definitionStarts: number[];
  definitionLabels: string[];
}

export interface BlockScanOptions {
  /** The document's table of states (kept across edits). */
  states: BlockStates;
  /** Record checkpoints. */
  record: boolean;
  /** Stop at the first checkpoint after the start for which this returns true. */
  stop?: (offset: number, state: number) => boolean;
}

/**
 * The blocks of a whole document: its body, after a byte order mark and front matter. For code
 * that reads the document's structure (headings and their sections, tables, list items); masking
 * scans through `scanBlocks` to keep what re-masking after an edit needs.
 */
export function documentBlocks(text: string): BlockList {
  const front = locateFrontMatter(text);
  const bodyStart = front ? front.end : text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  return scanBlocks(text, bodyStart, EMPTY_STATE, { states: new BlockStates(), record: false }).blocks;
}

/** Scan the blocks of text[from, …), `from` being a line start where the scanner's state is `state`. */
export function scanBlocks(text: string, from: number, state: number, options: BlockScanOptions): BlockScan {
  return new BlockScanner(text, options).scan(from, state);
}

/**
 * `startsBlock` flags: also a table; a list item must be able to interrupt a paragraph; the line is
 * indented (code) where it is asked about, so it starts nothing; no list item (markdown-it's
 * listIndent rule: a line four columns past its list's indent but short of the item's content).
 */
const WITH_TABLE = 1;
const INTERRUPTING = 2;
const INDENTED = 4;
const NO_LIST = 8;

/** A link reference definition being read (see `startDefinition`). */
interface PendingDefinition {
  lines: DefinitionLines;
  /** Per line taken: where it starts, and where the line after it starts. */
  lineStarts: number[];
  lineNexts: number[];
}

class BlockScanner {
  private readonly cur: LineCursor;
  /** Looks at the line after the current one (a table's delimiter row). */
  private readonly peek: LineCursor;
  private readonly parts: BlockStateParts = { kinds: [], widths: [], hasChild: [], markers: [], leaf: NO_LEAF, leafA: 0, leafB: 0 };
  /** Per container the line continued, the column its content starts at on that line. */
  private readonly columns: number[] = [];
  /**
   * Per depth, the marker of the list item that closed there, and the line where markdown-it's
   * list rule looks for the list's next item (that line does not start a table).
   */
  private readonly closedMarkers: number[] = [];
  private readonly closedLines: number[] = [];
  /** A line start that carries more than the state says (a list markdown-it still continues there). */
  private noCheckpoint = -1;
  private depth = 0;
  /** Per open container, its block's index (-1: opened before the scan started). */
  private readonly containerBlocks: number[] = [];
  /** The open leaf's block (lines are added to it); -1: none yet. */
  private leafBlock = -1;
  private pending: PendingDefinition | undefined;
  private readonly blocks: BlockList;
  private readonly checkpoints: number[] = [];
  private readonly definitionStarts: number[] = [];
  private readonly definitionLabels: string[] = [];
  /** The end of the furthest line a decision looked at: no checkpoint before it. */
  private horizon = 0;
  /** Scratch for a table header's cells. */
  private readonly cells: number[] = [];
  /** The first pipe at or after `pipeSearchedFrom` (-1: none): one search serves every line before it. */
  private pipe = -1;
  private pipeSearchedFrom = Infinity;

  constructor(
    private readonly text: string,
    private readonly options: BlockScanOptions,
  ) {
    this.cur = new LineCursor(text);
    this.peek = new LineCursor(text);
    // (Real documents have about one block per 60–130 characters: room for the first half.)
    this.blocks = new BlockList(options.stop ? 64 : Math.max(64, text.length >> 7));
  }

  scan(from: number, state: number): BlockScan {
    this.depth = this.options.states.restore(state, this.parts);
    for (let i = 0; i < this.depth; i++) this.containerBlocks[i] = -1;
    const { text, options } = this;
    let pos = from;
    let end = text.length;
    for (;;) {
      if (pos >= text.length) {
        if (this.parts.leaf !== DEFINITION) break;
        pos = this.definitionAtEnd();
        continue;
      }
      if (this.isCheckpoint(pos)) {
        const id = this.stateId();
        if (options.stop && pos > from && options.stop(pos, id)) {
          end = pos;
          break;
        }
        if (options.record) this.checkpoints.push(pos, id);
      }
      this.cur.setLine(pos);
      pos = this.line();
    }
    this.closeLeaf();
    this.closeContainers(0, end);
    return { blocks: this.blocks, end, checkpoints: this.checkpoints, definitionStarts: this.definitionStarts, definitionLabels: this.definitionLabels };
  }

  /** No paragraph is open, and nothing before `pos` looked at the text from `pos` on. */
  private isCheckpoint(pos: number): boolean {
    const leaf = this.parts.leaf;
    return leaf !== PARAGRAPH && leaf !== DEFINITION && this.horizon <= pos && pos !== this.noCheckpoint;
  }

  private stateId(): number {
    return this.depth === 0 && this.parts.leaf === NO_LEAF ? EMPTY_STATE : this.options.states.idOf(this.parts, this.depth);
  }

  // ---------------------------------------------------------------------------------------------
  // One line: match the open containers, go on with the open leaf, or close what no longer
  // matches and open what the line starts.

  /** Handle the line at the cursor; returns where the next line to handle starts. */
  private line(): number {
    if (this.parts.leaf === DEFINITION) return this.definitionLine();
    const cur = this.cur;
    const depth = this.depth;
    const matched = this.matchContainers(cur, depth);
    const all = matched === depth;
    const leaf = this.parts.leaf;
    if (leaf === FENCE || leaf === INDENTED_CODE || leaf === HTML || leaf === TABLE) {
      if (all && this.continueLeaf(leaf)) return cur.next;
      this.closeLeaf();
    } else if (leaf === PARAGRAPH) {
      cur.findNextNonspace();
      if (all) {
        if (cur.blank) {
          this.closeLeaf();
          return cur.next;
        }
        if (cur.indent < CODE_INDENT) {
          const level = setextLevel(this.text, cur.nextNonspace, cur.lineEnd);
          if (level > 0) {
            this.setextHeading(level);
            return cur.next;
          }
          if (this.startsBlock(cur, WITH_TABLE | INTERRUPTING, depth)) {
            this.closeLeaf();
            this.openBlocks();
            return cur.next;
          }
        }
        this.addParagraphLine(matched);
        return cur.next;
      }
      if (this.isLazy(cur, matched, depth)) {
        this.addParagraphLine(matched);
        return cur.next;
      }
      this.closeLeaf();
    }
    this.closeContainers(matched, cur.lineStart);
    this.openBlocks();
    return cur.next;
  }

  /**
   * Move the cursor past the markers of the first `limit` open containers the line continues;
   * returns how many it continues (a quote: its `>`; a list item: its content indent, or a blank
   * line once the item holds a block).
   */
  private matchContainers(cur: LineCursor, limit: number): number {
    const { kinds, widths, hasChild } = this.parts;
    for (let i = 0; i < limit; i++) {
      cur.findNextNonspace();
      if (kinds[i] === QUOTE) {
        // (markdown-it reads a `>` after any indentation as the quote's.)
        if (cur.blank || this.text.charCodeAt(cur.nextNonspace) !== GREATER_THAN) return i;
        cur.advanceNextNonspace();
        cur.advanceOffset(1, false);
        if (isSpaceOrTab(cur.char(cur.offset))) cur.advanceOffset(1, true);
      } else if (cur.blank) {
        if (!hasChild[i]) return i;
        cur.advanceNextNonspace();
      } else if (cur.indent >= widths[i]!) cur.advanceOffset(widths[i]!, true);
      else return i;
      this.columns[i] = cur.column;
    }
    return limit;
  }

  /**
   * Whether the line at the cursor, which continues only the first `matched` of the `depth`
   * containers of an open paragraph, goes on the paragraph lazily. markdown-it asks each block
   * quote the line does not continue, outermost first, whether the line starts a block there (the
   * first one with the line's own indentation; inside it, the line counts as not indented); with
   * list items alone, the paragraph asks. Where it asks, the line falls short of the content
   * indent, so it is never indented code, and a list item is subject to the listIndent rule.
   */
  private isLazy(cur: LineCursor, matched: number, depth: number): boolean {
    if (cur.blank) return false;
    const { kinds, widths } = this.parts;
    const column = cur.nextNonspaceColumn;
    // The content column where the container being asked sits, and its list's indent (-1: none).
    let context = matched > 0 ? this.columns[matched - 1]! : 0;
    let listIndent = -1;
    for (let i = matched - 1; i >= 0; i--) {
      if (kinds[i] === ITEM) {
        listIndent = i > 0 ? this.columns[i - 1]! : 0;
        break;
      }
    }
    let quoted = false;
    const flags = () => {
      if (quoted) return 0; // (markdown-it marks the line lazy: column -1, inside every later context)
      let f = column - context >= CODE_INDENT ? INDENTED : 0;
      if (listIndent >= 0 && column - listIndent >= CODE_INDENT && column < context) f |= NO_LIST;
      return f;
    };
    for (let i = matched; i < depth; i++) {
      if (kinds[i] === QUOTE) {
        if (this.startsBlock(cur, flags(), depth)) return false;
        quoted = true;
      } else if (!quoted) {
        listIndent = context;
        context += widths[i]!;
      }
    }
    return quoted || !this.startsBlock(cur, WITH_TABLE | flags(), depth);
  }

  /** Whether a block quote is among the containers [from, to). */
  private quoteAmong(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.parts.kinds[i] === QUOTE) return true;
    return false;
  }

  /**
   * Whether the line at the cursor (its containers matched, `findNextNonspace` done) starts a block
   * that ends a paragraph or a table: a fence, a block quote, a thematic break, a list item, an
   * HTML block (not of kind 7), an ATX heading, and with WITH_TABLE a table (see the flags).
   * `depth`: the containers the line after must continue for a table.
   */
  private startsBlock(cur: LineCursor, flags: number, depth: number): boolean {
    if (cur.blank || (flags & INDENTED) !== 0) return false;
    const text = this.text;
    const at = cur.nextNonspace;
    const end = cur.lineEnd;
    const c = text.charCodeAt(at);
    switch (c) {
      case BACKTICK:
      case TILDE:
        return fenceOpening(text, at, end) > 0 || ((flags & WITH_TABLE) !== 0 && this.tableStarts(cur, depth));
      case GREATER_THAN:
        return true;
      case HASH:
        return atxHeadingLevel(text, at, end) > 0 || ((flags & WITH_TABLE) !== 0 && this.tableStarts(cur, depth));
      case LESS_THAN:
        return htmlBlockKind(text.slice(at, end), true) > 0 || ((flags & WITH_TABLE) !== 0 && this.tableStarts(cur, depth));
    }
    if ((c === ASTERISK || c === DASH || c === UNDERSCORE) && isThematicBreak(text, at, end)) return true;
    if ((c === DASH || c === PLUS || c === ASTERISK || isDigit(c)) && !(flags & NO_LIST)) {
      const marker = listMarker(text, at, end);
      if (marker && (!(flags & INTERRUPTING) || canInterrupt(text, marker, end))) return true;
    }
    return (flags & WITH_TABLE) !== 0 && this.tableStarts(cur, depth);
  }

  // ---------------------------------------------------------------------------------------------
  // Opening blocks.

  /** Open what the rest of the line starts: containers, then one leaf (or nothing: a blank rest). */
  private openBlocks(): void {
    const cur = this.cur;
    const text = this.text;
    for (;;) {
      cur.findNextNonspace();
      if (cur.blank) return;
      if (cur.indent >= CODE_INDENT) {
        this.openIndentedCode();
        return;
      }
      const at = cur.nextNonspace;
      const end = cur.lineEnd;
      const c = text.charCodeAt(at);
      // (markdown-it tries a table first: a header row may look like any other block; but its list
      // rule takes the next item of a list before that.)
      if (!this.continuesList(c) && this.tableStarts(cur, this.depth)) {
        this.openTable();
        return;
      }
      switch (c) {
        case GREATER_THAN:
          this.openQuote();
          continue;
        case HASH: {
          const level = atxHeadingLevel(text, at, end);
          if (level > 0) {
            this.atxHeading(level);
            return;
          }
          break;
        }
        case BACKTICK:
        case TILDE: {
          const length = fenceOpening(text, at, end);
          if (length > 0) {
            this.openFence(c, length);
            return;
          }
          break;
        }
        case LESS_THAN: {
          const kind = htmlBlockKind(text.slice(at, end), false);
          if (kind > 0) {
            this.openHtml(kind);
            return;
          }
          break;
        }
      }
      if ((c === ASTERISK || c === DASH || c === UNDERSCORE) && isThematicBreak(text, at, end)) {
        this.leafOnOneLine(BlockKind.ThematicBreak, at, end);
        return;
      }
      if (c === DASH || c === PLUS || c === ASTERISK || isDigit(c)) {
        const marker = listMarker(text, at, end);
        if (marker) {
          this.openItem(marker);
          continue;
        }
      }
      if (c === OPEN_BRACKET) this.startDefinition();
      else this.openParagraph();
      return;
    }
  }

  /** Whether the line (first character `c`) is the next item of a list whose item closed on it. */
  private continuesList(c: number): boolean {
    const cur = this.cur;
    if (this.closedLines[this.depth] !== cur.lineStart) return false;
    if (!(c === DASH || c === PLUS || c === ASTERISK || isDigit(c))) return false;
    const marker = listMarker(this.text, cur.nextNonspace, cur.lineEnd);
    return marker !== undefined && this.text.charCodeAt(marker.end - 1) === this.closedMarkers[this.depth];
  }

  /** Note a new block inside the innermost container. */
  private addChild(): void {
    if (this.depth > 0) this.parts.hasChild[this.depth - 1] = true;
  }

  private parentIndex(): number {
    return this.depth > 0 ? this.containerBlocks[this.depth - 1]! : -1;
  }

  private pushContainer(kind: number, width: number, blockKind: BlockKind, start: number, level: number): void {
    this.addChild();
    const block = this.blocks.add(blockKind, this.cur.lineStart, start, -1, this.parentIndex());
    this.blocks.setLevel(block, level);
    const d = this.depth++;
    this.parts.kinds[d] = kind;
    this.parts.widths[d] = width;
    this.parts.hasChild[d] = kind === QUOTE;
    this.containerBlocks[d] = block;
  }

  private openQuote(): void {
    const cur = this.cur;
    cur.advanceNextNonspace();
    const start = cur.offset;
    cur.advanceOffset(1, false);
    if (isSpaceOrTab(cur.char(cur.offset))) cur.advanceOffset(1, true);
    this.pushContainer(QUOTE, 0, BlockKind.BlockQuote, start, 0);
  }

  /** A list item: its content indent is the marker's, plus the marker, plus 1–4 columns of spaces (1 when more, or none). */
  private openItem(marker: ListMarker): void {
    const cur = this.cur;
    const markerIndent = cur.indent;
    cur.advanceNextNonspace();
    const start = cur.offset;
    const markerLength = marker.end - start;
    cur.advanceOffset(markerLength, true);
    const spacesColumn = cur.column;
    const spacesOffset = cur.offset;
    do cur.advanceOffset(1, true);
    while (cur.column - spacesColumn < 5 && isSpaceOrTab(cur.char(cur.offset)));
    const blankItem = cur.offset >= cur.lineEnd;
    const spaces = cur.column - spacesColumn;
    let padding: number;
    if (spaces >= 5 || spaces < 1 || blankItem) {
      padding = markerLength + 1;
      cur.column = spacesColumn;
      cur.offset = spacesOffset;
      cur.partialTab = false;
      if (isSpaceOrTab(cur.char(cur.offset))) cur.advanceOffset(1, true);
    } else padding = markerLength + spaces;
    this.pushContainer(ITEM, markerIndent + padding, BlockKind.ListItem, start, marker.ordered ? 1 : 0);
    this.parts.markers[this.depth - 1] = this.text.charCodeAt(marker.end - 1);
  }

  private openLeaf(kind: BlockKind, leaf: number, a: number, b: number): number {
    const cur = this.cur;
    this.addChild();
    const block = this.blocks.add(kind, cur.lineStart, cur.nextNonspace, cur.lineEnd, this.parentIndex());
    this.blocks.addRange(block, cur.nextNonspace, cur.lineEnd);
    this.parts.leaf = leaf;
    this.parts.leafA = a;
    this.parts.leafB = b;
    this.leafBlock = block;
    return block;
  }

  private leafOnOneLine(kind: BlockKind, start: number, end: number): number {
    this.addChild();
    const block = this.blocks.add(kind, this.cur.lineStart, start, end, this.parentIndex());
    this.blocks.addRange(block, start, end);
    return block;
  }

  private openParagraph(): void {
    this.openLeaf(BlockKind.Paragraph, PARAGRAPH, 0, 0);
  }

  private addParagraphLine(matched: number): void {
    const cur = this.cur;
    const block = this.leafBlock;
    this.blocks.addRange(block, cur.nextNonspace, cur.lineEnd);
    this.blocks.setEnd(block, cur.lineEnd);
    if (this.quoteAmong(0, matched)) this.blocks.setQuoted(block);
  }

  private setextHeading(level: number): void {
    this.blocks.setKind(this.leafBlock, BlockKind.Heading);
    this.blocks.setLevel(this.leafBlock, level);
    this.endLeaf();
  }

  private atxHeading(level: number): void {
    const cur = this.cur;
    const [start, end] = atxHeadingContent(this.text, cur.nextNonspace + level, cur.lineEnd);
    this.blocks.setLevel(this.leafOnOneLine(BlockKind.Heading, start, end), level);
  }

  private openFence(char: number, length: number): void {
    this.openLeaf(BlockKind.Code, FENCE, char, length);
  }

  private openIndentedCode(): void {
    this.cur.advanceOffset(CODE_INDENT, true);
    this.cur.findNextNonspace();
    this.openLeaf(BlockKind.Code, INDENTED_CODE, 0, 0);
  }

  private openHtml(kind: number): void {
    const cur = this.cur;
    this.openLeaf(BlockKind.Html, HTML, kind, 0);
    if (kind < FIRST_KIND_ENDING_ON_BLANK && endsHtmlBlock(kind, this.text.slice(cur.nextNonspace, cur.lineEnd))) this.endLeaf();
  }

  /**
   * Whether the line at the cursor is a table's header: it holds a pipe, the next line continues
   * the first `depth` containers with a delimiter row, and the header has as many cells.
   */
  private tableStarts(cur: LineCursor, depth: number): boolean {
    const text = this.text;
    const at = cur.nextNonspace;
    if (!(this.pipeSearchedFrom <= at && (this.pipe === -1 || this.pipe >= at))) {
      this.pipe = text.indexOf('|', at);
      this.pipeSearchedFrom = at;
    }
    if (this.pipe === -1 || this.pipe >= cur.lineEnd || !cur.hasBreak) return false;
    const peek = this.peek;
    peek.setLine(cur.next);
    if (peek.next > this.horizon) this.horizon = peek.next;
    if (this.matchContainers(peek, depth) !== depth) return false;
    peek.findNextNonspace();
    if (peek.blank || peek.indent >= CODE_INDENT) return false;
    const columns = tableDelimiterColumns(text, peek.nextNonspace, peek.lineEnd);
    if (columns === 0) return false;
    this.cells.length = 0;
    return tableCells(text, at, cur.lineEnd, this.cells) === columns;
  }

  /** A table's header row (its cells were found by `tableStarts`); its delimiter row comes next. */
  private openTable(): void {
    this.addRow(this.cells, 0);
    this.parts.leaf = TABLE;
    this.parts.leafA = this.cells.length / 2;
    this.parts.leafB = 0;
    this.leafBlock = -1;
  }

  /** A table row (`level` 0: the header) with these cells (the first `count` numbers of `cells`: flat pairs). */
  private addRow(cells: readonly number[], level: number, count = cells.length): void {
    const cur = this.cur;
    this.addChild();
    const row = this.blocks.add(BlockKind.TableRow, cur.lineStart, cur.nextNonspace, cur.lineEnd, this.parentIndex());
    this.blocks.setLevel(row, level);
    for (let i = 0; i < count; i += 2) this.blocks.addRange(row, cells[i]!, cells[i + 1]!);
  }

  // ---------------------------------------------------------------------------------------------
  // Open leaves that span lines.

  /** Go on with the open fence, indented code, HTML block or table; false when the line ends it (not handled). */
  private continueLeaf(leaf: number): boolean {
    const cur = this.cur;
    const text = this.text;
    cur.findNextNonspace();
    switch (leaf) {
      case FENCE: {
        const block = this.leafBlock >= 0 ? this.leafBlock : this.resumeLeaf(BlockKind.Code);
        if (!cur.blank) this.blocks.addRange(block, cur.nextNonspace, cur.lineEnd);
        this.blocks.setEnd(block, cur.lineEnd);
        if (!cur.blank && cur.indent < CODE_INDENT && text.charCodeAt(cur.nextNonspace) === this.parts.leafA && closesFence(text, cur.nextNonspace, cur.lineEnd, this.parts.leafA, this.parts.leafB)) this.endLeaf();
        return true;
      }
      case INDENTED_CODE: {
        if (cur.blank) return true;
        if (cur.indent < CODE_INDENT) return false;
        const block = this.leafBlock >= 0 ? this.leafBlock : this.resumeLeaf(BlockKind.Code);
        this.blocks.addRange(block, cur.nextNonspace, cur.lineEnd);
        this.blocks.setEnd(block, cur.lineEnd);
        return true;
      }
      case HTML: {
        const kind = this.parts.leafA;
        if (cur.blank) {
          if (kind >= FIRST_KIND_ENDING_ON_BLANK) this.endLeaf();
          return true;
        }
        const block = this.leafBlock >= 0 ? this.leafBlock : this.resumeLeaf(BlockKind.Html);
        this.blocks.addRange(block, cur.nextNonspace, cur.lineEnd);
        this.blocks.setEnd(block, cur.lineEnd);
        if (kind < FIRST_KIND_ENDING_ON_BLANK && endsHtmlBlock(kind, text.slice(cur.nextNonspace, cur.lineEnd))) this.endLeaf();
        return true;
      }
      default: {
        // A table: its delimiter row, then rows up to a blank line or another block's start.
        if (this.parts.leafB === 0) {
          this.parts.leafB = 1;
          return true;
        }
        if (cur.blank || cur.indent >= CODE_INDENT || this.startsBlock(cur, 0, this.depth)) return false;
        const cells = this.cells;
        cells.length = 0;
        // (A row of white space that is not blank to CommonMark, a no-break space, ends the table too.)
        if (tableCells(text, cur.nextNonspace, cur.lineEnd, cells) === 0 && !/\S/.test(text.slice(cur.nextNonspace, cur.lineEnd))) return false;
        // A row has the header's columns (leafA): cells past them are dropped (markdown-it, GFM).
        const shown = Math.min(cells.length, 2 * this.parts.leafA);
        this.addRow(cells, 1, shown);
        if (shown < cells.length) {
          const dropped = this.blocks.add(BlockKind.Unrendered, cur.lineStart, cells[shown]!, cells[cells.length - 1]!, this.parentIndex());
          this.blocks.addRange(dropped, cells[shown]!, cells[cells.length - 1]!);
        }
        return true;
      }
    }
  }

  /** The block of a leaf that was open where the scan started (its earlier lines belong to an earlier scan). */
  private resumeLeaf(kind: BlockKind): number {
    const cur = this.cur;
    const block = this.blocks.add(kind, cur.lineStart, cur.nextNonspace, cur.lineEnd, this.parentIndex());
    this.leafBlock = block;
    return block;
  }

  /** The open leaf is complete (its last line was handled). */
  private endLeaf(): void {
    this.parts.leaf = NO_LEAF;
    this.parts.leafA = this.parts.leafB = 0;
    this.leafBlock = -1;
  }

  private closeLeaf(): void {
    if (this.parts.leaf === DEFINITION) throw new Error('A pending definition cannot be closed');
    this.endLeaf();
  }

  /** Close the containers from `depth` on (and the leaf inside them), at `at` (a line start). */
  private closeContainers(depth: number, at: number): void {
    if (depth >= this.depth) return;
    this.closeLeaf();
    const cur = this.cur;
    for (let i = this.depth - 1; i >= depth; i--) {
      const index = this.containerBlocks[i]!;
      if (index >= 0) this.blocks.setEnd(index, at);
      if (this.parts.kinds[i] === ITEM) {
        // markdown-it's list rule looks for the next item on this line, or after the one blank
        // line an empty item takes.
        this.closedMarkers[i] = this.parts.markers[i]!;
        const afterBlank = cur.lineStart === at && cur.blank && !this.parts.hasChild[i];
        this.closedLines[i] = afterBlank ? cur.next : at;
        if (afterBlank) this.noCheckpoint = cur.next;
      }
    }
    this.depth = depth;
  }

  // ---------------------------------------------------------------------------------------------
  // Link reference definitions: a line starting with `[` where a paragraph would start may start
  // one. The lines after it are looked at without changing anything (their containers matched,
  // nothing closed) until the definition is read; then the scan goes back to the first line the
  // definition did not take (or, when there is no definition, to the line after the first, with a
  // paragraph open).

  private startDefinition(): void {
    const cur = this.cur;
    this.addChild();
    const lines: DefinitionLines = { starts: [cur.nextNonspace], ends: [cur.lineEnd], complete: cur.next >= this.text.length };
    const read = readDefinition(this.text, lines);
    if (read.kind === 'more') {
      this.pending = { lines, lineStarts: [cur.lineStart], lineNexts: [cur.next] };
      this.parts.leaf = DEFINITION;
      if (cur.next > this.horizon) this.horizon = cur.next;
      return;
    }
    this.pending = { lines, lineStarts: [cur.lineStart], lineNexts: [cur.next] };
    this.resolveDefinition(read, cur.next);
  }

  /** A line after a definition's first: taken by the definition, or the end of what it may take. */
  private definitionLine(): number {
    const cur = this.cur;
    const depth = this.depth;
    const pending = this.pending!;
    const matched = this.matchContainers(cur, depth);
    cur.findNextNonspace();
    let takes: boolean;
    if (cur.blank) takes = false;
    else if (matched === depth) takes = cur.indent >= CODE_INDENT || !this.startsBlock(cur, WITH_TABLE, depth);
    else takes = this.isLazy(cur, matched, depth);
    if (cur.next > this.horizon) this.horizon = cur.next;
    if (takes) {
      pending.lines.starts.push(cur.nextNonspace);
      pending.lines.ends.push(cur.lineEnd);
      pending.lineStarts.push(cur.lineStart);
      pending.lineNexts.push(cur.next);
      if (cur.next >= this.text.length) pending.lines.complete = true;
    } else pending.lines.complete = true;
    const read = readDefinition(this.text, pending.lines);
    if (read.kind === 'more') return cur.next;
    return this.resolveDefinition(read, takes ? cur.next : cur.lineStart);
  }

  /** The document ended while a definition was being read. */
  private definitionAtEnd(): number {
    const pending = this.pending!;
    pending.lines.complete = true;
    return this.resolveDefinition(readDefinition(this.text, pending.lines), this.text.length);
  }

  /** Emit the definition (or the paragraph of the first line); returns the line to go on from. */
  private resolveDefinition(read: DefinitionRead, afterLast: number): number {
    const pending = this.pending!;
    this.pending = undefined;
    const { starts, ends } = pending.lines;
    if (read.kind === 'definition') {
      const block = this.blocks.add(BlockKind.Definition, pending.lineStarts[0]!, starts[0]!, ends[read.lines - 1]!, this.parentIndex());
      for (let k = 0; k < read.lines; k++) this.blocks.addRange(block, starts[k]!, ends[k]!);
      this.blocks.setLabel(block, read.label);
      this.definitionStarts.push(starts[0]!);
      this.definitionLabels.push(read.label);
      this.endLeaf();
      return read.lines < pending.lineStarts.length ? pending.lineStarts[read.lines]! : afterLast;
    }
    const block = this.blocks.add(BlockKind.Paragraph, pending.lineStarts[0]!, starts[0]!, ends[0]!, this.parentIndex());
    this.blocks.addRange(block, starts[0]!, ends[0]!);
    this.parts.leaf = PARAGRAPH;
    this.leafBlock = block;
    return pending.lineStarts.length > 1 ? pending.lineStarts[1]! : afterLast;
  }
}

/** Whether a list marker may interrupt a paragraph: an ordered one starts at 1, and the item is not empty. */
function canInterrupt(text: string, marker: ListMarker, lineEnd: number): boolean {
  if (marker.ordered && marker.value !== 1) return false;
  for (let k = marker.end; k < lineEnd; k++) if (!isSpaceOrTab(text.charCodeAt(k))) return true;
  return false;
}
