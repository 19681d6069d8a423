/**
 * Records the CPU time each test file used — in this worker and in the processes it started and
 * waited for (CLIs, servers, the benchmark) — as `cpuMs` in the file's metadata, which the timing
 * reporter (timingReporter.ts) ranks by. Unlike wall time it barely changes with the machine's load.
 */

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

declare module '@vitest/runner' {
  interface TaskMeta {
    cpuMs?: number;
  }
}

/** Milliseconds of CPU of this process and of its children that ended (Linux; else this process only). */
function cpuMs(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + childrenMs();
}

function childrenMs(): number {
  try {
    // /proc/self/stat: fields after "(comm) ": state is the 3rd field; cutime and cstime the 16th and 17th, in clock ticks (100 a second).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

let started = 0;
beforeAll(() => {
  started = cpuMs();
});
afterAll((file) => {
  file.meta.cpuMs = cpuMs() - started;
});
