/**
 * The workspace term index where users meet it (issue 21): the real server over stdio, on
 * workspaces of whole real documents with the real core glossary as the workspace's own
 * `spec_kitty_core.yaml` — the 400-spec calibration workspace (9 MB) and one of 10,000 specs of
 * the same size each. Measured: `initialized` → the end of the index build's work-done progress,
 * the server's resident memory once built (and its peak), and `textDocument/references` and
 * `prepareRename` + `rename` answers for terms of different use counts (each rename is a new
 * name; the edit is not applied, so a build that records a rename when it is saved records
 * nothing; one that recorded it when answering did, and the next one starts once it has indexed
 * again).
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Build } from '../builds';
import { MB, workspaceSpecs, writeWorkspace, type Corpus } from '../corpus';
import { initializeParams, LspClient, type Message } from '../lsp';
import { runNode } from './processes';
import { peakResident } from './serverMemory';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';
import { createEngine } from '../../server/src/core/check/engine';
import { METHOD_ORDER } from '../../server/src/core/check/context';
import { glossaryOccurrences } from '../../server/src/core/terms/termIndex';
import { analyzeDocument } from '../../server/src/node/analyzer';
import { loadCommonWords } from '../../server/src/node/packageFiles';
import { SpecVocabularies } from '../../server/src/node/specVocabularies';
import { loadWorkspace } from '../../server/src/node/workspace';

/** Bytes of a workspace's event logs (a rename recorded when answered grows them). */
function logBytes(root: string): number {
  const dir = path.join(root, '.kittify', 'events', 'glossary');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, name) => n + statSync(path.join(dir, name)).size, 0);
}

interface Probe {
  term: string;
  uri: string;
  position: { line: number; character: number };
  /** Uses of the term in the first specs (how common it is). */
  sampleUses: number;
}

/**
 * Terms of the workspace's core glossary used most, about the median and least in the first
 * specs, with a place where each is used — read as the server reads them (each spec with its own
 * vocabulary sections), keeping terms no spec defines itself (so they can be renamed).
 */
async function probes(root: string, files: readonly string[]): Promise<Probe[]> {
  const engine = createEngine({ commonWords: loadCommonWords() });
  const snapshot = await loadWorkspace(root);
  const vocabularies = new SpecVocabularies();
  const counts = new Map<string, Probe>();
  for (const file of files.slice(0, 40)) {
    const analyzed = analyzeDocument(engine, snapshot, { path: file, text: readFileSync(file, 'utf8'), settings: { disabledExtractors: METHOD_ORDER.filter((m) => m !== 'glossary_match') }, vocabularies });
    for (const use of glossaryOccurrences(analyzed.report, analyzed.report.glossary)) {
      if (use.surface !== use.term || analyzed.report.glossary.sensesOf(use.term).some((s) => s.origin.kind !== 'seed')) continue;
      const probe = counts.get(use.term);
      if (probe) probe.sampleUses++;
      else counts.set(use.term, { term: use.term, uri: pathToFileURL(file).href, position: use.range.start, sampleUses: 1 });
    }
  }
  const sorted = [...counts.values()].sort((a, b) => b.sampleUses - a.sampleUses);
  return [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!, sorted[sorted.length - 1]!];
}

interface Run {
  specs: number;
  bytes: number;
  indexMs: number;
  /** `initialized` → the glossary health diagnostics first published on the workspace's core glossary copy (undefined: none within the wait). */
  healthMs: number | undefined;
  resident: number;
  peak: number;
  references: { term: string; locations: number; median: number; p90: number }[];
  rename: { term: string; edits: number; prepareMedian: number; renameMedian: number }[];
  /** Reference, same run: `spec-glossary check .` of the same workspace, whole process (median of its runs). */
  cliCheckMs: number;
}

