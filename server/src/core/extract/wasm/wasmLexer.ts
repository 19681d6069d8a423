/**
 * The lexer's WebAssembly fast path (lexer.wat): the same tokens as the JavaScript lexer in
 * tokens.ts, about two and a half times faster on a large document (see docs/performance.md).
 * Used for long ranges (a whole document); edits re-tokenize a few lines in JavaScript.
 *
 * The module keeps a hash table from a word's key (its lowercased ASCII characters) to a
 * lexicon's id for it. Words it does not finish (see lexer.wat) are read by the JavaScript lexer,
 * in order, so the lexicon interns words in the order of the text either way.
 *
 * Memory: [64, scratch end) holds a chunk's code units and the outputs of one call, the table
 * follows. WebAssembly memory never shrinks, so a long range is lexed in chunks of at most
 * CHUNK_CHARS: the scratch space stays under ~21 MB (~20 bytes a code unit, mostly never
 * touched) whatever the document.
 */

import { grown } from '../../text';
import type { Lexicon } from '../lexicon';
import type { LexedWord, TokenArrays, Tokens } from '../tokens';
import { LEXER_WASM_BASE64 } from './lexerBytes';

/** Ranges shorter than this are tokenized in JavaScript (copying in and out would not pay). */
export const WASM_MIN_CHARS = 4096;
/** The most code units lexed by one call (see the memory note above). */
const CHUNK_CHARS = 1 << 20;

interface LexerExports {
  memory: WebAssembly.Memory;
  layout(codes: number, start: number, end: number, word: number, shape: number, shaped: number, quotes: number, quotesCap: number, news: number): void;
  table(table: number, mask: number): void;
  lex(pos: number, to: number): number;
  reinsert(old: number, n: number): void;
  count: WebAssembly.Global;
  nShaped: WebAssembly.Global;
  nQuotes: WebAssembly.Global;
  nNews: WebAssembly.Global;
  entries: WebAssembly.Global;
  at: WebAssembly.Global;
}

/** Reads the word starting at `from` into `out`, returns the offset after it (tokens.ts `lexWord`). */
export type ReadWord = (masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, out: LexedWord) => number;

/** The tokens of the chunks lexed so far (the arrays grow when a chunk needs more room). */
interface ChunkOutput {
  count: number;
  start: Int32Array;
  end: Int32Array;
  word: Int32Array;
  shape: Uint8Array;
  shaped: number[];
  quotes: number[];
}

const LEX_DONE = 0;
const LEX_WORD_FOR_JS = 1;
const LEX_TABLE_FULL = 2;
const FIRST_SLOTS = 1 << 12;
/**
 * Past one word in this many handed back to JavaScript (and 512 of them), the range is lexed in
 * JavaScript instead: a hand-back costs ~0.1 µs, and the module only breaks even at about one in
 * five (measured on real specs with accents put into more and more of their words).
 */
