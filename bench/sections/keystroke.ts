/**
 * One keystroke → the `publishDiagnostics` of that version, through the real server over stdio
 * (SPEC §10): the server is spawned (`dist/server.js --stdio`), configured with `debounceMs: 0`,
 * and sent each keystroke as an incremental `didChange`; the time runs until the client has read
 * and parsed the publication of that version. On a 33 KB real spec and on 1 MB of real specs in
 * one file, each in a workspace without and with `.kittify/config.yaml` setting `ignore_words`.
 * With a baseline build, both servers get the same keystrokes, one burst each in turn.
 */

import { pathToFileURL } from 'node:url';
import { againstBaseline, type Build } from '../builds';
import { IGNORE_WORDS, KB, MB, specNear, specsJoined, writeWorkspace, type Corpus } from '../corpus';
import { startServer, type LspClient } from '../lsp';
import type { Report } from '../report';
import { mb, ms, summarize, type Samples } from '../stats';

interface Key {
  /** Offset where the change applies (in the text before it). */
  at: number;
  /** Characters removed at `at` (a backspace removes the one before `at`). */
  remove: number;
  insert: string;
}

/**
 * Keystrokes as a writer makes them, in bursts at `places` spots in prose: a word typed letter by
 * letter ("lane "), a backspace, and every fourth burst a new line. Bursts run from the end of the
 * document to its start, so one never moves the spots still to come.
 */
export function keystrokeBursts(text: string, places: number, seed: number): Key[][] {
  const prose = prosePlaces(text);
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(places, prose.length)) chosen.add(prose[Math.floor(random() * prose.length)]!);
  return [...chosen]
    .sort((a, b) => b - a)
    .map((start, index) => {
      const burst: Key[] = [];
      let at = start + 1;
      for (const char of 'lane ') burst.push({ at: at++, remove: 0, insert: char });
      // A backspace (removes the space before the cursor), then maybe a new line there.
      burst.push({ at, remove: 1, insert: '' });
      at--;
      if (index % 4 === 3) burst.push({ at, remove: 0, insert: '\n' });
      return burst;
    });
}

/** Offsets of spaces in prose: on lines that start with a letter, outside fences and code spans. */
function prosePlaces(text: string): number[] {
  const out: number[] = [];
  let fenced = false;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^[A-Za-z]/.test(line)) {
      let ticks = 0;
      for (let i = 0; i < line.length; i++) {
        if (line[i] === '`') ticks++;
        else if (line[i] === ' ' && ticks % 2 === 0) out.push(lineStart + i);
      }
    }
    lineStart = lineEnd + 1;
  }
  return out;
}

/** One open document on one server, typed into. */
class Typist {
  private version = 1;

  constructor(
    readonly client: LspClient,
    readonly uri: string,
    private text: string,
  ) {}

  static async open(build: Build, root: string, file: string, text: string): Promise<Typist> {
    const client = await startServer(build.serverJs, root, pathToFileURL(root).href, { debounceMs: 0 });
    const uri = pathToFileURL(file).href;
    const first = client.published(uri, 1);
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
    await first;
    return new Typist(client, uri, text);
  }

  /** Sends one keystroke; resolves with the milliseconds until its publication was read. */
  async type(key: Key): Promise<number> {
    const version = ++this.version;
    const from = key.remove > 0 ? key.at - key.remove : key.at;
    const range = { start: this.position(from), end: this.position(from + key.remove) };
    this.text = this.text.slice(0, from) + key.insert + this.text.slice(from + key.remove);
    const start = performance.now();
    const published = this.client.published(this.uri, version);
    this.client.notify('textDocument/didChange', { textDocument: { uri: this.uri, version }, contentChanges: [{ range, text: key.insert }] });
    await published;
    return performance.now() - start;
  }

  private position(offset: number): { line: number; character: number } {
    let line = 0;
    let lineStart = 0;
    for (let at = this.text.indexOf('\n'); at !== -1 && at < offset; at = this.text.indexOf('\n', at + 1)) {
      line++;
      lineStart = at + 1;
    }
    return { line, character: offset - lineStart };
  }
}

export interface KeystrokeOptions {
  quick: boolean;
}

export async function keystrokeSection(corpus: Corpus, builds: readonly Build[], report: Report, options: KeystrokeOptions): Promise<void> {
  report.section('Keystroke → publishDiagnostics of that version, through the server over stdio, debounce 0 (SPEC §10: ≤ 2 ms for a 33 KB spec, ≤ 5 ms for 1 MB)');
  const spec = specNear(corpus, 33 * KB);
  const documents = [
    { key: 'spec33k', label: `a real ${Math.round(spec.text.length / KB)} KB spec`, text: spec.text, limit: 2 },
    { key: 'specs1mb', label: `${mb(options.quick ? MB / 8 : MB)} of real specs in one file`, text: specsJoined(corpus, options.quick ? MB / 8 : MB), limit: 5 },
  ];
  for (const document of documents) {
    for (const ignore of [false, true]) {
      const ws = writeWorkspace(corpus, 'keys', [document.text], ignore ? IGNORE_WORDS : undefined);
      const typists: Typist[] = [];
      try {
        for (const build of builds) typists.push(await Typist.open(build, ws.root, ws.files[0]!, document.text));
        const bursts = keystrokeBursts(document.text, options.quick ? 3 : 24, 7);
        const times: number[][] = builds.map(() => []);
        // One burst on each server in turn; the first burst warms the code up.
        for (const [index, burst] of bursts.entries()) {
          for (const [b, typist] of typists.entries()) {
            for (const key of burst) {
              const elapsed = await typist.type(key);
              if (index > 0 || options.quick) times[b]!.push(elapsed);
            }
          }
        }
        // What typing leaves resident (V8 may let the heap grow while the user types:
        // lsp/collectorMode.ts), right away and once the server has been quiet for a while.
        const publishBytes = typists[0]!.client.lastPublishBytes;
        const typed = typists.map((t) => t.client.residentBytes());
        await new Promise((resolve) => setTimeout(resolve, options.quick ? 0 : 6000));
        const settled = typists.map((t) => t.client.residentBytes());
        const samples = times.map((t) => summarize(t));
        const what = `${document.label}, ${ignore ? 'with' : 'without'} ignore_words`;
        const ours = samples[0]!;
        const base = samples[1];
        report.line(`  ${what}: ${ms(ours.median)} median (min ${ms(ours.min)}, p90 ${ms(ours.p90)}, ${ours.times.length} keystrokes, publication ${mb(publishBytes)})${againstBaseline(ours.median, base?.median, ms)}`);
        report.line(`    resident after typing: ${mb(typed[0]!)}, ${options.quick ? 'then' : '6 s later'} ${mb(settled[0]!)}${typed.length > 1 ? `; baseline ${mb(typed[1]!)}, then ${mb(settled[1]!)}` : ''}`);
        report.record(`keystroke.${document.key}.${ignore ? 'ignoreWords' : 'plain'}`, { bytes: document.text.length, publishBytes, ours, residentAfterTyping: typed, residentSettled: settled, ...(base ? { baseline: base } : {}) } satisfies Record<string, unknown> & { ours: Samples });
        if (!options.quick) report.target(`keystroke → publishDiagnostics, ${what} (median)`, ours.median, document.limit, 'ms');
      } finally {
        for (const typist of typists) await typist.client.stop();
        ws.remove();
      }
    }
  }
}
