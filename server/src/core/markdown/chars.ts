/** Character codes the markdown scanners compare against, by name. */

export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const EXCLAMATION = 0x21; // !
export const QUOTE = 0x22; // "
export const HASH = 0x23; // #
export const AMPERSAND = 0x26; // &
export const APOSTROPHE = 0x27; // '
export const OPEN_PAREN = 0x28; // (
export const CLOSE_PAREN = 0x29; // )
export const ASTERISK = 0x2a; // *
export const PLUS = 0x2b; // +
export const COMMA = 0x2c; // ,
export const DASH = 0x2d; // -
export const DOT = 0x2e; // .
export const SLASH = 0x2f; // /
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
export const COLON = 0x3a; // :
export const SEMICOLON = 0x3b; // ;
export const LESS_THAN = 0x3c; // <
export const EQUALS = 0x3d; // =
export const GREATER_THAN = 0x3e; // >
export const QUESTION = 0x3f; // ?
export const AT = 0x40; // @
export const UPPER_A = 0x41;
export const UPPER_Y = 0x59;
export const UPPER_Z = 0x5a;
export const OPEN_BRACKET = 0x5b; // [
export const BACKSLASH = 0x5c; // \
export const CLOSE_BRACKET = 0x5d; // ]
export const UNDERSCORE = 0x5f; // _
export const BACKTICK = 0x60; // `
export const LOWER_A = 0x61;
export const LOWER_F = 0x66;
export const LOWER_W = 0x77;
export const LOWER_Y = 0x79;
export const LOWER_Z = 0x7a;
export const OPEN_BRACE = 0x7b; // {
export const PIPE = 0x7c; // |
export const CLOSE_BRACE = 0x7d; // }
export const TILDE = 0x7e; // ~
export const DELETE = 0x7f;
/** Code units below this are ASCII. */
export const ASCII_END = 0x80;
/** The bit that tells an ASCII letter's cases apart (`c | CASE_BIT` is lowercase). */
export const CASE_BIT = 0x20;
export const NO_BREAK_SPACE = 0xa0;
export const BYTE_ORDER_MARK = 0xfeff;

/** A space or a tab: the only white space of CommonMark's block structure. */
export function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** A line feed or a carriage return (a line break, or the first half of one). */
export function isLineBreak(c: number): boolean {
  return c === LF || c === CR;
}

export function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

export function isAsciiLetter(c: number): boolean {
  const lower = c | CASE_BIT;
  return lower >= LOWER_A && lower <= LOWER_Z;
}