async function measureWorkspace(build: Build, corpus: Corpus, count: number, options: { quick: boolean }): Promise<Run> {
  const perSpec = (9 * MB) / 400;
  const texts = workspaceSpecs(corpus, count, count * perSpec);
  const ws = writeWorkspace(corpus, `terms${count}`, texts);
  const client = LspClient.start(process.execPath, [build.serverJs, '--stdio'], ws.root);
  try {
    client.onRequest = (method, params) => (method === 'workspace/configuration' ? (params as { items: unknown[] }).items.map(() => ({})) : null);
    const base = initializeParams(pathToFileURL(ws.root).href) as { capabilities: Record<string, unknown> };
    const answer = await client.request('initialize', { ...base, capabilities: { ...base.capabilities, window: { workDoneProgress: true } } });
    if (answer.error) throw new Error(`initialize failed: ${answer.error.message}`);
    const isEnd = (m: Message) => m.method === '$/progress' && (m.params as { value: { kind: string } }).value.kind === 'end';
    const ended = client.waitFor(isEnd);
    const isHealth = (m: Message) => {
      if (m.method !== 'textDocument/publishDiagnostics') return false;
      const params = m.params as { uri: string; diagnostics: { code?: unknown }[] };
      return params.uri.endsWith('/spec_kitty_core.yaml') && params.diagnostics.some((d) => String(d.code).startsWith('glossary.') && d.code !== 'glossary.parse-error');
    };
    let healthAt: number | undefined;
    void client.waitFor(isHealth).then(() => (healthAt = performance.now()));
    const started = performance.now();
    client.notify('initialized', {});
    await ended;
    const indexMs = performance.now() - started;
    // Glossary health is computed after the index (from it, or by a pass of its own): wait for it, a while at most.
    const waitUntil = performance.now() + Math.max(30_000, 2 * indexMs);
    while (healthAt === undefined && performance.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
    const healthMs = healthAt === undefined ? undefined : healthAt - started;
    const resident = client.residentBytes();
    const peak = peakResident(client.process.pid);

    const iterations = options.quick ? 3 : 15;
    const chosen = await probes(ws.root, ws.files);
    // The specs asked about are open, as in an editor.
    for (const uri of new Set(chosen.map((p) => p.uri))) client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: readFileSync(new URL(uri), 'utf8') } });
    const references: Run['references'] = [];
    for (const probe of chosen) {
      const times: number[] = [];
      let locations = 0;
      for (let i = -2; i < iterations; i++) {
        const t = performance.now();
        const result = await client.request('textDocument/references', { textDocument: { uri: probe.uri }, position: probe.position, context: { includeDeclaration: true } });
        if (i >= 0) times.push(performance.now() - t);
        locations = (result.result as unknown[] | null)?.length ?? 0;
      }
      const s = summarize(times);
      references.push({ term: probe.term, locations, median: s.median, p90: s.p90 });
    }

    // Renames: each to a new name, never applied (a build that records a rename when answering
    // records it anyway, and then indexes again: the next waits for that).
    const rename: Run['rename'] = [];
    // (Each rename makes the server index the whole workspace again: fewer on the large one.)
    const renameIterations = options.quick ? 2 : count > 1000 ? 3 : 5;
    for (const [p, probe] of chosen.slice(1).entries()) {
      const prepare: number[] = [];
      const renames: number[] = [];
      let edits = 0;
      for (let i = 0; i < renameIterations; i++) {
        let t = performance.now();
        const prepared = await client.request('textDocument/prepareRename', { textDocument: { uri: probe.uri }, position: probe.position });
        prepare.push(performance.now() - t);
        if (prepared.error) throw new Error(`prepareRename of '${probe.term}' refused: ${prepared.error.message}`);
        const reindexed = client.waitFor((m) => m.method === 'window/logMessage' && (m.params as { message: string }).message.includes('again after a glossary change'));
        const logged = logBytes(ws.root);
        t = performance.now();
        const result = await client.request('textDocument/rename', { textDocument: { uri: probe.uri }, position: probe.position, newName: `zq ${count} ${p} widget${"bcdfghjklmnpqrt"[i]}` });
        renames.push(performance.now() - t);
        if (result.error) throw new Error(`rename of '${probe.term}' refused: ${result.error.message}`);
        const edit = result.result as { documentChanges?: { edits: unknown[] }[]; changes?: Record<string, unknown[]> };
        edits = (edit.documentChanges ?? []).reduce((n, c) => n + c.edits.length, 0) + Object.values(edit.changes ?? {}).reduce((n, e) => n + e.length, 0);
        if (logBytes(ws.root) !== logged) await reindexed;
      }
      rename.push({ term: probe.term, edits, prepareMedian: summarize(prepare).median, renameMedian: summarize(renames).median });
    }
    await client.stop();
    // The reference: the CLI checking the same specs (after the server stopped: nothing overlaps).
    const cliRuns: number[] = [];
    for (let i = 0; i < (options.quick || count > 1000 ? 1 : 3); i++) cliRuns.push((await runNode([build.cliJs, 'check', '.', '--format', 'json'], ws.root)).wallMs);
    return { specs: ws.files.length, bytes: ws.bytes, indexMs, healthMs, resident, peak, references, rename, cliCheckMs: summarize(cliRuns).median };
  } finally {
    if (!client.process.killed && client.process.exitCode === null) await client.stop();
    ws.remove();
  }
}

