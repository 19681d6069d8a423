/**
 * Vocabulary entries → `mission_local` senses (SPEC §3): confidence 1.0, status active, origin the
 * entry in its document. Entries of one surface in one document are one sense, the Domain
 * Language definition first (a spec often lists a word under Key Entities too), never an
 * ambiguity. Words to avoid are the entries' own, less the words the vocabulary's definitions use
 * (the author writes them, so they are not banned: "file" in "a generated file") and the words
 * it defines.
 */

import { singularize } from '../normalize';
import type { Sense } from '../types';
import type { VocabularyEntry, VocabularySource } from './types';

export interface VocabularySenses {
  /** In order: a surface defined by an earlier source keeps that source's sense. */
  senses: Sense[];
  /** Tells two lists of senses apart by what they say (not where their entries are). */
  key: string;
}

/** The senses of the sources, the first source's first (a document's own vocabulary before its mission spec's). */
export function vocabularySenses(sources: readonly VocabularySource[]): VocabularySenses {
  const senses: Sense[] = [];
  const taken = new Set<string>();
  const keys: string[] = [];
  for (const source of sources) {
    for (const sense of sourceSenses(source)) {
      if (taken.has(sense.surface)) continue;
      taken.add(sense.surface);
      senses.push(sense);
      keys.push(`${sense.surface}\u0001${sense.definition}\u0001${sense.synonymsToAvoid.join('\u0002')}\u0001${source.file}\u0001${source.missionId}\u0001${source.missionSlug}`);
    }
  }
  return { senses, key: keys.join('\u0000') };
}

/** The sense a source's own entry for `term` gives (not an alias standing for another term), if it has one. */
export function entrySense(source: VocabularySource, term: string): Sense | undefined {
  return sourceSenses(source).find((s) => s.surface === term && s.seeAlso.length === 0);
}

/** One document's senses: a sense per surface, then one per alias not defined on its own. */
function sourceSenses(source: VocabularySource): Sense[] {
  const { vocabulary } = source;
  const bySurface = new Map<string, VocabularyEntry[]>();
  for (const entry of vocabulary.entries) {
    const list = bySurface.get(entry.surface);
    if (list) list.push(entry);
    else bySurface.set(entry.surface, [entry]);
  }
  const defined = new Set<string>(bySurface.keys());
  for (const entry of vocabulary.entries) for (const alias of entry.aliases) defined.add(alias);
  // (Only worked out when some entry has words to avoid.)
  let used: string | undefined;
  const usedByDefinitions = (word: string) => usedIn((used ??= definitionWords(vocabulary.entries)), word);
  const out: Sense[] = [];
  const aliasSenses: Sense[] = [];
  for (const [surface, entries] of bySurface) {
    const primary = entries.find((e) => vocabulary.sections[e.section]?.name === 'domain language') ?? entries[0]!;
    const avoid: string[] = [];
    for (const entry of entries) {
      for (const word of entry.avoid) if (!avoid.includes(word) && !defined.has(word) && !usedByDefinitions(word)) avoid.push(word);
    }
    const origin: Sense['origin'] = { kind: 'spec', file: source.file, range: vocabulary.lines.rangeOf(primary.termStart, primary.termEnd), missionId: source.missionId, missionSlug: source.missionSlug };
    const sense: Sense = { surface, scope: 'mission_local', definition: primary.definition, confidence: 1, status: 'active', synonymsToAvoid: avoid, seeAlso: [], origin };
    out.push(sense);
    for (const entry of entries) {
      for (const alias of entry.aliases) {
        if (bySurface.has(alias) || aliasSenses.some((s) => s.surface === alias)) continue;
        aliasSenses.push({ ...sense, surface: alias, synonymsToAvoid: [], seeAlso: [surface] });
      }
    }
  }
  return [...out, ...aliasSenses];
}

const WORD = /[\p{L}\p{N}]+(?:[-'\u2019][\p{L}\p{N}]+)*/gu;

/** The words of a text, lowercase and singular, between spaces (" a generated file "). */
function wordsOf(text: string): string {
  const words = text.toLowerCase().match(WORD) ?? [];
  return ` ${words.map(singularize).join(' ')} `;
}

function definitionWords(entries: readonly VocabularyEntry[]): string {
  return entries.map((e) => wordsOf(e.definition)).join('|');
}

/** Whether the definitions use `word` (a normalized surface, one or more words). */
function usedIn(definitions: string, word: string): boolean {
  return definitions.includes(wordsOf(word));
}
