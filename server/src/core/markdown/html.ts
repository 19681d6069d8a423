/**
 * Raw HTML as CommonMark (and markdown-it) knows it: the seven kinds of HTML block, and the tags,
 * comments, declarations, processing instructions and CDATA sections of inline HTML.
 */

import { EXCLAMATION, LESS_THAN, QUESTION, SLASH, isAsciiLetter } from './chars';

/** The block-level tag names of HTML blocks of kind 6 (CommonMark's list). */
const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';

const ATTRIBUTE = `(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?)`;
const OPEN_TAG = `<[A-Za-z][A-Za-z0-9\\-]*${ATTRIBUTE}*\\s*\\/?>`;
const CLOSE_TAG = `<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>`;

/** How each kind of HTML block starts (tested on the line from its first `<`) and ends. */
const BLOCK_KINDS: readonly { start: RegExp; end: RegExp; interrupts: boolean }[] = [
  { start: /^<(?:script|pre|style|textarea)(?=\s|>|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, interrupts: true },
  { start: /^<!--/, end: /-->/, interrupts: true },
  { start: /^<\?/, end: /\?>/, interrupts: true },
  { start: /^<![A-Za-z]/, end: />/, interrupts: true },
  { start: /^<!\[CDATA\[/, end: /\]\]>/, interrupts: true },
  { start: new RegExp(`^</?(?:${BLOCK_TAGS})(?=\\s|/?>|$)`, 'i'), end: /^$/, interrupts: true },
  { start: new RegExp(`^(?:${OPEN_TAG}|${CLOSE_TAG})\\s*$`), end: /^$/, interrupts: false },
];

/** Kinds 6 and 7 end before a blank line; the others at the line that holds their end marker. */
export const FIRST_KIND_ENDING_ON_BLANK = 6;

/**
 * The kind (1–7) of HTML block that `line` (from its first non-space character, a `<`) starts, or
 * 0. `interrupting`: the line would interrupt a paragraph, which kind 7 cannot.
 */
export function htmlBlockKind(line: string, interrupting: boolean): number {
  for (let k = 0; k < BLOCK_KINDS.length; k++) {
    if (BLOCK_KINDS[k]!.start.test(line)) return interrupting && !BLOCK_KINDS[k]!.interrupts ? 0 : k + 1;
  }
  return 0;
}

/** Whether `line` (after its containers' markers) ends an HTML block of kind 1–5. */
export function endsHtmlBlock(kind: number, line: string): boolean {
  return BLOCK_KINDS[kind - 1]!.end.test(line);
}

/**
 * Inline HTML at `pos` (a `<`), as markdown-it's html_inline rule reads it. `begin` starts each
 * inline content: a construct may not reach past its end, and a comment, declaration, processing
 * instruction or CDATA section that does not end in it makes the rest of it skip them, as
 * markdown-it does.
 */
export class InlineHtml {
  private readonly tag = new RegExp(`(?:${OPEN_TAG}|${CLOSE_TAG})`, 'y');
  private skipSpecials = false;
  private limit = 0;

  /** A new inline content, ending at `limit`. */
  begin(limit: number): void {
    this.skipSpecials = false;
    this.limit = limit;
  }

  /** The end of the HTML construct at `pos` (before `max`, the end of what is being parsed), or -1. */
  end(text: string, pos: number, max: number): number {
    if (text.charCodeAt(pos) !== LESS_THAN || pos + 2 >= max) return -1;
    const next = text.charCodeAt(pos + 1);
    let end: number;
    if (next === EXCLAMATION || next === QUESTION) end = this.special(text, pos);
    else if (next === SLASH || isAsciiLetter(next)) {
      this.tag.lastIndex = pos;
      end = this.tag.test(text) ? this.tag.lastIndex : -1;
    } else return -1;
    return end > this.limit ? -1 : end;
  }

  private special(text: string, pos: number): number {
    let start: number;
    let terminator: string;
    if (text.startsWith('<!--', pos)) {
      if (text.startsWith('>', pos + 4)) return pos + 5;
      if (text.startsWith('->', pos + 4)) return pos + 6;
      start = pos + 4;
      terminator = '-->';
    } else if (text.startsWith('<![CDATA[', pos)) {
      start = pos + 9;
      terminator = ']]>';
    } else if (text.charCodeAt(pos + 1) === QUESTION) {
      start = pos + 2;
      terminator = '?>';
    } else if (isAsciiLetter(text.charCodeAt(pos + 2))) {
      start = pos + 3;
      terminator = '>';
    } else return -1;
    if (this.skipSpecials) return -1;
    const end = text.indexOf(terminator, start);
    if (end < 0 || end + terminator.length > this.limit) {
      this.skipSpecials = true;
      return -1;
    }
    return end + terminator.length;
  }
}
