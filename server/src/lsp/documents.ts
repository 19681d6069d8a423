/**
 * The server's open documents: a `TextDocument` of its own, given to the library's
 * `TextDocuments` (which keeps the set and fires the events), because the library's document
 * copies a large text twice per keystroke: its update takes substrings of the rope the last
 * update left (V8 flattens a rope before taking a substring of it: 2 MB for a 1 MB spec) and
 * leaves a new rope, which the check flattens again when it reads it. Here an incremental change
 * makes one flat string (one copy), the line starts are patched in a typed array, and the
 * replaced range is remembered, so the incremental checker need not compare the old and new
 * texts to find it (`takeEdit`).
 *
 * Positions behave exactly as the library's (`positionAt`, `offsetAt`, clamping, `\r\n`, `\r`
 * and `\n` line breaks); a property test holds the two together (test/lsp/documents.test.ts).
 *
 * A document no one is editing keeps its text packed when V8 would keep it two bytes a character
 * (a text with a character beyond U+00FF: specs hold em dashes and arrows), and makes the string
 * again when it is read (`DocumentTexts`): 200 real specs open held 9.3 MB of strings, 1.8 MB
 * packed (SPEC §10: ≤ 80 MB with 200 specs open).
 */

import type { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from 'vscode-languageserver';
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Edit } from '../core/extract/rescan';
import { MallocReuse } from './mallocReuse';

/** What changed in a document since the text `before`: one replaced range (see `takeEdit`). */
export interface DocumentEdit {
  before: string;
  edit: Edit;
}

const LF = 10;
const CR = 13;
/**
 * Texts at least this long are assembled outside V8's heap (`SpecDocument.external`): Node
 * makes an external string of a Buffer of more than ~1 MB (its `EXTERN_APEX`), i.e. of this
 * many characters in UTF-16.
 */
const EXTERNAL_CHARS = 600_000;
/** Node's `EXTERN_APEX`: a Buffer of more bytes than this becomes an external string; a smaller one is copied into V8's heap. */
const EXTERN_APEX_BYTES = 0xfbee9;
const NOT_ONE_BYTE = /[^\u0000-\u00ff]/;
const ONE_BYTE = /^[\u0000-\u00ff]*$/;

