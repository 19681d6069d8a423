/**
 * How V8 collects the old generation: for memory, unless the user is typing (SPEC §10: ≤ 80 MB
 * resident with 200 specs open, and a keystroke's check within 2 ms / 5 ms).
 *
 * For memory, two of V8's flags, each read by V8 whenever it decides (so setting them at run time
 * works, as lsp/heapSizing.ts's flags; a V8 that ignored them keeps its own ways):
 *
 * - Marking starts once a quarter of the old generation's allowance since the last full
 *   collection is used (`--incremental-marking-soft-trigger`), instead of nearly all of it; the
 *   allowance is at least 8 MB, so a server that had just checked 200 opened specs (and indexed
 *   the folder's 400 in the background) held up to ~8 MB of their garbage at any moment.
 * - Every full collection compacts (`--compact-on-every-full-gc`): moves the survivors off sparse
 *   pages and gives those pages back, instead of only when V8's heuristics find the heap
 *   fragmented enough (with 200 specs open: ~34 MB of pages for ~19 MB of objects).
 *
 * Together: ~86 → ~80 MB resident when the 200 are published, ~81 → ~76 MB 3 s later (probes
 * with heap statistics and smaps, docs/performance.md). While the user types a 1 MB spec, both
 * cost: collecting that often and compacting each time took ~25% more CPU per keystroke, ~1.3×
 * the latency, measured. So V8's defaults come back on the first change and stay while the user
 * types, with more room to grow (below); the memory mode only after a few quiet seconds. While
 * the term index is built in the background, the memory mode without its early marking (see
 * `v8Collector`).
 *
 * While the user types, the young generation may grow too (lsp/heapSizing.ts keeps it at its
 * initial 1 MB otherwise): a keystroke on a 1 MB spec allocates ~0.5 MB, so the small space was
 * collected every other keystroke, each collection ~1 ms of the main thread (it copies what the
 * check keeps). V8 doubles it whenever as much has survived it as it holds (after 244 keystrokes
 * on 1 MB: 1 → 8 MB, each of its two halves); once the user has been quiet for a while, full
 * collections give it back (`giveBack`, below).
 */

import { setFlagsFromString } from 'node:v8';

/**
 * How V8 collects: for memory (the default), for keystrokes (the user is typing, or a large answer
 * is being built), or for a background build that allocates much and keeps little (the term index;
 * a large one, of more than `LARGE_BUILD` specs, gets more room).
 */
export type CollectorSetting = 'memory' | 'typing' | 'building' | 'large build';

/** Specs from which a build is large. */
export const LARGE_BUILD = 1000;

/** Puts a setting in place. */
export type SetCollector = (setting: CollectorSetting) => void;
/** Lets the young generation grow (typing) or not. */
export type SetYoungGrowth = (grow: boolean) => void;

/** No change for this long: the user stopped typing. */
const TYPING_QUIET_MS = 3000;
/** Percent of the allowance used at which marking starts in the memory mode. */
const EARLY_PERCENT = 25;
/**
 * How far the old generation may grow past what survived the last full collection before the
 * next one: 20% in the memory mode (lsp/heapSizing.ts says why), 200% while the user
 * types. Each version of a document being typed into is a new string as long as the document (2
 * MB for 1 MB of text with a character beyond Latin-1), so with 20% a 1 MB spec ran a full
 * collection every ~4 keystrokes. Measured on 1 MB (`--only keystroke`, same runs): 100% took the
 * median from 9.3 / 8.1 to 6.5 / 6.8 ms; 200% 1.08–1.11× less again, the server ~15–20 MB larger
 * after typing (124–128 against 107–114 MB); 400% no faster than 200% and ~40 MB larger.
 */
const MEMORY_GROWING_PERCENT = 20;
const TYPING_GROWING_PERCENT = 200;
/**
 * While a large build runs: the index it builds grows the live heap from tens to over a hundred
 * megabytes, and with 20% each full collection came soon after the last, marking all of it again.
 * 10,000 specs, 8 alternating pairs: 7–16% less time, 4–6% less CPU (medians of 3 runs); on
 * 400 specs no gain, and 1–3 MB more with 200 specs opened meanwhile (SPEC §10: ≤ 80 MB): only
 * for large builds.
 */
const LARGE_BUILD_GROWING_PERCENT = 100;
/**
 * How much the young generation grows at a time while the user types (V8's own default; 1, as
 * otherwise: never). Measured through the server, 244 keystrokes on the 1 MB spec,
 * builds interleaved (docs/performance.md): 0.64 → 0.08–0.09 young collections per keystroke,
 * the server's part 4.78 / 5.02 → 4.20 / 4.28 ms (with / without `ignore_words`), the server
 * ~8–11 MB larger while typing (33 KB: +5 MB). Growing by 4 reached V8's limit (16 MB halves,
 * ~0.02 collections a keystroke) no faster, and ~30 MB larger.
 */
const TYPING_SEMI_SPACE_GROWTH = 2;
/**
 * When the grown young generation is given back: V8 shrinks it at a collection only when little
 * was allocated over the ~5 s before it, counted from the collection before. So one collection
 * when the memory mode returns (it also gives back what typing left in the old generation), and
 * another this long after it, which finds nothing allocated since. (Measured on the 1 MB spec: a
 * single collection 4 s after the last keystroke left the young generation as large as typing had
 * made it; 6.5 s after, it gave it back, resident ~155 → ~115 MB.)
 */
