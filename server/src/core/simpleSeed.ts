/**
 * A reader for seed glossaries written the way Spec Kitty writes them — header comments, then
 * `terms:` and a block list of entries whose values are one-line scalars (plain, 'single' or
 * "double" quoted), folded or literal block scalars, flow lists of plain words, or block lists of
 * small mappings (`see_also`):
 *
 *     terms:
 *       - surface: lane
 *         definition: >
 *           A parallel track of work packages.
 *         confidence: 0.95
 *         status: active
 *         synonyms_to_avoid: [track, swimlane]
 *
 * It builds the same nodes (`YAMLMap`, `Pair`, `Scalar`, `YAMLSeq`: values, types and source
 * ranges) as the `yaml` library's `parseDocument(...).contents`, and answers undefined for
 * anything it does not fully understand (comments other than whole lines between entries or at the
 * left margin after the last one, anchors, aliases, tags, merge keys, escapes, multi-line plain or
 * quoted scalars, block scalar indicators, blank lines inside a value, …), which the caller then
 * gives to the library. Why: the library in a cold process
 * took ~60–90 ms of `check` for the 35 KB core glossary; this takes a few. A property test holds
 * it to the library (test/property/simpleSeed.property.test.ts).
 */

import { Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { KEY, NOT_A_STRING, PLAIN_START, quotedOnLine, scalar, skipSpaces, type Line as SourceLine } from './yamlScalars';

/** The numbers this reader reads itself (what confidence is written as): decimal, no exponent. */
const INTEGER = /^[0-9]{1,15}$/;
const DECIMAL = /^[0-9]{1,15}\.[0-9]{1,15}$/;
/** Characters this reader leaves to the library wherever they are. */
const UNREAD = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f\ufeff\u2028\u2029]/;

/** One line of the source, and where its text starts. */
interface Line extends SourceLine {
  /** Offset of the first character that is not a space (`end` for a blank line). */
  text: number;
}

/** The root mapping `source` holds, as `parseDocument(source).contents` would give it; undefined: ask the library. */
export function readSimpleSeed(source: string): YAMLMap | undefined {
  if (UNREAD.test(source)) return undefined;
  return new SeedLines(source).root();
}

class SeedLines {
  private readonly lines: Line[] = [];
  /** The next line to read. */
  private k = 0;

  constructor(private readonly source: string) {
    for (let start = 0; start < source.length; ) {
      const newline = source.indexOf('\n', start);
      const end = newline < 0 ? source.length : newline;
      let text = start;
      while (text < end && source.charCodeAt(text) === 32) text++;
      this.lines.push({ start, end, next: newline < 0 ? source.length : newline + 1, text });
      start = newline < 0 ? source.length : newline + 1;
    }
  }

  root(): YAMLMap | undefined {
    const { source, lines } = this;
    // Header: comment lines at the left margin and blank lines.
    while (this.k < lines.length && (this.blank(lines[this.k]!) || source.charCodeAt(lines[this.k]!.start) === 35)) this.k++;
    const line = lines[this.k];
    if (line === undefined || source.slice(line.start, line.end) !== 'terms:') return undefined;
    this.k++;
    this.skipBlank();
    const first = lines[this.k];
    if (first === undefined || first.text === first.start) return undefined;
    const entries = this.blockList(first.text - first.start, 0, (indent) => this.entry(indent));
    if (entries === undefined) return undefined;
    // (Only comments at the left margin may follow the list: see `blockList`.)
    this.skipBlank();
    if (this.k < lines.length) return undefined;
    const map = new YAMLMap();
    map.items.push(new Pair(scalar('terms', 'PLAIN', [line.start, line.start + 5, line.start + 5]), entries));
    map.range = [line.start, entries.range![2], entries.range![2]];
    return map;
  }

