/**
 * Shared pieces of the robustness suite: temporary workspaces, big inputs generated at test time
 * (never committed), positions of a needle in a text as the CLI prints them, tmpfs mounts for
 * read-only folders and full disks, and the event-log checks every fault test ends with.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { URI } from 'vscode-uri';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import type { LoggedEvent } from '../../server/src/core/events/types';
import { checkedDocumentOf, runtimeSettings } from '../../server/src/lsp/analysis';
import { analyzeDocument } from '../../server/src/node/analyzer';
import { engine } from '../helpers/core';
import { loadWorkspace, type WorkspaceSnapshot } from '../../server/src/node/workspace';
import { documentDiagnostics } from '../../server/src/service/diagnostics';
import { DEFAULT_SETTINGS } from '../../server/src/shared/protocol';
import type { Diagnostic } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';

export { cli, cliProcess, cliProcessAsync } from '../cli/support';
export { tempWorkspace, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../helpers/workspace';

export const uriOf = (file: string): string => URI.file(file).toString();

/** Two active senses of `zorblax`: any use of it in prose is an ambiguous finding. */
export const ZORBLAX_SEED = `terms:
  - surface: zorblax
    definition: A flux capacitor of the deployment pipeline
    confidence: 0.9
    status: active
  - surface: zorblax
    definition: A queue of pending reviews
    confidence: 0.6
    status: active
`;

export const AMBIGUOUS_ZORBLAX = "Ambiguous term 'zorblax': 2 senses in";

/** `line:column` (1-based, as the CLI prints them) of the `occurrence`-th `needle` in `text`. */
export function where(text: string, needle: string, occurrence = 1): string {
  const { line, character } = positionOf(text, needle, occurrence);
  return `${line + 1}:${character + 1}`;
}

/** Zero-based LSP position of the `occurrence`-th `needle` in `text` (UTF-16, `\n` ends lines). */
export function positionOf(text: string, needle: string, occurrence = 1): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`'${needle}' occurs fewer than ${occurrence} times`);
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { line, character: at - (before.lastIndexOf('\n') + 1) };
}

/** A file of about `bytes` bytes made of `unit` repeated: big inputs in milliseconds, in a temp folder. */
export function writeBig(file: string, bytes: number, unit: string): number {
  mkdirSync(path.dirname(file), { recursive: true });
  const text = unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

export type MountResult = { ok: true } | { ok: false; reason: string };

/**
 * Mounts a tmpfs of `sizeKb` on `dir` (created if needed). Needs root and a kernel/sandbox that
 * allows it; otherwise says why, so the test can skip with that reason.
 */
export function mountTmpfs(dir: string, sizeKb: number): MountResult {
  mkdirSync(dir, { recursive: true });
  if (process.platform !== 'linux') return { ok: false, reason: `tmpfs mounts need Linux (this is ${process.platform})` };
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return { ok: false, reason: 'tmpfs mounts need root' };
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (result.error) return { ok: false, reason: `mount is not available: ${result.error.message}` };
  if (result.status !== 0) return { ok: false, reason: `mount -t tmpfs failed: ${(result.stderr || result.stdout).trim()}` };
  return { ok: true };
}

/**
 * `mountTmpfs` for one test, which is skipped when the mount is not possible, naming the reason
 * and the test that covers the behaviour instead. True when mounted (the caller unmounts it).
 */
export function mountTmpfsOrSkip(ctx: { skip(): void }, dir: string, sizeKb: number, coveredBy: string): boolean {
  const mount = mountTmpfs(dir, sizeKb);
  if (mount.ok) return true;
  console.warn(`skipped: ${mount.reason} (${coveredBy})`);
  ctx.skip();
  return false;
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  const result = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`remount ${mode} of ${dir} failed: ${result.stderr}`);
}

export function unmount(dir: string): void {
  spawnSync('umount', ['-l', dir], { encoding: 'utf8' });
}

let fillers = 0;

