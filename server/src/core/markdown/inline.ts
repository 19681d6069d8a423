/**
 * Inline markup in the content of a paragraph, heading or table cell, as markdown-it's inline
 * parser reads it, reduced to what masking needs: where code spans, autolinks, inline HTML and
 * links' destinations (with titles, and the labels of full reference links) are. Link text and
 * image descriptions are prose. Then, within the prose, what SPEC §5 also excludes (paths, URLs,
 * ids: proseExclusions.ts).
 *
 * markdown-it's rules, in its order where they compete at one position: a backslash escape, a
 * code span (a run of backticks closed by a run of the same length), a link or image (`[text]`
 * and `(destination "title")`, or a reference to a defined label), an autolink, inline HTML.
 * Characters no rule starts at are text. A link's label is found as markdown-it finds it: code
 * spans, autolinks and HTML inside it are skipped whole, brackets nest, and a link may not hold
 * another link.
 */

import { BACKSLASH, BACKTICK, CLOSE_BRACKET, CLOSE_PAREN, EXCLAMATION, LESS_THAN, OPEN_BRACKET, OPEN_PAREN, isLineBreak, isSpaceOrTab } from './chars';
import { InlineHtml } from './html';
import { isSafeLink, linkDestinationEnd, normalizeLabel, scanLinkTitle } from './links';
import { LabelEnds } from './labelEnds';
import { Pairs, excludeRange, excludeSorted } from './pairs';
import { ProseExclusions, type ChunkMemo } from './proseExclusions';

/**
 * An autolink's content: a scheme and what may follow it, or an e-mail address (markdown-it's
 * patterns; NUL is allowed, as markdown-it reads it as U+FFFD).
 */
/** markdown-it's default `maxNesting`, the preset the masking follows. */
const MAX_NESTING = 100;
const AUTOLINK = /^[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\x01-\x20]*$/;
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The next occurrence of any of a few characters, each search reused until the scan passes what it found. */
class NextChar {
  private readonly searchedFrom: number[];
  private readonly found: number[];

  constructor(
    private readonly text: string,
    private readonly chars: string,
  ) {
    this.searchedFrom = Array.from(chars, () => Infinity);
    this.found = Array.from(chars, () => -1);
  }

  /** The first offset at or after `at` holding one of the characters; -1: none. */
  next(at: number): number {
    let first = -1;
    for (let k = 0; k < this.chars.length; k++) {
      let found = this.found[k]!;
      if (!(this.searchedFrom[k]! <= at && (found === -1 || found >= at))) {
        found = this.text.indexOf(this.chars[k]!, at);
        this.searchedFrom[k] = at;
        this.found[k] = found;
      }
      if (found !== -1 && (first === -1 || found < first)) first = found;
    }
    return first;
  }
}

/**
 * The inline markup of the contents of one text (the document, or the joined lines of a quoted
 * paragraph). Contents are asked for in increasing order.
 */
class InlineMarkup {
  /** Where a rule may start: an escape, a code span, a link (`[`, and `![` through it), an autolink or HTML. */
  private readonly starts: NextChar;
  /** The same, and `]`, inside link labels. */
  private readonly labelChars: NextChar;
  /** The angle brackets, for autolinks. */
  private readonly opening: NextChar;
  private readonly closing: NextChar;
  private readonly html = new InlineHtml();
  /**
   * Per content: for a length of backtick run, the offset from which no run of that length closes
   * one (a search from there failed; markdown-it knows the same from the last run of each length).
   */
  private unclosed: Map<number, number> | undefined;
  /** Per content: links and images found at an offset by the silent look-ahead (markdown-it's cache). */
  private readonly looked = new Map<number, number>();
  /** Per text: where link labels close, as far as scans so far tell (shared with the descriptions of images). */
  private readonly labels: LabelEnds;
  /** Links and images being looked at around the current label (markdown-it's `state.level`). */
  private nesting = 0;
  private contentEnd = 0;

  constructor(
    private readonly text: string,
    /** The document's defined labels; undefined when it defines none (reference links then never are). */
    private readonly references: ReadonlySet<string> | undefined,
    /** What the markup takes: [start, end) pairs, in order. */
    private readonly out: Pairs,
    nesting = 0,
    labels?: LabelEnds,
  ) {
    this.nesting = nesting;
    this.labels = labels ?? new LabelEnds();
    this.starts = new NextChar(text, '\\`[<');
    this.labelChars = new NextChar(text, '\\`[]<');
    this.opening = new NextChar(text, '<');
    this.closing = new NextChar(text, '>');
  }

