/**
 * Where the entry behind a sense of a mission's own vocabulary (SPEC §3) is now. A glossary made
 * with a spec's senses is kept for as long as the spec says the same (core/check/engineState.ts),
 * while lines may be added above the entry: the entry is looked up in the document's own
 * vocabulary (its last check) or in the spec as last read, by the sense's surface.
 */

import type { DocumentReport } from '../core/check/check';
import type { VocabularySource } from '../core/missionVocabulary/types';
import type { Range, Sense } from '../core/types';
import { fileUri } from './paths';

export type EntryLocator = (sense: Sense) => { uri: string; range: Range } | undefined;

/**
 * `documentPath`: the checked document; `current`: the current vocabulary of another file (the
 * language server's kept specs), if known.
 */
export function entryLocator(documentPath: string, report: DocumentReport, current?: (file: string) => VocabularySource | undefined): EntryLocator {
  return (sense) => {
    const origin = sense.origin;
    if (origin.kind !== 'spec') return undefined;
    const vocabulary = origin.file === documentPath ? report.vocabulary : (current?.(origin.file)?.vocabulary ?? report.missionVocabulary.find((s) => s.file === origin.file)?.vocabulary);
    const entry = vocabulary?.entries.find((e) => e.surface === sense.surface || e.aliases.includes(sense.surface));
    const range = entry && vocabulary ? vocabulary.lines.rangeOf(entry.termStart, entry.termEnd) : origin.range;
    return { uri: fileUri(origin.file), range };
  };
}
