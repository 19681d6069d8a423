/**
 * When V8 starts marking the old generation for a full collection. By default it starts once the
 * old generation has grown by nearly its whole allowance since the last full collection, and that
 * allowance is at least 8 MB: a server that has just checked 200 opened specs (and indexed the
 * folder's 400 in the background) held ~8 MB of their garbage at any moment, ~22 → ~26 MB of heap
 * for ~19 MB alive, measured (SPEC §10: ≤ 80 MB resident once the 200 are published).
 *
 * Started once a quarter of the allowance is used instead, a collection follows a burst of checks
 * more closely: ~2–4 MB of garbage, ~80 MB resident → ~78 MB at the same moment. But while the
 * user types a large document, collecting that often made each keystroke ~1.8× slower (1 MB spec,
 * `npm run bench -- --only keystroke`): so V8's own schedule comes back on the first change and
 * stays while the user types, and the early one only after a few quiet seconds.
 *
 * The flag is read by V8 each time it decides whether to start marking, so setting it at run time
 * works (as lsp/heapSizing.ts's flags); a V8 that ignored it keeps its own schedule.
 */

import { setFlagsFromString } from 'node:v8';

/** Switches early marking on or off. */
export type SetEarlyMarking = (early: boolean) => void;

/** No change for this long: the user stopped typing. */
const TYPING_QUIET_MS = 3000;
/** Percent of the allowance used at which marking starts early. */
const EARLY_PERCENT = 25;

export class MarkingSchedule {
  private early: boolean | undefined;
  private lastChange = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly set: SetEarlyMarking = v8EarlyMarking,
    private readonly quietMs = TYPING_QUIET_MS,
  ) {
    this.apply(true);
  }

  /** A document changed: V8's own schedule until the user has been quiet for a while. */
  documentChanged(): void {
    if (this.disposed) return;
    this.lastChange = Date.now();
    this.apply(false);
    // (One timer for a run of keystrokes: it looks again when it fires.)
    if (this.timer === undefined) this.arm(this.quietMs);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const quiet = Date.now() - this.lastChange;
      if (quiet >= this.quietMs) this.apply(true);
      else this.arm(this.quietMs - quiet);
    }, ms);
    // (A server about to exit does not wait for it.)
    this.timer.unref();
  }

  private apply(early: boolean): void {
    if (this.early === early) return;
    this.early = early;
    try {
      this.set(early);
    } catch {
      // (V8 keeps its own schedule.)
    }
  }
}

/** Early marking through V8's flag (0: V8's default schedule). */
export function v8EarlyMarking(early: boolean): void {
  setFlagsFromString(`--incremental-marking-soft-trigger=${early ? EARLY_PERCENT : 0}`);
}
