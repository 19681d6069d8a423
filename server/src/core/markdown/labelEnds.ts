/**
 * Where link labels close, learnt by the scans of the labels around them (inline.ts, labelEnd).
 * A scan from a `[` passes the same tokens as the scan from any `[` it counts as a bracket would
 * from there on, so one scan tells where each of those closes, or that it does not close before
 * the scan's end. Without this, a run of n `[` (a pasted nested array, brackets never closed,
 * links nested thousands deep) is scanned up to n times to its end: 6,000 took a second, 100 KB
 * minutes.
 *
 * A scan that ends earlier (the label of a link found, as markdown-it sets `posMax`) reads what a
 * scan to a later end learnt, as markdown-it's token cache is shared between the two.
 */
export class LabelEnds {
  /** Per `[` offset: the end of the scan that learnt where it closes. */
  private readonly scanEnd = new Map<number, number>();
  /** Per `[` offset: its `]` with links inside allowed (an image's description), -1 when it does not close. */
  private readonly any = new Map<number, number>();
  /** The same for a link's text, which may not hold a link (-1 also when it does). */
  private readonly noLinks = new Map<number, number>();

  clear(): void {
    this.scanEnd.clear();
    this.any.clear();
    this.noLinks.clear();
  }

  /** Where the label opened at `p` closes in a scan ending at `max`: its `]`, -1 (it does not), or undefined (not known). */
  get(p: number, max: number, noLinks: boolean): number | undefined {
    const end = this.scanEnd.get(p);
    if (end === undefined || max > end) return undefined;
    const close = (noLinks ? this.noLinks : this.any).get(p)!;
    return close < max ? close : -1;
  }

  /** Records where the label opened at `p` closes in a scan ending at `max` (-1: not before it). */
  set(p: number, max: number, any: number, noLinks: number): void {
    this.scanEnd.set(p, max);
    this.any.set(p, any);
    this.noLinks.set(p, noLinks);
  }
}
