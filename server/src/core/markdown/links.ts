/**
 * The parts of a link that inline links and link reference definitions share: the destination,
 * the title, whether markdown-it accepts the destination, and how labels are compared. Each
 * follows markdown-it's helpers (parseLinkDestination, parseLinkTitle, validateLink,
 * normalizeReference) on the document text itself, so offsets need no mapping.
 */

import { APOSTROPHE, BACKSLASH, CLOSE_PAREN, DELETE, GREATER_THAN, LESS_THAN, OPEN_PAREN, QUOTE, SPACE, isLineBreak } from './chars';

/** Parentheses a destination may nest (markdown-it's limit). */
const MAX_PAREN_DEPTH = 32;

/**
 * The end of the link destination starting at `start` (before `max`), or -1 when there is none:
 * `<...>` without a line break or `<` inside, or a run without spaces or control characters whose
 * parentheses balance. A destination markdown-it rejects as unsafe is also -1.
 */
export function linkDestinationEnd(text: string, start: number, max: number): number {
  let pos = start;
  if (text.charCodeAt(pos) === LESS_THAN) {
    pos++;
    while (pos < max) {
      const c = text.charCodeAt(pos);
      if (isLineBreak(c) || c === LESS_THAN) return -1;
      if (c === GREATER_THAN) return isSafeLink(text.slice(start + 1, pos)) ? pos + 1 : -1;
      if (c === BACKSLASH && pos + 1 < max) {
        pos += 2;
        continue;
      }
      pos++;
    }
    return -1;
  }
  let depth = 0;
  while (pos < max) {
    const c = text.charCodeAt(pos);
    // (No space or control character; markdown-it reads NUL as U+FFFD, an ordinary character.)
    if (c === SPACE || (c < SPACE && c !== 0) || c === DELETE) break;
    if (c === BACKSLASH && pos + 1 < max) {
      if (text.charCodeAt(pos + 1) === SPACE) {
        pos++;
        continue;
      }
      pos += 2;
      continue;
    }
    if (c === OPEN_PAREN) {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (c === CLOSE_PAREN) {
      if (depth === 0) break;
      depth--;
    }
    pos++;
  }
  if (pos === start || depth !== 0) return -1;
  return isSafeLink(text.slice(start, pos)) ? pos : -1;
}

/** Where a link title parse stands (markdown-it's parseLinkTitle result, without the title's text). */
export interface TitleScan {
  ok: boolean;
  /** After the closing marker (when ok). */
  pos: number;
  /** The line ended inside the title: a definition's title may go on on the next line. */
  canContinue: boolean;
  /** The closing marker; 0 before a title was opened. */
  marker: number;
  /** The title has no characters (`""`, `''`, `()`): markdown-it treats it as no title. */
  empty: boolean;
}

/**
 * The link title at `start` (before `max`): `"..."`, `'...'` or `(...)`. With `previous`, the
 * title that `previous` left open goes on at `start` (the next line of a definition).
 */
export function scanLinkTitle(text: string, start: number, max: number, previous?: TitleScan): TitleScan {
  const scan: TitleScan = { ok: false, pos: 0, canContinue: false, marker: 0, empty: false };
  let pos = start;
  if (previous) scan.marker = previous.marker;
  else {
    if (pos >= max) return scan;
    const open = text.charCodeAt(pos);
    if (open !== QUOTE && open !== APOSTROPHE && open !== OPEN_PAREN) return scan;
    pos++;
    scan.marker = open === OPEN_PAREN ? CLOSE_PAREN : open;
  }
  const contentStart = pos;
  while (pos < max) {
    const c = text.charCodeAt(pos);
    if (c === scan.marker) {
      scan.ok = true;
      scan.pos = pos + 1;
      scan.empty = !previous && pos === contentStart;
      return scan;
    }
    if (c === OPEN_PAREN && scan.marker === CLOSE_PAREN) return scan;
    if (c === BACKSLASH && pos + 1 < max) pos++;
    pos++;
  }
  scan.canContinue = true;
  return scan;
}

const UNSAFE_PROTOCOL = /^(?:vbscript|javascript|file|data):/;
const SAFE_DATA = /^data:image\/(?:gif|png|jpeg|webp);/;
const ESCAPED = /\\([!-/:-@[-`{-~])|&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));|&(colon|Tab|NewLine|nbsp);/gi;
/** The named character references that can hide an unsafe protocol (its colon, or white space trimmed before it). */
const NAMED: Record<string, string> = { colon: ':', Tab: '\t', NewLine: '\n', nbsp: '\u00a0' };

/**
 * markdown-it's validateLink: no `javascript:`, `vbscript:`, `file:` or `data:` link but images
 * as data. (The destination's backslash escapes and character references are decoded first, as
 * markdown-it does; of the named references only those that can hide such a protocol.)
 */
export function isSafeLink(raw: string): boolean {
  if (raw.indexOf(':') === -1 && raw.indexOf('&') === -1) return true;
  const decoded = raw.replace(ESCAPED, (whole, escaped: string | undefined, hex: string | undefined, decimal: string | undefined, named: string | undefined) => {
    if (escaped !== undefined) return escaped;
    if (named !== undefined) return NAMED[named] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(decimal!, 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
  const link = decoded.trim().toLowerCase();
  return UNSAFE_PROTOCOL.test(link) ? SAFE_DATA.test(link) : true;
}

/** A link label as markdown-it compares it (normalizeReference): trimmed, white space collapsed, case folded. */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase();
}
