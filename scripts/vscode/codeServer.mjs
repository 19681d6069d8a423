#!/usr/bin/env node
// Installs a pinned code-server (a real VS Code served to a browser) from the npm registry, with
// its native parts built from source, into a per-user cache; or reuses the cached install.
//
//   node scripts/vscode/codeServer.mjs          install or reuse; prints where it is
//   node scripts/vscode/codeServer.mjs --json   the same as one JSON line on stdout
//
// Why not `npm install -g code-server`: its postinstall and @vscode/ripgrep's download prebuilt
// binaries, which a machine with only the npm registry and Debian's packages cannot reach. So the
// packages are installed with --ignore-scripts and this script does what the scripts would have
// done, offline: builds the native modules the server side of VS Code loads, points ripgrep at
// Debian's `rg`, and makes the links code-server's postinstall makes.
//
// Left out on purpose (measured, see docs/editors.md): `kerberos` (imported only when a proxy asks
// for Kerberos authentication, so it needs no libkrb5-dev) and the `extensions/` dependencies
// (only TypeScript, for the built-in TypeScript extension). Nothing on the server side links
// X11, xkbfile or libsecret: those are for the desktop app.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The code-server release under test (VS Code 1.100.3). Its server needs Node.js 20. */
export const CODE_SERVER_VERSION = '4.100.3';
const NODE_MAJOR = 20;
const STAMP = 'spec-glossary-install.json';

/** Native modules built from source, by package folder, relative to the code-server package. */
const NATIVE_MODULES = [
  // spdlog writes every log file, the output channels of extensions among them.
  { dir: 'lib/vscode/node_modules/@vscode/spdlog', check: "require('@vscode/spdlog').version" },
  // The terminal (pty host); unused by the test, but a session by hand wants a terminal.
  { dir: 'lib/vscode/node_modules/node-pty', check: "require('node-pty').spawn" },
  // Ends an extension host whose parent died; without it the server logs an error per host.
  { dir: 'lib/vscode/node_modules/native-watchdog', check: "require('native-watchdog').start" },
  // The machine id; without it the server logs an error and makes up an id.
  { dir: 'lib/vscode/node_modules/@vscode/deviceid', check: "require('@vscode/deviceid').getDeviceId" },
  // code-server's password hashing: loaded at start even with --auth none.
  { dir: 'argon2', preGyp: true, check: "require('argon2').hash" },
];

/** Debian packages and the commands that tell whether they are there. */
const PREREQUISITES = [
  { command: 'rg', pkg: 'ripgrep', why: "VS Code's search runs ripgrep" },
  { command: 'g++', pkg: 'g++', why: 'native modules are built from source' },
  { command: 'make', pkg: 'make', why: 'native modules are built from source' },
  { command: 'python3', pkg: 'python3', why: 'node-gyp runs on Python' },
];

export class InstallError extends Error {}

/** `~/.cache/spec-glossary-vscode` (or $SPEC_GLOSSARY_VSCODE_CACHE, or under $XDG_CACHE_HOME). */
export function cacheRoot() {
  if (process.env.SPEC_GLOSSARY_VSCODE_CACHE) return path.resolve(process.env.SPEC_GLOSSARY_VSCODE_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'spec-glossary-vscode');
}

/**
 * One cache entry per code-server version and Node.js ABI (native modules built for one Node
 * major do not load in another), platform and architecture.
 */
export function cacheDir() {
  const key = `code-server-${CODE_SERVER_VERSION}-node${process.versions.node.split('.')[0]}-abi${process.versions.modules}-${process.platform}-${process.arch}`;
  return path.join(cacheRoot(), key);
}

/** Paths of an install in `dir`. */
export function layout(dir) {
  const pkg = path.join(dir, 'node_modules', 'code-server');
  return { dir, pkg, entry: path.join(pkg, 'out', 'node', 'entry.js'), vscode: path.join(pkg, 'lib', 'vscode'), stamp: path.join(dir, STAMP) };
}

