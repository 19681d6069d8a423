/**
 * Checking a document that is being edited (SPEC §10: one keystroke → diagnostics in ≤ 5 ms on a
 * 1 MB spec). One `IncrementalChecker` per open document keeps the previous version's scan and
 * lexicon; each `check` re-masks and re-tokenizes only the lines the edit can affect (see
 * extract/rescan.ts), then runs the same pipeline as `checkDocument` over word ids, whose
 * per-word facts (glossary trie nodes, common English) the lexicon already knows.
 *
 * `checker.check(text, options)` returns exactly what `checkDocument(text, options)` returns.
 */

import { editedHeader, rescan, scanFully, type Edit, type RescanInfo, type ScanState } from '../extract/rescan';
import { nextSerial, readHeader } from '../extract/scan';
import { glossaryFields, runChecks, type CheckOptions, type DocumentReport } from './check';
import type { CheckContext } from './context';
import type { EngineState } from './engineState';

type Header = ReturnType<typeof readHeader>;

export interface IncrementalChecker {
  /**
   * Lines and front matter of `text`: what `readHeader(text)` returns, patched from the previous
   * version when the edit leaves the front matter alone. Pass it on as `options.header`.
   */
  readHeader(text: string): Header;
  /** The same report as `checkDocument(text, options)`, reusing the previous version's scan. */
  check(text: string, options: CheckOptions): DocumentReport;
  /**
   * The next text to check is `before` with `edit` applied (as an editor reports its changes: the
   * range may cover more than what changed). Used when `before` is the text checked last: the
   * checker then need not compare the two texts to find the change (on a 1 MB spec, a fifth of a
   * keystroke). Anything else is ignored.
   */
  expectEdit(change: { before: string; edit: Edit }): void;
  /** What the last `check` re-scanned (for tests and the benchmark). */
  readonly lastRescan: RescanInfo;
  /** Forget the previous version (the next check scans in full). */
  reset(): void;
}

/** An incremental checker of the engine's (`Engine.createIncrementalChecker`). */
export function createIncrementalChecker(engine: EngineState): IncrementalChecker {
  // The engine's lexicon (words other documents already taught it); a new one when it is replaced.
  let lexicon = engine.lexicon();
  let state: ScanState | undefined;
  // The last check's context (its units' memos), and the pipeline that made it.
  let last: { context: CheckContext; pipeline: unknown } | undefined;
  // The glossary-match marks of the check before last, for the next check to fill (two sets
  // alternate; the token arrays themselves are spliced in place by the re-scan).
  let spareMarks: Uint8Array | undefined;
  // The header of the text last given to readHeader, and its edit from the scanned version.
  let memo: { text: string; header: Header; edit: Edit | undefined } | undefined;
  const lastRescan: RescanInfo = { full: true, from: 0, to: 0 };
  // The edit the caller said comes next (expectEdit), until a text is prepared.
  let expected: { before: string; edit: Edit } | undefined;

  const prepare = (text: string): { header: Header; edit: Edit | undefined } => {
    if (memo?.text === text) return memo;
    let header: Header | undefined;
    let edit: Edit | undefined;
    if (state?.scan.text === text) header = { lines: state.scan.lines, frontMatter: state.scan.frontMatter };
    else if (state) {
      const edited = editedHeader(state, text, knownEdit(state.scan.text, text));
      if (edited) ({ header, edit } = edited);
    }
    expected = undefined;
    memo = { text, header: header ?? readHeader(text), edit };
    return memo;
  };

  /** The expected edit, when it is one from `before` (the text checked last) to `text`. */
  function knownEdit(before: string, text: string): Edit | undefined {
    if (expected === undefined || expected.before !== before) return undefined;
    const { from, oldEnd, newEnd } = expected.edit;
    const fits = from >= 0 && from <= oldEnd && oldEnd <= before.length && from <= newEnd && newEnd <= text.length && text.length - newEnd === before.length - oldEnd;
    return fits ? expected.edit : undefined;
  }

  return {
    lastRescan,
    expectEdit(change) {
      expected = change;
    },
    readHeader: (text) => prepare(text).header,
    check(text, options) {
      try {
        return checkText(text, options);
      } catch (error) {
        // A re-scan changes the previous scan's arrays in place: after a failure none of it is
        // trusted any more.
        forget();
        throw error;
      }
    },
    reset: forget,
  };

  function checkText(text: string, options: CheckOptions): DocumentReport {
    const prepared = prepare(text);
    // A header the caller made of the same text is as good as ours.
    const header = options.header ?? prepared.header;
    const retiringMarks = last?.context.consumed;
    if (state && state.scan.text === text) {
      // The same text again (a glossary, the log or a setting changed): only the pipeline runs.
      const scan = state.scan;
      const same = { previous: scan.serial, restart: text.length, end: text.length, delta: 0, before: scan.tokens.count, after: scan.tokens.count, shift: 0, lineDelta: 0 };
      state = { ...state, scan: { ...scan, lines: header.lines, frontMatter: header.frontMatter, serial: nextSerial(), edit: same } };
      Object.assign(lastRescan, { full: false, from: 0, to: 0 });
    } else if (state && prepared.edit && lexicon === engine.lexicon()) {
      state = rescan(state, text, header, prepared.edit, glossaryFields(header), lexicon, lastRescan);
    } else {
      lexicon = engine.lexicon();
      state = scanFully(text, header, glossaryFields(header), lexicon);
      Object.assign(lastRescan, { full: true, from: 0, to: text.length });
    }
    memo = undefined;
    // Units reuse the previous check's results only through a pipeline of the same units.
    const previous = last && last.pipeline === options.pipeline ? last.context : undefined;
    const { report, context } = runChecks(engine, state.scan, options, previous, spareMarks);
    delete context.previous; // keep one check's worth, not a chain of them
    last = { context, pipeline: options.pipeline };
    // The marks of the check before are free now (two sets alternate).
    spareMarks = retiringMarks !== undefined && retiringMarks !== context.consumed ? retiringMarks : undefined;
    return report;
  }

  function forget(): void {
    state = undefined;
    memo = undefined;
    last = undefined;
    spareMarks = undefined;
    expected = undefined;
    lexicon = engine.lexicon();
  }
}