const GIVE_BACK_AFTER_MS = 5500;

export class CollectorMode {
  private setting: CollectorSetting | undefined;
  /** Background builds under way (`hold`), and the large ones among them. */
  private holds = 0;
  private largeHolds = 0;
  /** The young generation may grow: the user typed since the memory mode was last on. */
  private growing = false;
  private lastChange = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The second collection of `giveBack` (see stopGrowing). */
  private giveBackTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly set: SetCollector = v8Collector,
    private readonly quietMs = TYPING_QUIET_MS,
    /** A full collection run as V8 runs its own (memory.ts); none: V8 gives memory back when it will. */
    private readonly giveBack?: () => Promise<void>,
    private readonly giveBackAfterMs = GIVE_BACK_AFTER_MS,
    private readonly growYoung: SetYoungGrowth = v8YoungGrowth,
  ) {
    this.apply('memory');
  }

  /**
   * A document changed, or a request that builds a large answer came (references, rename,
   * workspace symbols: the memory mode's collections doubled a 7,879-location answer's time, 22 →
   * 42 ms, measured): V8's defaults until the user has been quiet for a while.
   */
  busy(): void {
    if (this.disposed) return;
    this.lastChange = Date.now();
    this.apply('typing');
    // (One timer for a run of keystrokes: it looks again when it fires.)
    if (this.timer === undefined) this.arm(this.quietMs);
  }

  /**
   * A document changed: busy (above), and the young generation may grow until the user is quiet
   * (only then: a large answer to a request would leave it grown for nothing).
   */
  typed(): void {
    if (this.disposed) return;
    this.busy();
    clearTimeout(this.giveBackTimer);
    this.giveBackTimer = undefined;
    if (this.growing) return;
    this.growing = true;
    try {
      this.growYoung(true);
    } catch {
      // (V8 keeps its own ways.)
    }
  }

  /**
   * A background build of `specs` specs starts (the term index's): the building setting until it
   * ends — the function returned is called — unless the user types meanwhile; then the memory mode
   * again.
   */
  hold(specs = 0): () => void {
    if (this.disposed) return () => undefined;
    const large = specs >= LARGE_BUILD;
    this.holds++;
    if (large) this.largeHolds++;
    this.update();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (large) this.largeHolds--;
      this.update();
    };
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    clearTimeout(this.giveBackTimer);
    this.timer = undefined;
    this.giveBackTimer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const quiet = Date.now() - this.lastChange;
      if (quiet >= this.quietMs) {
        this.update();
        if (this.growing) this.stopGrowing();
      } else this.arm(this.quietMs - quiet);
    }, ms);
    // (A server about to exit does not wait for it.)
    this.timer.unref();
  }

  /** No more growth; the collections that give back what typing grew (see GIVE_BACK_AFTER_MS); a change stops them. */
  private stopGrowing(): void {
    this.growing = false;
    try {
      this.growYoung(false);
    } catch {
      // (V8 keeps its own ways.)
    }
    const giveBack = this.giveBack;
    if (giveBack === undefined) return;
    // (A collection V8 cannot run is no reason to stop serving.)
    giveBack().catch(() => undefined);
    this.giveBackTimer = setTimeout(() => {
      this.giveBackTimer = undefined;
      giveBack().catch(() => undefined);
    }, this.giveBackAfterMs);
    this.giveBackTimer.unref();
  }

  /** Typing (its quiet time not over) first, then a build under way (a large one first), else memory. */
  private update(): void {
    if (this.disposed) return;
    this.apply(this.timer !== undefined ? 'typing' : this.largeHolds > 0 ? 'large build' : this.holds > 0 ? 'building' : 'memory');
  }

  private apply(setting: CollectorSetting): void {
    if (this.setting === setting) return;
    this.setting = setting;
    try {
      this.set(setting);
    } catch {
      // (V8 keeps its own ways.)
    }
  }
}

/**
 * A setting through V8's flags. Typing: V8's defaults, and room for the garbage of typing.
 * Building: the memory mode but for the early marking — its heap limits and compactions, so the
 * server is no larger once built, or while documents open meanwhile; marking a quarter of the
 * way to the limit had V8 mark again and again through a build's garbage: the 3,000-spec build
 * took 11% more CPU and 7–8% more time with it (docs/performance.md). A large build: the same,
 * with more room to grow.
 */
export function v8Collector(setting: CollectorSetting): void {
  setFlagsFromString(`--incremental-marking-soft-trigger=${setting === 'memory' ? EARLY_PERCENT : 0}`);
  setFlagsFromString(setting === 'typing' ? '--no-compact-on-every-full-gc' : '--compact-on-every-full-gc');
  const growing = setting === 'typing' ? TYPING_GROWING_PERCENT : setting === 'large build' ? LARGE_BUILD_GROWING_PERCENT : MEMORY_GROWING_PERCENT;
  setFlagsFromString(`--heap-growing-percent=${growing}`);
}

/** The young generation's growth through V8's flag (none: lsp/heapSizing.ts's setting). */
export function v8YoungGrowth(grow: boolean): void {
  setFlagsFromString(`--semi-space-growth-factor=${grow ? TYPING_SEMI_SPACE_GROWTH : 1}`);
}
