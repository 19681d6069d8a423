/**
 * The term of an entry as written — a table's first cell or the bold (or code) start of a list
 * item — into the term, its aliases and whether it is still a template's placeholder.
 * "Work package (WP)" is `work package` with the alias `wp`; "Paradigm artifact
 * (`paradigm.yaml`)" is `paradigm artifact` (a file named in parentheses is no alias).
 */

import { normalizeSurface } from '../normalize';
import { plainText } from './inlineText';

export interface ParsedTerm {
  /** As written, markup stripped ("Work package"). */
  term: string;
  surface: string;
  aliases: string[];
  /** A template's placeholder ("[Entity 1]"). */
  placeholder: boolean;
}

const TRAILING_MARKUP = /(?:\*{1,3}|_{1,3}|`+|\s)+$/;
const LAST_PARENTHESES = /\(([^()]*)\)\s*$/;
// "also", "aka", "a.k.a.", "or", "abbr." before an alias.
const ALIAS_LEAD = /^(?:a\.?k\.?a\.?|also(?:\s+called|\s+known\s+as)?|or|abbr\.?|short(?:\s+form)?:?)\s+/i;
// An abbreviation: capitals (digits, & or - after the first), optionally a plural "s": WP, DRG, ADRs.
const ABBREVIATION = /^[A-Z][A-Z0-9&-]{1,9}s?$/;
const MAX_TERM_WORDS = 8;
// A file or folder ("src/glossary/", "commands/glossary.py", "meta.json") names no term.
const PATH = /[\\/]|\.[A-Za-z][A-Za-z0-9]{0,4}$/;
const MAX_ALIAS_WORDS = 4;

/** `raw`: the markdown of the term (a cell, or the text inside a list item's bold). */
export function parseTerm(raw: string): ParsedTerm | undefined {
  let body = raw.trim();
  const aliases: string[] = [];
  const stripped = body.replace(TRAILING_MARKUP, '');
  const parentheses = LAST_PARENTHESES.exec(stripped);
  // (Right after a `]` they are a link's destination: "[Linked term](#x)" is the term's link.)
  if (parentheses && parentheses.index > 0 && stripped[parentheses.index - 1] !== ']') {
    body = stripped.slice(0, parentheses.index);
    // Code in the parentheses is a name of a file or symbol, not another word for the term.
    if (!parentheses[1]!.includes('`')) for (const alias of aliasesIn(parentheses[1]!)) aliases.push(alias);
  }
  const term = plainText(body).replace(/[:\s]+$/, '');
  if (term === '') return undefined;
  const placeholder = /^\[.*\]$/.test(term);
  if (!placeholder && (term.split(/\s+/).length > MAX_TERM_WORDS || PATH.test(term))) return undefined;
  const surface = normalizeSurface(term);
  if (surface === '') return undefined;
  return { term, surface, aliases: aliases.filter((a) => a !== surface), placeholder };
}

function aliasesIn(text: string): string[] {
  const out: string[] = [];
  for (const part of plainText(text).split(/[,;/]/)) {
    const item = part.trim();
    const led = ALIAS_LEAD.exec(item);
    const alias = led ? item.slice(led[0].length).trim() : item;
    if (alias === '' || alias.split(/\s+/).length > MAX_ALIAS_WORDS) continue;
    if (!led && !ABBREVIATION.test(alias)) continue;
    const surface = normalizeSurface(alias);
    if (surface && !out.includes(surface)) out.push(surface);
  }
  return out;
}
