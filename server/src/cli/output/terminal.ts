/**
 * Text the CLI shows to a person (text formats, stderr messages, the prompt) comes partly from
 * files it does not control: file names, seed definitions, event log fields, mission ids. Raw,
 * those could drive the terminal (ESC sequences that move the cursor, retitle the window, hide
 * text), forge output lines (a newline in a mission id printing a fake `file:line:col` finding
 * or a fake summary) or reorder what is shown (bidirectional overrides). So every piece of data
 * goes through `printable` before it is shown, and the formatters build their lines with the
 * `shown` template tag, which does that for every interpolated value: escaping is the default,
 * not something each call site has to remember. JSON and SARIF need none of this (JSON escapes
 * control characters itself).
 */

/**
 * Characters shown as escapes: C0 controls (including tab, newline, carriage return), DEL and C1
 * controls; the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069), which reorder what a terminal shows ("Trojan Source"); the line
 * and paragraph separators U+2028/U+2029 (line breaks to many viewers); and lone surrogates (not
 * text, shown as U+FFFD when encoded, which would hide that the data is broken).
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every character of `UNPRINTABLE` written as a visible escape, as JSON writes them:
 * `\n`, `\r`, `\t`, otherwise `\u` and four lowercase hex digits (`\u001b` for ESC, `\u202e` for
 * RIGHT-TO-LEFT OVERRIDE). Everything else is kept, backslashes included, so ordinary text (and
 * any non-Latin script, emoji, combining marks) prints unchanged; the escapes are for reading,
 * not a reversible encoding. Idempotent: printable(printable(x)) === printable(x).
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Terminal text that is already safe: our own colour codes around escaped data. The `shown` tag
 * passes it through unescaped; anything else interpolated is escaped.
 */
export class Styled {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * Template tag for a line (or lines) of human-readable output: the literal parts are ours and
 * kept as written (including their newlines); every interpolated value is shown through
 * `printable`, except `Styled` values (colour codes we added around data already escaped).
 *
 *     shown`${file}:${line}:${col} ${palette.severity(s, s)} ${message}`
 */
export function shown(literals: TemplateStringsArray, ...values: readonly unknown[]): string {
  let out = literals[0]!;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    out += (value instanceof Styled ? value.text : printable(String(value))) + literals[i + 1]!;
  }
  return out;
}

/**
 * One argument of a command line we suggest (`resume with: …`), as a POSIX shell reads it back:
 * plain words as they are, anything else in single quotes (a `'` inside as `'\''`).
 */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
