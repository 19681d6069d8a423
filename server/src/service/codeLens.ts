/** The gate status at the top of a spec: conflicts by severity and whether generation is blocked. */

import type { CodeLens } from 'vscode-languageserver-types';
import type { CheckedDocument } from './types';

export function gateStatusTitle(doc: CheckedDocument): string {
  const { report } = doc;
  if (!report.checked) return 'Glossary: checking disabled for this document';
  const counts = { high: 0, medium: 0, low: 0 };
  for (const finding of report.findings) counts[finding.severity]++;
  const gate = `generation ${report.blocked ? 'blocked' : 'allowed'} (strictness ${report.strictness})`;
  if (report.findings.length === 0) return `Glossary: no conflicts — ${gate}`;
  return `Glossary: ${counts.high} high · ${counts.medium} medium · ${counts.low} low — ${gate}`;
}

export function gateStatusLens(doc: CheckedDocument): CodeLens[] {
  const at = { line: 0, character: 0 };
  // An empty command id: a label that is shown but does nothing when clicked.
  return [{ range: { start: at, end: at }, command: { title: gateStatusTitle(doc), command: '' } }];
}
