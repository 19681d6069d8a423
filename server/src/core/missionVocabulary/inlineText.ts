/**
 * The plain text of a cell or a line of an entry: what a reader sees once the inline markup is
 * rendered — emphasis and code-span backticks dropped, a link's text kept, escapes undone,
 * `<br>` read as a space — on one line.
 */

const LINK = /!?\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g;
const REFERENCE_LINK = /\[([^\]]+)\]\[[^\]]*\]/g;
const BREAK = /<br\s*\/?>/gi;
const TAG = /<\/?[A-Za-z][^<>]*>/g;
// Emphasis runs (*, **, _, __, ~~) where they open or close a span: at a word's edge, not inside
// a word ("snake_case" keeps its underscore). A run is never the character before another run
// ("**lane**,": the closing `**` goes whole, not as `*` before `*`).
const EMPHASIS = /(^|[^\p{L}\p{N}\\*_~])(?:\*{1,3}|_{1,3}|~~)(?=\S)|(?<=\S)(?:\*{1,3}|_{1,3}|~~)(?=$|[^\p{L}\p{N}])/gu;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

export function plainText(markdown: string): string {
  return markdown
    .replace(BREAK, ' ')
    .replace(LINK, '$1')
    .replace(REFERENCE_LINK, '$1')
    .replace(TAG, '')
    .replace(/`+/g, '')
    .replace(EMPHASIS, '$1')
    .replace(ESCAPE, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
