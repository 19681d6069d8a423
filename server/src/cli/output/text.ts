/**
 * `check --format text`: `file:line:col severity code message`, one per line, then a summary.
 * Written line by line (any number of findings prints); data from files is escaped by `shown`
 * (output/terminal.ts), so a file name, mission id or message cannot add a line or drive the
 * terminal.
 */

import { messageAsWritten, missionName, writtenTerms } from '../../core/check/wording';
import type { Severity } from '../../core/types';
import { afterItsPath } from '../../node/files';
import type { FileProblem, ReportedRun, SkippedDocument } from '../runCheck';
import type { CliIo } from '../types';
import { relativePath } from './json';
import { printable, shown, Styled } from './terminal';

/** Colours around text; the text is escaped (`printable`) before the codes are added. */
export interface Palette {
  severity(severity: Severity | 'error' | 'warning', text: string): Styled;
  dim(text: string): Styled;
  bold(text: string): Styled;
}

export const PLAIN: Palette = {
  severity: (_s, t) => new Styled(printable(t)),
  dim: (t) => new Styled(printable(t)),
  bold: (t) => new Styled(printable(t)),
};

export const ANSI: Palette = {
  severity: (s, t) => new Styled(`\x1b[${s === 'high' || s === 'error' ? '31' : s === 'medium' || s === 'warning' ? '33' : '36'}m${printable(t)}\x1b[0m`),
  dim: (t) => new Styled(`\x1b[2m${printable(t)}\x1b[0m`),
  bold: (t) => new Styled(`\x1b[1m${printable(t)}\x1b[0m`),
};

/**
 * The palette of text output: colours only at a terminal that shows them, and not when the user
 * said no (`--no-color`, `NO_COLOR`, a `TERM=dumb` terminal, which prints escape codes as text).
 */
export function paletteFor(io: Pick<CliIo, 'isTTY' | 'env'>, noColor: boolean): Palette {
  return io.isTTY && !noColor && !io.env['NO_COLOR'] && io.env['TERM'] !== 'dumb' ? ANSI : PLAIN;
}

/** The text report, one line per piece (each ending with a newline). */
export function* textOutput(run: ReportedRun, cwd: string, palette: Palette): Generator<string, void, undefined> {
  for (const line of textLines(run, cwd, palette)) yield line + '\n';
}

/** The text report as one string (for small runs: `resume` prints one document). */
export function formatText(run: ReportedRun, cwd: string, palette: Palette): string {
  return [...textLines(run, cwd, palette)].join('\n');
}

function* textLines(run: ReportedRun, cwd: string, palette: Palette): Generator<string, void, undefined> {
  const counts: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  let findings = 0;
  for (const doc of run.documents) {
    const file = relativePath(cwd, doc.absolutePath);
    // Messages name the term as the document writes it (PCI, not pci).
    const written = doc.report.findings.length > 0 ? writtenTerms(doc.report) : undefined;
    for (const f of doc.report.findings) {
      counts[f.severity]++;
      findings++;
      yield shown`${file}:${f.range.start.line + 1}:${f.range.start.character + 1} ${palette.severity(f.severity, f.severity)} ${f.conflictType} ${messageAsWritten(f.message, f.term, written!(f))}`;
    }
  }
  const blocked = run.documents.filter((d) => d.report.blocked);
  if (findings > 0) yield '';
  for (const doc of blocked) {
    // The mission by its folder name under kitty-specs/ (its id too when that differs: `--mission` takes the id).
    const { missionId, missionSlug, stepId } = doc.identity;
    const mission = missionName(missionId, missionSlug) + (missionSlug && missionSlug !== missionId ? `, id ${missionId}` : '');
    yield palette.severity('high', `blocked: ${relativePath(cwd, doc.absolutePath)} (mission ${mission}, step ${stepId}, strictness ${doc.report.strictness})`).text;
  }
  for (const skip of run.skipped) yield palette.dim(skippedLine(skip, cwd)).text;
  const docs = run.documents.length;
  yield palette.bold(
    `${docs} document${docs === 1 ? '' : 's'} checked, ${findings} finding${findings === 1 ? '' : 's'} (${counts.high} high, ${counts.medium} medium, ${counts.low} low), ${blocked.length} blocked.`,
  ).text;
}

/**
 * `skipped: docs/huge.md is 50.0 MB, above the 5 MB limit`: a spec that was not checked (too
 * large, binary), by its path from the current directory. The reader's reason names the file by
 * its absolute path and ends "it was skipped"; said once here.
 */
export function skippedLine(skip: SkippedDocument, cwd: string): string {
  const file = relativePath(cwd, skip.absolutePath);
  const reason = skip.reason.replace(/; it was skipped$/, '');
  const rest = afterItsPath(reason, skip.absolutePath);
  return rest !== reason ? `skipped: ${file} ${rest}` : `skipped: ${file}: ${reason}`;
}

/** The skipped specs, for stderr (where JSON's object and `candidates` leave no place for them). */
export function formatSkipped(skipped: readonly SkippedDocument[], cwd: string): string {
  return skipped.map((skip) => PLAIN.dim(skippedLine(skip, cwd)).text).join('\n');
}

/** Problems in glossary, config and log files, for stderr: `file[:line:col] severity code message`. */
export function formatProblems(problems: readonly FileProblem[], cwd: string, palette: Palette): string {
  return problems
    .map((p) => {
      const where = p.problem ? `${relativePath(cwd, p.file)}:${p.problem.range.start.line + 1}:${p.problem.range.start.character + 1}` : relativePath(cwd, p.file);
      // (A reader's message names the file by its absolute path, already said at the start.)
      const message = p.problem ? p.message : afterItsPath(p.message, p.file);
      return shown`${where} ${palette.severity(p.severity, p.severity)} ${p.problem?.code ?? 'file'} ${message}`;
    })
    .join('\n');
}