  /** The markup of the content text[start, end) into `out`. */
  parse(start: number, end: number): void {
    // (Most content has no character a rule starts at.)
    const first = this.starts.next(start);
    if (first === -1 || first >= end) return;
    this.contentEnd = end;
    this.unclosed = undefined;
    this.looked.clear();
    if (this.nesting === 0) this.labels.clear();
    this.html.begin(end);
    this.tokenize(start, end);
  }

  /** markdown-it's inline tokenizer over text[pos, max), for the rules that take what masking needs. */
  private tokenize(pos: number, max: number): void {
    const text = this.text;
    // (markdown-it runs no rule this deep: the rest is text.)
    if (this.nesting >= MAX_NESTING) return;
    while (pos < max) {
      const p = this.starts.next(pos);
      if (p === -1 || p >= max) return;
      const c = text.charCodeAt(p);
      if (c === BACKSLASH) pos = p + 1 < max ? p + 2 : p + 1;
      else if (c === BACKTICK) pos = this.codeSpan(p, max, true);
      else if (c === LESS_THAN) {
        const end = this.autolinkOrHtml(p, max);
        if (end > 0) {
          this.out.push(p, end);
          pos = end;
        } else pos = p + 1;
      } else {
        // '[': an image when a '!' no rule took comes just before it, else maybe a link.
        let end = p > pos && text.charCodeAt(p - 1) === EXCLAMATION ? this.image(p - 1, max, false) : -1;
        if (end < 0) end = this.link(p, max, false);
        pos = end > 0 ? end : p + 1;
      }
    }
  }

  /** The code span at `p` (a backtick) into `out` (`record`); returns where parsing goes on. */
  private codeSpan(p: number, max: number, record: boolean): number {
    const text = this.text;
    let q = p + 1;
    while (q < max && text.charCodeAt(q) === BACKTICK) q++;
    const length = q - p;
    const unclosedFrom = this.unclosed?.get(length);
    if (unclosedFrom !== undefined && q >= unclosedFrom) return q;
    let matchEnd = q;
    for (;;) {
      const matchStart = text.indexOf('`', matchEnd);
      if (matchStart === -1 || matchStart >= max) break;
      matchEnd = matchStart + 1;
      while (matchEnd < this.contentEnd && text.charCodeAt(matchEnd) === BACKTICK) matchEnd++;
      if (matchEnd > max) break;
      if (matchEnd - matchStart === length) {
        if (record) this.out.push(p, matchEnd);
        return matchEnd;
      }
    }
    // (Only a search to the content's end tells about the rest of it.)
    if (max === this.contentEnd) (this.unclosed ??= new Map()).set(length, q);
    return q; // an unclosed run is text
  }

  /** The end of the autolink or inline HTML at `p` (a `<`), or -1. */
  private autolinkOrHtml(p: number, max: number): number {
    const end = this.autolinkEnd(p, max);
    return end > 0 ? end : this.html.end(this.text, p, max);
  }

  /** The end of the autolink at `p` (a `<`): up to the next `>`, no `<` before it; or -1. */
  private autolinkEnd(p: number, max: number): number {
    const close = this.closing.next(p + 1);
    if (close === -1 || close >= max) return -1;
    const open = this.opening.next(p + 1);
    if (open !== -1 && open < close) return -1;
    const content = this.text.slice(p + 1, close);
    if (AUTOLINK.test(content)) return isSafeLink(content) ? close + 1 : -1;
    return EMAIL.test(content) ? close + 1 : -1;
  }

  /** The offset after white space and line breaks from `pos`. */
  private skipSpace(pos: number, max: number): number {
    const text = this.text;
    while (pos < max) {
      const c = text.charCodeAt(pos);
      if (!isSpaceOrTab(c) && !isLineBreak(c)) break;
      pos++;
    }
    return pos;
  }

  /**
   * The link at `p` (a `[`): its end, or -1. Parsed in earnest (not `silent`), its text is parsed
   * and what follows the label (destination, title, reference label) goes into `out`.
   */
  private link(p: number, max: number, silent: boolean): number {
    if (silent) {
      const known = this.looked.get(p);
      if (known !== undefined) return known;
    }
    const end = this.linkEnd(p, max, false);
    if (silent) this.looked.set(p, end);
    else if (end > 0) this.linkFound(p + 1, end, max);
    return end;
  }

  /** The image at `p` (a `!` before a `[`), as `link`; its description is parsed as a content of its own. */
  private image(p: number, max: number, silent: boolean): number {
    if (silent) {
      const known = this.looked.get(p);
      if (known !== undefined) return known;
    }
    const end = this.linkEnd(p + 1, max, true);
    if (silent) this.looked.set(p, end);
    else if (end > 0) this.linkFound(p + 2, end, max, true);
    return end;
  }

