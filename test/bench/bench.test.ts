/**
 * Smoke run of the benchmark (`npm run bench -- --quick`): small inputs, a few iterations. It
 * checks that every section runs and reports, never how fast anything is (timings belong to
 * `npm run bench`, not to tests).
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CORPUS, CORPUS_ABSENT, CORPUS_PRESENT } from '../helpers/corpus';

const REPO = path.resolve(__dirname, '..', '..');
const BENCH = path.join(REPO, 'dist', 'bench.cjs');

describe('npm run bench -- --quick', () => {
  let cache: string;
  let run: { status: number | null; stdout: string; stderr: string };
  let results: { results: Record<string, unknown>; targets: unknown[]; notes: string[] };

  beforeAll(async () => {
    if (!existsSync(BENCH)) spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'ignore' });
    cache = mkdtempSync(path.join(tmpdir(), 'spec-glossary-bench-test-'));
    const json = path.join(cache, 'results.json');
    // Not spawnSync: the run takes a while, and the test worker must stay responsive meanwhile.
    run = await new Promise((resolve) => {
      const child = spawn(process.execPath, [BENCH, '--quick', '--json', json], { cwd: REPO, env: { ...process.env, SPEC_GLOSSARY_BENCH_CACHE: cache, ...(CORPUS_PRESENT ? { SPEC_GLOSSARY_CORPUS: CORPUS } : {}) } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    results = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : { results: {}, targets: [], notes: [] };
  }, 300_000);

  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  test('runs to the end without an error', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('quick smoke run');
  });

  test('times keystrokes through the real server on a real spec and on 1 MB of real specs, with and without ignore_words', (ctx) => {
    ctx.skip(!CORPUS_PRESENT, CORPUS_ABSENT);
    for (const document of ['spec33k', 'specs1mb']) {
      for (const config of ['plain', 'ignoreWords']) {
        const row = results.results[`keystroke.${document}.${config}`] as { ours: { times: number[] }; publishBytes: number };
        expect(row.ours.times.length).toBeGreaterThan(0);
        expect(row.publishBytes).toBeGreaterThan(0);
      }
    }
  });

  test('reads the server memory with documents open (all at once, and one by one), while quiet after, and after closing them', (ctx) => {
    ctx.skip(!CORPUS_PRESENT, CORPUS_ABSENT);
    type Run = { open: number; quietPeak: number; closed: number };
    const memory = results.results['serverMemory'] as { ours: Run[]; oneByOne: { ours: Run[] } };
    for (const run of [memory.ours[0]!, memory.oneByOne.ours[0]!]) {
      expect(run.open).toBeGreaterThan(0);
      expect(run.quietPeak).toBeGreaterThanOrEqual(run.open);
      expect(run.closed).toBeGreaterThan(0);
    }
  });

  test("times a decision through the server with specs open: the command's answer, the server's CPU, its publications", (ctx) => {
    ctx.skip(!CORPUS_PRESENT, CORPUS_ABSENT);
    const decision = results.results['decision'] as { open: number; ours: { replyMs: number; cpuMs: number; publications: number }[] };
    expect(decision.open).toBeGreaterThan(0);
    expect(decision.ours.length).toBeGreaterThan(0);
    expect(decision.ours[0]!.replyMs).toBeGreaterThan(0);
    // (The decided spec at least is published again.)
    expect(decision.ours[0]!.publications).toBeGreaterThan(0);
  });

  test('times replay and server start (no real text needed)', () => {
    expect((results.results['replay'] as { events: number }).events).toBeGreaterThan(0);
    expect(results.results).toHaveProperty('serverStart');
  });

  test('compares the CLI with cspell on the same files, and times the scaling of a check', (ctx) => {
    ctx.skip(!CORPUS_PRESENT, CORPUS_ABSENT);
    const cli = results.results['cli'] as { documents: number; findings: number; speedup?: number };
    expect(cli.documents).toBeGreaterThan(0);
    expect(cli.speedup).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/cspell lint .* faster/);
    const rows = results.results['scaling'] as { bytes: number; senses: number }[];
    expect(new Set(rows.map((r) => r.senses)).size).toBeGreaterThan(1);
    expect(new Set(rows.map((r) => r.bytes)).size).toBeGreaterThan(1);
  });

  test('measures the memory a seed of long multi-word surfaces takes, in the CLI and the server', () => {
    const seed = results.results['seedMemory'] as { senses: number; ours: { cli: { rss: number }; server: { published: number; reloaded: number } } };
    expect(seed.senses).toBeGreaterThan(0);
    expect(seed.ours.cli.rss).toBeGreaterThan(0);
    expect(seed.ours.server.published).toBeGreaterThan(0);
    expect(seed.ours.server.reloaded).toBeGreaterThan(0);
  });

  test('runs the check with many findings in each output format', () => {
    // Every format printed every finding (the full-size run has half a million).
    const findings = results.results['findings'] as { format: string; findings: number; baseline: { findings: number } }[];
    expect(findings.map((f) => [f.format, f.findings, f.baseline.findings])).toEqual([
      ['text', 5_000, 500],
      ['json', 5_000, 500],
      ['sarif', 5_000, 500],
    ]);
  });
});
