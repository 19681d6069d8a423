/**
 * V8 marks the old generation early (collecting a burst's garbage sooner) except while the user
 * types, where its own schedule keeps keystrokes fast: early from the start, off at the first
 * change, on again once no change came for the quiet time. (What it saves is measured by the
 * benchmark: `npm run bench -- --only memory,keystroke`.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarkingSchedule, v8EarlyMarking } from '../../server/src/lsp/markingSchedule';

afterEach(() => {
  vi.useRealTimers();
});

describe('when V8 starts marking', () => {
  it('early, except while the user types and until the quiet time after the last change', async () => {
    vi.useFakeTimers();
    const set: boolean[] = [];
    const schedule = new MarkingSchedule((early) => set.push(early), 3000);
    expect(set).toEqual([true]);
    schedule.documentChanged();
    expect(set).toEqual([true, false]);
    // Typing on: still V8's own schedule, set once.
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      schedule.documentChanged();
    }
    expect(set).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(2900);
    expect(set).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(200);
    expect(set).toEqual([true, false, true]);
    schedule.documentChanged();
    expect(set).toEqual([true, false, true, false]);
    schedule.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(set).toEqual([true, false, true, false]);
  });

  it('keeps going when the flag cannot be set, and V8 takes the flag it is given', () => {
    const schedule = new MarkingSchedule(() => {
      throw new Error('no such flag');
    });
    expect(() => schedule.documentChanged()).not.toThrow();
    schedule.dispose();
    expect(() => v8EarlyMarking(false)).not.toThrow();
  });
});
