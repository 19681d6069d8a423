/**
 * The launchers of the shipped bins (scripts/launcher.cjs as dist/cli.js and dist/server.js) and
 * the code caches the build leaves beside their bundles: a fresh start takes the cache it was
 * made for, and nothing else; a bundle whose cache is missing, stale or damaged starts as usual.
 */

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { REPO } from '../helpers/workspace';

const DIST = path.join(REPO, 'dist');
const VERSION = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** `node <bin> --version` with the launcher saying what it did with the cache. */
function start(bin: string, args = ['--version']): { report: string; stdout: string; status: number | null } {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input: '', env: { ...process.env, SPEC_GLOSSARY_CODE_CACHE_REPORT: '1' }, timeout: 30_000 });
  return { report: /spec-glossary code cache: (\w+)/.exec(run.stderr)?.[1] ?? `(no report: ${run.stderr})`, stdout: run.stdout, status: run.status };
}

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** A copy of the CLI's launcher, bundle and cache, with `bundle` and `cache` changed as given. */
function copiedCli(change: { bundle?: (text: string) => string; cache?: (bytes: Buffer) => Buffer }): string {
  folder = mkdtempSync(path.join(tmpdir(), 'spec-glossary-launcher-'));
  copyFileSync(path.join(DIST, 'cli.js'), path.join(folder, 'cli.js'));
  writeFileSync(path.join(folder, 'package.json'), '{ "type": "commonjs" }\n');
  const bundle = (change.bundle ?? ((t) => t))(readFileSync(path.join(DIST, 'cli.cjs'), 'utf8'));
  writeFileSync(path.join(folder, 'cli.cjs'), bundle);
  writeFileSync(path.join(folder, 'cli.cjs.cache'), (change.cache ?? ((b) => b))(readFileSync(path.join(DIST, 'cli.cjs.cache'))));
  return path.join(folder, 'cli.js');
}

/** The cache's header line for a bundle of these bytes, as the launcher writes it. */
function stampFor(bundle: string): string {
  return `spec-glossary code cache ${process.version} ${process.arch} ${createHash('sha1').update(bundle).digest('hex')}\n`;
}

describe('the launchers and their code caches', () => {
  test('the built CLI and language server start with the code cache the build made for them', () => {
    const cli = start(path.join(DIST, 'cli.js'));
    expect(cli).toEqual({ report: 'used', stdout: `${VERSION}\n`, status: 0 });
    // (The server reads stdin; an empty one ends it.)
    expect(start(path.join(DIST, 'server.js'), ['--stdio']).report).toBe('used');
  });

  test('a cache made for another bundle is not read; the bundle starts as usual', () => {
    const bin = copiedCli({ bundle: (text) => `${text}\n// changed after the build\n` });
    expect(start(bin)).toEqual({ report: 'none', stdout: `${VERSION}\n`, status: 0 });
  });

  test('a damaged cache for this bundle is refused by V8; the bundle starts as usual', () => {
    const bundle = readFileSync(path.join(DIST, 'cli.cjs'), 'utf8');
    const damaged = (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      const body = stampFor(bundle).length;
      for (let i = body; i < body + 64; i++) copy[i] = 0xff ^ copy[i]!;
      return copy;
    };
    expect(start(copiedCli({ cache: damaged }))).toEqual({ report: 'rejected', stdout: `${VERSION}\n`, status: 0 });
    expect(start(copiedCli({ cache: () => Buffer.from(stampFor(bundle)) }))).toEqual({ report: 'none', stdout: `${VERSION}\n`, status: 0 });
  });

  test('no cache: the bundle starts as usual', () => {
    const bin = copiedCli({});
    rmSync(path.join(path.dirname(bin), 'cli.cjs.cache'));
    expect(start(bin)).toEqual({ report: 'none', stdout: `${VERSION}\n`, status: 0 });
  });

  test('the flags put back before a cache is written are every V8 flag the server sets at run time', () => {
    const launcher = readFileSync(path.join(REPO, 'scripts', 'launcher.cjs'), 'utf8');
    const restored = new Set([...launcher.matchAll(/'--(?:no-)?([a-z-]+)(?:=\d+)?'/g)].map((m) => m[1]));
    const setInSource = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) for (const m of readFileSync(file, 'utf8').matchAll(/setFlagsFromString\([^)]*?--(?:no-)?([a-z-]+)/g)) setInSource.add(m[1]!);
      }
    };
    walk(path.join(REPO, 'server', 'src'));
    expect(setInSource.size).toBeGreaterThan(0);
    expect([...setInSource].filter((flag) => !restored.has(flag))).toEqual([]);
  });
});
