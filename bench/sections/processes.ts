/**
 * What is measured as whole processes: the CLI checking a 400-spec workspace of real specs
 * against cspell's CLI on the same files (same run, interleaved), replaying 1,000,000 events, and
 * the language server's start until `initialize` is answered. Each child reports its peak
 * resident memory (getrusage) through a preload script, on file descriptor 3.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../server/src/node/packageFiles';
import { againstBaseline, type Build } from '../builds';
import type { BenchWorkspace } from '../corpus';
import { initializeParams, LspClient } from '../lsp';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';
import { cacheRoot, eventWorkspace } from '../workspace';

export interface ChildRun {
  wallMs: number;
  code: number | null;
  /** Peak resident set size of the child, in bytes. */
  maxRss: number;
  stdout: string;
  stderr: string;
}

/** A preload that writes the process's peak RSS to fd 3 when it exits. */
export function memoryProbe(): string {
  const file = path.join(cacheRoot(), 'peak-rss-probe.cjs');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "process.on('exit', () => { try { require('fs').writeSync(3, String(process.resourceUsage().maxRSS * 1024)); } catch {} });\n");
  }
  return file;
}

/** Runs `node <args>` and waits for it; stdout kept only when `keepStdout`. */
export function runNode(args: string[], cwd: string, keepStdout = false): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--require', memoryProbe(), ...args], { cwd, stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let rss = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (rss += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ wallMs: performance.now() - start, code, maxRss: Number(rss) || 0, stdout, stderr }));
  });
}

/** cspell's CLI (the `cspell` dev dependency), if installed. */
function cspellCli(): string | undefined {
  const file = path.join(packageRoot(), 'node_modules', 'cspell', 'bin.mjs');
  return existsSync(file) ? file : undefined;
}

export async function cliSection(ws: BenchWorkspace, builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  report.section(`CLI: spec-glossary check of ${ws.files.length} real specs (${mb(ws.bytes)}) against cspell's CLI on the same files, whole processes (SPEC §10: ≥ 10× faster, ≤ 2 s)`);
  const check = ['check', '.', '--format', 'json'];
  const first = await runNode([builds[0]!.cliJs, ...check], ws.root, true);
  let documents = 0;
  let findings = 0;
  try {
    const parsed = JSON.parse(first.stdout) as { summary: { documents: number; findings: number } };
    documents = parsed.summary.documents;
    findings = parsed.summary.findings;
  } catch {
    report.note(`the CLI did not print JSON (exit ${first.code}): ${first.stderr.slice(0, 300)}`);
    return;
  }
  const cspell = cspellCli();
  if (!cspell) report.note('cspell is not installed (npm install): no comparison');
  // cspell gets exactly the files spec-glossary checks.
  const cspellArgs = cspell ? [cspell, 'lint', '--no-progress', '--no-summary', '--no-color', '--no-cache', 'kitty-specs/**/*.md'] : [];
  const rounds = options.quick ? 1 : 5;
  const ours: number[][] = builds.map(() => []);
  const rss: number[][] = builds.map(() => []);
  const theirs: number[] = [];
  const theirRss: number[] = [];
  let issues = 0;
  // Interleaved: each round runs every build, then cspell, so all see the same machine load.
  for (let round = 0; round < rounds; round++) {
    for (const [b, build] of builds.entries()) {
      const run = await runNode([build.cliJs, ...check], ws.root);
      ours[b]!.push(run.wallMs);
      rss[b]!.push(run.maxRss);
    }
    if (cspell) {
      const run = await runNode(cspellArgs, ws.root, round === 0);
      if (round === 0) issues = run.stdout.split('\n').filter((l) => l.trim() !== '').length;
      theirs.push(run.wallMs);
      theirRss.push(run.maxRss);
    }
  }
  const wall = ours.map((t) => summarize(t));
  const mine = wall[0]!;
  report.line(`  spec-glossary: ${documents} documents, ${findings} findings, exit code ${first.code}`);
  report.line(`  spec-glossary check: ${ms(mine.median)} median (min ${ms(mine.min)}, ${mine.times.length} runs), peak memory ${mb(Math.max(...rss[0]!))}${againstBaseline(mine.median, wall[1]?.median, ms)}`);
  const record: Record<string, unknown> = { specs: ws.files.length, bytes: ws.bytes, documents, findings, wall: mine, maxRss: Math.max(...rss[0]!), ...(wall[1] ? { baseline: wall[1] } : {}) };
  if (cspell) {
    const reference = summarize(theirs);
    const ratio = reference.median / mine.median;
    report.line(`  cspell lint (default settings): ${ms(reference.median)} median (${theirs.length} runs, ${issues} issues reported), peak memory ${mb(Math.max(...theirRss))} → spec-glossary ${ratio.toFixed(1)}× faster`);
    if (wall[1]) report.line(`  (baseline build: ${(reference.median / wall[1].median).toFixed(1)}× faster than cspell)`);
    Object.assign(record, { cspell: reference, speedup: ratio });
    if (!options.quick) report.target(`CLI check of ${ws.files.length} real specs: speed-up over cspell's CLI (medians)`, ratio, 10, '×');
  }
  report.record('cli', record);
  if (!options.quick) report.target(`CLI check of ${ws.files.length} real specs / ${mb(ws.bytes)}, wall incl. process start (median)`, mine.median, 2000, 'ms');
}

