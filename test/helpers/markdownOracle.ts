/**
 * markdown-it's reading of a document, character by character: the test oracle of masking
 * (SPEC §5: "when in doubt, markdown-it's reading of the document is the reference").
 *
 * markdown-it gives block tokens line ranges (`token.map`) and inline tokens no positions at all,
 * so the oracle watches it parse instead of searching for token text afterwards:
 * - every leaf block rule is wrapped; the lines it read come from `getLines` (overridden to note,
 *   for each line, the source offsets of the characters it took) or from the rule's own markers;
 * - every inline rule is wrapped; a rule that succeeds in earnest (not in the silent look-ahead of
 *   link labels) consumed `state.src[pos before, pos after)`, which is mapped back to the source
 *   through the offsets noted for that inline content (image alt text is parsed from a slice:
 *   its offsets are the image's, shifted).
 * Nothing is searched for, so the reading is exact. Offsets are those of the original text:
 * markdown-it first turns CRLF and CR into LF, NUL into U+FFFD; the oracle does the same and keeps
 * where each character came from. Front matter (our extension, not CommonMark) is blanked out.
 */

import MarkdownIt from 'markdown-it';
import type { StateBlock, StateInline, Token } from 'markdown-it';
import { locateFrontMatter } from '../../server/src/core/markdown/frontMatter';

/** What markdown-it makes of a character (white space is always NONE). */
export const enum Reading {
  /** Markup, white space, entities, or text markdown-it drops (cells beyond the header's). */
  NONE = 0,
  /** Text of a paragraph, heading, table cell, link text or image alt. */
  PROSE = 1,
  /** Code span, fenced code (info string included) or indented code. */
  CODE = 2,
  /** A link's or image's destination and title, or the label of a full reference link. */
  LINK = 3,
  AUTOLINK = 4,
  /** An HTML block, inline tag, comment, declaration or processing instruction. */
  HTML = 5,
  /** A link reference definition. */
  DEFINITION = 6,
}

export const READING_NAMES = ['none', 'prose', 'code', 'link', 'autolink', 'html', 'definition'];

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;

/** Offsets (into the normalized source) of the characters of each inline content, by its token list. */
type OffsetMap = Int32Array;

interface Session {
  src: string;
  readings: Uint8Array;
  /** Inline contents' offset maps, by the token array they are parsed into. */
  maps: Map<Token[], OffsetMap>;
  /** Set by the image rule for the parse of its alt text. */
  nested: OffsetMap | undefined;
}

let session: Session | undefined;

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Mark src[from, to) (through `map` when given: content offsets) as `reading`, white space aside. */
function mark(from: number, to: number, reading: Reading, map?: OffsetMap): void {
  const s = session!;
  for (let i = from; i < to; i++) {
    const at = map ? map[i]! : i;
    if (at < 0 || isBlank(s.src.charCodeAt(at))) continue;
    s.readings[at] = reading;
  }
}

/** The lines getLines took: [first, last, virtual spaces] per line. */
class NotingStateBlock extends (MarkdownIt().block.State as unknown as new (...args: ConstructorParameters<typeof StateBlock>) => StateBlock) {
  noted: number[] = [];

  override getLines(begin: number, end: number, indent: number, keepLastLF: boolean): string {
    // markdown-it's getLines, noting where each line's characters start.
    this.noted = [];
    if (begin >= end) return '';
    const parts: string[] = [];
    for (let line = begin; line < end; line++) {
      let lineIndent = 0;
      const lineStart = this.bMarks[line]!;
      let first = lineStart;
      const last = line + 1 < end || keepLastLF ? this.eMarks[line]! + 1 : this.eMarks[line]!;
      while (first < last && lineIndent < indent) {
        const ch = this.src.charCodeAt(first);
        if (ch === 32 || ch === 9) {
          if (ch === 9) lineIndent += 4 - ((lineIndent + this.bsCount[line]!) % 4);
          else lineIndent++;
        } else if (first - lineStart < this.tShift[line]!) lineIndent++;
        else break;
        first++;
      }
      const virtual = lineIndent > indent ? lineIndent - indent : 0;
      this.noted.push(first, Math.min(last, this.src.length), virtual);
      parts.push(' '.repeat(virtual) + this.src.slice(first, last));
    }
    return parts.join('');
  }
}

/** The offset map of the text getLines returned, after `asciiTrim` took `trimmed` characters off its start. */
function mapOfNoted(noted: readonly number[], trimmed: number, length: number): OffsetMap {
  const map = new Int32Array(length).fill(-1);
  let k = -trimmed;
  for (let i = 0; i < noted.length; i += 3) {
    const [first, last, virtual] = [noted[i]!, noted[i + 1]!, noted[i + 2]!];
    for (let v = 0; v < virtual; v++, k++) if (k >= 0 && k < length) map[k] = -1;
    for (let at = first; at < last; at++, k++) if (k >= 0 && k < length) map[k] = at;
  }
  return map;
}