  /**
   * A block list whose dashes are at `indent` (more than `parent`'s), each item read by `item`
   * (given the indentation of the item's keys); blank lines only between items.
   */
  private blockList(indent: number, parent: number, item: (keyIndent: number) => YAMLMap | undefined): YAMLSeq | undefined {
    const { source, lines } = this;
    if (indent <= parent) return undefined;
    const seq = new YAMLSeq();
    const dashAt = lines[this.k]!.text;
    let comments = false;
    for (;;) {
      const line = lines[this.k];
      if (line === undefined || line.text - line.start !== indent || source.charCodeAt(line.text) !== 45) break;
      if (source.charCodeAt(line.text + 1) !== 32 || source.charCodeAt(line.text + 2) === 32) return undefined;
      const node = item(indent + 2);
      if (node === undefined) return undefined;
      seq.items.push(node);
      const after = this.k;
      comments = this.skipBlank();
      // Comments after the last item count in the list's range for the library, but for comments
      // at the left margin up to the end of the file (the document's own): those are left for
      // the lists around this one, and the file's root, to pass over.
      if (comments && this.marginCommentsToEnd(after)) {
        this.k = after;
        comments = false;
        break;
      }
    }
    if (seq.items.length === 0 || comments) return undefined;
    // What follows must be less indented than the list (or nothing).
    const after = lines[this.k];
    if (after !== undefined && after.text - after.start >= indent) return undefined;
    const end = (seq.items[seq.items.length - 1] as YAMLMap).range![2];
    seq.range = [dashAt, end, end];
    return seq;
  }

  /** An entry of `terms`: a mapping whose first key follows the dash, the others at `indent`. */
  private entry(indent: number): YAMLMap | undefined {
    return this.mapping(indent, (key, at, line) => this.entryValue(key, at, line, indent));
  }

  /** A `see_also` item: a mapping of one-line scalars. */
  private smallMapping(indent: number): YAMLMap | undefined {
    return this.mapping(indent, (_key, at, line) => {
      const value = this.oneLine(at, line);
      if (value === undefined) return undefined;
      this.k++;
      return this.continues(indent) ? undefined : value;
    });
  }

  /**
   * A block mapping whose first key is on the current line right after `- `, the next keys alone
   * at `indent`; `value` reads the value after a key's colon (and moves past its lines).
   */
  private mapping(indent: number, value: (key: string, at: number, line: Line) => Scalar | YAMLSeq | undefined): YAMLMap | undefined {
    const { source, lines } = this;
    const map = new YAMLMap();
    let keyAt = lines[this.k]!.text + 2;
    for (;;) {
      const line = lines[this.k]!;
      const colon = source.indexOf(':', keyAt);
      if (colon < 0 || colon >= line.end) return undefined;
      const keyText = source.slice(keyAt, colon);
      if (!KEY.test(keyText) || NOT_A_STRING.test(keyText) || keyText === '__proto__') return undefined;
      const key = scalar(keyText, 'PLAIN', [keyAt, colon, colon]);
      const node = value(keyText, colon + 1, line);
      if (node === undefined) return undefined;
      map.items.push(new Pair(key, node));
      const next = lines[this.k];
      if (next === undefined || next.text - next.start !== indent || next.text === next.end) break;
      keyAt = next.text;
    }
    const end = (map.items[map.items.length - 1]!.value as Scalar | YAMLSeq).range![2];
    map.range = [(map.items[0]!.key as Scalar).range![0], end, end];
    return map;
  }

  /** The value of an entry's key, whose colon ends at `at` on `line`. */
  private entryValue(key: string, at: number, line: Line, indent: number): Scalar | YAMLSeq | undefined {
    const { source, lines } = this;
    if (at === line.end) {
      // A block list on the lines below: only `see_also`'s mappings are read here.
      if (key !== 'see_also') return undefined;
      this.k++;
      const first = lines[this.k];
      if (first === undefined || first.text === first.end) return undefined;
      return this.blockList(first.text - first.start, indent, (keyIndent) => this.smallMapping(keyIndent));
    }
    if (source.charCodeAt(at) !== 32) return undefined;
    const start = skipSpaces(source, at, line.end);
    const first = source.charCodeAt(start);
    if (first === 62 || first === 124) return this.blockScalar(start, line, indent);
    const value = first === 91 ? this.flowList(start, line) : this.oneLine(at, line);
    if (value === undefined) return undefined;
    this.k++;
    return this.continues(indent) ? undefined : value;
  }

  /** Whether the next line is more indented than a key at `indent` (the value would go on there). */
  private continues(indent: number): boolean {
    const next = this.lines[this.k];
    return next !== undefined && next.text !== next.end && next.text - next.start > indent;
  }