export async function termsSection(corpus: Corpus, builds: readonly Build[], report: Report, options: { quick: boolean; sizes?: readonly number[] }): Promise<void> {
  const sizes = options.sizes ?? (options.quick ? [40, 200] : [400, 10_000]);
  report.section(`Term index: ${sizes.join(' and ')}-spec workspaces of real text, the real core glossary, the server over stdio`);
  const runs: Run[] = [];
  const baselines: Run[] = [];
  for (const count of sizes) {
    // With a baseline: both builds on the same workspace size one after the other, the order alternating by size.
    const order = builds.length > 1 && sizes.indexOf(count) % 2 === 1 ? [...builds].reverse() : builds;
    const measured = new Map<Build, Run>();
    for (const build of order) measured.set(build, await measureWorkspace(build, corpus, count, options));
    for (const build of builds) {
      const run = measured.get(build)!;
      (build === builds[0] ? runs : baselines).push(run);
      const who = builds.length > 1 ? `${build.name}: ` : '';
      const health = run.healthMs === undefined ? 'not published within the wait' : ms(run.healthMs);
      report.line(`  ${who}${run.specs} specs (${mb(run.bytes)}): index built in ${ms(run.indexMs)} (the CLI's check of the same specs, same run: ${ms(run.cliCheckMs)}, ${(run.indexMs / run.cliCheckMs).toFixed(2)}×); glossary health published at ${health}; resident ${mb(run.resident)} once built (peak ${mb(run.peak)})`);
      for (const r of run.references) report.line(`    references of '${r.term}' (${r.locations.toLocaleString('en')} locations): ${ms(r.median)} median, ${ms(r.p90)} p90`);
      for (const r of run.rename) report.line(`    rename of '${r.term}' (${r.edits.toLocaleString('en')} edits): prepareRename ${ms(r.prepareMedian)}, rename ${ms(r.renameMedian)} median`);
    }
    if (builds.length > 1) {
      const [mine, base] = [measured.get(builds[0]!)!, measured.get(builds[1]!)!];
      const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}×`);
      report.line(`  ${count} specs, this build / baseline: index ${ratio(mine.indexMs, base.indexMs)}, health published ${ratio(mine.healthMs, base.healthMs)}, peak ${ratio(mine.peak, base.peak)}, rename ${ratio(mine.rename[0]?.renameMedian, base.rename[0]?.renameMedian)}, references ${ratio(mine.references[1]?.median, base.references[1]?.median)}`);
    }
  }
  report.record('terms', builds.length > 1 ? { build: runs, baseline: baselines } : runs);
  // (The targets are of the 400- and 10,000-spec workspaces.)
  if (options.quick || sizes.length !== 2 || sizes[0] !== 400 || sizes[1] !== 10_000) return;
  const [small, large] = runs;
  report.target(`term index of the ${small!.specs}-spec workspace`, small!.indexMs, 1000, 'ms');
  report.target(`term index of ${large!.specs} specs`, large!.indexMs, 15_000, 'ms');
  report.target(`server resident memory (peak) with the index of ${large!.specs} specs`, large!.peak / MB, 300, 'MB');
  const typical = large!.references[1]!;
  report.target(`references of a typical term ('${typical.term}') on ${large!.specs} specs`, typical.median, 50, 'ms');
  const typicalRename = large!.rename[0]!;
  report.target(`rename of a typical term ('${typicalRename.term}') on ${large!.specs} specs`, typicalRename.renameMedian, 50, 'ms');
}
