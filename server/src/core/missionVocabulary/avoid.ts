/**
 * The words an "Avoid" cell names (SPEC §3): its quoted strings ("spec-driven prompting",
 * “PDD”); without quotes, its comma- or semicolon-separated items of at most four words. Anything
 * longer is a note to the reader ("only in legacy docs, where it means the old flow"), not a
 * word to avoid; a dash or "none" says there is nothing to avoid.
 */

import { normalizeSurface } from '../normalize';
import { plainText } from './inlineText';

const QUOTED = /"([^"\n]+)"|\u201C([^\u201C\u201D\n]+)\u201D/g;
const MAX_WORDS = 4;
const NOTHING = /^(?:none|n\/?a|nothing|-+|\u2014|\u2013)$/i;
// An item that tells the reader what to do ("use X instead", "only in legacy docs") is a note.
const INSTRUCTION = /^(?:use|avoid|prefer|see|only|never|not|do|don't|instead|except|unless|when|if)\b/i;

export function wordsToAvoid(cell: string): string[] {
  const quoted: string[] = [];
  for (const match of cell.matchAll(QUOTED)) quoted.push(match[1] ?? match[2] ?? '');
  const plain = plainText(cell);
  // Without quotes, a sentence is a note ("Historic name; kept in old ADRs.").
  if (quoted.length === 0 && /[.!?]$|[.!?]\s+\p{Lu}/u.test(plain)) return [];
  const items = quoted.length > 0 ? quoted : plain.split(/[,;]/);
  const out: string[] = [];
  for (const item of items) {
    const text = plainText(item).replace(/^[\s'\u2018\u2019]+|[\s'\u2018\u2019.]+$/g, '');
    if (text === '' || NOTHING.test(text) || (quoted.length === 0 && INSTRUCTION.test(text))) continue;
    const words = text.split(/\s+/);
    if (words.length > MAX_WORDS) continue;
    const surface = normalizeSurface(text);
    if (surface && !out.includes(surface)) out.push(surface);
  }
  return out;
}
