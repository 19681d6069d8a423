#!/usr/bin/env node
// A real VS Code (code-server) with this repository's extension, on a copy of examples/:
//
//   node scripts/vscode/session.mjs [--folder DIR] [--port N] [--vsix FILE] [--keep] [--json]
//
// Installs (or reuses) the pinned code-server (scripts/vscode/codeServer.mjs), builds the .vsix
// with `npm run package`, installs it into a fresh extensions folder, copies examples/ into a
// fresh session folder (so decisions written to its event log leave the repository clean), and
// starts code-server without authentication on 127.0.0.1. Prints the address to open (with
// --json: one JSON line with every path), then runs until it gets SIGINT or SIGTERM, when it
// stops code-server and removes the session folder (kept with --keep).
//
// Everything lives in the session folder: the user-data dir (settings, logs — the extension's
// output channel is logs/<time>/exthost1/output_logging_<time>/<n>-Spec Glossary.log), the
// extensions dir and code-server's own config and cache (XDG_* point there), so no state leaks
// between sessions or into $HOME.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureCodeServer, InstallError } from './codeServer.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** User settings of the session: no welcome page, no trust prompt, no calls to the gallery. */
export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
};

const { values: options } = parseArgs({
  options: {
    folder: { type: 'string' },
    port: { type: 'string' },
    vsix: { type: 'string' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

/** Exit codes: 1 a failure of the session, 3 code-server could not be installed. */
const EXIT_INSTALL = 3;

function say(message) {
  process.stderr.write(`[vscode session] ${message}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function fail(message, code = 1) {
  if (options.json) process.stdout.write(JSON.stringify({ ok: false, install: code === EXIT_INSTALL, reason: message }) + '\n');
  say(`error: ${message}`);
  process.exit(code);
}

let codeServer;
try {
  codeServer = await ensureCodeServer();
} catch (error) {
  fail(error instanceof InstallError ? `could not install code-server: ${error.message}` : String(error?.stack ?? error), EXIT_INSTALL);
}

const session = mkdtempSync(path.join(tmpdir(), 'spec-glossary-vscode-'));
const dirs = {
  userData: path.join(session, 'user-data'),
  extensions: path.join(session, 'extensions'),
  home: path.join(session, 'home'),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2) + '\n');
const cleanup = () => {
  if (!options.keep) rmSync(session, { recursive: true, force: true });
};

const folder = options.folder ? path.resolve(options.folder) : path.join(session, 'examples');
if (!options.folder) cpSync(path.join(REPO, 'examples'), folder, { recursive: true });

// code-server writes its config, data and machine id under XDG folders: keep them in the session.
const env = {
  ...process.env,
  XDG_CONFIG_HOME: path.join(dirs.home, 'config'),
  XDG_DATA_HOME: path.join(dirs.home, 'data'),
  XDG_CACHE_HOME: path.join(dirs.home, 'cache'),
};

let vsix = options.vsix ? path.resolve(options.vsix) : path.join(session, 'spec-glossary.vsix');
if (!options.vsix) {
  say('building the extension package (npm run package) …');
  const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: REPO, encoding: 'utf8' });
  if (packaged.status !== 0) {
    cleanup();
    fail(`npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  }
}
const installed = spawnSync(process.execPath, [codeServer.entry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix], { env, encoding: 'utf8' });
if (installed.status !== 0 || !/successfully installed/.test(installed.stdout)) {
  cleanup();
  fail(`code-server --install-extension ${vsix} failed:\n${installed.stdout}\n${installed.stderr}`);
}

const port = options.port ? Number(options.port) : await freePort();
const args = [
  codeServer.entry,
  '--auth', 'none',
  '--bind-addr', `127.0.0.1:${port}`,
  '--user-data-dir', dirs.userData,
  '--extensions-dir', dirs.extensions,
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  '--disable-getting-started-override',
  '--ignore-last-opened',
  folder,
];
const server = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
let serverLog = '';
let ready = false;
const onOutput = (chunk) => {
  serverLog += chunk;
  if (!options.json) process.stderr.write(chunk);
  if (!ready && /HTTP server listening on/.test(serverLog)) {
    ready = true;
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`;
    if (options.json) {
      process.stdout.write(JSON.stringify({ ok: true, url, port, folder, session, userData: dirs.userData, logs: path.join(dirs.userData, 'logs'), extensions: dirs.extensions, vsix, codeServer: { version: codeServer.version, entry: codeServer.entry, cached: codeServer.cached, installSeconds: codeServer.seconds }, pid: process.pid }) + '\n');
    } else {
      say(`code-server ${codeServer.version} with the extension is running on a copy of ${options.folder ?? 'examples/'}:`);
      say(`  open ${url}`);
      say(`  workspace folder: ${folder}`);
      say(`  logs (the "Spec Glossary" output channel is under exthost1/output_logging_*): ${path.join(dirs.userData, 'logs')}`);
      say(`Ctrl+C stops it${options.keep ? '' : ' and removes the session folder'}.`);
    }
  }
};
server.stdout.on('data', onOutput);
server.stderr.on('data', onOutput);

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) server.kill(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
  // code-server ends its extension hosts (and our language server) when it ends.
  setTimeout(() => server.kill('SIGKILL'), 5_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.on('exit', (code, signal) => {
  cleanup();
  if (!ready) fail(`code-server exited (${signal ?? code}) before listening:\n${serverLog}`);
  process.exit(stopping ? 0 : 1);
});
