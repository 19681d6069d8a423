/**
 * The glossary entries of a term in one workspace folder: every sense with that surface, in
 * resolution order, with where its `surface:` is written (seed files), for references, symbols
 * and rename. Plain data in (a snapshot's senses and the seed files' texts), plain data out.
 */

import { SCOPE_ORDER, type ScopeId, type Sense } from '../core/types';
import type { Range } from '../core/types';
import { fileUri } from './paths';
import { seeAlsoTerms, seedSurfaces, type SeedSurface } from './seedSurfaces';

/** What this needs of a folder's glossary state (a WorkspaceSnapshot fits). */
export interface GlossarySources {
  readonly root: string;
  readonly seeds: readonly { path: string; scope: ScopeId; bundled: boolean; seed: { senses: readonly Sense[] } }[];
  /** The senses the logs add, as the glossaries take them (`WorkspaceSnapshot.eventSenses`). */
  readonly eventSenses: readonly Sense[];
}

export interface TermEntry {
  sense: Sense;
  /** Where the entry's surface is written (the entry itself when its surface cannot be found); none for a sense only the event log holds. */
  location?: { uri: string; range: Range };
  /** The written surface, in a seed file the workspace holds (not the bundled core). */
  written?: SeedSurface & { file: string };
}

/**
 * The seed files' texts by path (open buffers first), and their written surfaces, parsed once per
 * text: `memo` (kept by the caller from one request to the next) holds the last parse of each file.
 */
export class SeedTexts {
  constructor(
    private readonly texts: ReadonlyMap<string, string>,
    private readonly memo: Map<string, { text: string; surfaces: SeedSurface[] }> = new Map(),
  ) {}

  surfaces(file: string): SeedSurface[] {
    const text = this.texts.get(file);
    if (text === undefined) return [];
    const last = this.memo.get(file);
    if (last?.text === text) return last.surfaces;
    const surfaces = seedSurfaces(text);
    this.memo.set(file, { text, surfaces });
    return surfaces;
  }

  /** The `see_also` term references written in a seed file (read when asked: only a rename needs them). */
  seeAlso(file: string): SeedSurface[] {
    const text = this.texts.get(file);
    return text === undefined ? [] : seeAlsoTerms(text);
  }
}

/** Every sense of `term` (normalized) in the folder: seed entries first by scope, then senses only the log holds. */
export function termEntries(sources: GlossarySources, texts: SeedTexts, term: string): TermEntry[] {
  const out: TermEntry[] = [];
  const seedKeys = new Set<string>();
  for (const seed of sources.seeds) {
    for (const sense of seed.seed.senses) {
      const origin = sense.origin;
      if (sense.surface !== term || (origin.kind !== 'seed' && origin.kind !== 'bundled')) continue;
      seedKeys.add(`${sense.scope}\u0000${sense.definition}`);
      const written = seed.bundled ? undefined : texts.surfaces(seed.path).find((s) => s.index === origin.index);
      // (The bundled core is not read for its text: its entry's `surface:` value, as parsed, else the entry.)
      const location = { uri: fileUri(origin.file), range: written?.range ?? origin.fields?.surface ?? origin.range };
      out.push({ sense, location, ...(written ? { written: { ...written, file: seed.path } } : {}) });
    }
  }
  for (const sense of sources.eventSenses) {
    // (A log record of a seed entry is that entry, as the snapshot reads it.)
    if (sense.surface !== term || seedKeys.has(`${sense.scope}\u0000${sense.definition}`)) continue;
    // A sense only the log holds has no place to show; one a spec defines has its entry there.
    const origin = sense.origin;
    out.push(origin.kind === 'event' ? { sense } : { sense, location: { uri: fileUri(origin.file), range: origin.range } });
  }
  return out.sort((a, b) => SCOPE_ORDER.indexOf(a.sense.scope) - SCOPE_ORDER.indexOf(b.sense.scope));
}

/** Every surface the folder defines (seed files and log), with its senses. */
export function allTerms(sources: GlossarySources): Map<string, Sense[]> {
  const out = new Map<string, Sense[]>();
  const add = (sense: Sense) => {
    const list = out.get(sense.surface);
    if (list) list.push(sense);
    else out.set(sense.surface, [sense]);
  };
  const seedKeys = new Set<string>();
  for (const seed of sources.seeds) {
    for (const sense of seed.seed.senses) {
      seedKeys.add(`${sense.scope}\u0000${sense.surface}\u0000${sense.definition}`);
      add(sense);
    }
  }
  for (const sense of sources.eventSenses) if (!seedKeys.has(`${sense.scope}\u0000${sense.surface}\u0000${sense.definition}`)) add(sense);
  return out;
}