export class SpecDocument implements TextDocument {
  /** The text, unless it is kept as `packed` only. */
  private content: string | undefined;
  /** The text packed (`pack`), made when the document was let go cold (`cool`), until it changes. */
  private packed: string | undefined;
  /** The text's length. */
  private chars: number;
  /** Offsets where lines start (LSP line breaks: `\r\n`, `\n`, `\r`); `lineStarts[0]` is 0. */
  private lineStarts: Int32Array;
  private lines: number;
  /**
   * The text `takeEdit` last handed out (undefined: the current text), and the one range replaced
   * since (undefined: none, or unknown).
   */
  private editBase: string | undefined;
  private pending: Edit | undefined;
  private pendingKnown = true;
  /** No character above U+00FF so far (then a large text is kept as Latin-1: half the bytes). */
  private oneByte: boolean;
  /** Where a large document's next text is assembled (see `external`). */
  private scratch: Buffer | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    content: string,
    /** Where the document says its text was read, so it can be let go cold again (none: it stays a string). */
    private readonly texts?: DocumentTexts,
  ) {
    this.content = flat(content);
    this.chars = content.length;
    this.oneByte = !NOT_ONE_BYTE.test(content);
    const starts = lineStartsOf(this.content, 0, this.content.length);
    this.lineStarts = starts.array;
    this.lines = starts.count;
    texts?.read(this);
  }

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.lines;
  }

  getText(range?: Range): string {
    if (!range) return this.text();
    return this.text().substring(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  /**
   * Keeps the text packed only (`pack`), when V8 keeps it two bytes a character; it is made again
   * when next read. Said by `DocumentTexts`. A change no check took yet (`takeEdit`) is forgotten
   * (not kept with the text before it): the next check compares the texts to find it.
   */
  cool(): void {
    // (A lone surrogate, which an edit can leave, has no UTF-8: such a text stays a string.)
    if (this.content === undefined || this.oneByte || !hasUtf8(this.content)) return;
    if (this.pending !== undefined) this.pendingKnown = false;
    this.pending = undefined;
    this.packed ??= pack(this.content);
    this.content = undefined;
    // (The line starts keep room to grow while typing; a cold document needs none.)
    if (this.lineStarts.length > this.lines) this.lineStarts = this.lineStarts.slice(0, this.lines);
    this.editBase = undefined;
    this.scratch = undefined;
  }

  /** How the text is kept now: a string, or packed only (cold). */
  get keptAs(): 'string' | 'packed' {
    return this.content === undefined ? 'packed' : 'string';
  }

  /** The text as a string (made again from `packed` when the document was cold). */
  private text(): string {
    if (this.content !== undefined) return this.content;
    this.content = unpack(this.packed!);
    this.texts?.read(this);
    return this.content;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.chars), 0);
    let low = 0;
    let high = this.lines;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.lineStarts[mid]! > offset) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    const start = this.lineStarts[line]!;
    return { line, character: this.beforeLineBreak(offset, start) - start };
  }

  offsetAt(position: Position): number {
    if (position.line >= this.lines) return this.chars;
    if (position.line < 0) return 0;
    const start = this.lineStarts[position.line]!;
    if (position.character <= 0) return start;
    const next = position.line + 1 < this.lines ? this.lineStarts[position.line + 1]! : this.chars;
    return this.beforeLineBreak(Math.min(start + position.character, next), start);
  }

  getLineRange(line: number): Range {
    if (line >= this.lines) {
      const last = this.lines - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.chars - this.lineStarts[last]! } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const start = this.lineStarts[line]!;
    const next = line + 1 < this.lines ? this.lineStarts[line + 1]! : this.chars;
    return { start: { line, character: 0 }, end: { line, character: this.beforeLineBreak(next, start) - start } };
  }

  getEOLCharacters(line: number): string {
    if (line >= this.lines || line < 0) return '';
    const next = line + 1 < this.lines ? this.lineStarts[line + 1]! : this.chars;
    return this.text().substring(this.beforeLineBreak(next, this.lineStarts[line]!), next);
  }

  /**
   * The one range replaced since the last call, with the text it was replaced in; then starts
   * over from the text as it is now. Undefined when nothing is known (a full-text change).
   */
  takeEdit(): DocumentEdit | undefined {
    const taken = this.pendingKnown ? { before: this.editBase ?? this.text(), edit: this.pending ?? { from: 0, oldEnd: 0, newEnd: 0 } } : undefined;
    // (Undefined: the text as it is, whichever form it is kept in.)
    this.editBase = undefined;
    this.pending = undefined;
    this.pendingKnown = true;
    return taken;
  }

  /** Applies the changes of a `didChange` (the library's `TextDocument.update`). */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      // (As the library tells the two kinds apart.)
      const { text, range, rangeLength } = change as { text?: unknown; range?: Range; rangeLength?: unknown };
      if (typeof text === 'string' && range !== undefined && (rangeLength === undefined || typeof rangeLength === 'number')) this.replace(wellFormed(range), text);
      else if (typeof text === 'string' && range === undefined && rangeLength === undefined) this.replaceAll(text);
      else throw new Error('Unknown change event received');
    }
    this.currentVersion = version;
    this.texts?.edited(this);
  }

  private replace(range: Range, text: string): void {
    const from = this.offsetAt(range.start);
    const to = this.offsetAt(range.end);
    const old = this.text();
    // (What `takeEdit` hands out next starts from the text before this change.)
    this.editBase ??= old;
    this.packed = undefined;
    const length = old.length - (to - from) + text.length;
    if (this.oneByte && !ONE_BYTE.test(text)) this.oneByte = false;
    this.content = length >= EXTERNAL_CHARS ? this.external(old, from, to, text, length) : flat(old.substring(0, from) + text + old.substring(to));
    this.chars = length;
    this.patchLines(from, to, text.length);
    this.remember(from, to, from + text.length);
  }

  /**
   * The edited text of a large document as a string whose characters live outside V8's heap
   * (Node makes one of a Buffer this large): a flat string of 1 MB in the heap is a new 2 MB
   * object per keystroke, which forces a collection of the young generation each time and is
   * mapped afresh; this one is a copy into memory malloc reuses from the texts collected before
   * (once told to: mallocReuse.ts).
   */
  private external(old: string, from: number, to: number, text: string, length: number): string {
    const encoding = this.oneByte ? 'latin1' : 'utf16le';
    const bytes = this.oneByte ? length : length * 2;
    if (this.scratch === undefined || this.scratch.length < bytes) this.scratch = Buffer.allocUnsafe(bytes + (bytes >> 3));
    // (A no-op unless the text outgrew the last one told; a one-byte text below Node's threshold is made in the heap.)
    if (bytes > EXTERN_APEX_BYTES) this.texts?.largeText(bytes);
    const scratch = this.scratch;
    let at = scratch.write(old.substring(0, from), 0, encoding);
    at += scratch.write(text, at, encoding);
    at += scratch.write(old.substring(to), at, encoding);
    return scratch.toString(encoding, 0, at);
  }

  private replaceAll(text: string): void {
    this.oneByte = !NOT_ONE_BYTE.test(text);
    this.scratch = undefined;
    this.packed = undefined;
    this.content = flat(text);
    this.chars = text.length;
    const starts = lineStartsOf(this.content, 0, this.content.length);
    this.lineStarts = starts.array;
    this.lines = starts.count;
    this.pendingKnown = false;
  }

  /**
   * Line starts after [from, to) was replaced by `inserted` characters. Whether offset X starts a
   * line depends on the characters at X - 1 and X only, so only starts in [from, to] can change
   * (found again in [from, from + inserted]); the later ones move by the change in length.
   */
  private patchLines(from: number, to: number, inserted: number): void {
    const old = this.lineStarts;
    const delta = inserted - (to - from);
    // First start ≥ from (never 0: line 0 always starts at 0), first start > to.
    const head = Math.max(1, firstAtLeast(old, this.lines, from));
    const tail = firstAtLeast(old, this.lines, to + 1);
    const found = lineStartsOf(this.content!, Math.max(from, 1), from + inserted);
    const count = head + found.count + (this.lines - tail);
    const starts = count <= old.length ? old : new Int32Array(Math.max(count, old.length * 2));
    if (starts !== old) starts.set(old.subarray(0, head));
    // The later starts, shifted (in place, a memmove, when the array has room).
    if (starts === old) starts.copyWithin(head + found.count, tail, this.lines);
    else starts.set(old.subarray(tail, this.lines), head + found.count);
    for (let i = head + found.count; i < count; i++) starts[i]! += delta;
    starts.set(found.array.subarray(0, found.count), head);
    this.lineStarts = starts;
    this.lines = count;
  }

  /** Adds [from, oldEnd) → [from, newEnd) of the current text to the range replaced since `editBase`. */
  private remember(from: number, oldEnd: number, newEnd: number): void {
    if (!this.pendingKnown) return;
    const before = this.pending;
    if (before === undefined) {
      this.pending = { from, oldEnd, newEnd };
      return;
    }
    // Both as ranges of the text before this change: [before.from, before.newEnd) and [from, oldEnd).
    const end = Math.max(before.newEnd, oldEnd);
    this.pending = { from: Math.min(before.from, from), oldEnd: end - (before.newEnd - before.oldEnd), newEnd: end + (newEnd - oldEnd) };
  }

  private beforeLineBreak(offset: number, lineStart: number): number {
    if (offset === lineStart) return offset;
    const content = this.text();
    while (offset > lineStart) {
      const c = content.charCodeAt(offset - 1);
      if (c !== LF && c !== CR) break;
      offset--;
    }
    return offset;
  }
}

