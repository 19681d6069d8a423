/**
 * The code-server session the test drives, started exactly as docs/editors.md tells a person to
 * (`node scripts/vscode/session.mjs`), and the Chromium that shows it.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { REPO } from '../helpers/workspace';

export const INSTALL_SCRIPT = path.join(REPO, 'scripts', 'vscode', 'codeServer.mjs');
export const SESSION_SCRIPT = path.join(REPO, 'scripts', 'vscode', 'session.mjs');
export const CHROMIUM = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/** In CI a missing code-server or Chromium is a failure, not a skip. */
export const IN_CI = !!process.env['CI'] && process.env['CI'] !== 'false' && process.env['CI'] !== '0';

export interface Install {
  ok: boolean;
  reason?: string;
  version: string;
  cached?: boolean;
  seconds?: number;
}

/**
 * Installs or reuses code-server (progress on stderr). Returns why it is not available instead
 * of throwing, so the test can skip outside CI.
 */
export function installCodeServer(): Install {
  if (!existsSync(CHROMIUM)) {
    return { ok: false, version: '', reason: `Chromium is not at ${CHROMIUM} (install Debian's chromium: sudo apt-get install chromium; or set CHROMIUM_PATH)` };
  }
  const run = spawnSync(process.execPath, [INSTALL_SCRIPT, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const line = run.stdout?.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Install;
  } catch {
    return { ok: false, version: '', reason: `${INSTALL_SCRIPT} printed no result (exit ${run.status ?? run.signal}): ${run.stdout}` };
  }
}

/** What session.mjs --json prints once code-server listens. */
export interface SessionInfo {
  ok: true;
  url: string;
  port: number;
  folder: string;
  session: string;
  userData: string;
  logs: string;
  extensions: string;
  codeServer: { version: string; entry: string; cached: boolean; installSeconds: number };
}

export interface Session {
  info: SessionInfo;
  stop(): Promise<void>;
}

/**
 * Starts scripts/vscode/session.mjs in its own process group and waits for its JSON line. `vsix`:
 * the package it installs (without, it builds one from the working tree).
 */
export function startSession(timeoutMs: number, vsix?: string): Promise<Session> {
  const child = spawn(process.execPath, [SESSION_SCRIPT, '--json', ...(vsix ? ['--vsix', vsix] : [])], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = () => stopGroup(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the session did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const info = JSON.parse(stdout.slice(0, newline)) as SessionInfo | { ok: false; reason: string };
      if (!info.ok) reject(new Error(`the session did not start: ${info.reason}`));
      else resolve({ info, stop });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`session.mjs exited (${code}) before it was ready:\n${stderr}`));
    });
  });
}

/**
 * SIGTERM to the whole group (session.mjs, code-server, its extension hosts and the language
 * servers they started), then SIGKILL to whatever is left of it.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone
    }
  };
  const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signal('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  signal('SIGKILL');
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with a fresh profile and the flags that keep it off the network
 * (this machine refuses outside connections), its crash reports and caches in the profile too.
 */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'spec-glossary-chromium-'));
  const home = path.join(profile, 'home');
  mkdirSync(home);
  const context = await chromium.launchPersistentContext(path.join(profile, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
