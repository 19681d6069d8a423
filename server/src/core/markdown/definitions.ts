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
  // As markdown-it: `max` is a line's end plus its line break (when it has one), which reads as LF
  // (the scans of the destination and title stop at any control character or compare against
  // their markers only, so they read the break itself).
  const lineMax = (k: number) => (lines.ends[k]! < text.length ? lines.ends[k]! + 1 : lines.ends[k]!);
  const at = (pos: number, k: number) => (pos === lines.ends[k]! ? LF : text.charCodeAt(pos));
  /** The start of line k, -1 when the definition cannot take it. */
  const nextLineStart = (k: number): number => {
    if (k < lines.starts.length) return lines.starts[k]!;
    if (lines.complete) return -1;
    throw NEED_MORE;
  };

  let line = 0;
  let max = lineMax(0);
  let pos = lines.starts[0]! + 1;
  let rawLabel = '';
  let labelEnd = -1;
  let segmentStart = pos;
  while (pos < max) {
    if (rawLabel.length + pos - segmentStart > MAX_LABEL_LENGTH * 2) return NONE;
    let c = at(pos, line);
    if (c === OPEN_BRACKET) return NONE;
    if (c === CLOSE_BRACKET) {
      labelEnd = pos;
      break;
    }
    if (c === BACKSLASH) c = at(++pos, line);
    if (c === LF && pos < max) {
      const next = nextLineStart(line + 1);
      if (next < 0) return NONE;
      rawLabel += text.slice(segmentStart, lines.ends[line]) + '\n';
      pos = segmentStart = next;
      max = lineMax(++line);
      continue;
    }
    pos++;
  }
  if (labelEnd < 0 || labelEnd + 1 >= max || at(labelEnd + 1, line) !== COLON) return NONE;
  rawLabel += text.slice(segmentStart, labelEnd);
  if (rawLabel.length > MAX_LABEL_LENGTH && [...rawLabel].length > MAX_LABEL_LENGTH) return NONE;

  /** White space, onto the next lines when they may be taken (markdown-it's loop). */
  const skipSpace = () => {
    while (pos < max) {
      const c = at(pos, line);
      if (c === LF) {
        const next = nextLineStart(line + 1);
        if (next < 0) break;
        pos = next;
        max = lineMax(++line);
      } else if (isSpaceOrTab(c)) pos++;
      else break;
    }
  };
  pos = labelEnd + 2;
  skipSpace();
  const destinationEnd = linkDestinationEnd(text, pos, max);
  if (destinationEnd < 0) return NONE;
  pos = destinationEnd;
  const afterDestination = { pos, max, line };
  skipSpace();
  const titleStart = pos;
  let title = scanLinkTitle(text, pos, max);
  while (title.canContinue) {
    const next = nextLineStart(line + 1);
    if (next < 0) break;
    pos = next;
    max = lineMax(++line);
    title = scanLinkTitle(text, pos, max, title);
  }
  let hasTitle: boolean;
  if (titleStart !== afterDestination.pos && title.ok) {
    hasTitle = !title.empty;
    pos = title.pos;
  } else {
    hasTitle = false;
    ({ pos, max, line } = afterDestination);
  }
  while (pos < max && isSpaceOrTab(at(pos, line))) pos++;
  if (pos < max && at(pos, line) !== LF && hasTitle) {
    // Something follows the title on its line: the definition ends with its destination.
    ({ pos, max, line } = afterDestination);
    while (pos < max && isSpaceOrTab(at(pos, line))) pos++;
  }
  if (pos < max && at(pos, line) !== LF) return NONE;
  const label = normalizeLabel(rawLabel);
  if (!label) return NONE;
  return { kind: 'definition', label, lines: line + 1 };
}
