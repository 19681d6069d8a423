/**
 * A hash index over a word list (one word per line, as `sortedCommonWords` reads it): open
 * addressing, each slot the offset of a line's first character + 1 (0: empty), so a word is
 * found by hashing it and comparing it with one or two lines of the text, instead of the ~17
 * steps of a binary search (each a search back for a line start, forward for its end, and a
 * comparison). A CLI run asks ~11,000 times for ~9,000 words, most of them new to the process and
 * asked in its first seconds, while its code is still cold: ~3 µs a search, ~30 ms of the check of
 * SPEC §10's 400 specs (docs/performance.md). The build writes the index of each shipped list
 * (node/wordIndexFiles.ts); the language server keeps its lists front-coded instead (memory).
 */

/** The hash of text[from, to): 32-bit FNV-1a over its UTF-16 code units. */
export function wordHash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/**
 * Slots for `words` words: a power of two at least half as many again (at most two thirds full:
 * a word not listed, the usual question, is told after a few slots; the shipped lists' indexes
 * take 1.5 MB).
 */
export function slotsFor(words: number): number {
  let slots = 1024;
  while (2 * slots < 3 * words) slots *= 2;
  return slots;
}

/** The index of the lines of `text` (each line a word; the text ends with a line break). */
export function indexWords(text: string): Int32Array {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  const slots = new Int32Array(slotsFor(lines));
  const mask = slots.length - 1;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let slot = wordHash(text, start, end) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = start + 1;
    start = end + 1;
  }
  return slots;
}

/**
 * Whether `word` is a line of `text`, looked up in `slots` (`indexWords` of `text`, a power of two
 * long).
 */
export function indexHas(text: string, slots: Int32Array, word: string): boolean {
  const mask = slots.length - 1;
  const length = word.length;
  // (At most every slot once: a damaged index with no empty slot must not search forever.)
  for (let slot = wordHash(word, 0, length) & mask, probes = 0; probes < slots.length; slot = (slot + 1) & mask, probes++) {
    const at = slots[slot]! - 1;
    if (at < 0) return false;
    if (text.charCodeAt(at + length) === 10 && text.startsWith(word, at)) return !word.includes('\n');
  }
  return false;
}
