/**
 * Words a document itself writes as code: the whole text of an inline code span (`mutmut`,
 * `for_review`) or the command word that starts one (`mutmut run`). A writer who puts a word in
 * backticks says it is an identifier, a command or a value; its other, unquoted occurrences in
 * the same document are the same identifier, not vocabulary for the glossary.
 *
 * Spans are read line by line (a span that wraps a line is not read), so after an edit only the
 * re-scanned lines are searched again: a 1 MB spec takes a few milliseconds to search whole,
 * more than a keystroke's budget.
 */

import { lowerBound } from '../text';
import { replaced } from './splice';

// (A source, not a /g pattern: a global pattern carries its search position, so each search makes its own.)
const SPAN = /(`+)([^`\n]+?)\1(?!`)/.source;
const COMMAND_WORD = /^[A-Za-z][\w-]*(?=$|\s)/;

export class CodeSpanWords {
  private constructor(
    /** Where each span's word was found (its opening backtick), in order. */
    private offsets: number[],
    /** The lowercase word of each span. */
    private spanWords: string[],
    /** How many spans hold each word. */
    private readonly counts: Map<string, number>,
  ) {}

  /** The code words of the whole text. */
  static of(text: string): CodeSpanWords {
    const offsets: number[] = [];
    const spanWords: string[] = [];
    search(text, 0, text.length, offsets, spanWords);
    const counts = new Map<string, number>();
    for (const word of spanWords) counts.set(word, (counts.get(word) ?? 0) + 1);
    return new CodeSpanWords(offsets, spanWords, counts);
  }

  /**
   * The code words of `text`, made from those of the text before an edit: text [0, restart) is
   * the old text's, text [end, length) the old [end - delta, …), and restart and end are line
   * starts. Made in place (the old text's words are never asked about again): a copy of the
   * lists per keystroke was a tenth of what one left for the collector on a 1 MB spec.
   */
  edited(text: string, restart: number, end: number, delta: number): CodeSpanWords {
    const oldEnd = end - delta;
    const first = lowerBound(this.offsets, restart);
    const last = lowerBound(this.offsets, oldEnd);
    const foundOffsets: number[] = [];
    const foundWords: string[] = [];
    search(text, restart, end, foundOffsets, foundWords);
    if (!sameWords(this.spanWords, first, last, foundWords)) {
      const counts = this.counts;
      for (let k = first; k < last; k++) {
        const word = this.spanWords[k]!;
        const left = counts.get(word)! - 1;
        if (left === 0) counts.delete(word);
        else counts.set(word, left);
      }
      for (const word of foundWords) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    this.offsets = replaced(this.offsets, first, last, foundOffsets);
    this.spanWords = replaced(this.spanWords, first, last, foundWords);
    if (delta !== 0) for (let k = first + foundOffsets.length; k < this.offsets.length; k++) this.offsets[k]! += delta;
    return this;
  }

  has(word: string): boolean {
    return this.counts.has(word);
  }
}

/** Whether `words[from, to)` and `found` hold the same words (in order: an edit rarely reorders spans). */
function sameWords(words: readonly string[], from: number, to: number, found: readonly string[]): boolean {
  if (to - from !== found.length) return false;
  for (let k = 0; k < found.length; k++) if (words[from + k] !== found[k]) return false;
  return true;
}

/** The spans of text[from, to) (line starts or the text's ends), appended in order. */
function search(text: string, from: number, to: number, offsets: number[], spanWords: string[]): void {
  const at = text.indexOf('`', from);
  if (at === -1 || at >= to) return;
  const span = new RegExp(SPAN, 'g');
  span.lastIndex = at;
  let match: RegExpExecArray | null;
  while ((match = span.exec(text)) !== null && match.index < to) {
    const word = COMMAND_WORD.exec(match[2]!.trim());
    if (!word) continue;
    offsets.push(match.index);
    spanWords.push(word[0].toLowerCase());
  }
}
