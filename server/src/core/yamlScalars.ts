/**
 * What the two small YAML readers share (markdown/simpleYaml.ts for front matter, simpleSeed.ts
 * for seed glossaries): the keys and plain scalars they take, how a line is cut, and the library
 * nodes they build. Anything these do not recognise is left to the `yaml` library by the readers.
 */

import { Scalar } from 'yaml';

/** A key the readers take: letters, digits, `_` and `-`, starting with a letter or `_`. */
export const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Plain scalars the core schema reads as something other than a string. */
export const NOT_A_STRING = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|0o[0-7]+|0x[0-9a-fA-F]+)$/;
/** First characters of a plain scalar the readers take (YAML's indicators and white space excluded). */
export const PLAIN_START = /^[\p{L}\p{N}_./($]/u;

/** One line of the source: [start, end) without its line break; `next` where the following line starts. */
export interface Line {
  start: number;
  end: number;
  next: number;
}

/** A scalar node as the library makes it: value, style and source range. */
export function scalar(value: string | number, type: Scalar.Type, range: [number, number, number]): Scalar {
  const node = new Scalar(value);
  node.type = type;
  node.range = range;
  return node;
}

export function skipSpaces(source: string, from: number, to: number): number {
  while (from < to && source.charCodeAt(from) === 32) from++;
  return from;
}

/**
 * The quoted scalar opening at `start` (a `'` or `"`) and closed before `lineEnd`: its text (`''`
 * inside single quotes is one quote; escapes are not read) and the offset after the closing
 * quote; undefined when it is not closed on the line.
 */
export function quotedOnLine(source: string, start: number, lineEnd: number): { text: string; close: number } | undefined {
  const quoteChar = source.charCodeAt(start) === 39 ? "'" : '"';
  let close = start + 1;
  let text = '';
  for (;;) {
    const quote = source.indexOf(quoteChar, close);
    if (quote < 0 || quote >= lineEnd) return undefined;
    text += source.slice(close, quote);
    if (quoteChar === "'" && source.charCodeAt(quote + 1) === 39) {
      text += "'";
      close = quote + 2;
      continue;
    }
    return { text, close: quote + 1 };
  }
}