/**
 * Replay of 1,000,000 events: `replayWorkspace` in a fresh process (the target's figure, from each
 * build's `dist/bench.cjs --child replay`), then `spec-glossary replay --json` as a whole process;
 * every build in each round, so a baseline sees the same machine load.
 */
export async function replaySection(builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  const events = options.quick ? 20_000 : 1_000_000;
  report.section(`Replay of ${events.toLocaleString('en')} events (SPEC §10: ≤ 3 s, ≤ 400 MB)`);
  const started = performance.now();
  const ws = eventWorkspace(events);
  const wrote = performance.now() - started;
  report.line(`  log: ${ws.summary.events.toLocaleString('en')} events in ${ws.summary.files.length} mission logs, ${mb(ws.summary.bytes)}, ${ws.summary.stateEvents.toLocaleString('en')} of them Requested/Resolved/SenseUpdated${wrote > 1000 ? ` (written in ${ms(wrote)}, cached for later runs)` : ''}`);
  // (A baseline without dist/bench.cjs, e.g. one built by an older script, is measured through its CLI only.)
  const benches = builds.map((build) => path.join(build.dir, 'dist', 'bench.cjs'));
  const runs: { ms: number; rss: number; pins: number; senses: number; problems: number }[][] = builds.map(() => []);
  const cli: ChildRun[][] = builds.map(() => []);
  for (let round = 0; round < (options.quick ? 1 : 3); round++) {
    for (const [b, build] of builds.entries()) {
      if (existsSync(benches[b]!)) {
        const run = await runNode([benches[b]!, '--child', 'replay', ws.dir], ws.dir, true);
        const out = JSON.parse(run.stdout || '{}') as { ms?: number; pins?: number; senses?: number; problems?: number };
        if (out.ms === undefined) {
          report.note(`replay child of ${build.name} failed (exit ${run.code}): ${run.stderr.slice(0, 300)}`);
          return;
        }
        runs[b]!.push({ ms: out.ms, rss: run.maxRss, pins: out.pins ?? 0, senses: out.senses ?? 0, problems: out.problems ?? 0 });
      }
      cli[b]!.push(await runNode([build.cliJs, 'replay', '--json', '--root', ws.dir], ws.dir));
    }
  }
  const ours = runs[0]!;
  const time = summarize(ours.map((r) => r.ms));
  const base = runs[1] && runs[1].length > 0 ? summarize(runs[1].map((r) => r.ms)) : undefined;
  const rss = Math.max(...ours.map((r) => r.rss));
  report.line(`  replayWorkspace: ${ms(time.median)} median (${ours.length} runs, each in a fresh process), peak memory ${mb(rss)}${againstBaseline(time.median, base?.median, ms)}; state: ${ours[0]!.pins} pins, ${ours[0]!.senses} senses, ${ours[0]!.problems} problems`);
  const cliTimes = cli.map((r) => summarize(r.map((run) => run.wallMs)));
  const cliRss = Math.max(...cli[0]!.map((run) => run.maxRss));
  report.line(`  spec-glossary replay --json (whole CLI process): ${ms(cliTimes[0]!.median)} median wall, peak memory ${mb(cliRss)}, exit code ${cli[0]!.at(-1)!.code}${againstBaseline(cliTimes[0]!.median, cliTimes[1]?.median, ms)}`);
  report.record('replayCli', { wall: cliTimes[0], maxRss: cliRss, code: cli[0]!.at(-1)!.code, ...(cliTimes[1] ? { baseline: cliTimes[1] } : {}) });
  report.record('replay', { events: ws.summary.events, bytes: ws.summary.bytes, time, maxRss: rss, ...(base ? { baseline: base } : {}) });
  if (!options.quick) {
    report.target('replay of 1,000,000 events (median)', time.median, 3000, 'ms');
    report.target('replay of 1,000,000 events, peak memory', rss / (1024 * 1024), 400, 'MB');
  }
}

export async function serverStartSection(builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  report.section('Language server: process start → initialize answered (SPEC §10: ≤ 150 ms)');
  const root = packageRoot();
  const times: number[][] = builds.map(() => []);
  for (let i = 0; i < (options.quick ? 1 : 10); i++) {
    for (const [b, build] of builds.entries()) {
      const start = performance.now();
      const client = LspClient.start(process.execPath, [build.serverJs, '--stdio'], root);
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([client.request('initialize', initializeParams(pathToFileURL(root).href)), new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000)))]);
      const elapsed = performance.now() - start;
      clearTimeout(timer);
      if (!answer || answer.error) {
        report.note(`initialize was not answered by ${build.name}${answer?.error ? `: ${answer.error.message}` : ' within 10 s'}`);
        client.process.kill();
        return;
      }
      times[b]!.push(elapsed);
      client.notify('initialized', {});
      await client.stop();
    }
  }
  const samples = times.map((t) => summarize(t));
  const ours = samples[0]!;
  report.line(`  ${ms(ours.median)} median (min ${ms(ours.min)}, ${ours.times.length} starts of node dist/server.js --stdio)${againstBaseline(ours.median, samples[1]?.median, ms)}`);
  report.record('serverStart', { ours, ...(samples[1] ? { baseline: samples[1] } : {}) });
  if (!options.quick) report.target('server start → initialize answered (median)', ours.median, 150, 'ms');
}
