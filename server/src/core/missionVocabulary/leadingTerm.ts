/**
 * The term a list item or paragraph of a vocabulary section starts with (SPEC §3): in bold or in
 * code, then `:`, `—`, `–` or ` - ` (or a colon inside the bold), then the definition.
 */

/** `**Term**: …`, `` `Term` — … ``, `**Term:** …` at the start of text[start, end). */
export interface LeadingTerm {
  /** The markdown inside the bold or code. */
  term: string;
  termStart: number;
  termEnd: number;
  /** Followed by a separator (`:`, `—`, `–`, ` - `), or one ends the bold ("**Term:**"). */
  separated: boolean;
  /** Where the definition starts (after the separator). */
  definitionStart: number;
  /** Written in code rather than bold. */
  code: boolean;
}

const BOLD = /^(\*\*|__)(?=\S)([^]*?\S)\1/;
const CODE = /^(`+)(?=[^`])([^]*?[^`])\1(?!`)/;
const AFTER_TERM = /^[ \t]*(\([^()]*\))?[ \t]*(?:(:|\u2014|\u2013|-{1,2}(?=[ \t]))[ \t]*)?/;

export function leadingTerm(text: string, start: number, end: number): LeadingTerm | undefined {
  const line = text.slice(start, end);
  const bold = BOLD.exec(line);
  const code = bold ? null : CODE.exec(line);
  const match = bold ?? code;
  if (!match) return undefined;
  const inner = match[2]!;
  const innerStart = start + match[1]!.length;
  let after = match[0].length;
  const tail = AFTER_TERM.exec(line.slice(after))!;
  let term = inner;
  if (tail[1]) term = `${inner} ${tail[1]}`; // "**Term** (ALIAS): …": the parentheses name an alias
  const colonInside = /[:\u2014\u2013]\s*$/.test(inner);
  after += tail[0].length;
  return { term: colonInside ? inner.replace(/\s*[:\u2014\u2013]\s*$/, '') : term, termStart: innerStart, termEnd: innerStart + inner.length, separated: colonInside || tail[2] !== undefined, definitionStart: start + after, code: bold === null };
}
