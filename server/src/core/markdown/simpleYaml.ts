/**
 * A reader for the simple YAML that front matter of real specs is made of — a mapping of plain
 * keys at the left margin to one-line scalars (plain, 'single' or "double" quoted) or block lists
 * of them:
 *
 *     title: 'ADR: Charter-Wheel Assessment'
 *     status: Accepted
 *     related:
 *     - docs/guides/how-to.md
 *
 * It builds the same nodes (`YAMLMap`, `Pair`, `Scalar`, `YAMLSeq`: values, types and source
 * ranges) as the `yaml` library's `parseDocument`, and answers undefined for anything it does not
 * fully understand (comments, flow collections, nesting, multi-line scalars other than a wrapped
 * 'single quoted' or plain one, escaped scalars, anchors, tags, numbers other than decimal integers, …),
 * which the caller then gives to the library. Why:
 * parsing the front matter of 400 specs with the library costs ~200 ms of a cold CLI run, most
 * of it the library's own start-up; this costs a few. A property test holds it to the library
 * (test/property/simpleYaml.property.test.ts).
 */

import { isSeq, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { KEY, NOT_A_STRING, PLAIN_START, quotedOnLine, scalar, skipSpaces, type Line } from '../yamlScalars';

const DECIMAL = /^[-+]?[0-9]+$/;
/**
 * Characters this reader leaves to the library wherever they are: escapes, tabs, carriage
 * returns, control characters, byte order marks. (A `#` is read where it is not a comment: inside
 * quotes, or after a character other than a space, as in "C#" or an issue number "(#2773)".)
 */
const UNREAD = /[\\\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f\ufeff\u2028\u2029]/;

/** The mapping `source` holds, as `parseDocument(source).contents` would give it; undefined: ask the library. */
export function readSimpleMapping(source: string): YAMLMap | undefined {
  if (UNREAD.test(source)) return undefined;
  const lines = splitLines(source);
  const map = new YAMLMap();
  let k = 0;
  let end = 0;
  while (k < lines.length) {
    const line = lines[k]!;
    if (line.start === line.end) {
      // Blank lines between entries (not before the first).
      if (map.items.length === 0) return undefined;
      k++;
      continue;
    }
    const colon = source.indexOf(':', line.start);
    if (colon < 0 || colon >= line.end) return undefined;
    const keyText = source.slice(line.start, colon);
    if (!KEY.test(keyText) || NOT_A_STRING.test(keyText) || keyText === '__proto__') return undefined;
    const key = scalar(keyText, 'PLAIN', [line.start, colon, colon]);
    const afterColon = colon + 1;
    let value: Scalar | YAMLSeq;
    if (afterColon === line.end) {
      // The value is a block list on the lines below (or something this reader leaves alone).
      const list = readList(source, lines, k + 1);
      if (list === undefined) return undefined;
      value = list.seq;
      k = list.nextLine;
    } else {
      if (source.charCodeAt(afterColon) !== 32) return undefined;
      const at = skipSpaces(source, afterColon, line.end);
      const folded = readFoldedSingleQuoted(source, lines, k, at) ?? readFoldedPlain(source, lines, k, at);
      const read = folded?.scalar ?? readScalar(source, at, line);
      const last = folded ? folded.lastLine : k;
      if (read === undefined || continues(source, lines[last + 1], 0)) return undefined;
      value = read;
      k = last + 1;
    }
    map.items.push(new Pair(key, value));
    end = value.range![2];
  }
  if (map.items.length === 0) return undefined;
  map.range = [0, end, end];
  return map;
}

/** What the library's `toJS` gives for a mapping `readSimpleMapping` read: keys to scalars and lists of scalars. */
export function simpleMappingData(map: YAMLMap): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const pair of map.items) {
    const value = pair.value;
    data[String((pair.key as Scalar).value)] = isSeq(value) ? value.items.map((item) => (item as Scalar).value) : (value as Scalar).value;
  }
  return data;
}

/** The block list starting on line `k` ("- item" lines, all at one indentation), or undefined. */
function readList(source: string, lines: readonly Line[], k: number): { seq: YAMLSeq; nextLine: number } | undefined {
  const first = lines[k];
  if (first === undefined) return undefined;
  const indent = skipSpaces(source, first.start, first.end) - first.start;
  const seq = new YAMLSeq();
  let next = k;
  let blank = 0;
  for (; next < lines.length; next++) {
    const line = lines[next]!;
    if (line.start === line.end) {
      blank++;
      continue;
    }
    const dash = line.start + indent;
    if (skipSpaces(source, line.start, line.end) !== dash || source.charCodeAt(dash) !== 45) break;
    if (dash + 1 >= line.end || source.charCodeAt(dash + 1) !== 32) return undefined;
    const item = readScalar(source, skipSpaces(source, dash + 1, line.end), line);
    if (item === undefined || continues(source, lines[next + 1], indent + 1)) return undefined;
    seq.items.push(item);
    blank = 0;
  }
  if (seq.items.length === 0) return undefined;
  // What follows the list must be the next key at the left margin (or nothing).
  if (indent > 0 && next < lines.length && source.charCodeAt(lines[next]!.start) === 32) return undefined;
  const last = seq.items[seq.items.length - 1] as Scalar;
  seq.range = [first.start + indent, last.range![2], last.range![2]];
  return { seq, nextLine: next - blank };
}

