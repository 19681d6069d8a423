/**
 * Which headings open a vocabulary section (SPEC §3): "Domain Language", "Key Entities",
 * "Terminology", "Glossary" or "Definitions" at level 2–4, with an optional number before
 * ("3.", "2.1", "A.") and an optional note after in parentheses ("*(include if feature involves
 * data)*", "(Optional)").
 */

import { plainText } from './inlineText';
import type { SectionName } from './types';

const NAMES: readonly SectionName[] = ['domain language', 'key entities', 'terminology', 'glossary', 'definitions'];

const NUMBERING = /^(?:\d+(?:\.\d+)*\.?|[A-Za-z]\.|[IVXivx]+\.)\s+/;
const TRAILING_NOTE = /\s*\([^()]*\)\s*$/;

/** The section a heading of `level` with this (raw) text opens, if any. */
export function sectionName(headingText: string, level: number): SectionName | undefined {
  if (level < 2 || level > 4 || !MAY_HOLD.test(headingText)) return undefined;
  let text = plainText(headingText).replace(NUMBERING, '');
  // "(Optional)", "(include if feature involves data)" — possibly more than one.
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(TRAILING_NOTE, '');
  }
  const name = text.replace(/[:.]\s*$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return (NAMES as readonly string[]).includes(name) ? (name as SectionName) : undefined;
}

/** Whether any section name occurs in the text at all (most documents can skip the block scan). */
export function mayHoldSections(text: string): boolean {
  return MAY_HOLD.test(text);
}

const MAY_HOLD = /domain\s+language|key\s+entities|terminology|glossary|definitions/i;
