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
import type { Lexicon } from '../extract/lexicon';
import { nextSerial, readHeader, type Header } from '../extract/scan';
import { glossaryFields, runChecks, type CheckOptions, type DocumentReport } from './check';
import type { CheckContext } from './context';
import type { EngineState } from './engineState';

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
  return new DocumentChecker(engine);
}

/** One open document's checker: the previous version's scan, context and header, kept for the next check. */
class DocumentChecker implements IncrementalChecker {
  // The engine's lexicon (words other documents already taught it); a new one when it is replaced.
  private lexicon: Lexicon;
  // The scan of the text checked last, re-scanned in place by the next check (none: a full scan).
  private state: ScanState | undefined;
  // The last check's context (its units' memos), and the pipeline that made it.
  private last: { context: CheckContext; pipeline: unknown } | undefined;
  // The glossary-match marks of the check before last, for the next check to fill (two sets
  // alternate; the token arrays themselves are spliced in place by the re-scan).
  private spareMarks: Uint8Array | undefined;
  // The header of the text last given to readHeader, and its edit from the scanned version.
  private memo: { text: string; header: Header; edit: Edit | undefined } | undefined;
  readonly lastRescan: RescanInfo = { full: true, from: 0, to: 0 };
  // The edit the caller said comes next (expectEdit), until a text is prepared.
  private expected: { before: string; edit: Edit } | undefined;

  constructor(private readonly engine: EngineState) {
    this.lexicon = engine.lexicon();
  }

  expectEdit(change: { before: string; edit: Edit }): void {
    this.expected = change;
  }

  readHeader(text: string): Header {
    return this.prepare(text).header;
  }

  check(text: string, options: CheckOptions): DocumentReport {
    try {
      return this.checkText(text, options);
    } catch (error) {
      // A re-scan changes the previous scan's arrays in place: after a failure none of it is
      // trusted any more.
      this.reset();
      throw error;
    }
  }

  reset(): void {
    this.state = undefined;
    this.memo = undefined;
    this.last = undefined;
    this.spareMarks = undefined;
    this.expected = undefined;
    this.lexicon = this.engine.lexicon();
  }

  /** The header of `text` and its edit from the scanned version, worked out once per text. */
  private prepare(text: string): { header: Header; edit: Edit | undefined } {
    if (this.memo?.text === text) return this.memo;
    const state = this.state;
    let header: Header | undefined;
    let edit: Edit | undefined;
    if (state?.scan.text === text) header = { lines: state.scan.lines, frontMatter: state.scan.frontMatter };
    else if (state) {
      const edited = editedHeader(state, text, this.knownEdit(state.scan.text, text));
      if (edited) ({ header, edit } = edited);
    }
    this.expected = undefined;
    this.memo = { text, header: header ?? readHeader(text), edit };
    return this.memo;
  }

  /** The expected edit, when it is one from `before` (the text checked last) to `text`. */
  private knownEdit(before: string, text: string): Edit | undefined {
    const expected = this.expected;
    if (expected === undefined || expected.before !== before) return undefined;
    const { from, oldEnd, newEnd } = expected.edit;
    const fits = from >= 0 && from <= oldEnd && oldEnd <= before.length && from <= newEnd && newEnd <= text.length && text.length - newEnd === before.length - oldEnd;
    return fits ? expected.edit : undefined;
  }

  private checkText(text: string, options: CheckOptions): DocumentReport {
    const prepared = this.prepare(text);
    // A header the caller made of the same text is as good as ours.
    const header = options.header ?? prepared.header;
    const retiringMarks = this.last?.context.consumed;
    const state = this.scanOf(text, header, prepared.edit);
    this.memo = undefined;
    // Units reuse the previous check's results only through a pipeline of the same units.
    const previous = this.last && this.last.pipeline === options.pipeline ? this.last.context : undefined;
    const { report, context } = runChecks(this.engine, state.scan, options, previous, this.spareMarks);
    delete context.previous; // keep one check's worth, not a chain of them
    this.last = { context, pipeline: options.pipeline };
    // The marks of the check before are free now (two sets alternate).
    this.spareMarks = retiringMarks !== undefined && retiringMarks !== context.consumed ? retiringMarks : undefined;
    return report;
  }

  /** The scan of `text`: the previous one as it is, re-scanned where `edit` changed it, or a new one. */
  private scanOf(text: string, header: Header, edit: Edit | undefined): ScanState {
    const state = this.state;
    if (state && state.scan.text === text) {
      // The same text again (a glossary, the log or a setting changed): only the pipeline runs.
      const scan = state.scan;
      const same = { previous: scan.serial, restart: text.length, end: text.length, delta: 0, before: scan.tokens.count, after: scan.tokens.count, shift: 0, lineDelta: 0 };
      this.state = { ...state, scan: { ...scan, lines: header.lines, frontMatter: header.frontMatter, serial: nextSerial(), edit: same } };
      Object.assign(this.lastRescan, { full: false, from: 0, to: 0 });
    } else if (state && edit && this.lexicon === this.engine.lexicon()) {
      this.state = rescan(state, text, header, edit, glossaryFields(header), this.lexicon, this.lastRescan);
    } else {
      this.lexicon = this.engine.lexicon();
      this.state = scanFully(text, header, glossaryFields(header), this.lexicon);
      Object.assign(this.lastRescan, { full: true, from: 0, to: text.length });
    }
    return this.state;
  }
}