/** Documents edited last whose text stays a string (typing reads it at every keystroke). */
const EDITED_KEPT = 4;

/**
 * Which documents keep their text as a string: the few edited last, and any read during the
 * current turn of the event loop; the others are let go cold at the next turn (`SpecDocument.cool`),
 * so a burst of reads (checking every open document after a glossary change) makes each string
 * once and drops it after.
 */
export class DocumentTexts {
  /** Edited last, most recent last. */
  private readonly recentlyEdited: SpecDocument[] = [];
  private readonly readNow = new Set<SpecDocument>();
  private scheduled = false;
  private readonly allocator = new MallocReuse();

  constructor(
    private readonly editedKept = EDITED_KEPT,
    /** Runs the cooling later (at the next turn of the event loop by default). */
    private readonly later: (run: () => void) => void = (run) => void setImmediate(run),
  ) {}

  /** `document` made its text a string: let it go cold soon, unless it is being edited. */
  read(document: SpecDocument): void {
    this.readNow.add(document);
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => this.coolRead());
  }

  /** `document` changed: it keeps its text a string while among the few edited last. */
  edited(document: SpecDocument): void {
    const at = this.recentlyEdited.indexOf(document);
    if (at !== -1) this.recentlyEdited.splice(at, 1);
    this.recentlyEdited.push(document);
    if (this.recentlyEdited.length > this.editedKept) this.read(this.recentlyEdited.shift()!);
  }

  /** A document's text of `bytes` bytes is made outside V8's heap at each keystroke (see mallocReuse.ts). */
  largeText(bytes: number): void {
    this.allocator.reserve(bytes);
  }

  /** `document` was closed: nothing is kept for it. */
  closed(document: TextDocument): void {
    const at = this.recentlyEdited.indexOf(document as SpecDocument);
    if (at !== -1) this.recentlyEdited.splice(at, 1);
    this.readNow.delete(document as SpecDocument);
  }

  private coolRead(): void {
    this.scheduled = false;
    const read = [...this.readNow];
    this.readNow.clear();
    for (const document of read) if (!this.recentlyEdited.includes(document)) document.cool();
  }
}

