/**
 * Server memory where users meet it (SPEC §10: ≤ 80 MB with 200 real specs open in a 400-spec
 * workspace): the resident set of the real server process (`VmRSS`) the moment all 200 documents
 * have their diagnostics (the target), the highest reading while the editor is quiet for 3 s after
 * (sampled every 50 ms: work the server does once the opening is over shows here), at its end,
 * and 2 s after they were all closed (memory given back, issue 19). The 200 are opened all at once
 * (an editor restoring a session), then, in a server of their own, one by one as a user opens
 * them, each once the one before is published. Each build in turn.
 */

import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { againstBaseline, type Build } from '../builds';
import type { BenchWorkspace } from '../corpus';
import { startServer } from '../lsp';
import type { Report } from '../report';
import { mb } from '../stats';

interface MemoryRun {
  /** After initialize and the first document. */
  idle: number;
  /** All documents open and published. */
  open: number;
  /** The highest reading in the 3 s after (nothing sent meanwhile). */
  quietPeak: number;
  /** The same, 3 s later. */
  settled: number;
  /** All closed, their empty publications read, and a pause. */
  closed: number;
  /** Peak resident set (VmHWM). */
  peak: number;
  openMs: number;
}

type Opening = 'all at once' | 'one by one';

async function measureBuild(build: Build, ws: BenchWorkspace, count: number, opening: Opening): Promise<MemoryRun> {
  const client = await startServer(build.serverJs, ws.root, pathToFileURL(ws.root).href, { debounceMs: 0 });
  try {
    const files = ws.files.slice(0, count);
    const uris = files.map((f) => pathToFileURL(f).href);
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    // The first document loads the workspace and the word list.
    const first = client.published(uris[0]!, 1);
    client.notify('textDocument/didOpen', { textDocument: { uri: uris[0], languageId: 'markdown', version: 1, text: texts[0] } });
    await first;
    const idle = client.residentBytes();
    const started = performance.now();
    const openOne = (uri: string, i: number) => client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: texts[i + 1] } });
    if (opening === 'all at once') {
      const published = uris.slice(1).map((uri) => client.published(uri, 1));
      uris.slice(1).forEach(openOne);
      await Promise.all(published);
    } else {
      for (const [i, uri] of uris.slice(1).entries()) {
        const published = client.published(uri, 1);
        openOne(uri, i);
        await published;
      }
    }
    const openMs = performance.now() - started;
    const open = client.residentBytes();
    let quietPeak = open;
    for (const quietUntil = performance.now() + 3000; performance.now() < quietUntil; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      quietPeak = Math.max(quietPeak, client.residentBytes());
    }
    const settled = client.residentBytes();
    const cleared = uris.map((uri) => client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string; diagnostics: unknown[] }).uri === uri && (m.params as { diagnostics: unknown[] }).diagnostics.length === 0));
    for (const uri of uris) client.notify('textDocument/didClose', { textDocument: { uri } });
    await Promise.all(cleared);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const closed = client.residentBytes();
    const peak = peakResident(client.process.pid);
    return { idle, open, quietPeak, settled, closed, peak, openMs };
  } finally {
    await client.stop();
  }
}

export function peakResident(pid: number | undefined): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export async function serverMemorySection(ws: BenchWorkspace, builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  const count = options.quick ? 20 : 200;
  report.section(`Server memory: ${count} real specs open in a ${ws.files.length}-spec workspace (SPEC §10: ≤ 80 MB resident)`);
  if (process.platform !== 'linux') {
    report.note('resident set sizes are read from /proc: Linux only; skipped');
    return;
  }
  const rounds = options.quick ? 1 : 2;
  const runsByOpening = new Map<Opening, MemoryRun[][]>();
  for (const opening of ['all at once', 'one by one'] as const) {
    const runs: MemoryRun[][] = builds.map(() => []);
    for (let round = 0; round < rounds; round++) for (const [b, build] of builds.entries()) runs[b]!.push(await measureBuild(build, ws, count, opening));
    runsByOpening.set(opening, runs);
    reportOpening(report, opening, count, runs);
    if (!options.quick) report.target(`server resident memory, ${count} real specs open in a ${ws.files.length}-spec workspace, opened ${opening}`, median(runs[0]!.map((r) => r.open)) / (1024 * 1024), 80, 'MB');
  }
  const recorded = (opening: Opening) => {
    const runs = runsByOpening.get(opening)!;
    return { ours: runs[0], ...(runs[1] ? { baseline: runs[1] } : {}) };
  };
  report.record('serverMemory', { documents: count, workspaceSpecs: ws.files.length, ...recorded('all at once'), oneByOne: recorded('one by one') });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function reportOpening(report: Report, opening: Opening, count: number, runs: MemoryRun[][]): void {
  const summary = runs.map((r) => ({ idle: median(r.map((x) => x.idle)), open: median(r.map((x) => x.open)), quietPeak: median(r.map((x) => x.quietPeak)), settled: median(r.map((x) => x.settled)), closed: median(r.map((x) => x.closed)), peak: median(r.map((x) => x.peak)), openMs: median(r.map((x) => x.openMs)) }));
  const ours = summary[0]!;
  const base = summary[1];
  report.line(`  opened ${opening}:`);
  report.line(`    one document open: ${mb(ours.idle)}${againstBaseline(ours.idle, base?.idle, mb)}`);
  report.line(`    ${count} open, all published: ${mb(ours.open)} (peak ${mb(ours.peak)}; opening took ${(ours.openMs / 1000).toFixed(2)} s)${againstBaseline(ours.open, base?.open, mb)}`);
  report.line(`    highest in the 3 s after: ${mb(ours.quietPeak)}${againstBaseline(ours.quietPeak, base?.quietPeak, mb)}`);
  report.line(`    3 s later: ${mb(ours.settled)}${againstBaseline(ours.settled, base?.settled, mb)}`);
  report.line(`    after closing them (2 s later): ${mb(ours.closed)}${againstBaseline(ours.closed, base?.closed, mb)}`);
}
