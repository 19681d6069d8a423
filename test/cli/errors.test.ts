import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { blockedWorkspace, cli, MISSION, readLog, SPEC, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('clear errors, exit code 2', () => {
  test('a .kittify/config.yaml that is not YAML stops check and resolve with its position', async () => {
    ws = blockedWorkspace({ '.kittify/config.yaml': 'glossary:\n  strictness: [max\n' });
    for (const args of [['check'], ['check', '--emit-events'], ['resolve', 'workspace', '--mission', MISSION, '--sense', '1']]) {
      const result = await cli(args, ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/invalid configuration: \.kittify\/config\.yaml:\d+:\d+: is not valid YAML/);
      expect(result.stderr).not.toContain('    at ');
    }
    expect(readLog(ws)).toEqual([]);
    // An invalid value (not a broken file) only warns and falls back to medium, as SPEC §6 says.
    ws.write('.kittify/config.yaml', 'glossary:\n  strictness: hard\n');
    const warned = await cli(['check'], ws.root);
    expect(warned.status).toBe(1);
    expect(warned.stderr).toContain('config.invalid-strictness');
    // Once, at its value in config.yaml: not again at line 1 of every spec (400 copies in a CI log).
    expect(warned.stderr.split('\n').filter((l) => l.includes('config.invalid-strictness'))).toEqual([".kittify/config.yaml:2:15 warning config.invalid-strictness glossary.strictness must be off, medium or max (got 'hard'); using medium."]);
  });

  test('a .kittify/config.yaml that cannot be read (a folder, binary) stops check and resolve: the team\'s strictness is never silently dropped', async () => {
    ws = blockedWorkspace();
    mkdirSync(ws.path('.kittify/config.yaml'));
    for (const args of [['check'], ['check', '--strictness', 'off'], ['resolve', 'workspace', '--mission', MISSION, '--sense', '1']]) {
      const result = await cli(args, ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain('invalid configuration: .kittify/config.yaml is not a regular file');
    }
    ws.remove();
    ws = blockedWorkspace({ '.kittify/config.yaml': 'glossary:\n  strictness: max\u0000\n' });
    const binary = await cli(['check'], ws.root);
    expect(binary.status).toBe(2);
    expect(binary.stderr).toContain('invalid configuration: .kittify/config.yaml looks binary');
    expect(readLog(ws)).toEqual([]);
  });

  test('the event log cannot be written: exit 2 naming the file', async () => {
    ws = blockedWorkspace();
    mkdirSync(ws.path('.kittify/events'), { recursive: true });
    writeFileSync(ws.path('.kittify/events/glossary'), 'not a folder');
    const result = await cli(['check', '--emit-events'], ws.root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^spec-glossary check: no events recorded: cannot create the folder of .*events\.jsonl/m);
    // Two missions' logs: one line each, not one line with an escaped line break.
    mkdirSync(ws.path('kitty-specs/050-beta'));
    writeFileSync(ws.path('kitty-specs/050-beta/spec.md'), '---\ncritical_step: true\n---\nThe workspace is ready.\n');
    const two = await cli(['check', '--emit-events'], ws.root);
    expect(two.stderr.trim().split('\n').filter((l) => l.startsWith('spec-glossary check: no events recorded: cannot create the folder of '))).toHaveLength(2);
    expect(two.stderr).not.toContain('\\n');
    const resolve = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws.root);
    expect(resolve.status).toBe(2);
    expect(resolve.stderr).toContain('no events recorded');
  });

  test('one mission\'s log cannot be written: the other missions\' logs are written whole, and stderr says which were recorded and which not', async () => {
    ws = blockedWorkspace({ 'kitty-specs/050-beta/spec.md': '# Beta\n\nThe workspace is ready.\n' });
    mkdirSync(ws.path('.kittify/events/glossary/050-beta.events.jsonl'), { recursive: true });
    const result = await cli(['check', '--emit-events'], ws.root);
    expect(result.status).toBe(2);
    const written = readLog(ws);
    expect(written.length).toBeGreaterThan(0);
    expect(result.stderr).toContain(`recorded ${written.length} events in .kittify/events/glossary/${MISSION}.events.jsonl`);
    expect(result.stderr).toMatch(/^spec-glossary check: no events recorded: cannot open .*050-beta\.events\.jsonl/m);
    // The blocked spec whose checkpoint was written can be resumed.
    const token = written.find((l) => l.event['event_type'] === 'StepCheckpointed')!.event['retry_token'];
    expect(result.stderr).toContain(`kitty-specs/041-demo/spec.md is blocked; resume with: spec-glossary resume --retry-token ${token}`);
  });

  test('unknown commands and options, bad values: exit 2 with usage or a message', async () => {
    ws = blockedWorkspace();
    for (const args of [['replay', '--mission'], ['replay', 'extra'], ['resume', '--retry-token'], ['check', '--format', 'xml'], ['validate', '--bogus']]) {
      const result = await cli(args, ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.length, args.join(' ')).toBeGreaterThan(0);
    }
    // Node's parser says it on several lines: one line of ours, no "\n" shown in it.
    const negative = await cli(['check', '--max-file-size', '-5'], ws.root);
    expect(negative.status).toBe(2);
    expect(negative.stderr).toMatch(/^spec-glossary check: Option '--max-file-size' argument is ambiguous\. Did you forget/);
    expect(negative.stderr).not.toContain('\\n');
    expect(negative.stderr.trimEnd().split('\n')).toHaveLength(1);
    const help = await cli(['--help'], ws.root);
    expect(help.status).toBe(0);
    for (const command of ['check [paths...]', 'resolve <term>', 'replay [--mission ID]', 'validate [DIR]', 'resume --retry-token T', '--format text|json|sarif']) expect(help.stdout).toContain(command);
    // No command at all is an error: the usage on stderr, exit 2, nothing on stdout.
    const none = await cli([], ws.root);
    expect(none).toMatchObject({ status: 2, stdout: '' });
    expect(none.stderr).toContain('check [paths...]');
  });

  test('a document named on the command line that cannot be read: exit 2', async () => {
    ws = blockedWorkspace();
    const result = await cli(['check', SPEC.replace('spec.md', 'missing.md')], ws.root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no such file or directory');
  });
});
