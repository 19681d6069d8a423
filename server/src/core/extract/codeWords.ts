/**
 * Words a document itself writes as code: the whole text of an inline code span (`mutmut`,
 * `for_review`) or the command word that starts one (`mutmut run`). A writer who puts a word in
 * backticks says it is an identifier, a command or a value; its other, unquoted occurrences in
 * the same document are the same identifier, not vocabulary for the glossary.
 */

const SPAN = /(`+)([^`\n]+?)\1(?!`)/g;
const COMMAND_WORD = /^[A-Za-z][\w-]*(?=$|\s)/;

/**
 * The lowercase words of the document's inline code spans (see the module comment). `masked`
 * tells code from prose: only spans the masking treats as code count (not backticks in prose
 * that open nothing, nor those inside fenced blocks, which hold other text).
 */
export function codeSpanWords(text: string, masked: Uint16Array): Set<string> {
  const out = new Set<string>();
  if (text.indexOf('`') === -1) return out;
  SPAN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = SPAN.exec(text)) !== null) {
    const inner = match.index + match[1]!.length;
    if (masked[inner] !== 0x1f) continue;
    const content = match[2]!.trim();
    const word = COMMAND_WORD.exec(content);
    if (word) out.add(word[0].toLowerCase());
  }
  return out;
}