/** Fills a (tmpfs) folder leaving `leaveBytes` free (whole pages); returns the filler file. */
export function fillDisk(dir: string, leaveBytes: number): string {
  const filler = path.join(dir, `filler-${++fillers}.bin`);
  const free = () => {
    const out = spawnSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).stdout.trim().split('\n').pop()!;
    return Number(out);
  };
  const avail = free();
  if (!Number.isFinite(avail)) throw new Error(`cannot read the free space of ${dir}`);
  try {
    writeFileSync(filler, Buffer.alloc(Math.max(0, avail - leaveBytes)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

export interface LogCheck {
  /** Valid events in file order. */
  events: LoggedEvent[];
  problems: { line: number; message: string }[];
  /** Whole (`\n`-terminated) lines of the file. */
  wholeLines: string[];
  endsWithNewline: boolean;
}

/** Reads a log the way replay does and also splits it into its whole lines. */
export function readLog(file: string): LogCheck {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const parsed = parseEventLog(text, file);
  const endsWithNewline = text === '' || text.endsWith('\n');
  const parts = text.split('\n');
  parts.pop(); // after the last \n: '' or a torn tail
  return { events: parsed.events, problems: parsed.problems, wholeLines: parts.filter((l) => l.trim() !== ''), endsWithNewline };
}

/** A draft of the smallest event type, for appends in fault tests. */
export function observedDraft(mission: string, term: string, context = 'x') {
  return {
    event_type: 'TermCandidateObserved' as const,
    mission_id: mission,
    run_id: 'cli-robustness',
    term,
    source_step: 'spec',
    actor_id: 'service:robustness',
    confidence: 0.5,
    extraction_method: 'repeated_noun',
    context,
  };
}

/** A small seeded PRNG (mulberry32): the edit storms are random but reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What a fresh server would publish for `text` as the document `file` of the workspace at `root`:
 * the workspace loaded from disk (or `snapshot`, loaded by `freshWorkspace` for many documents of
 * an unchanged workspace), the document checked by the core, diagnostics by the service.
 */
export async function freshDiagnostics(root: string, file: string, text: string, snapshot?: WorkspaceSnapshot): Promise<Diagnostic[]> {
  const settings = { ...DEFAULT_SETTINGS };
  snapshot ??= await freshWorkspace(root);
  const analyzed = analyzeDocument(engine, snapshot, { path: file, text, settings: runtimeSettings(settings) });
  return documentDiagnostics(checkedDocumentOf(uriOf(file), root, snapshot, analyzed), settings);
}

/** The workspace at `root` as a fresh server loads it (default settings). */
export function freshWorkspace(root: string): Promise<WorkspaceSnapshot> {
  return loadWorkspace(root, { maxFileBytes: DEFAULT_SETTINGS.maxFileSize });
}

/** The parts of a diagnostic a user sees (what must match between the server and a fresh check). */
export const visible = (ds: readonly Diagnostic[]) => ds.map((d) => ({ range: d.range, code: d.code, severity: d.severity, message: d.message }));

/** Pieces typed into the document: terms of both glossaries, markdown that changes the masking. */
export const SNIPPETS = [
  'The zorblax is ready. ',
  'workspace ',
  'Open the work dir now. ',
  'The QZX and GDPR rules. ',
  '"flux router" ',
  'the fooBar handler and snake_case_name ',
  '\n```\nzorblax in code\n',
  '\n```\n',
  '`zorblax` ',
  '\n# Heading zorblax\n',
  '<!-- zorblax -->',
  '\n- item zorblax\n',
  '[link](http://zorblax.example/x) ',
  'caf\u00e9 \u{1f600} na\u00efve ',
  '\n\n',
  '\r\n',
  'zor',
  'blax ',
];

/** One random incremental edit of `text`: an insertion, a deletion or a replacement. */
export function randomEdit(text: string, random: () => number): { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string } {
  const doc = TextDocument.create('x', 'markdown', 0, text);
  const at = Math.floor(random() * (text.length + 1));
  const kind = random();
  const length = kind < 0.5 ? 0 : Math.min(text.length - at, Math.floor(random() * 30));
  const inserted = kind < 0.8 ? SNIPPETS[Math.floor(random() * SNIPPETS.length)]! : '';
  return { range: { start: doc.positionAt(at), end: doc.positionAt(at + length) }, text: inserted };
}

