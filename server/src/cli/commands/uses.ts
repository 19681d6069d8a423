/**
 * `spec-glossary uses <term> [paths…] [--format text|json]`: where a glossary term is used — every
 * occurrence in the documents (checked as `check` checks them; code is never a use), the uses of
 * its synonyms to avoid marked as such — and its glossary entries. The language server's
 * references, for a terminal or a script. Writes nothing; exit 0 unless the arguments or a file
 * are unusable (2).
 */

import { normalizeSurface } from '../../core/normalize';
import { glossaryOccurrences } from '../../core/terms/termIndex';
import { LineIndex } from '../../core/text';
import type { Sense } from '../../core/types';
import { EXIT_OK, UsageError } from '../errors';
import { collectMarkdownFiles } from '../files';
import { relativePath } from '../output/json';
import { shown } from '../output/terminal';
import { formatProblems, PLAIN } from '../output/text';
import { runCheck } from '../runCheck';
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
  const term = normalizeSurface(written ?? '');
  if (term === '') throw new UsageError('uses needs a term: spec-glossary uses <term> [paths…]');
  const run = await runCheck(collectMarkdownFiles(paths.length > 0 ? paths : ['.'], io.cwd), {});
  if (run.problems.length > 0) io.stderr(formatProblems(run.problems, io.cwd, PLAIN));

  const uses: Use[] = [];
  const entries = new Map<string, Entry>();
  for (const document of run.documents) {
    // (The glossary it was checked against: the folder's, with its mission's own vocabulary.)
    const glossary = document.report.glossary;
    for (const sense of glossary.sensesOf(term)) {
      const entry = entryOf(sense, io.cwd);
      entries.set(`${entry.scope}\u0000${entry.definition}\u0000${entry.source}`, entry);
    }
    const found = glossaryOccurrences(document.report, glossary).filter((o) => o.term === term);
    if (found.length === 0) continue;
    const lines = new LineIndex(document.text);
    const path = relativePath(io.cwd, document.absolutePath);
    for (const o of found) {
      const text = document.text.slice(lines.offsetAt(o.range.start), lines.offsetAt(o.range.end));
      uses.push({ path, range: o.range, text, ...(o.surface !== term ? { synonym_to_avoid: o.surface } : {}) });
    }
  }
  const listed = [...entries.values()];
  io.stdout(format === 'json' ? JSON.stringify({ term, uses, entries: listed }, null, 2) : formatUses(term, uses, listed, run.documents.length));
  return EXIT_OK;
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
export function formatUses(term: string, uses: readonly Use[], entries: readonly Entry[], documents: number): string {
  const lines: string[] = [];
  // Paths, words and definitions come from files: shown escaped (output/terminal.ts).
  for (const u of uses) {
    const mark = u.synonym_to_avoid ? `  (synonym to avoid: '${u.synonym_to_avoid}')` : '';
    lines.push(shown`${u.path}:${u.range.start.line + 1}:${u.range.start.character + 1}  ${u.text}${mark}`);
  }
  for (const e of entries) lines.push(shown`defined in ${e.scope} (${e.status}, ${e.source}): ${e.definition}`);
  const synonyms = uses.filter((u) => u.synonym_to_avoid).length;
  const files = new Set(uses.map((u) => u.path)).size;
  const noun = documents === 1 ? 'document' : 'documents';
  if (entries.length === 0) lines.push(shown`'${term}' is not defined in any glossary of these ${documents} ${noun}.`);
  else lines.push(shown`${uses.length} ${uses.length === 1 ? 'use' : 'uses'} of '${term}' in ${files} of ${documents} ${noun}${synonyms > 0 ? ` (${synonyms} of a synonym to avoid)` : ''}.`);
  return lines.join('\n');
}
