/**
 * At most `maxProblems` diagnostics per document (the `specGlossary.maxProblems` setting), as
 * cspell's `maxNumberOfProblems` does: a document with half a million findings would otherwise
 * be a publication of hundreds of MB that neither the server nor an editor can handle (issue
 * 19). The most severe are shown first (an Error is never hidden behind Information), in document
 * order within a severity; one more diagnostic says how many were left out, by code. The gate
 * status (code lens) and the CLI still count every finding.
 */

import type { Diagnostic } from 'vscode-languageserver-types';
import { DIAGNOSTIC_SOURCE, SETTINGS_SECTION } from '../shared/protocol';
import { SERVER_CODES, severityFor } from './codes';
import type { Settings } from './types';

/**
 * Which of the diagnostics to publish, given their severities (1 Error … 4 Hint; 0: switched
 * off, never shown): a flag per diagnostic, or undefined when all of them fit.
 */
export function shownUnderLimit(severities: Uint8Array, max: number): Uint8Array | undefined {
  const counts = [0, 0, 0, 0, 0];
  for (let i = 0; i < severities.length; i++) counts[severities[i]!]!++;
  if (counts[1]! + counts[2]! + counts[3]! + counts[4]! <= max) return undefined;
  // Every diagnostic more severe than `cutoff` is shown, and the first `quota` of `cutoff`.
  let cutoff = 1;
  let room = max;
  while (cutoff < 4 && counts[cutoff]! <= room) room -= counts[cutoff++]!;
  const shown = new Uint8Array(severities.length);
  for (let i = 0; i < severities.length; i++) {
    const severity = severities[i]!;
    if (severity === 0 || severity > cutoff) continue;
    if (severity < cutoff) shown[i] = 1;
    else if (room > 0) {
      shown[i] = 1;
      room--;
    }
  }
  return shown;
}

/** The diagnostic that says how many were left out (`omitted`: count by code, most first). */
export function omittedDiagnostic(omitted: ReadonlyMap<string, number>, settings: Settings): Diagnostic | undefined {
  const severity = severityFor(SERVER_CODES.tooManyProblems, { problem: 'information' }, settings.severityOverrides);
  if (severity === undefined) return undefined;
  let total = 0;
  for (const count of omitted.values()) total += count;
  const byCode = [...omitted].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([code, count]) => `${grouped(count)} ${code}`);
  const at = { line: 0, character: 0 };
  return {
    range: { start: at, end: at },
    severity,
    code: SERVER_CODES.tooManyProblems,
    source: DIAGNOSTIC_SOURCE,
    message:
      `${grouped(total)} more problems in this document are not shown (${byCode.join(', ')}): ` +
      `at most ${grouped(settings.maxProblems)} ${settings.maxProblems === 1 ? 'is' : 'are'} (setting ${SETTINGS_SECTION}.maxProblems), the most severe first. ` +
      'The gate status counts them all; `spec-glossary check` lists every one.',
  };
}

/**
 * 499000 → "499,000". (Not `toLocaleString`: its first use loads ICU's locale data, ~6 MB of the
 * server's resident memory.)
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
