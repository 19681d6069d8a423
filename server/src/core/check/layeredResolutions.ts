/**
 * Resolutions of a glossary made of another one plus a mission's own senses
 * (`GlossaryIndex.withSenses`): a term none of the added senses names resolves exactly as in the
 * base glossary, so those are read from and written to the base's shared resolutions (and kept
 * here too); the mission's own terms and words to avoid are kept here only. Checking 400 specs of 400 missions then
 * resolves each common term once, not once per mission.
 */

import type { Resolution } from './resolve';

export class LayeredResolutions extends Map<string, Resolution> {
  constructor(
    private readonly base: Map<string, Resolution>,
    /** Surfaces whose resolution may differ from the base's. */
    private readonly own: ReadonlySet<string>,
    /** Past this many, the base's resolutions are forgotten (they are a cache). */
    private readonly limit: number,
  ) {
    super();
  }

  override get(key: string): Resolution | undefined {
    // (Kept here once read from the base too: a document's next check finds it in one look-up.)
    const own = super.get(key);
    if (own !== undefined || this.owns(key)) return own;
    const shared = this.base.get(key);
    if (shared !== undefined) super.set(key, shared);
    return shared;
  }

  override set(key: string, value: Resolution): this {
    super.set(key, value);
    if (this.owns(key)) return this;
    if (this.base.size >= this.limit) this.base.clear();
    this.base.set(key, value);
    return this;
  }

  /** (Keys may carry a marker after the surface, see semantic.ts CASING_KEY.) */
  private owns(key: string): boolean {
    const marker = key.indexOf('\u0001');
    return this.own.has(marker === -1 ? key : key.slice(0, marker));
  }
}
