/**
 * Giving memory back once documents are closed (issue 19: 200 closed documents left the server
 * as large as with them open). Closing a document drops everything the server kept for it, but
 * V8 returns the pages that held it only when it compacts its heap, which it does on a schedule
 * of its own: 10–30 s later, measured (`npm run bench -- --only memory`). The same holds for a
 * folder's glossary after a reload: the old one, and the YAML library's parse of a large seed
 * (~30 bytes of garbage per byte of YAML), are garbage on pages V8 keeps. So once the editor has
 * been quiet for a second after documents were closed, a folder was reloaded, or many documents
 * were opened at once, the server asks V8 for full collections, run as V8 runs its own: incrementally, finished outside
 * any JavaScript stack, so they may compact and unmap pages (a collection forced from
 * JavaScript may not move objects, and gives little back).
 *
 * The collection is asked for through the `gc` function V8 gives a new context once
 * `--expose-gc` is set; where that fails, nothing is asked and V8 keeps its own schedule.
 */

import { setFlagsFromString } from 'node:v8';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';

/** Quiet time (no document opened, changed or closed, the server mostly idle) before collecting. */
const QUIET_MS = 1000;
/** Documents opened since the last collection that make one worth it (an editor restoring a session). */
const OPENED_BURST = 20;
/** Above this share of the quiet time spent running, the server is still busy (checking what was opened). */
const BUSY = 0.2;
/**
 * Collections in a row, each on the previous one's result, as V8's own memory reducer does: the
 * first frees what the closed documents held, the next ones compact the pages it left sparse
 * (measured after 200 closed specs: one ~−1 MB, two ~−11 MB, three ~−13 MB resident).
 */
const COLLECTIONS = 3;

export type Collect = () => Promise<void>;

export class MemoryKeeper {
  private timer: NodeJS.Timeout | undefined;
  /** Documents closed and folders reloaded since the last collection: memory to give back. */
  private released = 0;
  private opened = 0;
  /** Bumped by every document event: a sequence of collections under way stops. */
  private generation = 0;
  private since: EventLoopUtilization | undefined;
  private disposed = false;

  constructor(
    private readonly collect: Collect | undefined = compactingCollector(),
    private readonly quietMs = QUIET_MS,
    /** Whether the server spent the quiet time mostly running (event-loop utilization by default). */
    private readonly wasBusy: (since: EventLoopUtilization) => boolean = (since) => performance.eventLoopUtilization(since).utilization > BUSY,
  ) {}

  documentOpened(): void {
    this.opened++;
    this.activity();
  }

  documentChanged(): void {
    // Typing pushes a pending collection back: it runs when the editor is quiet.
    this.generation++;
    if (this.timer) this.arm();
  }

  documentClosed(): void {
    this.released++;
    this.activity();
  }

  /** A folder's glossary was read again: the previous one (and the parse's garbage) can go. */
  workspaceReloaded(): void {
    this.released++;
    this.activity();
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private activity(): void {
    this.generation++;
    if (this.disposed || this.collect === undefined || (this.released === 0 && this.opened < OPENED_BURST)) return;
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.since = performance.eventLoopUtilization();
    this.timer = setTimeout(() => void this.run(this.generation), this.quietMs);
    // (A server about to exit does not wait for it.)
    this.timer.unref();
  }

  private async run(generation: number): Promise<void> {
    this.timer = undefined;
    // Still checking what was opened: not quiet yet.
    if (this.since && this.wasBusy(this.since)) {
      this.arm();
      return;
    }
    this.released = 0;
    this.opened = 0;
    for (let k = 0; k < COLLECTIONS && generation === this.generation && !this.disposed; k++) {
      try {
        await this.collect!();
      } catch {
        return;
      }
    }
  }
}

/** V8's full collection, run asynchronously (see above); undefined when V8 does not offer it. */
export function compactingCollector(): Collect | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') return undefined;
    return async () => {
      // (An older V8 ignores the options and collects at once: still memory given back.)
      await (gc as (options: { type: string; execution: string }) => Promise<void> | undefined)({ type: 'major', execution: 'async' });
    };
  } catch {
    return undefined;
  }
}
