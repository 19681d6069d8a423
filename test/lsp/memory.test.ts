/**
 * The server gives memory back once documents are closed: when the editor has been quiet for a
 * while after closes (or after many documents were opened at once), it asks V8 for three full
 * collections in a row; typing or opening more stops them. (How much memory comes back is
 * measured by the benchmark: `npm run bench -- --only memory`.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compactingCollector, MemoryKeeper } from '../../server/src/lsp/memory';

afterEach(() => {
  vi.useRealTimers();
});

/** A keeper whose collections are counted; `until` resolves once `count` have run. */
function keeper() {
  let collections = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const collect = async () => {
    collections++;
    for (const w of waiting) if (collections >= w.count) w.resolve();
  };
  const memory = new MemoryKeeper(collect, 1000, () => false);
  return { memory, collections: () => collections, until: (count: number) => new Promise<void>((resolve) => (collections >= count ? resolve() : waiting.push({ count, resolve }))) };
}

describe('giving memory back', () => {
  it('collects three times once the editor is quiet after documents were closed', async () => {
    vi.useFakeTimers();
    const { memory, collections, until } = keeper();
    memory.documentOpened();
    memory.documentClosed();
    await vi.advanceTimersByTimeAsync(900);
    expect(collections()).toBe(0);
    // Another close restarts the quiet time.
    memory.documentClosed();
    await vi.advanceTimersByTimeAsync(900);
    expect(collections()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    await until(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(collections()).toBe(3);
    memory.dispose();
  });

  it('does not collect for a few documents opened, nor while the user types', async () => {
    vi.useFakeTimers();
    const { memory, collections } = keeper();
    for (let i = 0; i < 5; i++) memory.documentOpened();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collections()).toBe(0);
    memory.documentClosed();
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(500);
      memory.documentChanged();
    }
    expect(collections()).toBe(0);
    memory.dispose();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collections()).toBe(0);
  });

  it('collects after many documents were opened at once', async () => {
    vi.useFakeTimers();
    const { memory, until } = keeper();
    for (let i = 0; i < 20; i++) memory.documentOpened();
    await vi.advanceTimersByTimeAsync(1_100);
    await until(3);
    memory.dispose();
  });

  it("collects once the editor is quiet after a folder's glossary was reloaded", async () => {
    vi.useFakeTimers();
    const { memory, collections, until } = keeper();
    memory.workspaceReloaded();
    await vi.advanceTimersByTimeAsync(900);
    expect(collections()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    await until(3);
    memory.dispose();
  });

  it('waits while the server is still busy (checking what was opened)', async () => {
    vi.useFakeTimers();
    let collections = 0;
    let busy = 3;
    const memory = new MemoryKeeper(async () => void collections++, 1000, () => busy-- > 0);
    memory.documentClosed();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(collections).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collections).toBe(3);
    memory.dispose();
  });

  it("uses V8's own collection, which this Node offers", async () => {
    const collect = compactingCollector();
    expect(collect).toBeTypeOf('function');
    await collect!();
  });
});
