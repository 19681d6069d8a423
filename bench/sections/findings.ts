/**
 * Issue 19, item 3: `spec-glossary check` with half a million findings, in each output format, as
 * a whole process. Before the output was streamed, `--format sarif` died with `RangeError:
 * Invalid string length` (its 786 MB log is longer than V8's longest string) and `--format json`
 * built a 505 MB string first (1.9 GB peak memory). The baseline, measured in the same run, is
 * the same check with a tenth of the findings: time should grow about ten times (linear), memory
 * much less (only the findings the check holds, not the text of the report).
 *
 * stdout is read as it comes and never kept: its bytes are counted, and so are the findings, by
 * the message every finding prints once in every format.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../server/src/node/packageFiles';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';
import { cacheRoot } from '../workspace';
import { memoryProbe } from './processes';

const MARKER = "Ambiguous term 'zorblax'";
const OCCURRENCES_PER_LINE = 10;
const DOCUMENTS = 5;

interface OutputRun {
  wallMs: number;
  maxRss: number;
  code: number | null;
  bytes: number;
  findings: number;
  stderr: string;
}

/** Five specs, each line ten uses of a term with two senses: one ambiguous finding per use. */
function findingsWorkspace(findings: number): string {
  const dir = path.join(cacheRoot(), `findings-${findings}`);
  const done = path.join(dir, '.complete');
  if (existsSync(done)) return dir;
  mkdirSync(path.join(dir, '.kittify', 'glossaries'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  writeFileSync(
    path.join(dir, '.kittify', 'glossaries', 'team_domain.yaml'),
    'terms:\n  - surface: zorblax\n    definition: A flux capacitor of the deployment pipeline\n    confidence: 0.9\n    status: active\n' +
      '  - surface: zorblax\n    definition: A queue of pending reviews\n    confidence: 0.6\n    status: active\n',
  );
  const lines = findings / DOCUMENTS / OCCURRENCES_PER_LINE;
  const line = `${'zorblax '.repeat(OCCURRENCES_PER_LINE).trimEnd()}\n`;
  for (let i = 0; i < DOCUMENTS; i++) writeFileSync(path.join(dir, 'docs', `spec-${i}.md`), line.repeat(lines));
  writeFileSync(done, '');
  return dir;
}

/** `node dist/cli.js check docs --format F`, its stdout counted as it streams by. */
function runCheck(cli: string, cwd: string, format: string): Promise<OutputRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--require', memoryProbe(), cli, 'check', 'docs', '--format', format], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let bytes = 0;
    let findings = 0;
    let tail = '';
    let stderr = '';
    let rss = '';
    child.stdout!.on('data', (data: Buffer) => {
      bytes += data.length;
      // The marker is ASCII, so a chunk boundary inside a multi-byte character cannot hide it.
      const text = tail + data.toString('latin1');
      for (let at = text.indexOf(MARKER); at !== -1; at = text.indexOf(MARKER, at + MARKER.length)) findings++;
      tail = text.slice(-(MARKER.length - 1));
    });
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (data: Buffer) => (rss += data.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ wallMs: performance.now() - start, maxRss: Number(rss) || 0, code, bytes, findings, stderr }));
  });
}

export async function findingsSection(report: Report, options: { quick: boolean }): Promise<void> {
  const full = options.quick ? 5_000 : 500_000;
  const base = full / 10;
  const runs = options.quick ? 1 : 3;
  report.section(`CLI output: spec-glossary check with ${full.toLocaleString('en')} findings in each format, against ${base.toLocaleString('en')} findings (issue 19)`);
  const cli = path.join(packageRoot(), 'dist', 'cli.js');
  if (!existsSync(cli) || !existsSync(path.join(packageRoot(), 'dist', 'cli.cjs'))) {
    report.note('dist/cli.js is missing (npm run build): skipped');
    return;
  }
  const rows: Record<string, unknown>[] = [];
  for (const format of ['text', 'json', 'sarif']) {
    const measured: Record<number, { wall: ReturnType<typeof summarize>; rss: number; bytes: number; findings: number; code: number | null }> = {};
    for (const findings of [base, full]) {
      const dir = findingsWorkspace(findings);
      const samples: OutputRun[] = [];
      for (let i = 0; i < runs; i++) samples.push(await runCheck(cli, dir, format));
      const failed = samples.find((s) => s.code !== 0 || s.findings !== findings);
      if (failed) {
        report.note(`--format ${format} with ${findings} findings: exit ${failed.code}, ${failed.findings} findings printed; ${failed.stderr.slice(0, 300)}`);
        return;
      }
      measured[findings] = { wall: summarize(samples.map((s) => s.wallMs)), rss: Math.max(...samples.map((s) => s.maxRss)), bytes: samples[0]!.bytes, findings: samples[0]!.findings, code: samples[0]!.code };
    }
    const small = measured[base]!;
    const big = measured[full]!;
    report.line(
      `  --format ${format.padEnd(5)} ${full.toLocaleString('en')} findings: ${ms(big.wall.median)} median, peak ${mb(big.rss)}, ${mb(big.bytes)} printed | ` +
        `${base.toLocaleString('en')}: ${ms(small.wall.median)}, peak ${mb(small.rss)} | ×${(big.wall.median / small.wall.median).toFixed(1)} time, ×${(big.rss / small.rss).toFixed(1)} memory`,
    );
    rows.push({ format, findings: big.findings, wall: big.wall, maxRss: big.rss, bytes: big.bytes, baseline: { findings: small.findings, wall: small.wall, maxRss: small.rss, bytes: small.bytes } });
  }
  report.record('findings', rows);
}