const HANDOFF_SHARE = 5;
/** Bytes per table slot: a 16-byte key, a 4-byte value at +16, room to stay in one cache line. */
const SLOT_BYTES = 32;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly (with SIMD) is not available. */
function lexerModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    compiled = null;
    try {
      if (typeof WebAssembly === 'object') {
        const bytes = decodeBase64(LEXER_WASM_BASE64);
        if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
      }
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

let shared: WasmLexer | null | undefined;
let enabled = true;

/** Switches the WebAssembly lexer off (or on again): the benchmark measures both. */
export function useWasmLexer(on: boolean): void {
  enabled = on;
}

/**
 * The WebAssembly lexer, or undefined without WebAssembly. One instance serves the process: a
 * fresh one per lexicon would allocate megabytes of memory that the garbage collector counts
 * against the heap, and checks rarely switch lexicons (the shared one is replaced only when it
 * grows too large); a switch clears the table.
 */
export function wasmLexer(): WasmLexer | undefined {
  if (!enabled) return undefined;
  // After a failed call the table may hold unresolved keys: start a fresh instance.
  if (shared === undefined || shared?.broken) shared = WasmLexer.create();
  return shared ?? undefined;
}

export class WasmLexer {
  /** Set when a call threw: the table can no longer be trusted. */
  broken = false;
  /** The lexicon whose ids the table holds (weakly: a closed document's must not stay alive). */
  private owner: WeakRef<Lexicon> | undefined;
  private tableBase = 1 << 16;
  private slots = FIRST_SLOTS;
  // Views of the memory (renewed when it grows).
  private u8!: Uint8Array;
  private u16!: Uint16Array;
  private i32!: Int32Array;

  private constructor(private readonly x: LexerExports) {
    this.ensure(this.tableBase + this.slots * SLOT_BYTES);
    this.useTable();
  }

  static create(): WasmLexer | null {
    const module = lexerModule();
    if (!module) return null;
    try {
      return new WasmLexer(new WebAssembly.Instance(module, {}).exports as unknown as LexerExports);
    } catch {
      return null;
    }
  }

  /** Makes the table `lexicon`'s (empty when it was another's). */
  private adopt(lexicon: Lexicon): void {
    if (this.owner?.deref() === lexicon) return;
    this.owner = new WeakRef(lexicon);
    this.u8.fill(0, this.tableBase, this.tableBase + this.slots * SLOT_BYTES);
    this.x.entries.value = 0;
  }

  /**
   * Tokens of masked[from, to), as tokens.ts `tokenize` makes them; `readWord` reads the words the
   * module leaves to JavaScript. Undefined when the call failed (the caller lexes in JavaScript).
   */
  tokenize(masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, readWord: ReadWord, into?: TokenArrays): Tokens | undefined {
    try {
      this.adopt(lexicon);
      return this.run(masked, text, lexicon, from, to, readWord, into);
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /**
   * The tokens of [from, to), lexed a chunk of at most CHUNK_CHARS at a time (cut at line starts,
   * which no word spans), so the module's scratch memory stays bounded whatever the document.
   */
  private run(masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, readWord: ReadWord, into?: TokenArrays): Tokens | undefined {
    let capacity = Math.max(16, ((to - from) >> 2) + 16);
    if (into && into.start.length >= capacity) capacity = into.start.length;
    else into = undefined;
    const out: ChunkOutput = {
      count: 0,
      start: into ? into.start : new Int32Array(capacity),
      end: into ? into.end : new Int32Array(capacity),
      word: into ? into.word : new Int32Array(capacity),
      shape: into ? into.shape : new Uint8Array(capacity),
      shaped: [],
      quotes: [],
    };
    for (let at = from; at < to; ) {
      let cut = to;
      if (to - at > CHUNK_CHARS) {
        cut = masked.lastIndexOf(10, at + CHUNK_CHARS - 1) + 1;
        // No line break in a whole chunk (not a text document): JavaScript's lexer.
        if (cut <= at) return undefined;
      }
      if (!this.runChunk(masked, text, lexicon, at, cut, readWord, out)) return undefined;
      at = cut;
    }
    const { count, start, end, word, shape, shaped, quotes } = out;
    return { count, start, end, word, shape, shaped, quotes, text: (i) => text.slice(start[i]!, end[i]!) };
  }

  /**
   * Lexes [from, to) (at most CHUNK_CHARS) and appends its tokens to `out`. False when it gave up
   * because most words went to JavaScript anyway (see HANDOFF_SHARE).
   */
  private runChunk(masked: Uint16Array, text: string, lexicon: Lexicon, from: number, to: number, readWord: ReadWord, out: ChunkOutput): boolean {
    const x = this.x;
    const n = to - from;
    // A token takes at least one character and a separator.
    const cap = ((n + 1) >> 1) + 1;
    // (Room for a quote at every code unit: the list is always whole, as the JavaScript lexer's.)
    const quotesCap = n + 16;
    const codesAt = 64;
    const startAt = align(codesAt + 2 * n + 64);
    const endAt = startAt + 4 * cap;
    const wordAt = endAt + 4 * cap;
    const shapeAt = wordAt + 4 * cap;
    const shapedAt = align(shapeAt + cap);
    const quotesAt = shapedAt + 4 * cap;
    const newsAt = quotesAt + 4 * quotesCap;
    this.placeTable(align(newsAt + 12 * cap));

    this.u16.set(masked.subarray(from, to), codesAt >> 1);
    x.layout(codesAt - 2 * from, startAt, endAt, wordAt, shapeAt, shapedAt, quotesAt, quotesCap, newsAt);

    // Ids of the new keys, in the order the module met them.
    const news: number[] = [];
    const word: LexedWord = { start: 0, end: 0, id: 0, bits: 0 };
    let handoffs = 0;
    let pos = from;
    for (;;) {
      const status = x.lex(pos, to);
      if (status === LEX_DONE) break;
      // Intern the new keys met so far before anything else, so ids follow the text's order.
      this.resolveNews(text, lexicon, newsAt, news);
      pos = x.at.value as number;
      if (status === LEX_TABLE_FULL) {
        this.growTable();
        continue;
      }
      if (status !== LEX_WORD_FOR_JS) throw new Error(`lexer: unexpected status ${status}`);
      // A text whose words are mostly not plain ASCII (a language with accents on most words):
      // each handed-back word costs more than the JavaScript lexer's whole work on it.
      if (++handoffs >= 512 && handoffs * HANDOFF_SHARE > (x.count.value as number)) return false;
      pos = readWord(masked, text, lexicon, pos, to, word);
      if (word.start < 0) continue;
      const count = x.count.value as number;
      const i32 = this.i32;
      i32[(startAt >> 2) + count] = word.start;
      i32[(endAt >> 2) + count] = word.end;
      i32[(wordAt >> 2) + count] = word.id;
      this.u8[shapeAt + count] = word.bits;
      if (word.bits !== 0) {
        const shaped = x.nShaped.value as number;
        i32[(shapedAt >> 2) + shaped] = count;
        x.nShaped.value = shaped + 1;
      }
      x.count.value = count + 1;
    }
    this.resolveNews(text, lexicon, newsAt, news);

    const count = x.count.value as number;
    const i32 = this.i32;
    const ids = i32.subarray(wordAt >> 2, (wordAt >> 2) + count);
    if (news.length > 0) {
      // Occurrences met before their key's id was known hold -(number of the new key).
      for (let i = 0; i < count; i++) {
        const id = ids[i]!;
        if (id < 0) ids[i] = news[-id - 1]!;
      }
    }
    const first = out.count;
    const total = first + count;
    if (total > out.start.length) {
      const size = Math.max(total, 2 * out.start.length);
      out.start = grown(out.start, size);
      out.end = grown(out.end, size);
      out.word = grown(out.word, size);
      out.shape = grown(out.shape, size);
    }
    out.start.set(i32.subarray(startAt >> 2, (startAt >> 2) + count), first);
    out.end.set(i32.subarray(endAt >> 2, (endAt >> 2) + count), first);
    out.word.set(ids, first);
    out.shape.set(this.u8.subarray(shapeAt, shapeAt + count), first);
    out.count = total;
    const shaped = x.nShaped.value as number;
    for (let k = 0; k < shaped; k++) out.shaped.push(first + i32[(shapedAt >> 2) + k]!);
    const quotes = x.nQuotes.value as number;
    for (let k = 0; k < quotes; k++) out.quotes.push(i32[(quotesAt >> 2) + k]!);
    return true;
  }

  /** Gives the keys the module added since the last call their lexicon ids (in the table too). */
  private resolveNews(text: string, lexicon: Lexicon, newsAt: number, news: number[]): void {
    const total = this.x.nNews.value as number;
    const i32 = this.i32;
    const valuesAt = (this.tableBase + 16) >> 2;
    for (let k = news.length; k < total; k++) {
      const record = (newsAt >> 2) + 3 * k;
      const id = lexicon.idOfAscii(text, i32[record + 1]!, i32[record + 2]!);
      i32[valuesAt + i32[record]! * (SLOT_BYTES >> 2)] = id + 1;
      news.push(id);
    }
  }

  /** Moves the table past `scratchEnd` when the scratch space of this call needs its room. */
  private placeTable(scratchEnd: number): void {
    if (scratchEnd <= this.tableBase) return;
    const base = align(scratchEnd, 1 << 16);
    const bytes = this.slots * SLOT_BYTES;
    this.ensure(base + bytes);
    this.u8.copyWithin(base, this.tableBase, this.tableBase + bytes);
    this.tableBase = base;
    this.useTable();
  }

  /** Twice the slots, in place: the old table is copied past the new one and re-inserted. */
  private growTable(): void {
    const old = this.slots;
    const base = this.tableBase;
    const copy = base + 2 * old * SLOT_BYTES;
    this.ensure(copy + old * SLOT_BYTES);
    this.u8.copyWithin(copy, base, base + old * SLOT_BYTES);
    this.u8.fill(0, base, copy);
    this.slots = 2 * old;
    this.useTable();
    this.x.reinsert(copy, old);
  }

  private useTable(): void {
    this.x.table(this.tableBase, this.slots - 1);
  }

  /** At least `bytes` of memory (views renewed when it grows). */
  private ensure(bytes: number): void {
    const memory = this.x.memory;
    const missing = bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / 65536));
    if (this.u8 === undefined || this.u8.buffer !== memory.buffer) {
      this.u8 = new Uint8Array(memory.buffer);
      this.u16 = new Uint16Array(memory.buffer);
      this.i32 = new Int32Array(memory.buffer);
    }
  }
}

function align(offset: number, to = 16): number {
  return Math.ceil(offset / to) * to;
}
