import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { blockedWorkspace, cli, logPath, MISSION, readLog, TEAM_WORKSPACE_SEED, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;

describe('spec-glossary validate', () => {
  test('a clean workspace: exit 0 and a summary (the glossary health of its one spec on a line of its own)', async () => {
    ws = blockedWorkspace();
    await cli(['check', '--emit-events'], ws.root);
    const result = await cli(['validate', '--no-health'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('1 glossary file, 1 event log (7 valid events): 0 errors, 0 warnings.');
    const withHealth = await cli(['validate'], ws.root);
    expect(withHealth.status).toBe(0);
    expect(withHealth.stdout.trim().split('\n').slice(-2)).toEqual(['Glossary health (1 spec read): 0 warnings, 1 information.', '1 glossary file, 1 event log (7 valid events): 0 errors, 0 warnings.']);
  });

  test('a torn line is reported with its file and line number; the lines after it still count; exit 1', async () => {
    ws = blockedWorkspace();
    await cli(['check', '--emit-events'], ws.root); // lines 1-7
    const lines = readLog(ws).map((l) => l.raw);
    // A writer died mid-line (line 8), then another writer appended after it (line 9).
    writeFileSync(logPath(ws), [...lines, lines[6]!.slice(0, 40)].join('\n') + '\n' + lines[2]!.replace(/"lamport_clock": 3/, '"lamport_clock": 9').replace(/"event_id": "[^"]+"/, '"event_id": "11111111-2222-4333-8444-555555555555"') + '\n');
    const result = await cli(['validate'], ws.root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${LOG}:8:1 error events.invalid-line not valid JSON`);
    expect(result.stdout).toContain('1 event log (8 valid events): 1 error, 0 warnings.');
    // check and replay keep going: the torn line is a warning there, never fatal.
    const check = await cli(['check'], ws.root);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(`${LOG}:8:1 warning events.invalid-line not valid JSON`);
    const replay = await cli(['replay', '--mission', MISSION, '--json'], ws.root);
    expect(replay.status).toBe(0);
    expect(replay.stderr).toContain(`${LOG}:8: warning: not valid JSON`);
  });

  test("an event of a type spec-glossary does not know (a newer or another writer's) is a warning, not an error: skipped, exit 0", async () => {
    ws = blockedWorkspace();
    await cli(['check', '--emit-events'], ws.root); // lines 1-7
    appendFileSync(logPath(ws), '{"event_type": "GlossaryTermMerged", "mission_id": "x", "term_surface": "zorblax"}\n');
    const result = await cli(['validate', '--no-health'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`${LOG}:8:1 warning events.unknown-type event type "GlossaryTermMerged" is not one spec-glossary reads (another or a newer writer's); line skipped`);
    expect(result.stdout).toContain('1 event log (7 valid events): 0 errors, 1 warning.');
  });

  test('a torn last line without a newline, and an invalid event, are errors with line numbers', async () => {
    ws = blockedWorkspace();
    await cli(['check', '--emit-events'], ws.root);
    appendFileSync(logPath(ws), '{"event_type": "GlossaryScopeActivated", "mission_id": "x"}\n{"event_type": "TermCand');
    const result = await cli(['validate', ws.root], '/');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/events\.jsonl:8:1 error events\.invalid-line invalid GlossaryScopeActivated event: timestamp: required field is missing; scope_id: required field is missing/);
    expect(result.stdout).toMatch(/events\.jsonl:9:1 error events\.invalid-line torn last line/);
  });

  test('seed problems with file:line:col, all of them; warnings alone exit 0', async () => {
    ws = blockedWorkspace({
      '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED + '  - surface: Broken\n    definition: x\n  - surface: ok\n    definition: fine\n    confidence: "high"\n',
    });
    const result = await cli(['validate'], ws.root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('.kittify/glossaries/team_domain.yaml:14:14 error glossary.surface-not-normalized');
    expect(result.stdout).toMatch(/\.kittify\/glossaries\/team_domain\.yaml:18:\d+ error glossary\./);
    // A placeholder definition is only a warning (Spec Kitty accepts the text); an unknown key is an
    // error, as Spec Kitty's schema refuses the whole file for it.
    ws.write('.kittify/glossaries/team_domain.yaml', TEAM_WORKSPACE_SEED + '  - surface: ok\n    definition: TBD\n');
    const warned = await cli(['validate'], ws.root);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toMatch(/team_domain\.yaml:15:17 warning glossary\.placeholder-definition /);
    ws.write('.kittify/glossaries/team_domain.yaml', TEAM_WORKSPACE_SEED + '  - surface: ok\n    definition: fine\n    colour: blue\n');
    const refused = await cli(['validate'], ws.root);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/team_domain\.yaml:16:5 error glossary\.unknown-key Unknown key `colour` in entry 4: .* Spec Kitty refuses the whole file; spec-glossary reads the rest \(the key is ignored\)\./);
  });

  test('a glossary file read with its invalid UTF-8 replaced is a warning (exit 0); one left out, binary, an error (exit 1); each named once', async () => {
    ws = blockedWorkspace();
    writeFileSync(ws.path('.kittify/glossaries/team_domain.yaml'), Buffer.concat([Buffer.from(TEAM_WORKSPACE_SEED), Buffer.from('  - surface: caf'), Buffer.from([0xe9]), Buffer.from('\n    definition: latin-1 bytes\n')]));
    const warned = await cli(['validate', '--no-health'], ws.root);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain('.kittify/glossaries/team_domain.yaml warning file.unreadable is not valid UTF-8 (first invalid byte at line');
    writeFileSync(ws.path('.kittify/glossaries/audience_domain.yaml'), Buffer.from([0, 1, 2, 0xff]));
    const refused = await cli(['validate', '--no-health'], ws.root);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('.kittify/glossaries/audience_domain.yaml error file.unreadable looks binary (it contains NUL bytes); it was skipped');
  });

  test('config.yaml that is not YAML, and a meta.json that is not JSON, are errors', async () => {
    ws = blockedWorkspace({ '.kittify/config.yaml': 'glossary: [unclosed\n', 'kitty-specs/041-demo/meta.json': '{"mission_id": ' });
    const result = await cli(['validate'], ws.root);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/\.kittify\/config\.yaml:\d+:\d+ error config\.parse-error/);
    expect(result.stdout).toContain('kitty-specs/041-demo/meta.json error meta.parse-error not valid JSON');
  });

  test("a mission's meta.json whose glossary.strictness is no strictness: a warning naming that file, from validate and from check", async () => {
    ws = blockedWorkspace({ 'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: '041-demo', glossary: { strictness: 'bogus' } }) });
    const said = 'kitty-specs/041-demo/meta.json warning config.invalid-strictness glossary.strictness "bogus" is not off, medium or max; the mission\'s documents are checked at medium';
    const result = await cli(['validate', '--no-health'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(said);
    const check = await cli(['check'], ws.root);
    expect(check.stderr).toContain('kitty-specs/041-demo/meta.json warning file glossary.strictness "bogus" is not off, medium or max');
  });

  test('a glossary file or config spelt .yml is never read: a warning with the name to give it', async () => {
    ws = blockedWorkspace();
    renameSync(ws.path('.kittify/glossaries/team_domain.yaml'), ws.path('.kittify/glossaries/team_domain.yml'));
    writeFileSync(ws.path('.kittify/config.yml'), 'glossary:\n  strictness: max\n');
    const result = await cli(['validate', '--no-health'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('.kittify/glossaries/team_domain.yml warning file.misnamed is not read: glossary files end in .yaml, as Spec Kitty reads them; rename it to team_domain.yaml');
    expect(result.stdout).toContain('.kittify/config.yml warning file.misnamed is not read: glossary files end in .yaml, as Spec Kitty reads them; rename it to config.yaml');
    expect((await cli(['check'], ws.root)).stderr).toContain('.kittify/glossaries/team_domain.yml warning file is not read');
  });

  test('usage: not a workspace, or too many folders → exit 2', async () => {
    ws = blockedWorkspace();
    expect(await cli(['validate'], '/')).toMatchObject({ status: 2, stderr: expect.stringContaining('no Spec Kitty workspace') });
    expect((await cli(['validate', 'a', 'b'], ws.root)).status).toBe(2);
    expect((await cli(['validate', 'no-such-dir'], ws.root)).status).toBe(2);
  });
});
