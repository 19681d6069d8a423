/** A request waiting on long work (the first index build) is answered as soon as it is cancelled. */
import { describe, expect, it } from 'vitest';
import { CancellationTokenSource } from 'vscode-languageserver';
import { Cancelled, unlessCancelled } from '../../server/src/lsp/runSafe';

describe('unlessCancelled', () => {
  it('gives the work, or Cancelled at once when the request is cancelled while it waits', async () => {
    expect(await unlessCancelled(Promise.resolve(7), new CancellationTokenSource().token)).toBe(7);
    const source = new CancellationTokenSource();
    let finish: (value: number) => void = () => {};
    const work = new Promise<number>((resolve) => (finish = resolve));
    const waiting = unlessCancelled(work, source.token);
    source.cancel();
    await expect(waiting).rejects.toBeInstanceOf(Cancelled);
    finish(1); // (the work goes on and ends later, for whoever else waits on it)
    expect(await work).toBe(1);
    // Already cancelled: Cancelled without waiting.
    expect(() => unlessCancelled(work, source.token)).toThrow(Cancelled);
  });
});
