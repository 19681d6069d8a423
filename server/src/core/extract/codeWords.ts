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

const SPAN = /(`+)([^`\n]+?)\1(?!`)/g;
const COMMAND_WORD = /^[A-Za-z][\w-]*(?=$|\s)/;

export class CodeSpanWords {
  private constructor(
    /** Where each span's word was found (its opening backtick), in order. */
    private readonly offsets: number[],
    /** The lowercase word of each span. */
    private readonly spanWords: string[],
    /** How many spans hold each word. */
    private readonly counts: Map<string, number>,
  ) {}

  /** The code words of the whole text. */
  static of(text: string): CodeSpanWords {
    const found = new CodeSpanWords([], [], new Map());
    found.search(text, 0, text.length, found.offsets, found.spanWords);
    return found;
  }

  /**
   * The code words of `text`, made from those of the text before an edit: text [0, restart) is
   * the old text's, text [end, length) the old [end - delta, …), and restart and end are line
   * starts.
   */
  edited(text: string, restart: number, end: number, delta: number): CodeSpanWords {
    const counts = new Map(this.counts);
    const offsets: number[] = [];
    const spanWords: string[] = [];
    const oldEnd = end - delta;
    let k = 0;
    for (; k < this.offsets.length && this.offsets[k]! < restart; k++) {
      offsets.push(this.offsets[k]!);
      spanWords.push(this.spanWords[k]!);
    }
    for (; k < this.offsets.length && this.offsets[k]! < oldEnd; k++) {
      const word = this.spanWords[k]!;
      const left = counts.get(word)! - 1;
      if (left === 0) counts.delete(word);
      else counts.set(word, left);
    }
    const fresh = new CodeSpanWords(offsets, spanWords, counts);
    fresh.search(text, restart, end, offsets, spanWords);
    for (; k < this.offsets.length; k++) {
      offsets.push(this.offsets[k]! + delta);
      spanWords.push(this.spanWords[k]!);
    }
    return fresh;
  }

  has(word: string): boolean {
    return this.counts.has(word);
  }

  /** The spans of text[from, to) (line starts or the text's ends), appended in order. */
  private search(text: string, from: number, to: number, offsets: number[], spanWords: string[]): void {
    let at = text.indexOf('`', from);
    if (at === -1 || at >= to) return;
    SPAN.lastIndex = at;
    let match: RegExpExecArray | null;
    while ((match = SPAN.exec(text)) !== null && match.index < to) {
      const word = COMMAND_WORD.exec(match[2]!.trim());
      if (!word) continue;
      const lower = word[0].toLowerCase();
      offsets.push(match.index);
      spanWords.push(lower);
      this.counts.set(lower, (this.counts.get(lower) ?? 0) + 1);
    }
  }
}
