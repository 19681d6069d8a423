/**
 * Issue 19, item 4: a spec folder that cannot be read was skipped in silence — `check` exited 0
 * with "0 documents checked", so a CI gate passed on specs nobody read. Now every path named on
 * the command line and every folder met while walking that cannot be read is named on stderr and
 * the command exits 2 before checking anything; a path that does not exist is exit 2 too.
 *
 * Permissions deny nothing to root (CAP_DAC_OVERRIDE), and CI containers often run as root: then
 * the CLI is started as the unprivileged user `nobody` (uid/gid 65534, `spawn`'s uid/gid options),
 * for whom `chmod 000` denies as it does for any user. When neither works (not root and the
 * permissions do not deny, or no such user), the test is skipped with the reason. A named pipe is
 * given to a process too: were it read, the read would block the test's own thread in process.
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { CLI } from '../helpers/workspace';
import { cli, tempWorkspace, type TempWorkspace } from './helpers';

const NOBODY = 65534;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

interface Result {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as a user whom file permissions apply to, or (`asSelf`) as the test's own user: a named
 * pipe needs no permission to be denied, and `nobody` may not even reach the CLI's build when the
 * clone lives in a private folder (mktemp's 0700).
 */
function run(args: string[], cwd: string, asSelf = false): Result {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    ...(isRoot && !asSelf ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: result.stderr ?? (result.error ? String(result.error) : '') };
}

/** Why permissions cannot be made to deny here, or undefined when they can (probed once). */
function cannotDeny(): string | undefined {
  if (process.platform === 'win32') return 'file modes do not deny reading on Windows';
  const probe = workspaceFor({ 'probe/x.md': 'x' });
  const as = isRoot ? { uid: NOBODY, gid: NOBODY } : {};
  chmodSync(probe.path('probe'), 0o000);
  try {
    const result = spawnSync(process.execPath, ['-e', `require('fs').readdirSync(${JSON.stringify(probe.path('probe'))})`], as);
    if (result.error) return `cannot start a process as uid ${NOBODY}: ${result.error.message}`;
    if (result.status === 0) return `a folder with mode 000 is still readable by ${isRoot ? `uid ${NOBODY}` : 'this user'}`;
    const cli = spawnSync(process.execPath, [CLI, '--version'], as);
    if (cli.status !== 0) return `uid ${NOBODY} cannot run ${CLI} (${String(cli.stderr).trim()})`;
    return undefined;
  } finally {
    chmodSync(probe.path('probe'), 0o755);
    probe.remove();
  }
}

/** Folders readable by everyone (mkdtemp makes the root 0700), then `deny` applied. */
function workspaceFor(files: Record<string, string>): TempWorkspace {
  const ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': 'terms:\n  - surface: zorblax\n    definition: A flux capacitor\n    confidence: 0.9\n    status: active\n  - surface: zorblax\n    definition: A queue of reviews\n    confidence: 0.6\n    status: active\n',
    ...files,
  });
  const open = (dir: string) => {
    chmodSync(dir, 0o755);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) open(path.join(dir, entry.name));
  };
  open(ws.root);
  return ws;
}

const SPEC = '# Spec\n\nThe zorblax is ready.\n';