  /** The label [labelStart, …) of a link or image ending at `end`: its text parsed, the rest masked. */
  private linkFound(labelStart: number, end: number, max: number, image = false): void {
    const labelEnd = this.labelEnd(labelStart - 1, max, !image);
    // A link's text is parsed one level deeper (markdown-it's link_open). An image's description
    // is an inline content of its own there, from level 0; here one level deeper too, so that
    // thousands of nested images cannot overflow the stack.
    this.nesting++;
    if (image) new InlineMarkup(this.text, this.references, this.out, this.nesting, this.labels).parse(labelStart, labelEnd);
    else this.tokenize(labelStart, labelEnd);
    this.nesting--;
    this.out.push(labelEnd, end);
  }

  /**
   * markdown-it's link rule from the `[` at `p` (`image`: of an image): the end of the link, or -1.
   * An inline link `[text](destination "title")`; else, when the document defines labels, a
   * reference `[text][label]`, `[text][]` or `[text]` to a defined one.
   */
  private linkEnd(p: number, max: number, image: boolean): number {
    const text = this.text;
    const labelEnd = this.labelEnd(p, max, !image);
    if (labelEnd < 0) return -1;
    let pos = labelEnd + 1;
    let reference = true;
    if (pos < max && text.charCodeAt(pos) === OPEN_PAREN) {
      reference = false;
      pos = this.skipSpace(pos + 1, max);
      if (pos >= max) return -1;
      const destinationEnd = linkDestinationEnd(text, pos, max);
      if (destinationEnd >= 0) pos = destinationEnd;
      if (destinationEnd >= 0 || image) {
        const start = pos;
        pos = this.skipSpace(pos, max);
        const title = scanLinkTitle(text, pos, max);
        if (pos < max && start !== pos && title.ok) pos = this.skipSpace(title.pos, max);
      }
      if (pos >= max || text.charCodeAt(pos) !== CLOSE_PAREN) {
        if (image) return -1;
        reference = true;
      }
      pos++;
    }
    if (!reference) return pos;
    if (this.references === undefined) return -1;
    let label = '';
    if (pos < max && text.charCodeAt(pos) === OPEN_BRACKET) {
      const end = this.labelEnd(pos, max, false);
      if (end >= 0) {
        label = text.slice(pos + 1, end);
        pos = end + 1;
      } else pos = labelEnd + 1;
    } else pos = labelEnd + 1;
    if (!label) label = text.slice(p + 1, labelEnd);
    return this.references.has(normalizeLabel(label)) ? pos : -1;
  }

  /**
   * markdown-it's parseLinkLabel: the `]` closing the `[` at `p`, or -1. Brackets nest; code spans,
   * escapes, autolinks and HTML are skipped whole; with `noLinks`, a link inside ends the search.
   */
  private labelEnd(p: number, max: number, noLinks: boolean): number {
    const text = this.text;
    // As deep as markdown-it looks (its maxNesting): there every token but a `]` closing the
    // label at once skips to the end, so the label is not closed. It also bounds the recursion:
    // 5,000 `[` in a row would otherwise overflow the stack.
    if (this.nesting >= MAX_NESTING) return p + 1 < max && text.charCodeAt(p + 1) === CLOSE_BRACKET ? p + 1 : -1;
    const known = this.labels.get(p, max, noLinks);
    if (known !== undefined) return known;
    // The scan tells where the labels it counts as brackets close too (labelEnds.ts): `open`
    // holds those not closed yet, and each closes at the `]` that brings the count back below it.
    const open: number[] = [];
    // Where the last link the scan skipped started: a label holding one is no label for a link.
    let linkAt = -1;
    let pos = p + 1;
    while (pos < max) {
      const q = this.labelChars.next(pos);
      if (q === -1 || q >= max) break;
      const c = text.charCodeAt(q);
      if (c === CLOSE_BRACKET) {
        const opened = open.pop() ?? p;
        this.labels.set(opened, max, q, linkAt > opened ? -1 : q);
        if (opened === p) return q;
        pos = q + 1;
      } else if (c === OPEN_BRACKET) {
        // A '!' just before: an image (skipped whole) when it is one.
        this.nesting++;
        const image = q > pos && text.charCodeAt(q - 1) === EXCLAMATION ? this.image(q - 1, max, true) : -1;
        const link = image > 0 ? -1 : this.link(q, max, true);
        this.nesting--;
        if (image > 0) {
          pos = image;
          continue;
        }
        if (link > 0) {
          // (The labels still open would close past this link: unknown here.)
          if (noLinks) return -1;
          linkAt = q;
          pos = link;
        } else {
          // A bracket whose label an earlier scan closed is passed whole; one it found unclosed
          // leaves every label around it unclosed.
          const closes = this.labels.get(q, max, false);
          if (closes === -1) break;
          if (closes === undefined) {
            open.push(q);
            pos = q + 1;
          } else {
            if (this.labels.get(q, max, true) === -1) {
              if (noLinks) return -1;
              linkAt = q + 1;
            }
            pos = closes + 1;
          }
        }
      } else if (c === BACKSLASH) pos = q + 1 < max ? q + 2 : q + 1;
      else if (c === BACKTICK) pos = this.codeSpan(q, max, false);
      else {
        const end = this.autolinkOrHtml(q, max);
        pos = end > 0 ? end : q + 1;
      }
    }
    // The end reached (or an unclosed label): none of the labels still open closes before it.
    for (const opened of [p, ...open]) this.labels.set(opened, max, -1, -1);
    return -1;
  }
}

