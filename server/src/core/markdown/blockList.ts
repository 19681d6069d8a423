/**
 * The blocks a scan found (blocks.ts), in document order, kept in typed arrays (a 1 MB document
 * has tens of thousands of blocks: as objects they would cost more in garbage collection than
 * finding them). `block(i)` spells one out as an object for code that wants one.
 */

export const BlockKind = {
  /** Prose lines. */
  Paragraph: 1,
  /** An ATX or setext heading (`level`). */
  Heading: 2,
  /** Fenced (fence lines included) or indented code. */
  Code: 3,
  Html: 4,
  /** A link reference definition (`label`, normalized). */
  Definition: 5,
  /** A GFM table row (`level`: 0 the header, 1 a body row); its ranges are its cells. */
  TableRow: 6,
  ThematicBreak: 7,
  /** Containers, recorded where they open (`start`: the marker) and where they close (`end`: a line start). */
  ListItem: 8,
  BlockQuote: 9,
  /** Text of a line that no reader sees (the cells of a table row past its header's columns: markdown-it drops them); masked. */
  Unrendered: 10,
} as const;
export type BlockKind = (typeof BlockKind)[keyof typeof BlockKind];

/** One block, spelled out. */
export interface Block {
  kind: BlockKind;
  /** The start of the block's first line. */
  lineStart: number;
  /** Leaves: the first character of their content and the end of their last line's; containers: their marker, and the line start where they closed. */
  start: number;
  end: number;
  /**
   * Flat [start, end) pairs: the content of each line, without containers' markers (paragraphs,
   * headings, code, HTML, definitions), or the cells of a table row (trimmed).
   */
  ranges: number[];
  /** The index of the innermost container holding this block; -1: none (or one opened before the scan started). */
  parent: number;
  /** Heading level; table row: 0 for the header, 1 for the body; list item: 1 when ordered. */
  level: number;
  /** A definition's label, normalized as labels are compared; '' otherwise. */
  label: string;
  /** A paragraph or setext heading whose later lines start with a block quote marker (`>`). */
  quoted: boolean;
}

const QUOTED = 1;

export class BlockList {
  count = 0;
  private kinds: Uint8Array;
  private levels: Uint8Array;
  private flags: Uint8Array;
  private lineStarts: Int32Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private parents: Int32Array;
  /** Per block, its ranges: pairs [firsts[i], lasts[i]) of `ranges`. */
  private firsts: Int32Array;
  private lasts: Int32Array;
  /** All blocks' ranges, flat; those of the last leaf opened come last (it is the one that grows). */
  ranges: Int32Array;
  rangesLength = 0;
  private readonly labels = new Map<number, string>();

  /** `capacity`: the number of blocks to make room for (it grows as needed). */
  constructor(capacity = 64) {
    this.kinds = new Uint8Array(capacity);
    this.levels = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.lineStarts = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.firsts = new Int32Array(capacity);
    this.lasts = new Int32Array(capacity);
    this.ranges = new Int32Array(4 * capacity);
  }

  /** Add a block; returns its index. Its ranges are those added after it (`addRange`). */
  add(kind: BlockKind, lineStart: number, start: number, end: number, parent: number): number {
    const i = this.count;
    if (i === this.kinds.length) this.grow();
    this.kinds[i] = kind;
    this.levels[i] = 0;
    this.flags[i] = 0;
    this.lineStarts[i] = lineStart;
    this.starts[i] = start;
    this.ends[i] = end;
    this.parents[i] = parent;
    this.firsts[i] = this.lasts[i] = this.rangesLength;
    this.count++;
    return i;
  }

  /** Add a range to block `i`, the last block given ranges. */
  addRange(i: number, start: number, end: number): void {
    if (this.rangesLength + 2 > this.ranges.length) {
      const bigger = new Int32Array(this.ranges.length * 2);
      bigger.set(this.ranges);
      this.ranges = bigger;
    }
    this.ranges[this.rangesLength++] = start;
    this.ranges[this.rangesLength++] = end;
    this.lasts[i] = this.rangesLength;
  }

  kind(i: number): BlockKind {
    return this.kinds[i] as BlockKind;
  }
  setKind(i: number, kind: BlockKind): void {
    this.kinds[i] = kind;
  }
  level(i: number): number {
    return this.levels[i]!;
  }
  setLevel(i: number, level: number): void {
    this.levels[i] = level;
  }
  quoted(i: number): boolean {
    return (this.flags[i]! & QUOTED) !== 0;
  }
  setQuoted(i: number): void {
    this.flags[i] = this.flags[i]! | QUOTED;
  }
  lineStart(i: number): number {
    return this.lineStarts[i]!;
  }
  start(i: number): number {
    return this.starts[i]!;
  }
  end(i: number): number {
    return this.ends[i]!;
  }
  setEnd(i: number, end: number): void {
    this.ends[i] = end;
  }
  parent(i: number): number {
    return this.parents[i]!;
  }
  label(i: number): string {
    return this.labels.get(i) ?? '';
  }
  setLabel(i: number, label: string): void {
    this.labels.set(i, label);
  }
  /** Block i's ranges are ranges[first(i), last(i)). */
  first(i: number): number {
    return this.firsts[i]!;
  }
  last(i: number): number {
    return this.lasts[i]!;
  }

  block(i: number): Block {
    return {
      kind: this.kind(i),
      lineStart: this.lineStart(i),
      start: this.start(i),
      end: this.end(i),
      ranges: Array.from(this.ranges.subarray(this.first(i), this.last(i))),
      parent: this.parent(i),
      level: this.level(i),
      label: this.label(i),
      quoted: this.quoted(i),
    };
  }

  /** All the blocks, spelled out. */
  toArray(): Block[] {
    return Array.from({ length: this.count }, (_, i) => this.block(i));
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    const growU8 = (a: Uint8Array) => {
      const b = new Uint8Array(size);
      b.set(a);
      return b;
    };
    const growI32 = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.kinds = growU8(this.kinds);
    this.levels = growU8(this.levels);
    this.flags = growU8(this.flags);
    this.lineStarts = growI32(this.lineStarts);
    this.starts = growI32(this.starts);
    this.ends = growI32(this.ends);
    this.parents = growI32(this.parents);
    this.firsts = growI32(this.firsts);
    this.lasts = growI32(this.lasts);
  }
}