function leadingTrim(text: string): number {
  let k = 0;
  while (k < text.length && isBlank(text.charCodeAt(k))) k++;
  return k;
}

/** markdown-it's escapedSplit of a table row, with the source offset of every character of every cell. */
function splitRow(src: string, from: number, to: number): { text: string; at: number[] }[] {
  const cells: { text: string; at: number[] }[] = [];
  let text = '';
  let at: number[] = [];
  let escaped = false;
  for (let pos = from; pos < to; pos++) {
    const ch = src.charCodeAt(pos);
    if (ch === 124) {
      if (!escaped) {
        cells.push({ text, at });
        text = '';
        at = [];
        escaped = false;
        continue;
      }
      // "\|": the backslash goes, the pipe stays.
      text = text.slice(0, -1);
      at.pop();
    }
    text += src[pos];
    at.push(pos);
    escaped = ch === 92;
  }
  cells.push({ text, at });
  return cells;
}

function trimmedCell(cell: { text: string; at: number[] }): OffsetMap {
  const start = cell.text.length - cell.text.trimStart().length;
  const content = cell.text.trim();
  return Int32Array.from(cell.at.slice(start, start + content.length));
}

function createOracle(): ReturnType<typeof MarkdownIt> {
  const md = MarkdownIt({ html: true });
  md.block.State = NotingStateBlock as unknown as typeof StateBlock;

  const wrapBlock = (name: string, after: (state: NotingStateBlock, startLine: number, first: number) => void) => {
    const rule = md.block.ruler.__rules__.find((r) => r.name === name)!;
    const original = rule.fn as BlockRule;
    md.block.ruler.at(
      name,
      (state, startLine, endLine, silent) => {
        const first = state.tokens.length;
        const ok = original(state, startLine, endLine, silent);
        if (ok && !silent) after(state as NotingStateBlock, startLine, first);
        return ok;
      },
      { alt: rule.alt },
    );
  };
  // (The rule called getLines for its content last: its notes are current.)
  const contentMap = (state: NotingStateBlock, token: Token) => {
    let raw = '';
    const noted = state.noted;
    for (let i = 0; i < noted.length; i += 3) raw += ' '.repeat(noted[i + 2]!) + state.src.slice(noted[i]!, noted[i + 1]!);
    session!.maps.set(token.children!, mapOfNoted(noted, leadingTrim(raw), token.content.length));
  };
  const noteLines = (state: NotingStateBlock, reading: Reading) => {
    const noted = state.noted;
    for (let i = 0; i < noted.length; i += 3) mark(noted[i]!, noted[i + 1]!, reading);
  };

  wrapBlock('paragraph', (state, _line, first) => contentMap(state, state.tokens[first + 1]!));
  wrapBlock('lheading', (state, _line, first) => contentMap(state, state.tokens[first + 1]!));
  wrapBlock('code', (state) => noteLines(state, Reading.CODE));
  wrapBlock('html_block', (state) => noteLines(state, Reading.HTML));
  wrapBlock('fence', (state, startLine) => {
    mark(state.bMarks[startLine]! + state.tShift[startLine]!, state.eMarks[startLine]!, Reading.CODE);
    noteLines(state, Reading.CODE);
  });
  wrapBlock('reference', (state, startLine) => {
    for (let line = startLine; line < state.line; line++) mark(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!, Reading.DEFINITION);
  });
  wrapBlock('heading', (state, startLine, first) => {
    // markdown-it's heading rule, for where its content is.
    let pos = state.bMarks[startLine]! + state.tShift[startLine]!;
    let max = state.eMarks[startLine]!;
    while (pos < max && state.src.charCodeAt(pos) === 35) pos++;
    max = state.skipSpacesBack(max, pos);
    const tmp = state.skipCharsBack(max, 35, pos);
    if (tmp > pos && (state.src.charCodeAt(tmp - 1) === 32 || state.src.charCodeAt(tmp - 1) === 9)) max = tmp;
    const token = state.tokens[first + 1]!;
    const start = pos + leadingTrim(state.src.slice(pos, max));
    session!.maps.set(token.children!, Int32Array.from({ length: token.content.length }, (_, i) => start + i));
  });
  wrapBlock('table', (state, _line, first) => {
    const inlines = state.tokens.slice(first).filter((t) => t.type === 'inline');
    const rows = state.tokens.slice(first).filter((t) => t.type === 'tr_open');
    // Every row has as many cells as the header (missing ones empty, extra ones dropped).
    const columns = inlines.length / rows.length;
    let k = 0;
    for (const row of rows) {
      const line = row.map![0]!;
      const from = state.bMarks[line]! + state.tShift[line]!;
      const raw = state.src.slice(from, state.eMarks[line]!);
      const start = from + (raw.length - raw.trimStart().length);
      let cells = splitRow(state.src, start, start + raw.trim().length);
      if (cells.length && cells[0]!.text === '') cells = cells.slice(1);
      if (cells.length && cells[cells.length - 1]!.text === '') cells = cells.slice(0, -1);
      for (let i = 0; i < columns; i++) {
        const token = inlines[k++]!;
        const cell = cells[i];
        session!.maps.set(token.children!, cell ? trimmedCell(cell) : new Int32Array(0));
      }
    }
  });

  const wrapInline = (name: string, record: (state: StateInline, from: number, to: number, pushed: Token[], map: OffsetMap) => void, before?: (state: StateInline, map: OffsetMap) => void) => {
    const rule = md.inline.ruler.__rules__.find((r) => r.name === name)!;
    const original = rule.fn as InlineRule;
    md.inline.ruler.at(name, (state, silent) => {
      const map = session?.maps.get(state.tokens);
      if (silent || !map) return original(state, silent);
      const from = state.pos;
      const count = state.tokens.length;
      if (before) before(state, map);
      const ok = original(state, silent);
      if (ok) record(state, from, state.pos, state.tokens.slice(count), map);
      return ok;
    });
  };
  wrapInline('text', (_state, from, to, _pushed, map) => mark(from, to, Reading.PROSE, map));
  wrapInline('escape', (_state, from, to, pushed, map) => {
    if (pushed.some((t) => t.type === 'text_special')) mark(from + 1, to, Reading.PROSE, map);
  });
  wrapInline('backticks', (_state, from, to, pushed, map) => {
    if (pushed.some((t) => t.type === 'code_inline')) mark(from, to, Reading.CODE, map);
  });
  wrapInline('autolink', (_state, from, to, _pushed, map) => mark(from, to, Reading.AUTOLINK, map));
  wrapInline('html_inline', (_state, from, to, _pushed, map) => mark(from, to, Reading.HTML, map));
  // The link and image rules: what follows the label's ']' is the destination (a failed attempt
  // leaves its label end on the stack: dropped when the attempt returns).
  for (const [name, at, nested] of [['link', 0, true], ['image', 1, false]] as const) {
    const labelEnds: number[] = [];
    wrapInline(
      name,
      (_state, _from, to, _pushed, map) => mark(labelEnds.pop()!, to, Reading.LINK, map),
      (state, map) => {
        // (Only where the rule itself reads a label: parseLinkLabel has side effects on the state,
        // the same ones the rule's own call then has, through markdown-it's cache.)
        const starts = state.src.charCodeAt(state.pos + at) === 0x5b && (at === 0 || state.src.charCodeAt(state.pos) === 0x21);
        const labelEnd = starts ? state.md.helpers.parseLinkLabel(state, state.pos + at, nested) : -1;
        labelEnds.push(labelEnd);
        // An image's alt text is parsed from src[pos + 2, labelEnd) by a parse of its own.
        if (name === 'image') session!.nested = labelEnd < 0 ? undefined : map.subarray(state.pos + 2, labelEnd);
      },
    );
    const rule = md.inline.ruler.__rules__.find((r) => r.name === name)!;
    const recording = rule.fn as InlineRule;
    md.inline.ruler.at(name, (state, silent) => {
      const depth = labelEnds.length;
      const ok = recording(state, silent);
      labelEnds.length = depth;
      if (name === 'image' && session) session.nested = undefined;
      return ok;
    });
  }
  const parse = md.inline.parse.bind(md.inline);
  md.inline.parse = (str, mdi, env, outTokens) => {
    if (session?.nested && !session.maps.has(outTokens)) {
      session.maps.set(outTokens, session.nested);
      session.nested = undefined;
    }
    parse(str, mdi, env, outTokens);
  };
  return md;
}

let oracle: ReturnType<typeof MarkdownIt> | undefined;

/**
 * markdown-it's reading of every character of `text` (see Reading), at the text's own offsets.
 * Front matter and a byte order mark read as NONE.
 */
export function readMarkdown(text: string): Uint8Array {
  oracle ??= createOracle();
  // What markdown-it's normalize rule does, keeping where each character came from.
  const origin: number[] = [];
  let src = '';
  const front = locateFrontMatter(text);
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (front && i >= front.start && i < front.end && c !== 10 && c !== 13) {
      src += ' ';
      origin.push(i);
      continue;
    }
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) continue; // the LF that follows stands for both
      src += '\n';
    } else src += c === 0 ? '\ufffd' : text[i];
    origin.push(i);
  }
  session = { src, readings: new Uint8Array(src.length), maps: new Map(), nested: undefined };
  try {
    oracle.parse(src, {});
    const readings = new Uint8Array(text.length);
    for (let i = 0; i < src.length; i++) readings[origin[i]!] = session.readings[i]!;
    // A CRLF's CR reads as its LF (white space either way).
    return readings;
  } finally {
    session = undefined;
  }
}
