/**
 * The builds a run measures: this package's `dist/`, and with `--baseline DIR` another build of
 * spec-glossary (a package folder holding `dist/server.js`, `dist/cli.js`, `dist/data/` and
 * `glossaries/`, e.g. a copy of main's) measured in the same run, interleaved with this one, so
 * every figure comes with its ratio to the baseline under the same machine load.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../server/src/node/packageFiles';

export interface Build {
  /** "this build" or "baseline". */
  name: string;
  dir: string;
  serverJs: string;
  cliJs: string;
}

export function buildsToMeasure(baseline: string | undefined): Build[] {
  const builds = [buildAt('this build', packageRoot())];
  if (baseline) builds.push(buildAt('baseline', path.resolve(baseline)));
  return builds;
}

function buildAt(name: string, dir: string): Build {
  const serverJs = path.join(dir, 'dist', 'server.js');
  const cliJs = path.join(dir, 'dist', 'cli.js');
  for (const file of [serverJs, cliJs]) if (!existsSync(file)) throw new Error(`${file} is missing (${name}): build it first`);
  return { name, dir, serverJs, cliJs };
}

/** " → 2.10× faster than the baseline (4.20 ms)"-style comparison of two medians (lower is better). */
export function againstBaseline(ours: number, baseline: number | undefined, unit: (value: number) => string): string {
  if (baseline === undefined || !(ours > 0)) return '';
  const ratio = baseline / ours;
  return ratio >= 1 ? `; baseline ${unit(baseline)} → ${ratio.toFixed(2)}× less` : `; baseline ${unit(baseline)} → ${(1 / ratio).toFixed(2)}× MORE`;
}
