/**
 * What a vocabulary says, as a string: two vocabularies with the same key give the same senses
 * (wherever their entries are in the text).
 */

import type { DocumentVocabulary } from './types';

export function contentKey(vocabulary: Pick<DocumentVocabulary, 'entries' | 'sections'>): string {
  const parts: string[] = [];
  for (const entry of vocabulary.entries) {
    const section = vocabulary.sections[entry.section]?.name ?? '';
    parts.push(`${entry.surface}\u0001${entry.aliases.join('\u0002')}\u0001${entry.definition}\u0001${entry.avoid.join('\u0002')}\u0001${section}`);
  }
  return parts.join('\u0000');
}
