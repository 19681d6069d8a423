/**
 * Renaming a glossary term: the plan of one `textDocument/rename` — the `surface:` of every sense
 * of the term in the scope that decides it, the `see_also` references to it in that scope's
 * glossary file, and every use of the term in the folder's specs,
 * written in each use's case and number — or the reason it is refused. Plain data in, plain data
 * out; the LSP layer turns the plan into a WorkspaceEdit (and records it once it is saved).
 */

import type { Engine } from '../core/check/engine';
import { METHOD_ORDER } from '../core/check/context';
import { GlossaryIndex } from '../core/glossary';
import { normalizeSurface } from '../core/normalize';
import { writeInForm, type WrittenForm } from '../core/terms/form';
import type { TermUse } from '../core/terms/termIndex';
import type { Range, ScopeId, Sense } from '../core/types';
import { yamlScalar } from './seedSurfaces';
import { allTerms, termEntries, type GlossarySources, type SeedTexts, type TermEntry } from './termEntries';

export interface RenameEdit {
  /** Absolute path of the file. */
  file: string;
  range: Range;
  newText: string;
}

export type RenamePlan =
  | { ok: false; message: string }
  | {
      ok: true;
      term: string;
      newSurface: string;
      scope: ScopeId;
      /** The senses renamed (as they were). */
      senses: Sense[];
      edits: RenameEdit[];
      /** How many of the edits are `see_also` references in the scope's glossary file. */
      seeAlso: number;
    };

/** Whether a term can be renamed at all (prepareRename): the scope that decides it, or why not. */
export function renameTarget(sources: GlossarySources, seedTexts: SeedTexts, term: string, use: TermUse | undefined): { ok: true; scope: ScopeId; entries: TermEntry[] } | { ok: false; message: string } {
  if (use?.synonym) {
    return { ok: false, message: `'${use.surface}' is a synonym to avoid of '${use.term}', not a term of its own: rename '${use.term}' where it is written, or replace this use with the quick fix.` };
  }
  const entries = termEntries(sources, seedTexts, term);
  if (entries.length === 0) return { ok: false, message: `'${term}' is not defined in any glossary of this workspace, so there is nothing to rename.` };
  const scope = entries[0]!.sense.scope;
  const inScope = entries.filter((e) => e.sense.scope === scope);
  const ownVocabulary = inScope.find((e) => e.sense.origin.kind !== 'seed' && e.sense.origin.kind !== 'bundled' && e.sense.origin.kind !== 'event');
  if (ownVocabulary) {
    const origin = ownVocabulary.sense.origin;
    const where = 'file' in origin ? ` (${baseName(origin.file)}:${origin.range.start.line + 1})` : '';
    // (Its section may be Key Entities, Terminology, …: named by what it is, the spec's own vocabulary.)
    const mission = origin.kind === 'spec' ? `mission ${origin.missionSlug}` : 'its mission';
    return { ok: false, message: `'${term}' is defined in the spec of ${mission}${where}, in its vocabulary section: rename it there. Renaming a mission's own term across the workspace is not supported.` };
  }
  const bundled = inScope.find((e) => e.sense.origin.kind === 'bundled');
  if (bundled) {
    return { ok: false, message: `'${term}' is defined by the bundled Spec Kitty core glossary, which is read-only: copy it to .kittify/glossaries/spec_kitty_core.yaml to change its terms.` };
  }
  const notWritten = inScope.find((e) => e.sense.origin.kind === 'seed' && e.written === undefined);
  if (notWritten) {
    return { ok: false, message: `The surface of entry ${(notWritten.sense.origin as { index: number }).index + 1} of '${term}' in ${scope} is not written as a plain value (an alias, or a file that does not parse now): rename it in the file.` };
  }
  return { ok: true, scope, entries: inScope };
}

/**
 * The plan of renaming `term` to `newName`: refused when the new name is no surface, is already
 * a term or a synonym to avoid (the rename would merge two terms), or would not be read back as
 * the new term where a use writes it (a plural SPEC §4 cannot singularize, characters that are
 * not prose words). `engine` checks that with the extraction the specs are checked with.
 */
