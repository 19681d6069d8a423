/**
 * `spec-glossary uses <term> [paths…] [--format text|json]`: where a glossary term is used — every
 * occurrence in the documents (checked as `check` checks them; code is never a use), the uses of
 * its synonyms to avoid marked as such — and its glossary entries. The language server's
 * references, for a terminal or a script; and, beyond them, the places where a document whose
 * glossary lacks the term writes it (another mission's word, marked), the uses `candidates`
 * counts when it proposes a term. Writes nothing; exit 0 unless the arguments or a file are
 * unusable (2).
 */

import { createEngine, type Engine } from '../../core/check/engine';
import { definedTermsCheck } from '../../core/missionVocabulary/candidates';
import { missionName } from '../../core/check/wording';
import { normalizeSurface, termNamed } from '../../core/normalize';
import { glossaryOccurrences } from '../../core/terms/termIndex';
import { LineIndex } from '../../core/text';
import type { Sense } from '../../core/types';
import { loadCommonWords } from '../../node/packageFiles';
import { EXIT_OK, UsageError } from '../errors';
import { collectMarkdownFiles } from '../files';
import { relativePath } from '../output/json';
import { shown } from '../output/terminal';
import { formatProblems, PLAIN } from '../output/text';
import { runCheck, type CheckedDocument } from '../runCheck';
import type { CliIo, ParsedCommand } from '../types';

export const USES_OPTIONS = {
  format: { type: 'string' },
} as const;

interface Use {
  path: string;
  /** Zero-based, as in `check --format json`. */
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** As written in the document. */
  text: string;
  /** Set when this is a synonym to avoid of the term (the synonym's surface). */
  synonym_to_avoid?: string;
  /**
   * Set when some glossary holds the term but not this document's (a word another mission's spec
   * defines): the id of the mission whose documents use it without a definition.
   */
  not_in_glossary_of?: string;
}

interface Entry {
  scope: string;
  status: string;
  definition: string;
  /** Where it is written: a seed file and 1-based line, or the mission log that holds it. */
  source: string;
}

