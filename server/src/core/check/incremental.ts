/**
 * Checking a document that is being edited (SPEC §10: one keystroke → diagnostics in ≤ 5 ms on a
 * 1 MB spec). One `IncrementalChecker` per open document keeps the previous version's scan and
 * lexicon; each `check` re-masks and re-tokenizes only the lines the edit can affect (see
 * extract/rescan.ts), then runs the same pipeline as `checkDocument` over word ids, whose
 * per-word facts (glossary trie nodes, common English) the lexicon already knows.
 *
 * `checker.check(text, options)` returns exactly what `checkDocument(text, options)` returns.
 */

import { sharedLexicon } from '../extract/lexicon';
import { editedHeader, rescan, scanFully, type Edit, type RescanInfo, type ScanState } from '../extract/rescan';
import { nextSerial, readHeader } from '../extract/scan';
import { glossaryFields, runChecks, type CheckOptions, type DocumentReport } from './check';
import type { ScanBuffers } from '../extract/tokens';
import type { CheckContext } from './context';

type Header = ReturnType<typeof readHeader>;

export interface IncrementalChecker {
  /**
   * Lines and front matter of `text`: what `readHeader(text)` returns, patched from the previous
   * version when the edit leaves the front matter alone. Pass it on as `options.header`.
   */
  readHeader(text: string): Header;
  /** The same report as `checkDocument(text, options)`, reusing the previous version's scan. */
  check(text: string, options: CheckOptions): DocumentReport;
  /** What the last `check` re-scanned (for tests and the benchmark). */
  readonly lastRescan: RescanInfo;
  /** Forget the previous version (the next check scans in full). */
  reset(): void;
}

export function createIncrementalChecker(): IncrementalChecker {
  // The shared lexicon (words other documents already taught it); a new one when it is replaced.
  let lexicon = sharedLexicon();
  let state: ScanState | undefined;
  // The last check's context (its units' memos), and the pipeline that made it.
  let last: { context: CheckContext; pipeline: unknown } | undefined;
  // Arrays of a scan (and check) nothing refers to any more, for the next re-scan to fill: the
  // tokens of a 1 MB spec take ~3 MB, too much to allocate anew on every keystroke.
  let spare: ScanBuffers | undefined;
  // The header of the text last given to readHeader, and its edit from the scanned version.
  let memo: { text: string; header: Header; edit: Edit | undefined } | undefined;
  const lastRescan: RescanInfo = { full: true, from: 0, to: 0 };

  const prepare = (text: string): { header: Header; edit: Edit | undefined } => {
    if (memo?.text === text) return memo;
    let header: Header | undefined;
    let edit: Edit | undefined;
    if (state?.scan.text === text) header = { lines: state.scan.lines, frontMatter: state.scan.frontMatter };
    else if (state) {
      const edited = editedHeader(state, text);
      if (edited) ({ header, edit } = edited);
    }
    memo = { text, header: header ?? readHeader(text), edit };
    return memo;
  };

  return {
    lastRescan,
    readHeader: (text) => prepare(text).header,
    check(text, options) {
      const prepared = prepare(text);
      // A header the caller made of the same text is as good as ours.
      const header = options.header ?? prepared.header;
      const retiring = state?.scan;
      const retiringMarks = last?.context.consumed;
      if (state && state.scan.text === text) {
        // The same text again (a glossary, the log or a setting changed): only the pipeline runs.
        const scan = state.scan;
        const same = { previous: scan.serial, restart: text.length, end: text.length, delta: 0, before: scan.tokens.count, after: scan.tokens.count, shift: 0, lineDelta: 0 };
        state = { ...state, scan: { ...scan, lines: header.lines, frontMatter: header.frontMatter, serial: nextSerial(), edit: same } };
        Object.assign(lastRescan, { full: false, from: 0, to: 0 });
      } else if (state && prepared.edit && lexicon === sharedLexicon()) {
        state = rescan(state, text, header, prepared.edit, glossaryFields(header), lexicon, lastRescan, spare);
      } else {
        lexicon = sharedLexicon();
        state = scanFully(text, header, glossaryFields(header), lexicon);
        Object.assign(lastRescan, { full: true, from: 0, to: text.length });
      }
      memo = undefined;
      // Units reuse the previous check's results only through a pipeline of the same units.
      const previous = last && last.pipeline === options.pipeline ? last.context : undefined;
      const { report, context } = runChecks(state.scan, options, previous, spare?.marks[1]);
      delete context.previous; // keep one check's worth, not a chain of them
      last = { context, pipeline: options.pipeline };
      // The replaced scan's arrays are free now, unless the new scan still uses them.
      const tokens = state.scan.tokens;
      spare =
        retiring && retiringMarks && retiring.tokens.start !== tokens.start && retiring.inHeading !== state.scan.inHeading && retiringMarks !== context.consumed
          ? {
              start: retiring.tokens.start,
              end: retiring.tokens.end,
              word: retiring.tokens.word,
              shape: retiring.tokens.shape,
              marks: [retiring.inHeading, retiringMarks],
              // (The masked code units are a view of the start of their backing array.)
              codes: retiring.masked.buffer !== state.scan.masked.buffer ? new Uint16Array(retiring.masked.buffer) : undefined,
            }
          : undefined;
      return report;
    },
    reset() {
      state = undefined;
      memo = undefined;
      last = undefined;
      spare = undefined;
      lexicon = sharedLexicon();
    },
  };
}