/**
 * The library's `TextDocuments` configuration for `SpecDocument`s, whose texts `texts` keeps
 * (none: always strings); `changed` is told of every change (a `didChange`; the library's own
 * change event fires for opened documents too).
 */
export function specDocuments(texts?: DocumentTexts, changed?: () => void): TextDocumentsConfiguration<TextDocument> {
  return {
    create: (uri, languageId, version, content) => new SpecDocument(uri, languageId, version, content, texts),
    update(document, changes, version) {
      if (!(document instanceof SpecDocument)) throw new Error('not a document of this server');
      document.update(changes, version);
      changed?.();
      return document;
    },
  };
}

/** The change of a document since the last call, when it is one of ours (see `SpecDocument.takeEdit`). */
export function takeEdit(document: TextDocument): DocumentEdit | undefined {
  return document instanceof SpecDocument ? document.takeEdit() : undefined;
}

/**
 * Offsets X in (from, to] — and `from` itself when from > 0 — where a line starts in `text`
 * (after `\n`, or after a `\r` not followed by `\n`); `from` ≥ 1 means only starts ≥ from.
 */
function lineStartsOf(text: string, from: number, to: number): { array: Int32Array; count: number } {
  let array = new Int32Array(Math.max(16, ((to - from) >> 5) + 16));
  let count = 0;
  if (from === 0) array[count++] = 0;
  const end = Math.min(to, text.length);
  for (let x = Math.max(from, 1); x <= end; x++) {
    const c = text.charCodeAt(x - 1);
    if (c === LF || (c === CR && text.charCodeAt(x) !== LF)) {
      if (count === array.length) {
        const bigger = new Int32Array(count * 2);
        bigger.set(array);
        array = bigger;
      }
      array[count++] = x;
    }
  }
  return { array, count };
}

/** Index of the first of `starts[0, count)` (ascending) that is at least `value`. */
function firstAtLeast(starts: Int32Array, count: number, value: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

/**
 * A text as its UTF-8 bytes deflated (zlib's fastest level), held as a Latin-1 string (one byte a
 * character, in V8's heap, which gives the memory back once the document closes; freed malloc
 * blocks stay with the process). The real specs of SPEC §10 pack to 38% of their UTF-8, 19% of
 * V8's two-byte string, in ~0.3 ms for 23 KB; made again in ~0.13 ms.
 */
function pack(text: string): string {
  return deflateRawSync(Buffer.from(text, 'utf8'), { level: 1 }).toString('latin1');
}

function unpack(packed: string): string {
  return inflateRawSync(Buffer.from(packed, 'latin1')).toString('utf8');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` has no lone surrogate (`String.prototype.isWellFormed`, where Node has it). */
function hasUtf8(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * `text` as a flat string: a string made by concatenation is a rope until something reads it,
 * and V8 then copies it whole — once here, instead of at every later reader's first look.
 */
function flat(text: string): string {
  // (Reading a character flattens a rope in place; a flat string answers at once.)
  text.charCodeAt(0);
  return text;
}