export async function usesCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  const format = (values['format'] as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json (got '${format}')`);
  const [written, ...paths] = positionals;
  if (normalizeSurface(written ?? '') === '') throw new UsageError('uses needs a term: spec-glossary uses <term> [paths…]');
  const engine = createEngine({ commonWords: loadCommonWords() });
  const run = await runCheck(collectMarkdownFiles(paths.length > 0 ? paths : ['.'], io.cwd), {}, undefined, engine);
  // ("Cafés" names `café` where a glossary holds that, as the word does in a document.)
  const term = termNamed(written!, (named) => run.documents.some((d) => d.report.glossary.has(named)));
  if (run.problems.length > 0) io.stderr(formatProblems(run.problems, io.cwd, PLAIN));

  const uses: Use[] = [];
  const entries = new Map<string, Entry>();
  /** How people name each mission of a use outside its glossary (its folder), by id. */
  const missions = new Map<string, string>();
  /** The terms that list it as a synonym to avoid, where a glossary does. */
  const preferred = new Set<string>();
  const lookFor = definedTermsCheck([{ term, mission: '', path: '', line: 1, definition: term }]);
  for (const document of run.documents) {
    // (The glossary it was checked against: the folder's, with its mission's own vocabulary.)
    const glossary = document.report.glossary;
    for (const sense of glossary.preferredFor(term)) preferred.add(sense.surface);
    for (const sense of glossary.sensesOf(term)) {
      const entry = entryOf(sense, io.cwd);
      entries.set(`${entry.scope}\u0000${entry.definition}\u0000${entry.source}`, entry);
    }
    const { found, known } = usesIn(document, term, engine, lookFor);
    if (found.length === 0) continue;
    const lines = new LineIndex(document.text);
    const path = relativePath(io.cwd, document.absolutePath);
    const { missionId, missionSlug } = document.identity;
    if (!known) missions.set(missionId, missionName(missionId, missionSlug));
    for (const o of found) {
      const text = document.text.slice(lines.offsetAt(o.range.start), lines.offsetAt(o.range.end));
      uses.push({ path, range: o.range, text, ...(o.surface !== term ? { synonym_to_avoid: o.surface } : {}), ...(known ? {} : { not_in_glossary_of: missionId }) });
    }
  }
  // A word no glossary holds is outside all of them: its uses are not marked.
  if (entries.size === 0) for (const use of uses) delete use.not_in_glossary_of;
  const listed = [...entries.values()];
  io.stdout(format === 'json' ? JSON.stringify({ term, uses, entries: listed }, null, 2) : formatUses(term, uses, listed, run.documents.length, missions, [...preferred]));
  return EXIT_OK;
}

/**
 * The term's uses in one checked document, and whether its glossary knows the term (a synonym to
 * avoid included: its uses are the preferred term's, `uses <preferred>`). Where the glossary
 * lacks it (another mission's spec defines it, or nothing does), its uses are still uses: found
 * by a check against a glossary of the term alone (`lookFor`), as `candidates` counts them, so
 * the two commands agree on where a term is written.
 */
function usesIn(document: CheckedDocument, term: string, engine: Engine, lookFor: ReturnType<typeof definedTermsCheck>): { found: ReturnType<typeof glossaryOccurrences>; known: boolean } {
  const glossary = document.report.glossary;
  const found = glossaryOccurrences(document.report, glossary).filter((o) => o.term === term);
  if (glossary.has(term) || found.length > 0) return { found, known: true };
  const report = engine.checkDocument(document.text, { ...lookFor, ...engine.vocabulary(document.snapshot.config.ignoreWords) });
  return { found: glossaryOccurrences(report, report.glossary).filter((o) => o.term === term), known: false };
}

function entryOf(sense: Sense, cwd: string): Entry {
  const origin = sense.origin;
  const source =
    origin.kind === 'event'
      ? `event log of mission ${origin.missionId || '(none)'}`
      : origin.kind === 'bundled'
        ? `bundled core glossary:${origin.range.start.line + 1}`
        : `${relativePath(cwd, origin.file)}:${origin.range.start.line + 1}`;
  return { scope: sense.scope, status: sense.status, definition: sense.definition, source };
}

/** `path:line:col  as written` per use (synonyms marked), then the entries and a summary. */
export function formatUses(term: string, uses: readonly Use[], entries: readonly Entry[], documents: number, missions: ReadonlyMap<string, string> = new Map(), preferred: readonly string[] = []): string {
  const lines: string[] = [];
  // Paths, words and definitions come from files: shown escaped (output/terminal.ts).
  for (const u of uses) {
    const outside = u.not_in_glossary_of === undefined ? undefined : (missions.get(u.not_in_glossary_of) ?? u.not_in_glossary_of);
    const mark = u.synonym_to_avoid ? `  (synonym to avoid: '${u.synonym_to_avoid}')` : outside !== undefined ? `  (not in the glossary of mission ${outside})` : '';
    lines.push(shown`${u.path}:${u.range.start.line + 1}:${u.range.start.character + 1}  ${u.text}${mark}`);
  }
  for (const e of entries) lines.push(shown`defined in ${e.scope} (${e.status}, ${e.source}): ${e.definition}`);
  const synonyms = uses.filter((u) => u.synonym_to_avoid).length;
  const files = new Set(uses.map((u) => u.path)).size;
  const noun = documents === 1 ? 'document' : 'documents';
  const undefinedThere = uses.filter((u) => u.not_in_glossary_of !== undefined).length;
  const notes = [...(synonyms > 0 ? [`${synonyms} of a synonym to avoid`] : []), ...(undefinedThere > 0 ? [`${undefinedThere} where the mission's glossary does not hold it`] : [])];
  const counted = `${uses.length} ${uses.length === 1 ? 'use' : 'uses'} of '${term}' in ${files} of ${documents} ${noun}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  if (entries.length === 0 && preferred.length > 0) lines.push(shown`'${term}' is a synonym to avoid of ${preferred.map((p) => `'${p}'`).join(', ')}: its uses are listed by spec-glossary uses ${preferred[0]!}.`);
  else if (entries.length === 0) lines.push(shown`'${term}' is not defined in any glossary of ${documents === 1 ? 'this document' : `these ${documents} documents`}${uses.length > 0 ? `; ${counted}` : ''}.`);
  else lines.push(shown`${counted}.`);
  return lines.join('\n');
}
