/**
 * The benchmark's cache folder, so the expensive input (the 1,000,000-event log) is written once
 * per machine.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeEventLogs, type EventLogSummary } from './events';

/** Bump when a generator changes, so cached inputs are written again. */
const INPUTS_VERSION = 1;

export function cacheRoot(): string {
  return path.join(process.env['SPEC_GLOSSARY_BENCH_CACHE'] ?? path.join(tmpdir(), 'spec-glossary-bench'), `v${INPUTS_VERSION}`);
}

export function cleanCache(): void {
  rmSync(path.dirname(cacheRoot()), { recursive: true, force: true });
}

/** A folder under the cache, created by `write` unless an earlier run completed it. */
function cached<T>(name: string, write: (dir: string) => T): { dir: string; summary: T } {
  const dir = path.join(cacheRoot(), name);
  const done = path.join(dir, '.complete.json');
  if (existsSync(done)) return { dir, summary: JSON.parse(readFileSync(done, 'utf8')) as T };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const summary = write(dir);
  writeFileSync(done, JSON.stringify(summary));
  return { dir, summary };
}

/** A workspace whose event logs hold `events` events (see events.ts), seeds from the bundled core. */
export function eventWorkspace(events: number): { dir: string; summary: EventLogSummary } {
  return cached(`events-${events}`, (dir) => {
    mkdirSync(path.join(dir, '.kittify'), { recursive: true });
    return writeEventLogs(dir, events);
  });
}
