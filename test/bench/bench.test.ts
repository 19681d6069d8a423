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
      const child = spawn(process.execPath, [BENCH, '--quick', '--json', json], { cwd: REPO, env: { ...process.env, SPEC_GLOSSARY_BENCH_CACHE: cache } });
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

  test('measures the full check against cspell-lib on the same text', () => {
    const generated = results.results['fullCheck.generated'] as { ours: { times: number[] }; cspell?: { times: number[] }; findings: number };
    expect(generated.ours.times.length).toBeGreaterThan(0);
    expect(generated.cspell?.times.length).toBeGreaterThan(0);
    expect(generated.findings).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/cspell-lib spellCheckDocument .* faster/);
  });

  test('reports scaling over document and glossary size', () => {
    const rows = results.results['scaling'] as { bytes: number; senses: number }[];
    expect(new Set(rows.map((r) => r.senses)).size).toBeGreaterThan(1);
    expect(new Set(rows.map((r) => r.bytes)).size).toBeGreaterThan(1);
  });

  test('the keystroke path gives the full check result', () => {
    const keystroke = results.results['keystroke'] as { sameAsFullCheck: boolean; total: { times: number[] } };
    expect(keystroke.sameAsFullCheck).toBe(true);
    expect(keystroke.total.times.length).toBeGreaterThan(0);
  });

  test('times the CLI, replay, server start and peak memory in processes of their own', () => {
    for (const key of ['cli', 'replay', 'memory', 'findings']) expect(results.results).toHaveProperty(key);
    // Every format printed every finding (the full-size run has half a million).
    const findings = results.results['findings'] as { format: string; findings: number; baseline: { findings: number } }[];
    expect(findings.map((f) => [f.format, f.findings, f.baseline.findings])).toEqual([
      ['text', 5_000, 500],
      ['json', 5_000, 500],
      ['sarif', 5_000, 500],
    ]);
    expect((results.results['replay'] as { events: number }).events).toBeGreaterThan(0);
    if (existsSync(path.join(REPO, 'dist', 'server.js'))) expect(results.results).toHaveProperty('serverStart');
  });
});
