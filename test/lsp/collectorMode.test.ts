/**
 * V8 collects for memory (marking early, compacting every time) except while the user types,
 * where its defaults keep keystrokes fast: the memory mode from the start, off at the first
 * change, on again once no change came for the quiet time. While a background build runs (the
 * term index), the building setting, unless the user types. (What each saves and costs is
 * measured by the benchmark: `npm run bench -- --only memory,keystroke,terms`.)
 */
import { setFlagsFromString } from 'node:v8';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CollectorMode, LARGE_BUILD, v8Collector, v8YoungGrowth, type CollectorSetting } from '../../server/src/lsp/collectorMode';

afterEach(() => {
  vi.useRealTimers();
});

// The flags set here are the worker's, process-wide, and it runs other test files after this one:
// V8's defaults (`node --v8-options`) back, or their garbage is collected the memory mode's way.
afterAll(() => {
  for (const flag of ['--incremental-marking-soft-trigger=0', '--no-compact-on-every-full-gc', '--heap-growing-percent=0', '--semi-space-growth-factor=2']) setFlagsFromString(flag);
});

describe('how V8 collects', () => {
  it('for memory, except while the user types and until the quiet time after the last change', async () => {
    vi.useFakeTimers();
    const set: CollectorSetting[] = [];
    const mode = new CollectorMode((setting) => set.push(setting), 3000);
    expect(set).toEqual(['memory']);
    mode.busy();
    expect(set).toEqual(['memory', 'typing']);
    // Typing on: still V8's defaults, set once.
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      mode.busy();
    }
    expect(set).toEqual(['memory', 'typing']);
    await vi.advanceTimersByTimeAsync(2900);
    expect(set).toEqual(['memory', 'typing']);
    await vi.advanceTimersByTimeAsync(200);
    expect(set).toEqual(['memory', 'typing', 'memory']);
    mode.busy();
    expect(set).toEqual(['memory', 'typing', 'memory', 'typing']);
    mode.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(set).toEqual(['memory', 'typing', 'memory', 'typing']);
  });

  it('lets the young generation grow while the user types (not for a request), then gives the memory back: a collection when the memory mode returns, another later; typing stops them', async () => {
    vi.useFakeTimers();
    const set: CollectorSetting[] = [];
    const grow: boolean[] = [];
    let collections = 0;
    const mode = new CollectorMode((setting) => set.push(setting), 3000, async () => void collections++, 5500, (on) => grow.push(on));
    // A request: V8's defaults for a while, nothing grows, nothing to give back.
    mode.busy();
    await vi.advanceTimersByTimeAsync(10_000);
    expect([set, grow, collections]).toEqual([['memory', 'typing', 'memory'], [], 0]);
    mode.typed();
    mode.typed();
    expect([set, grow]).toEqual([['memory', 'typing', 'memory', 'typing'], [true]]);
    await vi.advanceTimersByTimeAsync(2900);
    expect(collections).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect([set, grow, collections]).toEqual([['memory', 'typing', 'memory', 'typing', 'memory'], [true, false], 1]);
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

  it('for a build while it runs, typing first, and for memory once both are over', async () => {
    vi.useFakeTimers();
    const set: CollectorSetting[] = [];
    const mode = new CollectorMode((setting) => set.push(setting), 3000);
    const first = mode.hold();
    expect(set).toEqual(['memory', 'building']);
    // A second build (another folder) and the end of the first: still building.
    const second = mode.hold();
    first();
    first();
    expect(set).toEqual(['memory', 'building']);
    // The user types during the build: typing, then back to building once quiet.
    mode.busy();
    expect(set).toEqual(['memory', 'building', 'typing']);
    await vi.advanceTimersByTimeAsync(3100);
    expect(set).toEqual(['memory', 'building', 'typing', 'building']);
    second();
    expect(set).toEqual(['memory', 'building', 'typing', 'building', 'memory']);
    // A build that ends while the user types: typing until quiet, then memory.
    const third = mode.hold();
    mode.busy();
    third();
    expect(set.slice(5)).toEqual(['building', 'typing']);
    await vi.advanceTimersByTimeAsync(3100);
    expect(set.slice(5)).toEqual(['building', 'typing', 'memory']);
    mode.dispose();
    mode.hold()();
    expect(set.slice(5)).toEqual(['building', 'typing', 'memory']);
  });

  it('gives a large build more room while one runs', () => {
    const set: CollectorSetting[] = [];
    const mode = new CollectorMode((setting) => set.push(setting), 3000);
    const small = mode.hold(400);
    const large = mode.hold(LARGE_BUILD);
    expect(set).toEqual(['memory', 'building', 'large build']);
    large();
    expect(set).toEqual(['memory', 'building', 'large build', 'building']);
    small();
    expect(set).toEqual(['memory', 'building', 'large build', 'building', 'memory']);
    mode.dispose();
  });

  it('keeps going when the flag cannot be set, and V8 takes the flag it is given', () => {
    const mode = new CollectorMode(() => {
      throw new Error('no such flag');
    });
    expect(() => mode.busy()).not.toThrow();
    expect(() => mode.hold()()).not.toThrow();
    mode.dispose();
    for (const setting of ['typing', 'building', 'large build', 'memory'] as const) expect(() => v8Collector(setting)).not.toThrow();
    expect(() => v8YoungGrowth(true)).not.toThrow();
    expect(() => v8YoungGrowth(false)).not.toThrow();
  });
});
