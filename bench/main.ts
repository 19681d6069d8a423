/**
 * `npm run bench`: the performance targets of SPEC §10, measured where users meet the code — the
 * real server over stdio, the CLI as a whole process, real spec text — with the same run's
 * reference beside each figure: cspell's CLI on the same files, and (`--baseline DIR`) another
 * build of spec-glossary measured interleaved with this one. Not a test: CI runs only `--quick`,
 * a smoke run on small inputs that checks that every section works.
 *
 *   node dist/bench.cjs [--quick] [--only keystroke,memory,decision,cli,findings,seed,server,replay,scaling,terms] [--term-specs 400,3000]
 *                       [--baseline DIR] [--json results.json] [--clean] [--check-targets]
 *
 * docs/performance.md explains what is measured and shows the figures.
 */

import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { replayWorkspace } from '../server/src/node/eventStore';
import { buildsToMeasure } from './builds';
import { loadCorpus, MB, workspaceSpecs, writeWorkspace, type BenchWorkspace } from './corpus';
import { Report } from './report';
import { findingsSection } from './sections/findings';
import { keystrokeSection } from './sections/keystroke';
import { decisionSection } from './sections/decision';
import { cliSection, replaySection, serverStartSection } from './sections/processes';
import { scalingSection } from './sections/scaling';
import { seedMemorySection } from './sections/seedMemory';
import { serverMemorySection } from './sections/serverMemory';
import { termsSection } from './sections/terms';
import { mb } from './stats';
import { cleanCache } from './workspace';

const SECTIONS = ['keystroke', 'memory', 'decision', 'cli', 'findings', 'seed', 'server', 'replay', 'scaling', 'terms'] as const;

/** `--term-specs 400,3000`: the workspace sizes of the terms section (default 400 and 10,000). */
function termSpecs(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const sizes = value.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new UsageMistake(`--term-specs: expected spec counts such as 400,3000, got '${value}'`);
  return sizes;
}

const USAGE = `Usage: npm run bench -- [options]   (or: node dist/bench.cjs [options])

  --quick                 smoke run on small inputs (figures mean nothing; what CI runs)
  --only a,b,…            sections: ${SECTIONS.join(', ')}
  --baseline DIR          another build (a checkout with dist/ built) measured in the same run
  --term-specs 400,3000   workspace sizes of the terms section (default 400 and 10,000)
  --json FILE             every figure as JSON
  --check-targets         exit 1 when a target of SPEC §10 is missed
  --clean                 remove the generated workspaces first
  -h, --help              this text

docs/performance.md explains what is measured.`;

/** A mistake in the command line: said with the usage, exit 2, no stack trace. */
class UsageMistake extends Error {}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
    if (parsed.values.help) {
      console.log(USAGE);
      return 0;
    }
    const only = parsed.values.only?.split(',').map((s) => s.trim()) ?? [];
    for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new UsageMistake(`--only: unknown section '${name}' (known: ${SECTIONS.join(', ')})`);
    termSpecs(parsed.values['term-specs']);
  } catch (error) {
    // (parseArgs' own errors, an unknown option or a missing value, are usage mistakes too.)
    if (!(error instanceof UsageMistake) && !(error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    console.error(`bench: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  return run(parsed);
}

function parseOptions() {
  return parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      quick: { type: 'boolean' },
      only: { type: 'string' },
      baseline: { type: 'string' },
      json: { type: 'string' },
      clean: { type: 'boolean' },
      'check-targets': { type: 'boolean' },
      child: { type: 'string' },
      'term-specs': { type: 'string' },
    },
    allowPositionals: true,
  });
}

async function run({ values, positionals }: ReturnType<typeof parseOptions>): Promise<number> {
  const quick = values.quick === true;
  if (values.child) return child(values.child, positionals);
  if (values.clean) cleanCache();

  const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...SECTIONS];
  const wants = (name: (typeof SECTIONS)[number]) => only.includes(name);

  const report = new Report();
  const cpus = os.cpus();
  report.line(`spec-glossary benchmark${quick ? ' (quick smoke run: small inputs, few iterations — figures mean nothing)' : ''}`);
  report.line(`node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  report.record('machine', { node: process.version, platform: os.platform(), arch: os.arch(), cpus: cpus.length, model: cpus[0]?.model, loadavg: os.loadavg() });
  const builds = buildsToMeasure(values.baseline);
  if (builds[1]) report.line(`baseline: ${builds[1].dir} (measured in the same run, interleaved)`);

  const corpus = loadCorpus();
  if (!corpus) {
    report.note('no corpus of real specs found (set SPEC_GLOSSARY_CORPUS to the folder holding spec-kitty/ and spec-kitty-docs/): only replay runs');
  } else {
    report.line(`real specs: ${corpus.specs.length} mission specs and ${corpus.pages.length} documentation pages from ${corpus.dir}`);
    if (wants('keystroke')) await keystrokeSection(corpus, builds, report, { quick });
    let workspace: BenchWorkspace | undefined;
    try {
      if (wants('memory') || wants('decision') || wants('cli')) {
        // SPEC §10's workspace: 400 specs, 9 MB, made of whole real documents.
        const texts = workspaceSpecs(corpus, quick ? 20 : 400, quick ? MB / 2 : 9 * MB);
        workspace = writeWorkspace(corpus, 'workspace', texts);
        report.line(`\nworkspace: ${workspace.files.length} specs, ${mb(workspace.bytes)} of real text, the real core glossary (${workspace.root})`);
        if (wants('decision')) await decisionSection(corpus, texts, builds, report, { quick });
      }
      if (workspace && wants('memory')) await serverMemorySection(workspace, builds, report, { quick });
      if (workspace && wants('cli')) await cliSection(workspace, builds, report, { quick });
    } finally {
      workspace?.remove();
    }
  }
  if (wants('findings')) await findingsSection(report, { quick });
  if (wants('seed')) await seedMemorySection(builds, report, { quick });
  if (wants('server')) await serverStartSection(builds, report, { quick });
  if (wants('replay')) await replaySection(builds, report, { quick });
  if (corpus && wants('scaling')) scalingSection(corpus, report, { quick });
  if (corpus && wants('terms')) await termsSection(corpus, builds, report, { quick, sizes: termSpecs(values['term-specs']) });

  if (report.targets.length > 0) report.printTargets();
  if (values.json) writeFileSync(values.json, report.json() + '\n');
  return values['check-targets'] && report.targets.some((t) => !t.pass) ? 1 : 0;
}

/** Work done in a fresh process, so its time and peak memory are its own. */
async function child(name: string, args: string[]): Promise<number> {
  if (name === 'replay') {
    const start = performance.now();
    const { state, problems } = await replayWorkspace(args[0]!);
    const elapsed = performance.now() - start;
    process.stdout.write(JSON.stringify({ ms: elapsed, pins: state.pins.length, senses: state.addedSenses.length, problems: problems.length }) + '\n');
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