  /** A one-line scalar after the colon at `at` - 1 on `line` (plain, single or double quoted). */
  private oneLine(at: number, line: Line): Scalar | undefined {
    const { source } = this;
    if (source.charCodeAt(at) !== 32) return undefined;
    const start = skipSpaces(source, at, line.end);
    if (start >= line.end) return undefined;
    const first = source.charCodeAt(start);
    if (first === 39 || first === 34) {
      const quoted = quotedOnLine(source, start, line.end);
      if (!quoted || (first === 34 && quoted.text.includes('\\')) || skipSpaces(source, quoted.close, line.end) !== line.end) return undefined;
      return scalar(quoted.text, first === 39 ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE', [start, quoted.close, line.next]);
    }
    let end = line.end;
    while (source.charCodeAt(end - 1) === 32) end--;
    const value = plainValue(source.slice(start, end));
    return value === undefined ? undefined : scalar(value, 'PLAIN', [start, end, line.next]);
  }

  /** `[word, other words]` on one line: plain strings only. */
  private flowList(start: number, line: Line): YAMLSeq | undefined {
    const { source } = this;
    const close = source.indexOf(']', start);
    if (close < 0 || close >= line.end || skipSpaces(source, close + 1, line.end) !== line.end) return undefined;
    const seq = new YAMLSeq();
    seq.flow = true;
    let at = start + 1;
    for (;;) {
      const comma = source.indexOf(',', at);
      const itemEnd = comma >= 0 && comma < close ? comma : close;
      const from = skipSpaces(source, at, itemEnd);
      let to = itemEnd;
      while (to > from && source.charCodeAt(to - 1) === 32) to--;
      const text = source.slice(from, to);
      if (typeof plainValue(text) !== 'string' || /[[\]{}:#]/.test(text)) return undefined;
      seq.items.push(scalar(text, 'PLAIN', [from, to, to]));
      if (itemEnd === close) break;
      at = itemEnd + 1;
    }
    seq.range = [start, close + 1, line.next];
    return seq;
  }

  /** `>` or `|` alone, then lines at one indentation deeper than `indent`, no blank line among them. */
  private blockScalar(start: number, line: Line, indent: number): Scalar | undefined {
    const { source, lines } = this;
    if (start + 1 !== line.end) return undefined;
    const folded = source.charCodeAt(start) === 62;
    this.k++;
    const first = lines[this.k];
    if (first === undefined || first.text === first.end) return undefined;
    const contentIndent = first.text - first.start;
    if (contentIndent <= indent) return undefined;
    const parts: string[] = [];
    let last = first;
    for (;;) {
      const content = lines[this.k];
      if (content === undefined || content.text === content.end) break;
      const depth = content.text - content.start;
      if (depth < contentIndent) break;
      // Deeper lines and trailing spaces change how lines are joined: the library's business.
      if (depth > contentIndent || source.charCodeAt(content.end - 1) === 32) return undefined;
      parts.push(source.slice(content.text, content.end));
      last = content;
      this.k++;
    }
    // A blank line followed by more of the block, or by a line the block does not end at.
    let after = this.k;
    while (after < lines.length && lines[after]!.text === lines[after]!.end) after++;
    if (after < lines.length && lines[after]!.text - lines[after]!.start > indent) return undefined;
    return scalar(parts.join(folded ? ' ' : '\n') + '\n', folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL', [start, last.next, last.next]);
  }

  private blank(line: Line): boolean {
    return line.text === line.end;
  }

  /** Whether the lines from `from` to the end of the file are blank or comments at the left margin. */
  private marginCommentsToEnd(from: number): boolean {
    for (let k = from; k < this.lines.length; k++) {
      const line = this.lines[k]!;
      if (!this.blank(line) && (line.text !== line.start || this.source.charCodeAt(line.text) !== 35)) return false;
    }
    return true;
  }

  /** Past blank lines and lines of comment alone (between entries: `  # --- Section ---`). */
  private skipBlank(): boolean {
    let comments = false;
    while (this.k < this.lines.length) {
      const line = this.lines[this.k]!;
      if (!this.blank(line)) {
        if (this.source.charCodeAt(line.text) !== 35) break;
        comments = true;
      }
      this.k++;
    }
    return comments;
  }
}

/** What the core schema reads a one-line plain scalar as, when this reader is sure; undefined otherwise. */
function plainValue(text: string): string | number | undefined {
  if (!PLAIN_START.test(text) || text.includes(': ') || text.includes(' #') || text.endsWith(':')) return undefined;
  if (INTEGER.test(text)) return parseInt(text, 10);
  if (DECIMAL.test(text)) return parseFloat(text);
  return NOT_A_STRING.test(text) ? undefined : text;
}