/** The one-line scalar at `at` on `line` (plain, single or double quoted), or undefined. */
function readScalar(source: string, at: number, line: Line): Scalar | undefined {
  if (at >= line.end) return undefined;
  const first = source.charCodeAt(at);
  const lineEnd = line.next;
  if (first === 39 || first === 34) {
    // Quoted: closed on this line, nothing but spaces after it.
    const quoted = quotedOnLine(source, at, line.end);
    if (!quoted || skipSpaces(source, quoted.close, line.end) !== line.end) return undefined;
    return scalar(quoted.text, first === 39 ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE', [at, quoted.close, lineEnd]);
  }
  let contentEnd = line.end;
  while (source.charCodeAt(contentEnd - 1) === 32) contentEnd--;
  return plainScalar(source.slice(at, contentEnd), [at, contentEnd, lineEnd]);
}

/** A plain scalar of `text` (its lines folded), or undefined for text that is not one this reader takes. */
function plainScalar(text: string, range: [number, number, number]): Scalar | undefined {
  if (!isPlainText(text)) return undefined;
  if (NOT_A_STRING.test(text) && !DECIMAL.test(text)) return undefined;
  return scalar(DECIMAL.test(text) ? parseInt(text, 10) : text, 'PLAIN', range);
}

/** Text a plain scalar's line can be: no indicator first, no `: ` (a mapping), no ` #` (a comment). */
function isPlainText(text: string): boolean {
  return PLAIN_START.test(text) && !text.includes(': ') && !text.endsWith(':') && !text.includes(' #');
}

/**
 * A plain value that goes on over the next, more indented lines (a long title wrapped by a
 * writer), as the library folds it: each line break with the spaces around it becomes one space.
 * Undefined when the value ends on its first line, or for anything but plain continuation lines
 * (a blank line, a comment, a `key: value` look-alike).
 */
function readFoldedPlain(source: string, lines: readonly Line[], k: number, at: number): { scalar: Scalar; lastLine: number } | undefined {
  if (!continues(source, lines[k + 1], 0)) return undefined;
  const first = lines[k]!;
  let text = trimEnd(source.slice(at, first.end));
  if (!isPlainText(text)) return undefined;
  for (let j = k + 1; j < lines.length && j <= k + 8; j++) {
    const line = lines[j]!;
    const start = skipSpaces(source, line.start, line.end);
    const part = trimEnd(source.slice(start, line.end));
    if (!isPlainText(part)) return undefined;
    text += ' ' + part;
    if (!continues(source, lines[j + 1], 0)) {
      const read = plainScalar(text, [at, start + part.length, line.next]);
      return read && { scalar: read, lastLine: j };
    }
  }
  return undefined;
}

/**
 * A 'single quoted' value that goes on over the next lines (a long title wrapped by a YAML
 * writer), as the library folds it: each line break with the spaces around it becomes one space.
 * Undefined when the quote closes on its first line, or for anything but plain continuation lines
 * (blank lines, lines at the margin, nothing before or after a line break inside the quotes).
 */
function readFoldedSingleQuoted(source: string, lines: readonly Line[], k: number, at: number): { scalar: Scalar; lastLine: number } | undefined {
  const first = lines[k]!;
  if (source.charCodeAt(at) !== 39 || closingQuote(source, at + 1, first.end) >= 0) return undefined;
  let text = trimEnd(source.slice(at + 1, first.end));
  if (text === '') return undefined;
  for (let j = k + 1; j < lines.length && j <= k + 8; j++) {
    const line = lines[j]!;
    const start = skipSpaces(source, line.start, line.end);
    if (start === line.start || start === line.end) return undefined;
    const close = closingQuote(source, start, line.end);
    if (close < 0) {
      text += ' ' + trimEnd(source.slice(start, line.end));
      continue;
    }
    if (close === start || skipSpaces(source, close + 1, line.end) !== line.end) return undefined;
    text += ' ' + source.slice(start, close);
    return { scalar: scalar(text.replace(/''/g, "'"), 'QUOTE_SINGLE', [at, close + 1, line.next]), lastLine: j };
  }
  return undefined;
}

/** Offset of the first single quote in [from, to) that is not half of a doubled one (''), or -1. */
function closingQuote(source: string, from: number, to: number): number {
  for (let i = source.indexOf("'", from); i >= 0 && i < to; i = source.indexOf("'", i + 2)) {
    if (source.charCodeAt(i + 1) !== 39 || i + 1 >= to) return i;
  }
  return -1;
}

function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return text.slice(0, end);
}

/** Whether `line` is more indented than `indent` (a plain scalar would go on there): undefined otherwise. */
function continues(source: string, line: Line | undefined, indent: number): boolean {
  if (line === undefined || line.start === line.end) return false;
  return skipSpaces(source, line.start, line.end) - line.start > indent;
}



function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  for (let start = 0; start < source.length; ) {
    const newline = source.indexOf('\n', start);
    const end = newline < 0 ? source.length : newline;
    const next = newline < 0 ? source.length : newline + 1;
    lines.push({ start, end, next });
    start = next;
  }
  return lines;
}
