/**
 * Issue 19, item 12: a 3.6 MB seed glossary of long multi-word surfaces (8–20 words each) took
 * 0.8 GB in the language server. Measured here, for each build: the CLI checking a spec against
 * it (whole process: time and peak resident memory), and the server's resident set once it has
 * published a spec checked against it, then after the seed file changed twice (a comment added and
 * taken away: two reloads, the old and the new glossary both alive for a moment), 3 s later (the server gives memory back
 * once quiet after a reload), and its peak. Memory should be proportional to the seed, with a
 * small constant.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { againstBaseline, type Build } from '../builds';
import { startServer } from '../lsp';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';
import { cacheRoot } from '../workspace';
import { runNode } from './processes';
import { peakResident } from './serverMemory';

const SEED_BYTES = 3.6 * 1024 * 1024;

/** A deterministic workspace: the seed (team_domain.yaml) and one spec using some of its surfaces. */
function seedWorkspace(bytes: number): { dir: string; seedBytes: number; senses: number } {
  const dir = path.join(cacheRoot(), `long-surfaces-${bytes}`);
  const done = path.join(dir, '.complete.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as { dir: string; seedBytes: number; senses: number };
  mkdirSync(path.join(dir, '.kittify', 'glossaries'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  let state = 20261126;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
  // 40,000 made-up words of 4–10 letters.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 40_000 }, () => Array.from({ length: 4 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * 26)]).join(''));
  const surfaces: string[] = [];
  const lines = ['terms:'];
  let size = 0;
  while (size < bytes) {
    const surface = Array.from({ length: 8 + Math.floor(random() * 13) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
    surfaces.push(surface);
    const entry = `  - surface: ${surface}\n    definition: Sense ${surfaces.length} of a long phrase\n    confidence: 0.8\n    status: active`;
    lines.push(entry);
    size += entry.length + 1;
  }
  const seed = lines.join('\n') + '\n';
  writeFileSync(path.join(dir, '.kittify', 'glossaries', 'team_domain.yaml'), seed);
  const spec = ['# Spec', '', ...surfaces.filter((_, i) => i % 50 === 0).map((s) => `The ${s} is used here, and so is the ${s.split(' ').slice(0, 3).join(' ')}.`)].join('\n') + '\n';
  writeFileSync(path.join(dir, 'docs', 'spec.md'), spec);
  const summary = { dir, seedBytes: Buffer.byteLength(seed), senses: surfaces.length };
  writeFileSync(done, JSON.stringify(summary));
  return summary;
}

interface ServerRun {
  publishedMs: number;
  published: number;
  reloaded: number;
  /** 3 s after the reloads (nothing sent meanwhile). */
  settled: number;
  peak: number;
}

async function serverRun(build: Build, dir: string): Promise<ServerRun> {
  const client = await startServer(build.serverJs, dir, pathToFileURL(dir).href, { debounceMs: 0 });
  try {
    const spec = path.join(dir, 'docs', 'spec.md');
    const uri = pathToFileURL(spec).href;
    const start = performance.now();
    const first = client.published(uri, 1);
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: readFileSync(spec, 'utf8') } });
    await first;
    const publishedMs = performance.now() - start;
    const published = client.residentBytes();
    const seedFile = path.join(dir, '.kittify', 'glossaries', 'team_domain.yaml');
    const seedUri = pathToFileURL(seedFile).href;
    // Two changes (a comment added, then taken away): a report of a file as it was read reloads nothing.
    const original = readFileSync(seedFile, 'utf8');
    try {
      for (const text of [`${original}# changed\n`, original]) {
        const again = client.published(uri);
        writeFileSync(seedFile, text);
        client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: seedUri, type: 2 }] });
        await again;
      }
    } finally {
      writeFileSync(seedFile, original);
    }
    const reloaded = client.residentBytes();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return { publishedMs, published, reloaded, settled: client.residentBytes(), peak: peakResident(client.process.pid) };
  } finally {
    await client.stop();
  }
}

/** Runs per build (interleaved), the figures their medians. */
const ROUNDS = 3;

export async function seedMemorySection(builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  const ws = seedWorkspace(options.quick ? SEED_BYTES / 16 : SEED_BYTES);
  const rounds = options.quick ? 1 : ROUNDS;
  report.section(`A ${mb(ws.seedBytes)} seed of ${ws.senses.toLocaleString('en-US')} long multi-word surfaces (issue 19: 0.8 GB in the server), medians of ${rounds} runs`);
  const runs = builds.map(() => ({ cli: [] as { ms: number; rss: number }[], server: [] as ServerRun[] }));
  for (let round = 0; round < rounds; round++) {
    for (const [b, build] of builds.entries()) {
      const run = await runNode([build.cliJs, 'check', 'docs', '--format', 'json'], ws.dir);
      runs[b]!.cli.push({ ms: run.wallMs, rss: run.maxRss });
      runs[b]!.server.push(await serverRun(build, ws.dir));
    }
  }
  const median = (values: number[]) => summarize(values).median;
  const summary = runs.map((r) => ({
    cli: { ms: median(r.cli.map((x) => x.ms)), rss: median(r.cli.map((x) => x.rss)) },
    server: {
      publishedMs: median(r.server.map((x) => x.publishedMs)),
      published: median(r.server.map((x) => x.published)),
      reloaded: median(r.server.map((x) => x.reloaded)),
      settled: median(r.server.map((x) => x.settled)),
      peak: median(r.server.map((x) => x.peak)),
    },
  }));
  const ours = summary[0]!;
  const base = summary[1];
  report.line(`  CLI check of a spec against it: ${ms(ours.cli.ms)}${base ? ` (baseline ${ms(base.cli.ms)})` : ''}, peak ${mb(ours.cli.rss)}${againstBaseline(ours.cli.rss, base?.cli.rss, mb)}`);
  report.line(`  server, the spec published (${ms(ours.server.publishedMs)} after opening): ${mb(ours.server.published)}${againstBaseline(ours.server.published, base?.server.published, mb)}`);
  report.line(`  server, after the seed changed twice (two reloads): ${mb(ours.server.reloaded)}${againstBaseline(ours.server.reloaded, base?.server.reloaded, mb)}`);
  report.line(`  server, 3 s later: ${mb(ours.server.settled)}${againstBaseline(ours.server.settled, base?.server.settled, mb)}`);
  report.line(`  server, peak: ${mb(ours.server.peak)}${againstBaseline(ours.server.peak, base?.server.peak, mb)}`);
  report.record('seedMemory', { seedBytes: ws.seedBytes, senses: ws.senses, rounds, ours, ...(base ? { baseline: base } : {}) });
}
