/**
 * Link reference definitions (`[label]: destination "title"`), read as markdown-it reads them: at
 * the start of a block, over as many lines as the label, destination and title need (a label or
 * title may span lines; the destination and title may start on the next line). A line the
 * definition may take is one that would go on a paragraph (lazily too) and does not start another
 * block; the block scanner says which lines qualify (`DefinitionLines`). Whatever the definition
 * leaves of the lines is read afresh as blocks.
 */

import { BACKSLASH, CLOSE_BRACKET, COLON, LF, OPEN_BRACKET, isSpaceOrTab } from './chars';
import { linkDestinationEnd, normalizeLabel, scanLinkTitle } from './links';

/** markdown-it's limit on a label's length, in code points. */
const MAX_LABEL_LENGTH = 999;

/** The lines a definition may take, as the block scanner has found them so far. */
export interface DefinitionLines {
  /** Where each line's content starts (the first line's: its `[`) and ends (before the line break). */
  starts: number[];
  ends: number[];
  /** Whether a line follows the last one that may go on the definition (false: not known yet). */
  complete: boolean;
}

/** The outcome of reading a definition from the lines found so far. */
export type DefinitionRead =
  | { kind: 'none' }
  | { kind: 'more' }
  | { kind: 'definition'; label: string; lines: number };

const NONE: DefinitionRead = Object.freeze({ kind: 'none' });
const MORE: DefinitionRead = Object.freeze({ kind: 'more' });

/** Thrown inside `readDefinition` when a line it needs is not known yet. */
const NEED_MORE = Symbol('need more lines');

/**
 * The definition starting at `lines.starts[0]` (a `[`), or none; `more` when deciding needs a line
 * the scanner has not looked at yet.
 */
export function readDefinition(text: string, lines: DefinitionLines): DefinitionRead {
  try {
    return read(text, lines);
  } catch (signal) {
    if (signal === NEED_MORE) return MORE;
    throw signal;
  }
}

function read(text: string, lines: DefinitionLines): DefinitionRead {
  const reader = new Reader(text, lines);
  const rawLabel = readLabel(reader);
  if (rawLabel === undefined) return NONE;
  reader.skipSpace();
  const destinationEnd = linkDestinationEnd(text, reader.pos, reader.max);
  if (destinationEnd < 0) return NONE;
  reader.pos = destinationEnd;
  skipTitle(reader);
  if (!reader.atLineEnd()) return NONE;
  const label = normalizeLabel(rawLabel);
  if (!label) return NONE;
  return { kind: 'definition', label, lines: reader.line + 1 };
}

/** Where reading has got to: `pos` on line `line`, which ends at `max`. */
interface Place {
  pos: number;
  max: number;
  line: number;
}

/** A definition's lines read as markdown-it reads them, from after the opening `[` on. */
class Reader implements Place {
  line = 0;
  max: number;
  pos: number;

  constructor(
    readonly text: string,
    private readonly lines: DefinitionLines,
  ) {
    this.max = this.lineMax(0);
    this.pos = lines.starts[0]! + 1;
  }

  /**
   * As markdown-it: `max` is a line's end plus its line break (when it has one), which reads as LF
   * (the scans of the destination and title stop at any control character or compare against
   * their markers only, so they read the break itself).
   */
  private lineMax(k: number): number {
    return this.lines.ends[k]! < this.text.length ? this.lines.ends[k]! + 1 : this.lines.ends[k]!;
  }

  /** The character at `pos` of the current line (LF at its end). */
  at(pos: number): number {
    return pos === this.lines.ends[this.line]! ? LF : this.text.charCodeAt(pos);
  }

  /** Where the current line's content ends (before its line break). */
  lineEnd(): number {
    return this.lines.ends[this.line]!;
  }

  /** On to the start of the next line; false (staying put) when the definition cannot take it. */
  toNextLine(): boolean {
    const k = this.line + 1;
    if (k >= this.lines.starts.length) {
      if (this.lines.complete) return false;
      throw NEED_MORE;
    }
    this.pos = this.lines.starts[k]!;
    this.max = this.lineMax(k);
    this.line = k;
    return true;
  }

  /** White space, onto the next lines when they may be taken (markdown-it's loop). */
  skipSpace(): void {
    while (this.pos < this.max) {
      const c = this.at(this.pos);
      if (c === LF) {
        if (!this.toNextLine()) break;
      } else if (isSpaceOrTab(c)) this.pos++;
      else break;
    }
  }

  /** Spaces and tabs on the current line. */
  skipSpaceOnLine(): void {
    while (this.pos < this.max && isSpaceOrTab(this.at(this.pos))) this.pos++;
  }

  /** Whether nothing but the line break is left of the current line. */
  atLineEnd(): boolean {
    return !(this.pos < this.max && this.at(this.pos) !== LF);
  }

  /** Where the reader is, to come back to (the title may turn out not to be one). */
  place(): Place {
    return { pos: this.pos, max: this.max, line: this.line };
  }

  /** Back to a place of `place()`. */
  backTo(place: Place): void {
    ({ pos: this.pos, max: this.max, line: this.line } = place);
  }
}

/**
 * The label's text as written (its lines joined with '\n'), the reader then after the `]:` that
 * ends it; undefined when no `]:` ends it or it is longer than markdown-it allows.
 */
function readLabel(reader: Reader): string | undefined {
  const text = reader.text;
  let rawLabel = '';
  let labelEnd = -1;
  let segmentStart = reader.pos;
  while (reader.pos < reader.max) {
    if (rawLabel.length + reader.pos - segmentStart > MAX_LABEL_LENGTH * 2) return undefined;
    let c = reader.at(reader.pos);
    if (c === OPEN_BRACKET) return undefined;
    if (c === CLOSE_BRACKET) {
      labelEnd = reader.pos;
      break;
    }
    if (c === BACKSLASH) c = reader.at(++reader.pos);
    if (c === LF && reader.pos < reader.max) {
      const segmentEnd = reader.lineEnd();
      if (!reader.toNextLine()) return undefined;
      rawLabel += text.slice(segmentStart, segmentEnd) + '\n';
      segmentStart = reader.pos;
      continue;
    }
    reader.pos++;
  }
  if (labelEnd < 0 || labelEnd + 1 >= reader.max || reader.at(labelEnd + 1) !== COLON) return undefined;
  rawLabel += text.slice(segmentStart, labelEnd);
  if (rawLabel.length > MAX_LABEL_LENGTH && [...rawLabel].length > MAX_LABEL_LENGTH) return undefined;
  reader.pos = labelEnd + 2;
  return rawLabel;
}

/**
 * The title after the destination (the reader there), if there is one: the reader ends after it
 * and the spaces that follow; after the destination and its spaces when there is none, or when
 * something follows the title on its line (the definition then ends with its destination).
 */
function skipTitle(reader: Reader): void {
  const afterDestination = reader.place();
  reader.skipSpace();
  const titleStart = reader.pos;
  let title = scanLinkTitle(reader.text, reader.pos, reader.max);
  while (title.canContinue && reader.toNextLine()) title = scanLinkTitle(reader.text, reader.pos, reader.max, title);
  let hasTitle: boolean;
  if (titleStart !== afterDestination.pos && title.ok) {
    hasTitle = !title.empty;
    reader.pos = title.pos;
  } else {
    hasTitle = false;
    reader.backTo(afterDestination);
  }
  reader.skipSpaceOnLine();
  if (!reader.atLineEnd() && hasTitle) {
    // Something follows the title on its line: the definition ends with its destination.
    reader.backTo(afterDestination);
    reader.skipSpaceOnLine();
  }
}
