/**
 * Inline exclusions inside one paragraph or heading: code spans, HTML comments and tags,
 * autolinks, link destinations and reference labels, bare URLs, file paths and identifiers such
 * as requirement ids (FR-001), issue references and ULIDs. Ranges are reported in document
 * order through `exclude`.
 */

type Exclude = (start: number, end: number) => void;

// One pass finds every construct that starts with a distinctive character sequence.
const INLINE =
  /`+|<!--[\s\S]*?(?:-->|$)|<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,2048}|[^\s<>@]{1,64}@[^\s<>]{1,255})>|<\/?[A-Za-z][A-Za-z0-9-]{0,63}(?:\s[^<>]{0,1000})?\/?>|\]\(|\]\[[^\]\n]*\]/g;

// Bare URLs and e-mail addresses, looked for only inside chunks that contain ':' or '@'.
const URL_OR_EMAIL = /\b(?:https?|ftp|file|ssh|git):\/\/[^\s<>)\]`]+|\bwww\.[A-Za-z0-9-]+\.[^\s<>)\]`]+|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,255}/g;

// File paths: ./x, ../x, ~/x, /x/y, a/b/c (two or more separators), or name.ext with a known
// extension; also dot-folders such as .kittify/ and .github.
const PATH =
  /(?<![\w/])(?:(?:~|\.{1,2})?\/[\w@.+-]{1,255}(?:\/[\w@.+-]{0,255}){0,64}|[\w@.+-]{1,255}\/[\w@.+-]{1,255}\/[\w@.+\/-]{0,255}|[\w@+-][\w@.+-]{0,255}\.(?:md|mdx|json|jsonl|ya?ml|toml|py|pyi|ts|tsx|js|jsx|mjs|cjs|txt|sh|bash|lock|cfg|ini|go|rs|java|kt|rb|php|html?|css|scss|csv|xml|lua|el|vsix|sql|proto|env|log|gz|zip|tar|png|jpe?g|svg|pdf|c|h|cpp|hpp|cs|swift)\b|\.[A-Za-z][\w-]{0,255}\/[\w@.+\/-]{0,255}|\.(?:github|gitignore|kittify|vscode|env)\b)/g;

// Identifiers that look like words but are not terms: FR-001, NFR-002, SC-3, GH-123, T001,
// WP03, ULIDs, git hashes, issue references (#123), semantic versions and dates.
const IDENTIFIER =
  /\b[A-Z][A-Za-z]{0,7}-\d[\w.-]*|\b[A-Z]{1,6}\d+[\w.-]*|\b[0-9A-HJKMNP-TV-Z]{26}\b|\b(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{7,64}\b|#\d+\b|\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\b|\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b|\b(?:YYYY|yyyy)(?:[-/.]?(?:MM|mm|DD|dd|HH|hh|SS|ss))+\b/g;

export function maskInline(text: string, start: number, end: number, exclude: Exclude): void {
  const ranges: number[] = [];
  const segment = text.slice(start, end);

  INLINE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = INLINE.exec(segment)) !== null) {
    const token = match[0];
    const at = match.index;
    if (token[0] === '`') {
      // Code span: the same number of backticks closes it; unmatched runs are literal text.
      const close = findClosingBackticks(segment, at + token.length, token.length);
      if (close === -1) continue;
      ranges.push(at, close + token.length);
      INLINE.lastIndex = close + token.length;
    } else if (token === '](') {
      const close = findClosingParen(segment, at + 2);
      ranges.push(at + 1, close);
      INLINE.lastIndex = close;
    } else if (token.startsWith('](') === false && token.startsWith('][')) {
      ranges.push(at + 1, at + token.length);
    } else {
      ranges.push(at, at + token.length);
    }
  }
  maskChunks(segment, ranges);
  if (ranges.length === 0) return;

  const order: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) order.push(i);
  order.sort((a, b) => ranges[a]! - ranges[b]!);
  for (const i of order) exclude(start + ranges[i]!, start + ranges[i + 1]!);
}

// Whitespace-delimited chunks; only those holding a character that can start a path, URL, id or
// version are matched against the (slower) patterns. The regex engine finds those characters;
// plain prose never reaches JavaScript code.
const INTERESTING_GLOBAL = /[/.#@:0-9]|YYYY|yyyy/g;
const INTERESTING = /[/.#@:0-9]|YYYY|yyyy/;
const EDGE_PUNCTUATION = /^[(\[{"'*_]+|[.,;:!?)\]}"'*_]+$/g;
const DIGIT = /[0-9]|YYYY|yyyy/;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function maskChunks(segment: string, ranges: number[]): void {
  INTERESTING_GLOBAL.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = INTERESTING_GLOBAL.exec(segment)) !== null) {
    let from = match.index;
    while (from > 0 && !isSpace(segment.charCodeAt(from - 1))) from--;
    let to = match.index + 1;
    while (to < segment.length && !isSpace(segment.charCodeAt(to))) to++;
    maskChunk(segment, from, to, ranges);
    INTERESTING_GLOBAL.lastIndex = to;
  }
}

function maskChunk(segment: string, from: number, to: number, ranges: number[]): void {
  const raw = segment.slice(from, to);
  // "word." and "(word)," are prose: drop the punctuation around the chunk before deciding.
  const text = raw.replace(EDGE_PUNCTUATION, '');
  if (text.length < 2 || !INTERESTING.test(text)) return;
  const base = from + raw.indexOf(text);
  const hasColonOrAt = text.includes(':') || text.includes('@') || text.startsWith('www.');
  const hasPathChar = text.includes('/') || text.includes('.');
  const hasDigit = DIGIT.test(text) || text.includes('#');
  // Look-behinds at the chunk's start must see what precedes it in the segment.
  const context = base > 0 ? segment[base - 1]! : '';
  const probe = context + text;
  if (hasColonOrAt) collect(URL_OR_EMAIL, probe, base - context.length, base, ranges);
  if (hasPathChar) collect(PATH, probe, base - context.length, base, ranges);
  if (hasDigit) collect(IDENTIFIER, probe, base - context.length, base, ranges);
}

function collect(pattern: RegExp, probe: string, offset: number, min: number, ranges: number[]): void {
  pattern.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(probe)) !== null) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const start = offset + match.index;
    if (start >= min) ranges.push(start, start + match[0].length);
  }
}

function findClosingBackticks(segment: string, from: number, length: number): number {
  let at = segment.indexOf('`', from);
  while (at !== -1) {
    let run = 1;
    while (segment.charCodeAt(at + run) === 96) run++;
    if (run === length) return at;
    at = segment.indexOf('`', at + run);
  }
  return -1;
}

/** End (exclusive) of a link destination starting after `](`, allowing balanced parentheses. */
function findClosingParen(segment: string, from: number): number {
  let depth = 1;
  for (let i = from; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return i + 1;
    else if (c === 10 && segment.charCodeAt(i + 1) === 10) return i;
  }
  return segment.length;
}
