/**
 * References, document highlight and workspace symbols of glossary terms, over a folder's term
 * index (core/terms/termIndex.ts) and its glossary entries. Plain data in, LSP shapes out.
 */

import path from 'node:path';
import { DocumentHighlightKind, SymbolKind, type DocumentHighlight, type Location, type SymbolInformation } from 'vscode-languageserver-types';
import type { TermIndex, TermUse } from '../core/terms/termIndex';
import { SCOPE_ORDER, type Position, type Sense } from '../core/types';
import { fileUri } from './paths';
import { seedSurfaceAt } from './seedSurfaces';
import { allTerms, termEntries, type GlossarySources, type SeedTexts } from './termEntries';

/** The term under a position: in a spec (from the index), or on a `surface:` of a seed file. */
export function termAtPosition(index: TermIndex, file: string, position: Position, seedTexts: SeedTexts, isSeedFile: boolean): { term: string; use?: TermUse } | undefined {
  if (isSeedFile) {
    const surface = seedSurfaceAt(seedTexts.surfaces(file), position);
    return surface ? { term: surface.surface } : undefined;
  }
  const use = index.occurrenceAt(file, position);
  return use ? { term: use.term, use } : undefined;
}

/**
 * Every use of `term` in the folder's specs (its synonyms to avoid included) — in the documents
 * `inScope` takes, when given — sorted by file and position, then, with `includeDeclaration`, its
 * glossary entries (where each `surface:` is).
 */
export function termReferences(index: TermIndex, sources: GlossarySources, seedTexts: SeedTexts, term: string, includeDeclaration: boolean, inScope?: (document: string) => boolean): Location[] {
  // (Each document's uses come in position order: only the documents are sorted.)
  const out: Location[] = [];
  const own = ownUses(sources);
  for (const document of index.documentsUsing(term).sort()) {
    if (inScope && !inScope(document)) continue;
    const uri = fileUri(document);
    for (const use of index.usesIn(document, term)) if (own(use)) out.push({ uri, range: use.range });
  }
  if (includeDeclaration) for (const entry of termEntries(sources, seedTexts, term)) if (entry.location) out.push(entry.location);
  return out;
}

/**
 * Whether a use the index lists for a term is that term's: its surface, or a synonym to avoid of
 * it that is no term itself (one that is resolves as that term, and its uses are that term's).
 */
function ownUses(sources: GlossarySources): (use: TermUse) => boolean {
  let terms: Map<string, Sense[]> | undefined;
  return (use) => !use.synonym || (terms ??= allTerms(sources)).get(use.surface)?.some((s) => s.status !== 'deprecated') !== true;
}

/** The term's uses in one spec (Text), or in a seed file the entries with its surface (Write). */
export function termHighlights(index: TermIndex, file: string, term: string, seedTexts: SeedTexts, isSeedFile: boolean, sources: GlossarySources): DocumentHighlight[] {
  if (isSeedFile) return seedTexts.surfaces(file).filter((s) => s.surface === term).map((s) => ({ range: s.range, kind: DocumentHighlightKind.Write }));
  const own = ownUses(sources);
  return index
    .usesIn(file, term)
    .filter(own)
    .map((use) => ({ range: use.range, kind: DocumentHighlightKind.Text }));
}

/** Most symbols one answer lists (a client asks again as the query grows). */
const MAX_SYMBOLS = 1000;

/**
 * The glossary terms of every folder matching `query` (letters in order, case-insensitive, as
 * other servers match symbols): one symbol per surface and scope, its container naming the scope,
 * the statuses and the number of senses; then one per term a mission's spec defines (`missionSenses`:
 * its Domain Language, Key Entities, …), at the spec's entry, its container naming the mission
 * and the file. Best matches first: whole word, prefix, substring, then scattered letters; a
 * mission's term before the glossaries' of the same name (scope order).
 */
export function termSymbols(folders: readonly { sources: GlossarySources; seedTexts: SeedTexts; missionSenses?: readonly Sense[] }[], query: string, eventLog: (root: string, missionId: string) => string): SymbolInformation[] {
  const wanted = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const scored: { score: number; rank: number; symbol: SymbolInformation }[] = [];
  const missionRank = SCOPE_ORDER.indexOf('mission_local');
  for (const { sources, seedTexts, missionSenses = [] } of folders) {
    for (const sense of missionSenses) {
      if (sense.origin.kind !== 'spec') continue;
      const score = matchScore(sense.surface, wanted);
      if (score === undefined) continue;
      const { file, range, missionSlug } = sense.origin;
      // (An alias is a symbol of its own, named after the term it stands for.)
      const alias = sense.seeAlso.length > 0 ? ` · alias of ${sense.seeAlso[0]}` : '';
      scored.push({ score, rank: missionRank, symbol: { name: sense.surface, kind: SymbolKind.Key, location: { uri: fileUri(file), range }, containerName: `mission_local · ${missionSlug} ${path.basename(file)}${alias}` } });
    }
    for (const [surface, senses] of allTerms(sources)) {
      const score = matchScore(surface, wanted);
      if (score === undefined) continue;
      const entries = termEntries(sources, seedTexts, surface);
      const scopes = [...new Set(senses.map((s) => s.scope))];
      for (const scope of scopes) {
        const inScope = entries.filter((e) => e.sense.scope === scope);
        const statuses = [...new Set(inScope.map((e) => e.sense.status))].join(', ');
        const location = inScope.find((e) => e.location)?.location ?? { uri: fileUri(eventLog(sources.root, missionOf(inScope[0]?.sense))), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
        const count = inScope.length;
        scored.push({ score, rank: SCOPE_ORDER.indexOf(scope), symbol: { name: surface, kind: SymbolKind.Key, location, containerName: `${scope} · ${statuses} · ${count} ${count === 1 ? 'sense' : 'senses'}` } });
      }
    }
  }
  scored.sort((a, b) => a.score - b.score || a.symbol.name.localeCompare(b.symbol.name) || a.rank - b.rank);
  return scored.slice(0, MAX_SYMBOLS).map((s) => s.symbol);
}

/** Lower is better; undefined: no match. */
export function matchScore(name: string, query: string): number | undefined {
  if (query === '') return 0;
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  const at = name.indexOf(query);
  if (at !== -1) return name.charAt(at - 1) === ' ' || name.charAt(at - 1) === '-' ? 2 : 3;
  // Letters in order ("wpk" → work package), spaces in the query ignored.
  return subsequence(name, query.replace(/ /g, '')) ? 4 : undefined;
}

function subsequence(name: string, letters: string): boolean {
  let i = 0;
  for (const ch of name) if (i < letters.length && letters[i] === ch) i++;
  return i === letters.length;
}

/** The mission whose log holds a sense only the log knows ("default" otherwise). */
function missionOf(sense: Sense | undefined): string {
  return sense?.origin.kind === 'event' && sense.origin.missionId !== '' ? sense.origin.missionId : 'default';
}
