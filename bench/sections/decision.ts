/**
 * A decision where users meet it: an editor with 200 real specs open in a 400-spec workspace (the
 * memory section's), and the quick fix "Define '<term>' in the mission glossary" on an unknown
 * term of one spec, run as an editor runs it — `textDocument/codeAction`, then
 * `workspace/executeCommand` — followed 300 ms later by the editor's watcher report of the event
 * log the server appended to. Per decision: the time to the command's answer (what the user waits
 * for), the server's CPU time until 2.5 s after it (all its threads, from /proc: the term index,
 * the re-checks and the collector included) and the publications it sent meanwhile. Each build on
 * a fresh copy of the workspace, since decisions are appended to its logs.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { againstBaseline, type Build } from '../builds';
import { writeWorkspace, type Corpus } from '../corpus';
import { startServer, type LspClient } from '../lsp';
import type { Report } from '../report';
import { ms, summarize } from '../stats';

interface Decision {
  replyMs: number;
  cpuMs: number;
  publications: number;
}

interface Diagnostic {
  code?: string | number;
  range: unknown;
}

interface CodeAction {
  title: string;
  command?: { command: string; arguments?: Record<string, unknown>[] };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** CPU time of a process so far (user + system, all threads), in ms; Linux only. */
function cpuMs(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  // (utime and stime, fields 14 and 15 of stat, in clock ticks of 10 ms on Linux.)
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Opens the first `count` specs and waits for each one's diagnostics (the last publication of each kept). */
async function openSpecs(client: LspClient, files: readonly string[], count: number): Promise<Map<string, Diagnostic[]>> {
  const last = new Map<string, Diagnostic[]>();
  const uris = files.slice(0, count).map((f) => pathToFileURL(f).href);
  const all = uris.map((uri) => client.published(uri, 1).then((p) => last.set(uri, p.diagnostics as Diagnostic[])));
  uris.forEach((uri, i) => client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: readFileSync(files[i]!, 'utf8') } }));
  await Promise.all(all);
  return last;
}

/** "Define … in the mission glossary" of the first unknown term of `uri`, with a definition (no editor round trip). */
async function defineAction(client: LspClient, uri: string, diagnostics: readonly Diagnostic[]): Promise<{ command: string; arguments: Record<string, unknown>[] } | undefined> {
  const unknown = diagnostics.find((d) => d.code === 'unknown');
  if (!unknown) return undefined;
  const answer = await client.request('textDocument/codeAction', { textDocument: { uri }, range: unknown.range, context: { diagnostics: [unknown] } });
  const define = ((answer.result ?? []) as CodeAction[]).find((a) => /^Define '.+' in the mission glossary$/.test(a.title));
  if (!define?.command?.arguments?.[0]) return undefined;
  return { command: define.command.command, arguments: [{ ...define.command.arguments[0], definition: 'A term the benchmark defined for its mission' }] };
}

async function measureBuild(build: Build, ws: { root: string; files: string[] }, open: number, decisions: number): Promise<Decision[]> {
  const client = await startServer(build.serverJs, ws.root, pathToFileURL(ws.root).href, { debounceMs: 0 });
  try {
    const published = await openSpecs(client, ws.files, open);
    // (The term index is built in the background after the documents open: let it finish.)
    await sleep(3000);
    const out: Decision[] = [];
    for (const file of ws.files.slice(0, open)) {
      if (out.length === decisions) break;
      const uri = pathToFileURL(file).href;
      const define = await defineAction(client, uri, published.get(uri) ?? []);
      if (!define) continue;
      await sleep(500);
      const cpuBefore = cpuMs(client.process.pid);
      const publishedBefore = client.publications;
      const started = performance.now();
      const answer = await client.request('workspace/executeCommand', define);
      const replyMs = performance.now() - started;
      if (answer.error || !(answer.result as { ok?: boolean } | null)?.ok) throw new Error(`${build.name}: the decision was refused: ${JSON.stringify(answer.error ?? answer.result)}`);
      // What an editor's file watcher reports a moment later.
      await sleep(300);
      const missionId = String(define.arguments[0]!['missionId']);
      const log = path.join(ws.root, '.kittify', 'events', 'glossary', `${missionId}.events.jsonl`);
      client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(log).href, type: 2 }] });
      await sleep(2500);
      out.push({ replyMs, cpuMs: cpuMs(client.process.pid) - cpuBefore, publications: client.publications - publishedBefore });
    }
    if (out.length < decisions) throw new Error(`${build.name}: only ${out.length} of the open specs had an unknown term to define`);
    return out;
  } finally {
    await client.stop();
  }
}

export async function decisionSection(corpus: Corpus, texts: readonly string[], builds: readonly Build[], report: Report, options: { quick: boolean }): Promise<void> {
  const open = Math.min(texts.length, options.quick ? 10 : 200);
  const decisions = options.quick ? 1 : 5;
  report.section(`A decision with ${open} real specs open in a ${texts.length}-spec workspace: the quick fix "Define … in the mission glossary", then the editor's watcher report of the log`);
  if (process.platform !== 'linux') {
    report.note("the server's CPU time is read from /proc: Linux only; skipped");
    return;
  }
  const rounds = options.quick ? 1 : 2;
  const runs: Decision[][] = builds.map(() => []);
  for (let round = 0; round < rounds; round++) {
    // (Alternating which build goes first; each on a fresh workspace.)
    const order = round % 2 === 0 ? [...builds.keys()] : [...builds.keys()].reverse();
    for (const b of order) {
      const ws = writeWorkspace(corpus, 'decision', texts);
      try {
        runs[b]!.push(...(await measureBuild(builds[b]!, ws, open, decisions)));
      } finally {
        ws.remove();
      }
    }
  }
  const figures = runs.map((r) => ({ reply: summarize(r.map((d) => d.replyMs)).median, cpu: summarize(r.map((d) => d.cpuMs)).median, publications: summarize(r.map((d) => d.publications)).median }));
  const ours = figures[0]!;
  const base = figures[1];
  const count = (value: number) => value.toFixed(0);
  report.line(`  the command answered in ${ms(ours.reply)} median (${runs[0]!.length} decisions)${againstBaseline(ours.reply, base?.reply, ms)}`);
  report.line(`  server CPU per decision, until 2.5 s after: ${ms(ours.cpu)} median${againstBaseline(ours.cpu, base?.cpu, ms)}`);
  report.line(`  publications per decision: ${count(ours.publications)}${againstBaseline(ours.publications, base?.publications, count)}`);
  report.record('decision', { open, workspaceSpecs: texts.length, ours: runs[0], ...(runs[1] ? { baseline: runs[1] } : {}) });
}
