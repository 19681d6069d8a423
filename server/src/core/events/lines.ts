/**
 * Splits a log's text into lines as it arrives in chunks, so a 500 MB log never has to be one
 * string. Handles a UTF-8 BOM at the start and CRLF endings, numbers lines from 1, and tells the
 * consumer whether each line was terminated by `\n` (an unterminated last line may be torn).
 */

/** Longer lines are not kept in memory (no event is anywhere near this); they are reported. */
export const MAX_LINE_LENGTH = 16 * 1024 * 1024;

export interface LineSink {
  /** `text` has no line ending. `terminated` is false only for a last line without `\n`. */
  line(text: string, lineNumber: number, terminated: boolean): void;
  /** A line longer than MAX_LINE_LENGTH, dropped unread. */
  oversized(lineNumber: number, length: number): void;
}

export class LineSplitter {
  private carry = '';
  private carryLength = 0;
  private overflow = false;
  private lineNumber = 0;
  private atStart = true;

  constructor(private readonly sink: LineSink) {}

  push(chunk: string): void {
    if (this.atStart && chunk.length > 0) {
      this.atStart = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      this.emit(chunk, start, nl, true);
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    this.keep(chunk, start);
  }

  /** Flushes the last line if the text did not end with `\n`. */
  end(): void {
    if (this.carryLength > 0) this.emit('', 0, 0, false);
  }

  private keep(chunk: string, start: number): void {
    const rest = chunk.length - start;
    if (rest === 0) return;
    this.carryLength += rest;
    if (this.overflow) return;
    if (this.carryLength > MAX_LINE_LENGTH) {
      this.overflow = true;
      this.carry = '';
    } else {
      this.carry = this.carry === '' ? chunk.slice(start) : this.carry + chunk.slice(start);
    }
  }

  private emit(chunk: string, start: number, end: number, terminated: boolean): void {
    this.lineNumber++;
    const length = this.carryLength + (end - start);
    if (this.overflow || length > MAX_LINE_LENGTH) {
      this.sink.oversized(this.lineNumber, length);
    } else {
      let text = this.carry === '' ? chunk.slice(start, end) : this.carry + chunk.slice(start, end);
      if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
      this.sink.line(text, this.lineNumber, terminated);
    }
    this.carry = '';
    this.carryLength = 0;
    this.overflow = false;
  }
}
