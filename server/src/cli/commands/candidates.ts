/**
 * `spec-glossary candidates [paths…] [--format text|json] [--min-specs N]` (SPEC §6, §8): checks
 * the documents as `check` does and prints the glossary candidates (core/candidates.ts), the
 * most-used first. Writes nothing; exit 0 unless the arguments or a file are unusable (2).
 */

import { rankCandidates, type CandidateDefinition, type GlossaryCandidate } from '../../core/candidates';
import { definedTermsCheck, vocabularyCandidates } from '../../core/missionVocabulary/candidates';
import { createEngine, type Engine } from '../../core/check/engine';
import { loadCommonWords } from '../../node/packageFiles';
import { EXIT_OK, UsageError } from '../errors';
import { collectMarkdownFiles } from '../files';
import { relativePath } from '../output/json';
import { printable, shown } from '../output/terminal';
import { formatProblems, formatSkipped, PLAIN } from '../output/text';
import { runCheck, type CheckRun } from '../runCheck';
import type { CliIo, ParsedCommand } from '../types';

export const CANDIDATES_OPTIONS = {
  format: { type: 'string' },
  'min-specs': { type: 'string' },
} as const;

export async function candidatesCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  const format = (values['format'] as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json (got '${format}')`);
  const minSpecs = parseMinSpecs(values['min-specs'] as string | undefined);
  const files = collectMarkdownFiles(positionals.length > 0 ? positionals : ['.'], io.cwd);
  const engine = createEngine({ commonWords: loadCommonWords() });
  const run = await runCheck(files, {}, undefined, engine);
  if (run.problems.length > 0) io.stderr(formatProblems(run.problems, io.cwd, PLAIN));
  // (A spec too large to read, or binary, is not counted: said, so a missing candidate is explained.)
  if (run.skipped.length > 0) io.stderr(formatSkipped(run.skipped, io.cwd));
  const candidates = candidatesOf(run, io.cwd, minSpecs, engine);
  io.stdout(format === 'json' ? JSON.stringify({ candidates }, null, 2) : formatCandidates(candidates, run.documents.length));
  return EXIT_OK;
}

/** The candidates of a check run, paths relative to `cwd`. */
export function candidatesOf(run: CheckRun, cwd: string, minSpecs = 1, engine?: Engine): GlossaryCandidate[] {
  const definitions: CandidateDefinition[] = [];
  const sources = run.documents.map((d) => {
    const path = relativePath(cwd, d.absolutePath);
    const { missionId, missionSlug } = d.identity;
    // Terms missions define for themselves, with the definitions (SPEC §6).
    const own = vocabularyCandidates(d.report, { path, file: d.absolutePath, missionId, missionSlug });
    definitions.push(...own.definitions);
    return { path, missionId, findings: d.report.findings, rareWords: d.report.rareWords, spelledOut: d.report.spelledOut, vocabularyUses: own.uses };
  });
  if (engine && definitions.length > 0) {
    // Their uses in every document, in missions that do not define them too.
    const counting = definedTermsCheck(definitions);
    run.documents.forEach((d, k) => {
      const report = engine.checkDocument(d.text, { ...counting, ...engine.vocabulary(d.snapshot.config.ignoreWords) });
      sources[k]!.vocabularyUses = vocabularyCandidates(report, { path: sources[k]!.path, file: d.absolutePath, missionId: d.identity.missionId, missionSlug: d.identity.missionSlug }).uses;
    });
  }
  return rankCandidates(sources, { minSpecs, definitions });
}

/** One line per candidate: documents, occurrences, term, examples; then a summary. */
export function formatCandidates(candidates: readonly GlossaryCandidate[], documents: number): string {
  const lines: string[] = [];
  // Terms, paths, missions and definitions come from files: shown escaped (output/terminal.ts).
  const width = Math.max(4, ...candidates.map((c) => printable(c.term).length));
  for (const c of candidates) {
    // (A spec that defines the term is shown on its "defined by" line, not counted as one more.)
    const listed = new Set([...c.examples.map((e) => e.path), ...c.definitions.map((d) => d.path)]).size;
    const where = c.examples.length > 0 ? shown`${c.examples.map((e) => `${e.path}:${e.line}`).join(', ')}` : '(no use outside its definition)';
    const more = c.specs > listed ? `, … (${c.specs - listed} more)` : '';
    lines.push(`${String(c.specs).padStart(4)} ${c.specs === 1 ? 'spec ' : 'specs'} ${String(c.occurrences).padStart(5)}×  ${printable(c.term).padEnd(width)}  ${where}${more}`);
    for (const d of c.definitions) lines.push(' '.repeat(19 + width) + shown`defined by ${d.mission} (${d.path}:${d.line}): ${d.definition}`);
  }
  const noun = documents === 1 ? 'document' : 'documents';
  lines.push(candidates.length === 0 ? `No glossary candidates in ${documents} ${noun}.` : `${candidates.length} glossary candidate${candidates.length === 1 ? '' : 's'} in ${documents} ${noun} (terms no glossary defines, most-used first).`);
  return lines.join('\n');
}

function parseMinSpecs(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new UsageError(`--min-specs must be a whole number of at least 1 (got '${value}')`);
  return Number(value);
}