export function planRename(
  engine: Engine,
  sources: GlossarySources,
  seedTexts: SeedTexts,
  term: string,
  use: TermUse | undefined,
  newName: string,
  uses: readonly TermUse[],
  /** The terms missions define in their own specs, with those missions (a name taken there too). */
  missionTerms: ReadonlyMap<string, readonly string[]> = new Map(),
): RenamePlan {
  const target = renameTarget(sources, seedTexts, term, use);
  if (!target.ok) return target;
  const newSurface = normalizeSurface(newName);
  if (newSurface === '') return { ok: false, message: 'The new name is empty.' };
  if (newSurface === term) return { ok: false, message: `'${newName.trim()}' is the term '${term}' itself: nothing to rename.` };
  // (An underscore or a backtick makes an identifier: the glossary walk would still match it, but
  // the specs' prose would read as code.)
  if (/[_`]/.test(newSurface)) return { ok: false, message: `'${newName.trim()}' is not made of prose words (an identifier; code, paths, URLs and ids are never terms): choose a name written as words.` };
  const terms = allTerms(sources);
  const existing = terms.get(newSurface);
  if (existing) {
    const scopes = [...new Set(existing.map((s) => s.scope))].join(', ');
    return { ok: false, message: `'${newSurface}' is already a glossary term (${scopes}, ${existing.length} ${existing.length === 1 ? 'sense' : 'senses'}): renaming '${term}' to it would merge the two terms. Edit the entries by hand if that is what you mean.` };
  }
  const definedBy = missionTerms.get(newSurface);
  if (definedBy && definedBy.length > 0) {
    return { ok: false, message: `'${newSurface}' is already a term mission ${definedBy.join(', ')} defines in its own spec: renaming '${term}' to it would merge the two terms in ${definedBy.length === 1 ? "that mission's" : "those missions'"} documents.` };
  }
  for (const [surface, senses] of terms) {
    const listing = senses.find((s) => s.status !== 'deprecated' && s.synonymsToAvoid.includes(newSurface));
    if (listing) return { ok: false, message: `'${newSurface}' is a synonym to avoid of '${surface}' (${listing.scope}): renaming '${term}' to it would make every use of it a word to avoid.` };
  }

  const direct = uses.filter((u) => !u.synonym && u.term === term);
  const written = new Map<WrittenForm, string>();
  for (const form of new Set([0, ...direct.map((u) => u.form)])) {
    const text = writeInForm(newSurface, form);
    if (text === undefined) return { ok: false, message: `'${term}' is used in the plural, and no plural of '${newSurface}' reads back as it (SPEC §4's rules, docs/configuration.md): those uses would no longer be the term. Choose another name or reword them first.` };
    if (!readsAs(engine, text, newSurface)) return { ok: false, message: `'${text}' would not be read as the term '${newSurface}' in a spec (it is not made of prose words: code, paths, URLs and ids are never terms).` };
    written.set(form, text);
  }

  const edits: RenameEdit[] = [];
  for (const entry of target.entries) {
    if (!entry.written) continue; // a sense only the log holds: recorded, nothing to edit
    if (edits.some((e) => e.file === entry.written!.file && e.range.start.line === entry.written!.range.start.line && e.range.start.character === entry.written!.range.start.character)) continue;
    edits.push({ file: entry.written.file, range: entry.written.range, newText: yamlScalar(newSurface, entry.written.style) });
  }
  // The scope's own `see_also` references to the term follow it (other scopes may mean a sense of
  // the same surface there, which is not renamed).
  let seeAlso = 0;
  for (const seed of sources.seeds) {
    if (seed.scope !== target.scope || seed.bundled) continue;
    for (const reference of seedTexts.seeAlso(seed.path)) {
      if (reference.surface !== term) continue;
      edits.push({ file: seed.path, range: reference.range, newText: yamlScalar(newSurface, reference.style) });
      seeAlso++;
    }
  }
  for (const u of direct) edits.push({ file: u.document, range: u.range, newText: written.get(u.form)! });
  if (edits.length === 0) {
    // Nothing for the editor to apply, so no save would ever show the rename (and record it).
    return { ok: false, message: `'${term}' is defined only in the event log and no spec or glossary file writes it: renaming it would change no file. Use the new name in a spec and define it there with the quick fix instead.` };
  }
  return { ok: true, term, newSurface, scope: target.scope, senses: target.entries.map((e) => e.sense), edits, seeAlso };
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** Whether `text` in a sentence of prose is one occurrence of `surface`, as the engine reads specs. */
function readsAs(engine: Engine, text: string, surface: string): boolean {
  const prefix = 'We use the ';
  const found = termOccurrences(engine, `${prefix}${text} here.\n`, [surface]).get(surface) ?? [];
  const range = found.length === 1 ? found[0]! : undefined;
  return range !== undefined && range.start.line === 0 && range.start.character === prefix.length && range.end.character === prefix.length + text.length;
}

/**
 * Where a markdown text uses each of `surfaces` (prose only, longest match first, as the engine
 * reads specs) when they are the only glossary terms: how a rename's edit shows in a saved spec.
 */
export function termOccurrences(engine: Engine, text: string, surfaces: readonly string[]): Map<string, Range[]> {
  const glossary = new GlossaryIndex(surfaces.map((surface) => ({ surface, scope: 'team_domain', definition: 'x', confidence: 1, status: 'active', synonymsToAvoid: [], seeAlso: [], origin: { kind: 'event', eventId: '', missionId: '', actorId: '', timestamp: '', source: '' } })));
  const report = engine.checkDocument(text, { glossary, disabledExtractors: METHOD_ORDER.filter((m) => m !== 'glossary_match') });
  return new Map(surfaces.map((surface) => [surface, report.candidates.find((c) => c.surface === surface)?.occurrences ?? []]));
}
