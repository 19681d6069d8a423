/**
 * `npm run bench` (issue 7): the performance targets of SPEC §10 on generated inputs, with
 * cspell-lib on the same text as the reference. Not a test: nothing here runs in CI except
 * `--quick`, a smoke run of a few iterations on small inputs that only checks that it works.
 *
 *   node dist/bench.cjs [--quick] [--only check,scaling,keystroke,cli,findings,replay,server,memory]
 *                       [--json results.json] [--no-cspell] [--clean] [--check-targets]
 *
 * docs/performance.md explains what is measured and shows the figures.
 */

import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { replayWorkspace } from '../server/src/node/eventStore';
import path from 'node:path';
import { packageRoot } from '../server/src/node/packageFiles';
import { serveCSpell, startCSpellProcess } from './cspell';
import { createInputs } from './inputs';
import { Report } from './report';
import { fullCheckSection, realSpecsSection, scalingSection } from './sections/check';
import { findingsSection } from './sections/findings';
import { keystrokeSection } from './sections/keystroke';
import { checkMemoryChild, memorySection } from './sections/memory';
import { cliSection, replaySection, serverStartSection } from './sections/processes';
import { cleanCache } from './workspace';

const SECTIONS = ['check', 'scaling', 'keystroke', 'cli', 'findings', 'replay', 'server', 'memory'] as const;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      json: { type: 'string' },
      'no-cspell': { type: 'boolean' },
      clean: { type: 'boolean' },
      'check-targets': { type: 'boolean' },
      child: { type: 'string' },
    },
    allowPositionals: true,
  });
  const quick = values.quick === true;
  if (values.child) return child(values.child, positionals, quick);
  if (values.clean) cleanCache();

  const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...SECTIONS];
  for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section '${name}' (known: ${SECTIONS.join(', ')})`);
  const wants = (name: (typeof SECTIONS)[number]) => only.includes(name);

  const report = new Report();
  const cpus = os.cpus();
  report.line(`spec-glossary benchmark${quick ? ' (quick smoke run: small inputs, few iterations — figures mean nothing)' : ''}`);
  report.line(`node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  report.record('machine', { node: process.version, platform: os.platform(), arch: os.arch(), cpus: cpus.length, model: cpus[0]?.model, loadavg: os.loadavg() });

  const inputs = createInputs();
  const cspell = wants('check') && !values['no-cspell'] ? await startCSpellProcess(path.join(packageRoot(), 'dist', 'bench.cjs')) : undefined;
  if (wants('check') && !values['no-cspell'] && !cspell) report.note('cspell-lib could not be loaded: no comparison');
  if (cspell) report.line(`reference: cspell-lib ${cspell.version} (default settings, markdown document; run in a process of its own)`);

  try {
    if (wants('check')) {
      await fullCheckSection(inputs, report, { quick, cspell });
      await realSpecsSection(inputs, report, { quick, cspell });
    }
  } finally {
    cspell?.stop();
  }
  // (Keystrokes before the scaling rows: the 100,000-sense glossary and the 4 MB spec those make
  // would otherwise stay in the heap and slow every garbage collection down.)
  if (wants('keystroke')) keystrokeSection(inputs, report, { quick });
  if (wants('scaling')) scalingSection(inputs, report, { quick });
  if (wants('server')) await serverStartSection(report, { quick });
  if (wants('cli')) await cliSection(report, { quick });
  if (wants('findings')) await findingsSection(report, { quick });
  if (wants('replay')) await replaySection(report, { quick });
  if (wants('memory')) await memorySection(report, { quick });

  if (report.targets.length > 0) report.printTargets();
  if (values.json) writeFileSync(values.json, report.json() + '\n');
  return values['check-targets'] && report.targets.some((t) => !t.pass) ? 1 : 0;
}

/** Work done in a fresh process, so its time and peak memory are its own. */
async function child(name: string, args: string[], quick: boolean): Promise<number> {
  if (name === 'replay') {
    const start = performance.now();
    const { state, problems } = await replayWorkspace(args[0]!);
    const elapsed = performance.now() - start;
    process.stdout.write(JSON.stringify({ ms: elapsed, pins: state.pins.length, senses: state.addedSenses.length, problems: problems.length }) + '\n');
    return 0;
  }
  if (name === 'cspell') {
    await serveCSpell();
    return 0;
  }
  if (name === 'check-memory') {
    checkMemoryChild(quick);
    return 0;
  }
  throw new Error(`unknown child '${name}'`);
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