function which(command) {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** Throws with the apt-get line to run when a Debian package the install needs is missing. */
export function checkPrerequisites() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== NODE_MAJOR) {
    throw new InstallError(`code-server ${CODE_SERVER_VERSION} runs on Node.js ${NODE_MAJOR}; this is Node.js ${process.versions.node}.`);
  }
  const missing = PREREQUISITES.filter((p) => !which(p.command));
  if (missing.length > 0) {
    const list = missing.map((p) => `${p.command} (${p.why})`).join(', ');
    throw new InstallError(`missing: ${list}. Install with: sudo apt-get install ${[...new Set(missing.map((p) => p.pkg))].join(' ')}`);
  }
  if (!nodeHeadersDir()) {
    throw new InstallError(`no Node.js headers (node.h) to build native modules against: set npm's nodedir (npm config set nodedir <dir with include/node/node.h>) or install Debian's libnode-dev.`);
  }
}

/** A folder holding include/node/node.h for node-gyp: npm's nodedir, else beside the node binary. */
function nodeHeadersDir() {
  const configured = process.env.npm_config_nodedir || spawnSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8' }).stdout?.trim();
  const candidates = [configured, path.dirname(path.dirname(process.execPath)), '/usr', '/usr/local'];
  return candidates.find((dir) => dir && dir !== 'undefined' && existsSync(path.join(dir, 'include', 'node', 'node.h')));
}

