/**
 * "Inconsistent" usage of a resolved term (SPEC §6): a sentence that says "X is not a …",
 * "unlike X", or "X means/is a …" while sharing under 30% of the definition's keywords.
 */

import { normalizeSurface } from '../normalize';
import { FUNCTION_WORDS } from '../words';

const NEGATION_AFTER = /^\s+(?:is|are)\s+not\s+(?:an?|the)\b|^\s+(?:isn['\u2019]t|aren['\u2019]t)\s+(?:an?|the)\b/i;
const UNLIKE_BEFORE = /\bunlike\s+(?:the\s+|an?\s+)?$/i;
const REDEFINITION_AFTER = /^\s+(?:means|refers\s+to|(?:is|are)\s+(?:an?|the))\s+(.+)$/is;
const KEYWORD = /[A-Za-z][A-Za-z0-9_-]{2,}/g;
const SENTENCE_LIMIT = 400;

export const KEYWORD_OVERLAP_THRESHOLD = 0.3;

/** Content words of a text, normalized, without function words. */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.match(KEYWORD) ?? []) {
    const lower = word.toLowerCase();
    if (!FUNCTION_WORDS.has(lower)) out.add(normalizeSurface(lower));
  }
  return out;
}

/**
 * True when the sentence around the occurrence [start, end) of the term in `text` (the masked
 * prose) contradicts `definition`.
 */
export function contradictsDefinition(text: string, start: number, end: number, definitionKeywords: ReadonlySet<string>): boolean {
  // Cheap pre-checks: every pattern needs "unlike" just before or is/are/isn't/means/refers after.
  const next = /^\s+([a-z])/i.exec(text.slice(end, end + 4));
  const before = text.slice(Math.max(0, start - 16), start).toLowerCase();
  if (!(next && 'iamr'.includes(next[1]!.toLowerCase())) && !before.includes('unlike')) return false;
  const after = sentenceAfter(text, end);
  if (NEGATION_AFTER.test(after)) return true;
  if (UNLIKE_BEFORE.test(sentenceBefore(text, start))) return true;
  const redefinition = REDEFINITION_AFTER.exec(after);
  if (!redefinition || definitionKeywords.size === 0) return false;
  const said = keywords(redefinition[1]!);
  let shared = 0;
  for (const word of definitionKeywords) if (said.has(word)) shared++;
  return shared / definitionKeywords.size < KEYWORD_OVERLAP_THRESHOLD;
}

function sentenceAfter(text: string, from: number): string {
  const limit = Math.min(text.length, from + SENTENCE_LIMIT);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if ((c === 46 || c === 33 || c === 63) && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) return text.slice(from, i);
    if (c === 10 && text.charCodeAt(i + 1) === 10) return text.slice(from, i);
    if (c === 0x1f) return text.slice(from, i);
  }
  return text.slice(from, limit);
}

function sentenceBefore(text: string, to: number): string {
  const limit = Math.max(0, to - SENTENCE_LIMIT);
  for (let i = to - 1; i >= limit; i--) {
    const c = text.charCodeAt(i);
    if ((c === 46 || c === 33 || c === 63) && /\s/.test(text[i + 1] ?? ' ')) return text.slice(i + 1, to);
    if (c === 10 && text.charCodeAt(i - 1) === 10) return text.slice(i + 1, to);
  }
  return text.slice(limit, to);
}
