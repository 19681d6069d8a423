/**
 * Helpers for the CLI tests: every test runs the built CLI (`dist/cli.js`, `node scripts/build.mjs`
 * first) as a real process and looks at what a user sees: exit code, stdout, stderr, and the
 * event log on disk.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateEvent } from '../../server/src/core/events/validate';
import { CLI, tempWorkspace, TEAM_WORKSPACE_SEED, type CliResult, type TempWorkspace } from '../helpers/workspace';

export { TEAM_WORKSPACE_SEED, type TempWorkspace };

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
  input?: string;
  env?: Record<string, string>;
}

export function cli(args: string[], cwd: string, options: RunOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    input: options.input ?? '',
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function cliAsync(args: string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
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