/** npm's own node-gyp (npm ships one); node-pre-gyp finds it through npm_config_node_gyp too. */
function nodeGypScript() {
  const candidates = [process.env.npm_config_node_gyp];
  const npm = which('npm');
  if (npm) candidates.push(path.join(path.dirname(path.dirname(realpathSync(npm))), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const found = candidates.find((file) => file && existsSync(file));
  if (!found) throw new InstallError('node-gyp not found: it ships with npm; is npm installed in the usual way?');
  return found;
}

/** A ready install: the stamp is written last, so an interrupted install never counts. */
export function installed() {
  const paths = layout(cacheDir());
  if (!existsSync(paths.stamp) || !existsSync(paths.entry)) return undefined;
  try {
    const stamp = JSON.parse(readFileSync(paths.stamp, 'utf8'));
    return stamp.version === CODE_SERVER_VERSION ? { ...paths, ...stamp } : undefined;
  } catch {
    return undefined;
  }
}

function log(message) {
  process.stderr.write(`[code-server setup] ${message}\n`);
}

function run(command, args, options) {
  const started = Date.now();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new InstallError(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}) in ${options?.cwd ?? process.cwd()}:\n${output}`);
  }
  return (Date.now() - started) / 1000;
}

/** node-gyp builds, two at a time (the machines this runs on have 2 cores). */
async function buildNative(pkg, env) {
  const gyp = nodeGypScript();
  const preGyp = path.join(path.dirname(pkg), '@mapbox', 'node-pre-gyp', 'bin', 'node-pre-gyp');
  const queue = [...NATIVE_MODULES];
  const times = {};
  const worker = async () => {
    for (let mod = queue.shift(); mod; mod = queue.shift()) {
      const cwd = mod.dir === 'argon2' ? path.join(path.dirname(pkg), 'argon2') : path.join(pkg, mod.dir);
      const args = mod.preGyp ? [preGyp, 'rebuild', '--build-from-source'] : [gyp, 'rebuild'];
      const started = Date.now();
      await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', reject);
        child.on('close', (code) => {
          if (code === 0) resolve(undefined);
          else reject(new InstallError(`building ${mod.dir} failed (exit ${code}):\n${output.trim().split('\n').slice(-25).join('\n')}`));
        });
      });
      times[mod.dir] = (Date.now() - started) / 1000;
      // Intermediate objects are not needed once the .node file is linked.
      rmSync(path.join(cwd, 'build', 'Release', 'obj.target'), { recursive: true, force: true });
      const check = spawnSync(process.execPath, ['-e', mod.check], { cwd: path.join(pkg, mod.dir.startsWith('lib/') ? 'lib/vscode' : '.'), encoding: 'utf8' });
      if (check.status !== 0) throw new InstallError(`${mod.dir} was built but does not load:\n${check.stderr}`);
    }
  };
  await Promise.all([worker(), worker()]);
  return times;
}

function link(target, at) {
  rmSync(at, { recursive: true, force: true });
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** Staging folders of installs whose process is gone (killed half-way): they are never finished. */
function removeAbandonedInstalls(final) {
  const prefix = `${path.basename(final)}.partial-`;
  let names = [];
  try {
    names = readdirSync(path.dirname(final));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue; // another install at work
    rmSync(path.join(path.dirname(final), name), { recursive: true, force: true });
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Installs into a fresh staging folder, then renames it into place. */
export async function install() {
  checkPrerequisites();
  const final = cacheDir();
  removeAbandonedInstalls(final);
  const staging = `${final}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const paths = layout(staging);
  const started = Date.now();
  const times = {};
  try {
    writeFileSync(path.join(staging, 'package.json'), '{ "private": true, "description": "code-server for the spec-glossary VS Code test" }\n');
    log(`installing code-server ${CODE_SERVER_VERSION} from the npm registry into ${final} …`);
    const npmFlags = ['--ignore-scripts', '--omit=dev', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'];
    times.npmCodeServer = run('npm', ['install', ...npmFlags, '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], { cwd: staging });
    log("installing the VS Code server's own dependencies …");
    times.npmVscode = run('npm', ['install', ...npmFlags], { cwd: paths.vscode });
    log('building native modules from source (spdlog, node-pty, native-watchdog, deviceid, argon2) …');
    const env = { ...process.env, npm_config_nodedir: nodeHeadersDir(), npm_config_node_gyp: nodeGypScript(), JOBS: '2' };
    Object.assign(times, await buildNative(paths.pkg, env));

    // What code-server's postinstall and @vscode/ripgrep's download would have left.
    link('node_modules', path.join(paths.vscode, 'node_modules.asar'));
    link(which('rg'), path.join(paths.vscode, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
    link('code-linux.sh', path.join(paths.vscode, 'bin', 'remote-cli', 'code-server'));
    link('browser-linux.sh', path.join(paths.vscode, 'bin', 'helpers', 'browser.sh'));

    const version = spawnSync(process.execPath, [paths.entry, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: staging, XDG_DATA_HOME: staging } });
    if (version.status !== 0 || !version.stdout.split('\n').some((line) => line.startsWith(`${CODE_SERVER_VERSION} `))) {
      throw new InstallError(`the installed code-server does not run: ${version.stdout}${version.stderr}`);
    }
    rmSync(path.join(staging, 'code-server'), { recursive: true, force: true }); // its default config, written by --version
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    writeFileSync(paths.stamp, JSON.stringify({ version: CODE_SERVER_VERSION, node: process.versions.node, seconds, times }, null, 2) + '\n');
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(staging, final);
  } catch (error) {
    // Another run finished first: keep its install.
    rmSync(staging, { recursive: true, force: true });
    if (!installed()) throw error;
  }
  const ready = installed();
  if (!ready) throw new InstallError(`the install in ${final} is incomplete`);
  log(`installed in ${ready.seconds} s`);
  return ready;
}

/** The cached install, or a new one. */
export async function ensureCodeServer() {
  const ready = installed();
  if (ready) {
    if (!which('rg')) checkPrerequisites(); // the cached install links Debian's rg
    return { ...ready, cached: true };
  }
  return { ...(await install()), cached: false };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const json = process.argv.includes('--json');
  try {
    const ready = await ensureCodeServer();
    const info = { ok: true, version: CODE_SERVER_VERSION, entry: ready.entry, dir: ready.dir, cached: ready.cached, seconds: ready.seconds, times: ready.times };
    if (json) process.stdout.write(JSON.stringify(info) + '\n');
    else process.stdout.write(`code-server ${CODE_SERVER_VERSION} ${ready.cached ? 'is cached' : 'installed'} in ${ready.dir}\nstart it with: node ${ready.entry} --help\n`);
  } catch (error) {
    const reason = error instanceof InstallError ? error.message : String(error?.stack ?? error);
    if (json) process.stdout.write(JSON.stringify({ ok: false, version: CODE_SERVER_VERSION, reason }) + '\n');
    process.stderr.write(`error: could not install code-server ${CODE_SERVER_VERSION}: ${reason}\n`);
    process.exit(1);
  }
}
