/**
 * A position on one line of a markdown document, in characters and in columns (a tab advances to
 * the next multiple of four, and may be consumed in part: CommonMark's indentation arithmetic).
 * Line breaks are LF, CRLF and a lone CR, as in CommonMark.
 */

import { SPACE, TAB } from './chars';

/** Columns of indentation that make a line indented code (relative to its container). */
export const CODE_INDENT = 4;

export class LineCursor {
  /** The current line: text[lineStart, lineEnd), and where the next line starts. */
  lineStart = 0;
  lineEnd = 0;
  next = 0;
  offset = 0;
  column = 0;
  /** The tab at `offset` is consumed in part (`column` is inside it). */
  partialTab = false;
  /** The first character after `offset` that is not a space or tab, its column, and the indent to it. */
  nextNonspace = 0;
  nextNonspaceColumn = 0;
  indent = 0;
  /** Nothing but spaces and tabs from `offset` to the line's end. */
  blank = false;
  /**
   * The first CR at or after `searchedFrom` (-1: none), to tell a lone CR (a line break of its own)
   * from a CRLF; one search serves every line before the CR it found.
   */
  private carriageReturn = -1;
  private searchedFrom = Infinity;

  constructor(readonly text: string) {}

  /** Put the cursor at the start of the line starting at `start`. */
  setLine(start: number): void {
    const text = this.text;
    let feed = text.indexOf('\n', start);
    if (feed === -1) feed = text.length;
    let end = feed;
    let next = feed + 1;
    if (!(this.searchedFrom <= start && (this.carriageReturn === -1 || this.carriageReturn >= start))) {
      this.carriageReturn = text.indexOf('\r', start);
      this.searchedFrom = start;
    }
    const cr = this.carriageReturn;
    if (cr !== -1 && cr < feed) {
      if (cr === feed - 1) end = cr; // CRLF
      else {
        end = cr; // a lone CR ends the line
        next = cr + 1;
      }
    }
    this.lineStart = start;
    this.lineEnd = end;
    this.next = Math.min(next, text.length);
    this.offset = start;
    this.column = 0;
    this.partialTab = false;
  }

  /** Whether the line has a line break after it (false only for a last line without one). */
  get hasBreak(): boolean {
    return this.lineEnd < this.text.length;
  }

  char(at: number): number {
    return at < this.lineEnd ? this.text.charCodeAt(at) : -1;
  }

  findNextNonspace(): void {
    const text = this.text;
    let i = this.offset;
    let column = this.column;
    while (i < this.lineEnd) {
      const c = text.charCodeAt(i);
      if (c === SPACE) column++;
      else if (c === TAB) column += 4 - (column % 4);
      else break;
      i++;
    }
    this.nextNonspace = i;
    this.nextNonspaceColumn = column;
    this.indent = column - this.column;
    this.blank = i >= this.lineEnd;
  }

  advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  /** Advance `count` characters, or (`columns`) `count` columns, a tab in part when it must. */
  advanceOffset(count: number, columns: boolean): void {
    const text = this.text;
    while (count > 0 && this.offset < this.lineEnd) {
      if (text.charCodeAt(this.offset) === TAB) {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partialTab = toTab > count;
          const step = toTab > count ? count : toTab;
          this.column += step;
          if (!this.partialTab) this.offset++;
          count -= step;
        } else {
          this.partialTab = false;
          this.column += toTab;
          this.offset++;
          count--;
        }
      } else {
        this.partialTab = false;
        this.offset++;
        this.column++;
        count--;
      }
    }
  }
}
