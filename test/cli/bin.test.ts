/**
 * The shipped bin (`dist/cli.js`, built by `npm test` before vitest runs) as a real process: each
 * command once, with the same exit code and the same bytes on stdout and stderr as `main` run in
 * this process (what the other CLI tests use), and the events a writing command leaves on disk.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { REPO } from '../helpers/workspace';
import { blockedWorkspace, cli, cliProcess, MISSION, readLog, SPEC, types, type CliResult, type TempWorkspace } from './support';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** The bin and `main` agree on everything a user sees. */
async function sameAsInProcess(args: string[], cwd: string): Promise<CliResult> {
  const real = cliProcess(args, cwd);
  expect(await cli(args, cwd), `spec-glossary ${args.join(' ')}`).toEqual(real);
  return real;
}

describe('the built bin, a real process', () => {
  test('--version prints the package version; --help the usage; an unknown command exits 2', async () => {
    const version = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version as string;
    expect(await sameAsInProcess(['--version'], REPO)).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    const help = await sameAsInProcess(['--help'], REPO);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: spec-glossary <command> \[options\]\n/);
    const unknown = await sameAsInProcess(['frobnicate'], REPO);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^spec-glossary: unknown command 'frobnicate'\n\nUsage:/);
  });

  test('check (text, JSON, SARIF; blocked: exit 1) and candidates, from the workspace and from a subfolder', async () => {
    ws = blockedWorkspace({ 'kitty-specs/041-demo/plan.md': '# Plan\n\nThe "frobnicator" and the frobnicator again; the frobnicator.\n' });
    const text = await sameAsInProcess(['check'], ws.root);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(`${SPEC}:6:5 high ambiguous Ambiguous term 'workspace'`);
    expect((await sameAsInProcess(['check', '--format', 'json', 'kitty-specs'], ws.root)).status).toBe(1);
    expect(JSON.parse((await sameAsInProcess(['check', '--format', 'sarif'], ws.root)).stdout).version).toBe('2.1.0');
    // Relative paths are the current directory's, in and out.
    const sub = await sameAsInProcess(['check', 'spec.md'], ws.path('kitty-specs/041-demo'));
    expect(sub.stdout).toMatch(/^spec\.md:6:5 high ambiguous/);
    const candidates = await sameAsInProcess(['candidates', '--format', 'json'], ws.root);
    expect(candidates.status).toBe(0);
    expect(JSON.parse(candidates.stdout)).toMatchObject({ candidates: expect.arrayContaining([expect.objectContaining({ term: 'frobnicator' })]) });
  });

  test('check --emit-events, resume, resolve, replay and validate', async () => {
    ws = blockedWorkspace();
    const emitted = cliProcess(['check', '--emit-events'], ws.root);
    expect(emitted.status).toBe(1);
    const token = /resume with: spec-glossary resume --retry-token (\S+)/.exec(emitted.stderr)?.[1];
    expect(token, emitted.stderr).toBeDefined();
    expect(types(readLog(ws)).at(-1)).toBe('GlossaryClarificationRequested');
    // One run, one run_id for every event of it.
    expect(new Set(readLog(ws).map((l) => l.event['run_id'])).size).toBe(1);

    const listed = await sameAsInProcess(['resolve', 'workspace', '--mission', MISSION], ws.root);
    expect(listed.stdout + listed.stderr).toContain('VS Code workspace configuration file');
    const resolved = cliProcess(['resolve', 'workspace', '--mission', MISSION, '--sense', '2'], ws.root);
    expect(resolved.status, resolved.stderr).toBe(0);
    expect(readLog(ws).at(-1)!.event).toMatchObject({ event_type: 'GlossaryClarificationResolved', selected_sense: { definition: 'VS Code workspace configuration file' } });

    const resumed = await sameAsInProcess(['resume', '--retry-token', token!], ws.root);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain("Gate passed: step 'spec'");
    const replayed = await sameAsInProcess(['replay', '--mission', MISSION, '--json'], ws.root);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ pins: [{ term: 'workspace' }], open_clarifications: [] });
    const validated = await sameAsInProcess(['validate'], ws.root);
    expect(validated.status).toBe(0);
  });
});
