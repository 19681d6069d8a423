/** Peak memory of the in-editor work: a child process that opens the 1 MB spec and edits it. */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../server/src/node/packageFiles';
import { createInputs, MB } from '../inputs';
import type { Report } from '../report';
import { mb } from '../stats';
import { runNode } from './processes';

export async function memorySection(report: Report, options: { quick: boolean }): Promise<void> {
  report.section('Peak memory (resident set of a fresh process)');
  const bench = path.join(packageRoot(), 'dist', 'bench.cjs');
  if (!existsSync(bench)) {
    report.note('dist/bench.cjs is missing: skipped');
    return;
  }
  const baseline = await runNode(['-e', ''], packageRoot());
  const run = await runNode([bench, '--child', 'check-memory', ...(options.quick ? ['--quick'] : [])], packageRoot(), true);
  if (run.code !== 0) {
    report.note(`memory child failed (exit ${run.code}): ${run.stderr.slice(0, 300)}`);
    return;
  }
  report.line(`  node itself: ${mb(baseline.maxRss)}`);
  report.line(`  1 MB spec + 10,000-sense glossary, full checks and 100 keystrokes: ${mb(run.maxRss)}`);
  report.record('memory', { node: baseline.maxRss, checkAndEdit: run.maxRss });
}

/** The child's work (bench.cjs --child check-memory). */
export function checkMemoryChild(quick: boolean): void {
  const inputs = createInputs();
  const glossary = inputs.glossary(10_000);
  let text = inputs.spec(quick ? MB / 16 : MB);
  for (let i = 0; i < 3; i++) inputs.engine.checkDocument(text, { glossary, common: inputs.common });
  const checker = inputs.engine.createIncrementalChecker();
  checker.check(text, { glossary, common: inputs.common });
  for (let i = 0; i < (quick ? 5 : 100); i++) {
    const at = text.indexOf(' ', (i * 7919 * 101) % text.length) + 1;
    text = text.slice(0, at) + 'x' + text.slice(at);
    checker.check(text, { glossary, common: inputs.common });
  }
  process.stdout.write(JSON.stringify({ ok: true }) + '\n');
}
