/**
 * Helpers for the CLI tests, which look at what a user sees: exit code, stdout, stderr, and the
 * event log on disk.
 *
 * `cli` — the default — runs the whole CLI in this process: `main` (server/src/cli/main.ts) with
 * in-memory stdin/stdout/stderr, the environment and the current directory of the test. Same
 * argument parsing, output bytes and exit codes as the shipped bin, no build needed, a few
 * milliseconds a run.
 *
 * `cliProcess`, `cliProcessAsync` and `ptyCli` run the built bin (`dist/cli.js`; `npm test` builds
 * it first) as a real process, for the tests where the process itself is the point: the exit code
 * of the real binary, signals, a reader that goes away (EPIPE), a full disk on stdout, another
 * user id, several processes at once, a real terminal.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { main } from '../../server/src/cli/main';
import { validateEvent } from '../../server/src/core/events/validate';
import { CLI, tempWorkspace, TEAM_WORKSPACE_SEED, type CliResult, type TempWorkspace } from '../helpers/workspace';

export { CLI, TEAM_WORKSPACE_SEED, type CliResult, type TempWorkspace };

export const MISSION = '01KN2371WSJ7573ZG5D21WP82S';
export const SPEC = 'kitty-specs/041-demo/spec.md';
/** A critical step: the ambiguous `workspace` is high severity and blocks at medium strictness. */
export const BLOCKED_SPEC = '---\ncritical_step: true\n---\n# Demo\n\nThe workspace is ready.\n';

export function blockedWorkspace(extra: Record<string, string> = {}): TempWorkspace {
  return tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: MISSION }),
    [SPEC]: BLOCKED_SPEC,
    ...extra,
  });
}

export interface RunOptions {
  /** Standard input (ended after it); none by default. */
  input?: string;
  /** Variables on top of the test process's own and NO_COLOR=1. */
  env?: Record<string, string>;
}

const environment = (options: RunOptions) => ({ ...process.env, NO_COLOR: '1', ...options.env });

/** A stream that keeps what is written to it (strings as they come, bytes decoded as UTF-8). */
export class CollectedOutput extends Writable {
  text = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor() {
    super({ decodeStrings: false });
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    done();
  }
}

/** Runs `spec-glossary <args>` in this process with `cwd` as its current directory. */
export async function cli(args: string[], cwd: string, options: RunOptions = {}): Promise<CliResult> {
  const stdout = new CollectedOutput();
  const stderr = new CollectedOutput();
  const stdin = Readable.from(options.input ? [options.input] : []);
  const status = await main(args, { cwd, env: environment(options), stdin, stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

/** Runs the built `dist/cli.js` as a process and waits for it. */
export function cliProcess(args: string[], cwd: string, options: RunOptions = {}): CliResult {
  assertBuilt();
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', input: options.input ?? '', env: environment(options) });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `cliProcess` without blocking the test: for several processes at once. */
export function cliProcessAsync(args: string[], cwd: string, options: RunOptions = {}): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: environment(options), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

export function logPath(ws: TempWorkspace, mission = MISSION): string {
  return ws.path(`.kittify/events/glossary/${mission}.events.jsonl`);
}

export interface LogLine {
  raw: string;
  event: Record<string, any>;
}

/** Every line of a mission's log, each checked to be a valid event; [] when there is no log. */
export function readLog(ws: TempWorkspace, mission = MISSION): LogLine[] {
  const file = logPath(ws, mission);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  if (text !== '' && !text.endsWith('\n')) throw new Error(`${file} does not end with a newline`);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((raw) => {
      const event = JSON.parse(raw) as Record<string, any>;
      const result = validateEvent(event);
      if (!result.ok) throw new Error(`invalid event line ${raw}: ${result.errors.join('; ')}`);
      return { raw, event };
    });
}

export const types = (lines: readonly LogLine[]): string[] => lines.map((l) => l.event['event_type'] as string);

/** True when `script` (util-linux) can give the CLI a real pseudo-terminal. */
export const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

export interface PtySession {
  /** Everything the terminal showed so far (stdout and stderr share the pty). */
  output(): string;
  /** Resolves once the terminal output contains `text` (rejects after a timeout). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  type(line: string): void;
  exit: Promise<number>;
}

/**
 * Runs the CLI under a pseudo-terminal: `script -qfec "<command>" /dev/null` gives the child a
 * pty for stdin, stdout and stderr; what we write to script's stdin is typed into the pty.
 */
export function ptyCli(args: string[], cwd: string): PtySession {
  assertBuilt();
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...process.env, NO_COLOR: '1', TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const waiters: { match: string | RegExp; resolve: () => void }[] = [];
  const seen = (m: string | RegExp) => (typeof m === 'string' ? out.includes(m) : m.test(out));
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0)) {
      if (seen(w.match)) w.resolve();
      else waiters.push(w);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  void exit.then(() => child.stdin.end());
  return {
    output: () => out,
    waitFor(match, timeoutMs = 20_000) {
      if (seen(match)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${String(match)}; terminal showed:\n${out}`)), timeoutMs);
        waiters.push({ match, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    type(line) {
      child.stdin.write(line + '\n');
    },
    exit,
  };
}

export const relative = (ws: TempWorkspace, file: string) => path.relative(ws.root, file).split(path.sep).join('/');
