/**
 * V8 collects for memory (marking early, compacting every time) except while the user types,
 * where its defaults keep keystrokes fast: the memory mode from the start, off at the first
 * change, on again once no change came for the quiet time. (What it saves and costs is measured
 * by the benchmark: `npm run bench -- --only memory,keystroke`.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CollectorMode, v8MemoryMode, v8YoungGrowth } from '../../server/src/lsp/collectorMode';

afterEach(() => {
  vi.useRealTimers();
});

describe('how V8 collects', () => {
  it('for memory, except while the user types and until the quiet time after the last change', async () => {
    vi.useFakeTimers();
    const set: boolean[] = [];
    const mode = new CollectorMode((early) => set.push(early), 3000);
    expect(set).toEqual([true]);
    mode.busy();
    expect(set).toEqual([true, false]);
    // Typing on: still V8's defaults, set once.
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      mode.busy();
    }
    expect(set).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(2900);
    expect(set).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(200);
    expect(set).toEqual([true, false, true]);
    mode.busy();
    expect(set).toEqual([true, false, true, false]);
    mode.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(set).toEqual([true, false, true, false]);
  });

  it('lets the young generation grow while the user types (not for a request), then gives the memory back: a collection when the memory mode returns, another later; typing stops them', async () => {
    vi.useFakeTimers();
    const set: boolean[] = [];
    const grow: boolean[] = [];
    let collections = 0;
    const mode = new CollectorMode((memory) => set.push(memory), 3000, async () => void collections++, 5500, (on) => grow.push(on));
    // A request: V8's defaults for a while, nothing grows, nothing to give back.
    mode.busy();
    await vi.advanceTimersByTimeAsync(10_000);
    expect([set, grow, collections]).toEqual([[true, false, true], [], 0]);
    mode.typed();
    mode.typed();
    expect([set, grow]).toEqual([[true, false, true, false], [true]]);
    await vi.advanceTimersByTimeAsync(2900);
    expect(collections).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect([set, grow, collections]).toEqual([[true, false, true, false, true], [true, false], 1]);
    // A keystroke before the second: none, until the next quiet spell (a request does not stop it).
    await vi.advanceTimersByTimeAsync(5000);
    mode.typed();
    await vi.advanceTimersByTimeAsync(2900);
    expect(collections).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(collections).toBe(2);
    mode.busy();
    await vi.advanceTimersByTimeAsync(5500);
    expect(collections).toBe(3);
    // Once per quiet spell.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(collections).toBe(3);
    expect(grow).toEqual([true, false, true, false]);
    // A collection or flag that fails changes nothing; one not yet due is dropped on dispose.
    const failing = new CollectorMode(
      () => undefined,
      3000,
      () => Promise.reject(new Error('no collection')),
      5500,
      () => {
        throw new Error('no such flag');
      },
    );
    failing.typed();
    await vi.advanceTimersByTimeAsync(10_000);
    failing.typed();
    failing.dispose();
    mode.typed();
    await vi.advanceTimersByTimeAsync(3100);
    mode.dispose();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(collections).toBe(4);
  });

  it('keeps going when the flag cannot be set, and V8 takes the flag it is given', () => {
    const mode = new CollectorMode(() => {
      throw new Error('no such flag');
    });
    expect(() => mode.busy()).not.toThrow();
    mode.dispose();
    expect(() => v8MemoryMode(false)).not.toThrow();
    expect(() => v8YoungGrowth(true)).not.toThrow();
    expect(() => v8YoungGrowth(false)).not.toThrow();
  });
});
