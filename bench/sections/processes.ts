/**
 * What is measured in a process of its own: the CLI checking a 400-spec workspace, replaying
 * 1,000,000 events, and the language server's start until `initialize` is answered. Each child
 * reports its peak resident memory (getrusage) through a preload script, on file descriptor 3.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../server/src/node/packageFiles';
import { initializeParams, LspClient } from '../lsp';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';
import { benchWorkspace, cacheRoot, eventWorkspace } from '../workspace';

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

function distFile(name: string): string | undefined {
  const file = path.join(packageRoot(), 'dist', name);
  return existsSync(file) ? file : undefined;
}

export async function cliSection(report: Report, options: { quick: boolean }): Promise<void> {
  const specs = options.quick ? 20 : 400;
  const bytes = options.quick ? 450_000 : 9_000_000;
  const senses = 1_000;
  report.section(`CLI: spec-glossary check of ${specs} specs (${mb(bytes)}), process start included (SPEC §10: ≤ 2 s wall)`);
  const cli = distFile('cli.js');
  if (!cli) {
    report.note('dist/cli.js is missing (npm run build): skipped');
    return;
  }
  const ws = benchWorkspace(specs, bytes, senses);
  report.line(`  workspace: ${ws.summary.specs} specs, ${mb(ws.summary.bytes)}, seed glossaries of ${senses.toLocaleString('en')} senses over four scopes (${ws.dir})`);
  const first = await runNode([cli, 'check', '.', '--format', 'json'], ws.dir, true);
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
  const runs: ChildRun[] = [];
  for (let i = 0; i < (options.quick ? 1 : 5); i++) runs.push(await runNode([cli, 'check', '.', '--format', 'json'], ws.dir));
  const wall = summarize(runs.map((r) => r.wallMs));
  const rss = Math.max(...runs.map((r) => r.maxRss));
  report.line(`  ${documents} documents, ${findings} findings, exit code ${first.code}`);
  report.line(`  wall ${ms(wall.median)} median (min ${ms(wall.min)}, ${runs.length} runs), peak memory ${mb(rss)}`);
  report.record('cli', { specs: ws.summary.specs, bytes: ws.summary.bytes, documents, findings, wall, maxRss: rss });
  if (!options.quick) report.target(`CLI check of ${specs} specs / ${mb(ws.summary.bytes)}, wall incl. process start (median)`, wall.median, 2000, 'ms');
}

export async function replaySection(report: Report, options: { quick: boolean }): Promise<void> {
  const events = options.quick ? 20_000 : 1_000_000;
  report.section(`Replay of ${events.toLocaleString('en')} events (SPEC §10: ≤ 3 s, ≤ 400 MB)`);
  const bench = distFile('bench.cjs');
  if (!bench) {
    report.note('dist/bench.cjs is missing: skipped');
    return;
  }
  const started = performance.now();
  const ws = eventWorkspace(events);
  const wrote = performance.now() - started;
  report.line(`  log: ${ws.summary.events.toLocaleString('en')} events in ${ws.summary.files.length} mission logs, ${mb(ws.summary.bytes)}, ${ws.summary.stateEvents.toLocaleString('en')} of them Requested/Resolved/SenseUpdated${wrote > 1000 ? ` (written in ${ms(wrote)}, cached for later runs)` : ''}`);
  const runs: { ms: number; rss: number; pins: number; senses: number; problems: number }[] = [];
  for (let i = 0; i < (options.quick ? 1 : 3); i++) {
    const run = await runNode([bench, '--child', 'replay', ws.dir], ws.dir, true);
    const out = JSON.parse(run.stdout || '{}') as { ms?: number; pins?: number; senses?: number; problems?: number };
    if (out.ms === undefined) {
      report.note(`replay child failed (exit ${run.code}): ${run.stderr.slice(0, 300)}`);
      return;
    }
    runs.push({ ms: out.ms, rss: run.maxRss, pins: out.pins ?? 0, senses: out.senses ?? 0, problems: out.problems ?? 0 });
  }
  const time = summarize(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rss));
  report.line(`  replayWorkspace: ${ms(time.median)} median (${runs.length} runs, each in a fresh process), peak memory ${mb(rss)}; state: ${runs[0]!.pins} pins, ${runs[0]!.senses} senses, ${runs[0]!.problems} problems`);
  const cli = distFile('cli.js');
  if (cli) {
    const run = await runNode([cli, 'replay', '--json', '--root', ws.dir], ws.dir);
    report.line(`  spec-glossary replay --json (whole CLI process): ${ms(run.wallMs)} wall, peak memory ${mb(run.maxRss)}, exit code ${run.code}`);
    report.record('replayCli', { wallMs: run.wallMs, maxRss: run.maxRss, code: run.code });
  }
  report.record('replay', { events: ws.summary.events, bytes: ws.summary.bytes, time, maxRss: rss });
  if (!options.quick) {
    report.target('replay of 1,000,000 events (median)', time.median, 3000, 'ms');
    report.target('replay of 1,000,000 events, peak memory', rss / (1024 * 1024), 400, 'MB');
  }
}

export async function serverStartSection(report: Report, options: { quick: boolean }): Promise<void> {
  report.section('Language server: process start → initialize answered (SPEC §10: ≤ 150 ms)');
  const server = distFile('server.js');
  if (!server) {
    report.note('dist/server.js is missing (the language server is not built yet): skipped');
    return;
  }
  const root = packageRoot();
  const times: number[] = [];
  for (let i = 0; i < (options.quick ? 1 : 10); i++) {
    const start = performance.now();
    const client = LspClient.start(process.execPath, [server, '--stdio'], root);
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([client.request('initialize', initializeParams(pathToFileURL(root).href)), new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000)))]);
    const elapsed = performance.now() - start;
    clearTimeout(timer);
    if (!answer || answer.error) {
      report.note(`initialize was not answered${answer?.error ? `: ${answer.error.message}` : ' within 10 s'}`);
      client.process.kill();
      return;
    }
    times.push(elapsed);
    client.notify('initialized', {});
    await client.stop();
  }
  const samples = summarize(times);
  report.line(`  ${ms(samples.median)} median (min ${ms(samples.min)}, ${times.length} starts of node dist/server.js --stdio)`);
  report.record('serverStart', samples);
  if (!options.quick) report.target('server start → initialize answered (median)', samples.median, 150, 'ms');
}