describe('specs that cannot be read fail the check (exit 2), they are never skipped in silence', () => {
  let ws: TempWorkspace | undefined;
  const restore: string[] = [];
  afterEach(() => {
    for (const p of restore.splice(0)) chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    ws?.remove();
    ws = undefined;
  });

  function deny(relative: string, mode = 0o000): void {
    chmodSync(ws!.path(relative), mode);
    restore.push(ws!.path(relative));
  }

  let denial: { reason: string | undefined } | undefined;
  function skipUnlessDenied(ctx: { skip(): void }): void {
    denial ??= { reason: cannotDeny() };
    const { reason } = denial;
    if (reason === undefined) return;
    console.warn(`skipped: ${reason}`);
    ctx.skip();
  }

  test('a folder found while walking `.`: exit 2 naming it, nothing checked, for text and JSON alike', (ctx) => {
    ws = workspaceFor({ 'docs/public/a.md': SPEC, 'docs/private/b.md': SPEC });
    skipUnlessDenied(ctx);
    // Readable, the folder's spec counts: two documents.
    expect(run(['check', '--format', 'json'], ws.root).stdout).toContain('"documents": 2,');
    deny('docs/private');
    for (const format of ['text', 'json']) {
      const result = run(['check', '--format', format], ws.root);
      expect(result.status, format).toBe(2);
      expect(result.stdout, format).toBe('');
      expect(result.stderr, format).toBe('spec-glossary check: cannot read docs/private: permission denied (EACCES). Nothing was checked: a spec that cannot be read must not pass unchecked.\n');
    }
  });

  test('a folder named on the command line, and several at once: each named', (ctx) => {
    ws = workspaceFor({ 'a/x.md': SPEC, 'b/y.md': SPEC, 'c/deep/z.md': SPEC });
    skipUnlessDenied(ctx);
    deny('a');
    deny('c/deep');
    const named = run(['check', 'a'], ws.root);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('cannot read a: permission denied (EACCES).');
    const several = run(['check', 'a', 'b', 'c'], ws.root);
    expect(several.status).toBe(2);
    expect(several.stdout).toBe('');
    expect(several.stderr).toContain('cannot read a: permission denied (EACCES); c/deep: permission denied (EACCES). Nothing was checked');
  });

  test('a folder that lists its files but does not let them be opened (r without x), and an unreadable spec file: exit 2 naming the file', (ctx) => {
    ws = workspaceFor({ 'docs/listonly/a.md': SPEC, 'docs/b.md': SPEC });
    skipUnlessDenied(ctx);
    deny('docs/listonly', 0o444);
    const listOnly = run(['check'], ws.root);
    expect(listOnly.status).toBe(2);
    expect(listOnly.stdout).toBe('');
    expect(listOnly.stderr).toBe('spec-glossary check: cannot read docs/listonly/a.md: permission denied (EACCES). Nothing was checked: a spec that cannot be read must not pass unchecked.\n');
    chmodSync(ws.path('docs/listonly'), 0o755);
    deny('docs/b.md');
    const file = run(['check', 'docs/b.md'], ws.root);
    expect(file.status).toBe(2);
    expect(file.stderr).toContain('spec-glossary check: cannot read docs/b.md: permission denied (EACCES).');
  });

  test('a spec named inside a folder that cannot be searched (no x): one line naming it, exit 2, for every command that reads specs', (ctx) => {
    ws = workspaceFor({ 'docs/private/a.md': SPEC, 'c/deep/b.md': SPEC });
    skipUnlessDenied(ctx);
    deny('docs/private');
    deny('c/deep', 0o644);
    for (const [args, file] of [
      [['check', 'docs/private/a.md'], 'docs/private/a.md'],
      [['check', 'c/deep/b.md'], 'c/deep/b.md'],
      [['uses', 'workspace', 'docs/private/a.md'], 'docs/private/a.md'],
      [['candidates', 'docs/private/a.md'], 'docs/private/a.md'],
    ] as const) {
      const result = run([...args], ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toBe(`spec-glossary ${args[0]}: cannot read ${file}: permission denied (EACCES). Nothing was checked: a spec that cannot be read must not pass unchecked.\n`);
    }
  });

  test('a named pipe named on the command line (reading it would wait forever): exit 2 naming it', (ctx) => {
    ws = workspaceFor({ 'docs/a.md': SPEC });
    const fifo = spawnSync('mkfifo', [ws.path('docs/pipe.md')]);
    if (fifo.status !== 0) {
      console.warn(`skipped: mkfifo is not available (${fifo.error?.message ?? String(fifo.stderr).trim()})`);
      ctx.skip();
    }
    const result = run(['check', 'docs/pipe.md'], ws.root, true);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('spec-glossary check: cannot read docs/pipe.md: not a regular file or folder (a named pipe). Nothing was checked: a spec that cannot be read must not pass unchecked.\n');
    // Met while walking, a named pipe is not a file: passed over, as sockets and devices are.
    expect(run(['check', 'docs'], ws.root, true).status).toBe(0);
  });

  test('a path that does not exist: exit 2 naming it (also beside one that does)', async () => {
    ws = workspaceFor({ 'docs/a.md': SPEC });
    const result = await cli(['check', 'docs', 'specs/missing'], ws.root);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('spec-glossary check: specs/missing: no such file or directory\n');
  });
});
