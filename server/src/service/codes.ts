/**
 * The registry of diagnostic codes and their default severities. Conflict codes take their
 * severity from the finding (high → Error, medium → Warning, low → Information); glossary, config
 * and event-log codes from the problem (error / warning); the few codes the server adds itself are
 * listed here. Every one can be overridden per code by the `severityOverrides` setting.
 */

import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Severity } from '../core/types';
import type { SeverityOverride } from '../shared/protocol';

export const CONFLICT_CODES = ['ambiguous', 'unknown', 'inconsistent', 'unresolved_critical'] as const;

/** Codes of diagnostics the server itself adds (the core's SourceProblem codes come on top). */
export const SERVER_CODES = {
  /** A document or glossary file above `maxFileSize`. */
  fileTooLarge: 'file.too-large',
  /** A glossary, config or log file that could not be read (binary, outside the workspace, …). */
  fileUnreadable: 'file.unreadable',
  /** A torn or invalid line of an event log, skipped on replay. */
  eventLine: 'events.invalid-line',
  /** A document has more problems than `maxProblems`: how many were not published. */
  tooManyProblems: 'problems.not-shown',
} as const;

const BY_CONFLICT_SEVERITY: Record<Severity, DiagnosticSeverity> = {
  high: DiagnosticSeverity.Error,
  medium: DiagnosticSeverity.Warning,
  low: DiagnosticSeverity.Information,
};

const BY_PROBLEM_SEVERITY: Record<'error' | 'warning' | 'information' | 'hint', DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const BY_OVERRIDE: Record<Exclude<SeverityOverride, 'off'>, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The severity to publish, or undefined when the code is switched off. */
export function severityFor(
  code: string,
  natural: { conflict: Severity } | { problem: 'error' | 'warning' | 'information' | 'hint' },
  overrides: Readonly<Record<string, SeverityOverride>>,
): DiagnosticSeverity | undefined {
  const override = overrides[code];
  if (override === 'off') return undefined;
  if (override !== undefined) return BY_OVERRIDE[override];
  return 'conflict' in natural ? BY_CONFLICT_SEVERITY[natural.conflict] : BY_PROBLEM_SEVERITY[natural.problem];
}
