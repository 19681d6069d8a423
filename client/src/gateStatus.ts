/**
 * The gate status of the active spec, for the status bar. The server already states it in the
 * code lens at the top of every spec (conflicts by severity, whether generation is blocked); the
 * status bar shows that same lens title, so both always agree. The icon comes from the
 * diagnostics' severities, not from the title text.
 */

export interface LensLike {
  range: { start: { line: number } };
  command?: { title: string } | null;
}

/** The gate-status lens: the first titled lens on the first line. */
export function gateLensTitle(lenses: readonly LensLike[] | null | undefined): string | undefined {
  const lens = (lenses ?? []).find((l) => l.range.start.line === 0 && l.command && l.command.title.trim() !== '');
  return lens?.command?.title.trim();
}

export interface SeverityCounts {
  errors: number;
  warnings: number;
  others: number;
}

/** A codicon for the status bar item. */
export function gateIcon(counts: SeverityCounts): string {
  if (counts.errors > 0) return '$(error)';
  if (counts.warnings > 0) return '$(warning)';
  if (counts.others > 0) return '$(info)';
  return '$(check)';
}

/** Text shown in the status bar: icon + the server's lens title. */
export function gateStatusText(title: string, counts: SeverityCounts): string {
  return `${gateIcon(counts)} ${title}`;
}
