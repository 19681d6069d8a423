/**
 * A text's lines as LSP counts them (`\n`, `\r\n` and a lone `\r` end a line), for tests that
 * turn positions back into offsets.
 */

export interface LspLine {
  /** Offset of the line's first character. */
  start: number;
  /** Its length, without the line break. */
  length: number;
}

export function lspLines(text: string): LspLine[] {
  const lines: LspLine[] = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
    lines.push({ start, length: match.index - start });
    start = match.index + match[0].length;
  }
  lines.push({ start, length: text.length - start });
  return lines;
}
