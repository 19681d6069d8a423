/** `check --format text`: `file:line:col severity code message`, one per line, then a summary. */

import type { Severity } from '../../core/types';
import type { CheckRun, FileProblem } from '../runCheck';
import { relativePath } from './json';

export interface Palette {
  severity(severity: Severity | 'error' | 'warning', text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export const PLAIN: Palette = { severity: (_s, t) => t, dim: (t) => t, bold: (t) => t };

export const ANSI: Palette = {
  severity: (s, t) => `\x1b[${s === 'high' || s === 'error' ? '31' : s === 'medium' || s === 'warning' ? '33' : '36'}m${t}\x1b[0m`,
  dim: (t) => `\x1b[2m${t}\x1b[0m`,
  bold: (t) => `\x1b[1m${t}\x1b[0m`,
};

/**
 * Control characters (ESC, NUL, …) from file names, log lines or YAML shown as `\u001b` escapes,
 * so a hostile file cannot drive the terminal through our messages.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatText(run: CheckRun, cwd: string, palette: Palette): string {
  const lines: string[] = [];
  for (const doc of run.documents) {
    const file = relativePath(cwd, doc.absolutePath);
    for (const f of doc.report.findings) {
      lines.push(`${printable(file)}:${f.range.start.line + 1}:${f.range.start.character + 1} ${palette.severity(f.severity, f.severity)} ${f.conflictType} ${printable(f.message)}`);
    }
  }
  const counts: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  let findings = 0;
  for (const doc of run.documents) {
    for (const f of doc.report.findings) {
      counts[f.severity]++;
      findings++;
    }
  }
  const blocked = run.documents.filter((d) => d.report.blocked);
  if (lines.length > 0) lines.push('');
  for (const doc of blocked) {
    lines.push(palette.severity('high', printable(`blocked: ${relativePath(cwd, doc.absolutePath)} (mission ${doc.identity.missionId}, step ${doc.identity.stepId}, strictness ${doc.report.strictness})`)));
  }
  for (const skip of run.skipped) lines.push(palette.dim(printable(`skipped: ${relativePath(cwd, skip.absolutePath)}: ${skip.reason}`)));
  const docs = run.documents.length;
  lines.push(
    palette.bold(
      `${docs} document${docs === 1 ? '' : 's'} checked, ${findings} finding${findings === 1 ? '' : 's'} (${counts.high} high, ${counts.medium} medium, ${counts.low} low), ${blocked.length} blocked.`,
    ),
  );
  return lines.join('\n');
}

export function formatProblems(problems: readonly FileProblem[], cwd: string, palette: Palette): string {
  return problems
    .map((p) => {
      const where = p.problem ? `${relativePath(cwd, p.file)}:${p.problem.range.start.line + 1}:${p.problem.range.start.character + 1}` : relativePath(cwd, p.file);
      return `${printable(where)} ${palette.severity(p.severity, p.severity)} ${p.problem?.code ?? 'file'} ${printable(p.message)}`;
    })
    .join('\n');
}
