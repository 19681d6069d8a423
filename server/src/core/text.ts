/** Offset ↔ LSP position conversion over a string (UTF-16 code units, as LSP wants). */

import type { Position, Range } from './types';

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let at = text.indexOf('\n');
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))]!;
  }

  /** Offset just past the line's content (before `\r\n` or `\n`). */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
    return next > this.lineStart(line) && this.text.charCodeAt(next - 1) === 13 ? next - 1 : next;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.starts[low]! };
  }

  offsetAt(position: Position): number {
    if (position.line >= this.starts.length) return this.text.length;
    if (position.line < 0) return 0;
    const start = this.starts[position.line]!;
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}
