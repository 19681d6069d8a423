/** Timing helpers: warm-up, then samples; medians (the figure SPEC §10 states targets in). */

export interface Samples {
  /** Milliseconds, in the order measured. */
  times: number[];
  median: number;
  min: number;
  p90: number;
}

export function summarize(times: number[]): Samples {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return { times, median, min: sorted[0]!, p90: at(0.9) };
}

export interface MeasureOptions {
  warmup: number;
  iterations: number;
  /** Stop early once this many milliseconds were spent measuring (after at least 3 samples). */
  budgetMs?: number;
}

/** Runs `work` `warmup` times unmeasured, then up to `iterations` times measured. */
export function measure(work: (iteration: number) => unknown, options: MeasureOptions): Samples {
  for (let i = 0; i < options.warmup; i++) work(-1 - i);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < options.iterations; i++) {
    const start = performance.now();
    work(i);
    times.push(performance.now() - start);
    if (options.budgetMs !== undefined && times.length >= 3 && performance.now() - started > options.budgetMs) break;
  }
  return summarize(times);
}

export async function measureAsync(work: (iteration: number) => Promise<unknown>, options: MeasureOptions): Promise<Samples> {
  for (let i = 0; i < options.warmup; i++) await work(-1 - i);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < options.iterations; i++) {
    const start = performance.now();
    await work(i);
    times.push(performance.now() - start);
    if (options.budgetMs !== undefined && times.length >= 3 && performance.now() - started > options.budgetMs) break;
  }
  return summarize(times);
}

export function ms(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 0)} MB`;
}