/**
 * Masks the inline contents of a document's blocks: one per masking of a document (it keeps what
 * it learns from one content to the next).
 */
export class InlineMasker {
  private readonly ranges = new Pairs();
  private readonly markup: InlineMarkup;
  private readonly prose: ProseExclusions | undefined;
  private readonly memo: ChunkMemo = new Map();

  constructor(
    private readonly text: string,
    private readonly references: ReadonlySet<string> | undefined,
    /** Also the SPEC §5 exclusions of prose (paths, URLs, ids); false: CommonMark's alone. */
    private readonly proseExclusions: boolean,
  ) {
    this.markup = new InlineMarkup(text, references, this.ranges);
    this.prose = proseExclusions ? new ProseExclusions(text, this.memo) : undefined;
  }

  /** The exclusions of the content text[start, end) (one line, or lines without markers between them), appended to `excluded`. */
  maskContent(start: number, end: number, excluded: number[]): void {
    const ranges = this.ranges;
    ranges.length = 0;
    this.markup.parse(start, end);
    const sorted = ranges.length;
    this.prose?.find(start, end, ranges);
    excludeSorted(ranges.data, sorted, ranges.length, excluded);
  }

  /**
   * The exclusions of a table row: each cell (cells[first, last): flat [start, end) pairs) is a
   * content of its own; the prose exclusions run over the row as over any line.
   */
  maskRow(cells: ArrayLike<number>, first: number, last: number, excluded: number[]): void {
    if (last === first) return;
    const ranges = this.ranges;
    ranges.length = 0;
    for (let i = first; i < last; i += 2) this.markup.parse(cells[i]!, cells[i + 1]!);
    const sorted = ranges.length;
    this.prose?.find(cells[first]!, cells[last - 1]!, ranges);
    excludeSorted(ranges.data, sorted, ranges.length, excluded);
  }

  /**
   * The exclusions of content whose lines have container markers between them (source[first,
   * last): flat [start, end) per line): masked as the lines joined, the way markdown-it sees them.
   */
  maskLines(source: ArrayLike<number>, first: number, last: number, excluded: number[]): void {
    const lines = Array.from({ length: last - first }, (_, k) => source[first + k]!);
    let joined = '';
    const at: number[] = []; // where each line starts in `joined`
    for (let i = 0; i < lines.length; i += 2) {
      if (i > 0) joined += '\n';
      at.push(joined.length);
      joined += this.text.slice(lines[i], lines[i + 1]);
    }
    const ranges = new Pairs();
    new InlineMarkup(joined, this.references, ranges).parse(0, joined.length);
    const sorted = ranges.length;
    if (this.proseExclusions) new ProseExclusions(joined, this.memo).find(0, joined.length, ranges);
    const inJoined: number[] = [];
    excludeSorted(ranges.data, sorted, ranges.length, inJoined);
    // Back to the document, line by line: an offset in line k of the joined text is that far into
    // line k (the markers between the lines stay as they are).
    let k = 0;
    for (let i = 0; i < inJoined.length; i += 2) {
      const start = inJoined[i]!;
      const end = inJoined[i + 1]!;
      while (k + 1 < at.length && at[k + 1]! <= start) k++;
      for (let line = k; line < at.length && at[line]! < end; line++) {
        const lineStart = lines[2 * line]!;
        const lineEnd = lines[2 * line + 1]!;
        excludeRange(excluded, lineStart + Math.max(start - at[line]!, 0), Math.min(lineStart + end - at[line]!, lineEnd));
      }
    }
  }
}
