/**
 * Generated workspaces on disk: a Spec Kitty layout with seed glossaries and many missions, and
 * a cache folder so the expensive inputs (the 1,000,000-event log) are written once per machine.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeEventLogs, type EventLogSummary } from './events';
import { generateGlossary, generateSpec } from './generate';

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

export interface WorkspaceSummary {
  specs: number;
  bytes: number;
  senses: number;
}

/**
 * `specs` missions under kitty-specs/, each with a meta.json and a spec.md, `totalBytes` of specs
 * in all; seed glossaries of `senses` senses over the four scopes in .kittify/glossaries/.
 */
export function benchWorkspace(specs: number, totalBytes: number, senses: number): { dir: string; summary: WorkspaceSummary } {
  return cached(`workspace-${specs}-${totalBytes}-${senses}`, (dir) => {
    const glossary = generateGlossary(senses);
    mkdirSync(path.join(dir, '.kittify', 'glossaries'), { recursive: true });
    for (const [scope, yaml] of Object.entries(glossary.yaml)) writeFileSync(path.join(dir, '.kittify', 'glossaries', `${scope}.yaml`), yaml);
    writeFileSync(path.join(dir, '.kittify', 'config.yaml'), 'glossary:\n  strictness: medium\n');
    let bytes = 0;
    for (let i = 0; i < specs; i++) {
      const mission = `${String(i + 1).padStart(3, '0')}-generated-mission-${i % 7}`;
      const folder = path.join(dir, 'kitty-specs', mission);
      mkdirSync(folder, { recursive: true });
      // Sizes vary around the mean, as real specs do.
      const size = Math.round((totalBytes / specs) * (0.5 + ((i * 7919) % 100) / 100));
      const text = generateSpec({ size, seed: 1000 + i, missionId: `01KBENCHWS${String(i).padStart(4, '0')}` });
      bytes += Buffer.byteLength(text);
      writeFileSync(path.join(folder, 'spec.md'), text);
      writeFileSync(path.join(folder, 'meta.json'), JSON.stringify({ mission_id: `01KBENCHWS${String(i).padStart(4, '0')}`, slug: mission }, null, 2) + '\n');
    }
    return { specs, bytes, senses };
  });
}

/** A workspace whose event logs hold `events` events (see events.ts), seeds from the bundled core. */
export function eventWorkspace(events: number): { dir: string; summary: EventLogSummary } {
  return cached(`events-${events}`, (dir) => {
    mkdirSync(path.join(dir, '.kittify'), { recursive: true });
    return writeEventLogs(dir, events);
  });
}
