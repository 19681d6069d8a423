import path from 'node:path';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import { blockedWorkspace, cli, cliProcessAsync, logPath, MISSION, readLog, SPEC, types, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const GIT = { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 };
const VSCODE = { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 };
const USER = process.env['USER'] || require('node:os').userInfo().username;

describe('blocked → resolve → clean', () => {
  test('check (exit 1) → resolve workspace --sense 1 → check (exit 0); the log holds exactly the expected lines', async () => {
    ws = blockedWorkspace();
    const blocked = await cli(['check', '--emit-events'], ws.root);
    expect(blocked.status).toBe(1);
    expect(blocked.stdout).toContain(`${SPEC}:6:5 high ambiguous Ambiguous term 'workspace'`);
    const requested = readLog(ws).at(-1)!.event;
    expect(requested['event_type']).toBe('GlossaryClarificationRequested');

    const resolved = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws.root);
    expect(resolved.status).toBe(0);
    expect(resolved.stdout).toContain(`'workspace' now means "Git worktree directory for a work package" (team_domain, sense 1 of 2) in mission ${MISSION}.`);
    expect(resolved.stdout).toContain(`Closed clarification ${requested['conflict_id']}.`);
    expect(resolved.stdout).toContain(`Recorded GlossaryClarificationResolved in .kittify/events/glossary/${MISSION}.events.jsonl.`);

    const clean = await cli(['check'], ws.root);
    expect(clean.status).toBe(0);
    expect(clean.stdout.trim()).toBe('1 document checked, 0 findings (0 high, 0 medium, 0 low), 0 blocked.');

    const lines = readLog(ws);
    expect(types(lines)).toEqual([
      'GlossaryScopeActivated',
      'GlossaryScopeActivated',
      'TermCandidateObserved',
      'SemanticCheckEvaluated',
      'StepCheckpointed',
      'GenerationBlockedBySemanticConflict',
      'GlossaryClarificationRequested',
      'GlossaryClarificationResolved',
    ]);
    const last = lines.at(-1)!.event;
    const { event_id, timestamp, run_id, provenance, ...rest } = last;
    expect(rest).toEqual({
      event_type: 'GlossaryClarificationResolved',
      lamport_clock: 8,
      mission_id: MISSION,
      conflict_id: requested['conflict_id'],
      term_surface: 'workspace',
      selected_sense: GIT,
      actor: { actor_id: `user:${USER}`, actor_type: 'human', display_name: USER },
      resolution_mode: 'async',
    });
    expect(provenance).toEqual({ source: 'user_clarification', timestamp: expect.any(String), actor_id: `user:${USER}` });
    expect(run_id).toMatch(/^cli-[0-9a-f-]{36}$/);
    expect(run_id).not.toBe(requested['run_id']); // a new invocation, a new run
    expect(event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test("--mission by the mission's folder name (as check prints it): recorded for the id its meta.json gives, and said so", async () => {
    ws = blockedWorkspace();
    const resolved = await cli(['resolve', 'workspace', '--mission', '041-demo', '--sense', '1'], ws.root);
    expect(resolved.status).toBe(0);
    expect(resolved.stderr).toBe(`--mission 041-demo: the mission in kitty-specs/041-demo/ is ${MISSION} (its meta.json).\n`);
    expect(resolved.stdout).toContain(`Recorded GlossaryClarificationResolved in .kittify/events/glossary/${MISSION}.events.jsonl.`);
    expect((await cli(['check'], ws.root)).status).toBe(0);
    const replayed = JSON.parse((await cli(['replay', '--mission', '041-demo', '--json'], ws.root)).stdout);
    expect(replayed).toMatchObject({ mission_id: MISSION, pins: [{ term: 'workspace' }] });
    // A name that is no folder: taken as the id, recorded, and the name questioned (a typo?).
    const other = await cli(['resolve', 'workspace', '--mission', '041-dmeo', '--sense', '2'], ws.root);
    expect(other.status).toBe(0);
    expect(other.stdout).toContain('Recorded GlossaryClarificationResolved in .kittify/events/glossary/041-dmeo.events.jsonl.');
    expect(other.stderr).toBe("warning: nothing here names mission 041-dmeo (no kitty-specs/041-dmeo/, no meta.json giving it, no event log before this one): check the name; check prints each spec's mission.\n");
    // Once its log exists, it is a mission: no warning.
    expect((await cli(['resolve', 'workspace', '--mission', '041-dmeo', '--sense', '1'], ws.root)).stderr).toBe('');
    // As a shell completes a folder, with its slash.
    expect((await cli(['replay', '--mission', '041-demo/', '--json'], ws.root)).stdout).toContain(`"mission_id": "${MISSION}"`);
  });

  test("--mission naming a folder whose name is another mission's id stays that mission's: a decision never lands in another log", async () => {
    ws = blockedWorkspace({ 'kitty-specs/042-beta/meta.json': JSON.stringify({ mission_id: '041-demo' }), 'kitty-specs/042-beta/spec.md': '# Beta\n\nText.\n' });
    const resolved = await cli(['resolve', 'workspace', '--mission', '041-demo', '--sense', '1'], ws.root);
    expect(resolved.status).toBe(0);
    expect(resolved.stderr).toBe('');
    expect(resolved.stdout).toContain('Recorded GlossaryClarificationResolved in .kittify/events/glossary/041-demo.events.jsonl.');
  });

  test('--mission when kitty-specs/ is no folder: the name is the id', async () => {
    ws = blockedWorkspace();
    rmSync(ws.path('kitty-specs'), { recursive: true });
    writeFileSync(ws.path('kitty-specs'), 'not a folder\n');
    const replayed = await cli(['replay', '--mission', 'foo'], ws.root);
    expect(replayed.status).toBe(0);
    expect(replayed.stderr).toBe('');
  });

  test('replay --json shows the pin; the text form names it too', async () => {
    ws = blockedWorkspace();
    expect((await cli(['resolve', 'Workspaces', '--mission', MISSION, '--sense', '2'], ws.root)).status).toBe(0); // normalized
    const json = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(json.mission_id).toBe(MISSION);
    expect(json.pins).toHaveLength(1);
    expect(json.pins[0]).toMatchObject({ mission_id: MISSION, term: 'workspace', selected_sense: VSCODE, actor_id: `user:${USER}` });
    expect(json.open_clarifications).toEqual([]);
    const text = await cli(['replay', '--mission', MISSION], ws.root);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('Pins (1):\n  workspace = "VS Code workspace configuration file" (team_domain, confidence 0.7)');
    // Another mission is not affected by the pin.
    expect(JSON.parse((await cli(['replay', '--mission', 'other', '--json'], ws.root)).stdout).pins).toEqual([]);
    expect((await cli(['check', '--mission', 'other'], ws.root)).status).toBe(1);
  });

  test('--custom adds a sense (team_domain by default) that then resolves the term', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const conflictId = readLog(ws).at(-1)!.event['conflict_id'];
    const result = await cli(['resolve', 'workspace', '--mission', MISSION, '--custom', 'The folder a mission works in'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`'workspace' now means "The folder a mission works in" (new sense in team_domain)`);
    const [updated, resolved] = readLog(ws).slice(-2).map((l) => l.event);
    expect(updated).toMatchObject({
      event_type: 'GlossarySenseUpdated',
      term_surface: 'workspace',
      scope: 'team_domain',
      new_sense: { surface: 'workspace', scope: 'team_domain', definition: 'The folder a mission works in', confidence: 1, status: 'active' },
      update_type: 'create',
      actor: { actor_id: `user:${USER}`, actor_type: 'human' },
      provenance: { source: 'user_clarification' },
    });
    expect(resolved).toMatchObject({
      event_type: 'GlossaryClarificationResolved',
      conflict_id: conflictId,
      selected_sense: { surface: 'workspace', scope: 'team_domain', definition: 'The folder a mission works in', confidence: 1 },
      resolution_mode: 'async',
    });
    expect(readFileSync(logPath(ws), 'utf8')).toContain('"confidence": 1.0, "definition": "The folder a mission works in"');
    expect((await cli(['check'], ws.root)).status).toBe(0);
    const json = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(json.senses.team_domain).toMatchObject([{ surface: 'workspace', definition: 'The folder a mission works in', status: 'active', confidence: 1 }]);
    expect(json.pins[0].selected_sense.definition).toBe('The folder a mission works in');
    // The new sense is now one of the numbered candidates (confidence 1.0 ranks first).
    const list = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '9'], ws.root);
    expect(list.stderr).toContain('  1. [team_domain] The folder a mission works in (confidence: 1)');
  });

  test('--custom on an unknown term with --scope mission_local', async () => {
    ws = blockedWorkspace({ [SPEC]: '---\ncritical_step: true\n---\nThe "frobnicator" is ready.\n' });
    expect((await cli(['check', '--strictness', 'max'], ws.root)).status).toBe(1);
    expect(await cli(['resolve', 'frobnicator', '--mission', MISSION, '--sense', '1'], ws.root)).toMatchObject({ status: 2, stderr: expect.stringContaining("'frobnicator' has no sense in any glossary scope to pick from; define one with --custom") });
    expect((await cli(['resolve', 'frobnicator', '--mission', MISSION, '--custom', 'A device that frobs widgets', '--scope', 'mission_local'], ws.root)).status).toBe(0);
    expect(readLog(ws).at(-2)!.event).toMatchObject({ scope: 'mission_local', new_sense: { scope: 'mission_local', surface: 'frobnicator' } });
    expect((await cli(['check', '--strictness', 'max'], ws.root)).status).toBe(0);
  });

  test('--sense out of range or not a number: exit 2 with the numbered candidates', async () => {
    ws = blockedWorkspace();
    for (const n of ['3', '0', 'two']) {
      const result = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', n], ws.root);
      expect(result.status, n).toBe(2);
      expect(result.stderr).toContain("Candidate senses of 'workspace' (team_domain):\n  1. [team_domain] Git worktree directory for a work package (confidence: 0.9)\n  2. [team_domain] VS Code workspace configuration file (confidence: 0.7)");
    }
    expect(readLog(ws)).toEqual([]);
  });

  test('a term that already resolves can still be pinned to one of its senses', async () => {
    ws = blockedWorkspace();
    expect((await cli(['resolve', 'worktree', '--mission', MISSION, '--sense', '1'], ws.root)).status).toBe(0);
    expect(readLog(ws)[0]!.event['selected_sense']).toMatchObject({ surface: 'worktree', definition: 'A git worktree checked out for one work package', confidence: 1 });
  });

  test('a plural names the term the check records ("Scenarios" for scenario, "Cafés" for café): the decision closes its clarification', async () => {
    const senses = (surface: string) => `  - surface: ${surface}\n    definition: The first sense of ${surface}\n    status: active\n  - surface: ${surface}\n    definition: The second sense of ${surface}\n    status: active\n`;
    ws = blockedWorkspace({
      '.kittify/glossaries/team_domain.yaml': `terms:\n${senses('scenario')}${senses('café')}`,
      [SPEC]: '---\ncritical_step: true\n---\n# Demo\n\nThe Scenarios of the Cafés.\n',
    });
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    for (const written of ['Scenarios', 'Cafés']) {
      const resolved = await cli(['resolve', written, '--mission', MISSION, '--sense', '2'], ws.root);
      expect(resolved.status, resolved.stderr).toBe(0);
      expect(resolved.stdout).toContain('Closed clarification');
    }
    expect(readLog(ws).slice(-2).map((l) => l.event['term_surface'])).toEqual(['scenario', 'café']);
    expect((await cli(['check'], ws.root)).status).toBe(0);
  });

  test('a torn line in the log is skipped with a warning, as check says it; the decision is recorded', async () => {
    ws = blockedWorkspace();
    mkdirSync(path.dirname(logPath(ws)), { recursive: true });
    writeFileSync(logPath(ws), '{"event_type": "GlossaryClarificationResol\n');
    const result = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^\\.kittify/events/glossary/${MISSION}\\.events\\.jsonl:1:1 warning events\\.`, 'm'));
    const parsed = parseEventLog(readFileSync(logPath(ws), 'utf8'), 'log');
    expect(parsed.events.map((e) => e.event_type)).toEqual(['GlossaryClarificationResolved']);
    expect(parsed.problems).toHaveLength(1); // the torn line, kept as it was
  });

  test('usage errors exit 2 with a message and write nothing', async () => {
    ws = blockedWorkspace();
    const cases: string[][] = [
      ['resolve', 'workspace', '--sense', '1'], // no mission
      ['resolve', '--mission', MISSION, '--sense', '1'], // no term
      ['resolve', 'workspace', '--mission', MISSION], // neither --sense nor --custom
      ['resolve', 'workspace', '--mission', MISSION, '--sense', '1', '--custom', 'x'],
      ['resolve', 'workspace', '--mission', MISSION, '--custom', '   '],
      ['resolve', 'workspace', '--mission', MISSION, '--custom', 'TBD'], // a placeholder (SPEC §3) resolves nothing
      ['resolve', 'workspace', '--mission', MISSION, '--custom', 'TODO: define workspace'],
      ['resolve', 'workspace', '--mission', MISSION, '--custom', 'x', '--scope', 'global'],
      ['resolve', 'workspace', '--mission', MISSION, '--sense', '1', '--scope', 'team_domain'],
      ['resolve', 'workspace', 'extra', '--mission', MISSION, '--sense', '1'],
      ['resolve', 'workspace', '--mission', MISSION, '--sense', '1', '--root', '/nonexistent-folder'],
      ['resolve', 'workspace', '--mission', MISSION, '--sense', '1', '--bogus'],
    ];
    for (const args of cases) {
      const result = await cli(args, ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^spec-glossary resolve: \S/);
      expect(result.stderr, args.join(' ')).not.toContain('    at '); // a message, not a stack trace
    }
    expect(readLog(ws)).toEqual([]);
    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--custom', 'TBD'], ws.root)).stderr).toContain('--custom "TBD" is a placeholder, not a definition: write what the term means. Nothing was recorded.');
  });

  test('outside a workspace: exit 2', async () => {
    const result = await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], '/');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no Spec Kitty workspace at or above /');
  });

  test('concurrent resolves from several processes: every line valid, clocks unique, nothing lost', async () => {
    ws = blockedWorkspace();
    const N = 12;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => cliProcessAsync(i % 2 === 0 ? ['resolve', 'workspace', '--mission', MISSION, '--sense', String((i % 4) / 2 + 1)] : ['resolve', `term${i}`, '--mission', MISSION, '--custom', `definition ${i}`], ws.root)),
    );
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(logPath(ws), 'utf8');
    const parsed = parseEventLog(text, 'log');
    expect(parsed.problems).toEqual([]);
    expect(parsed.events).toHaveLength(N / 2 + N); // a Resolved per --sense, SenseUpdated + Resolved per --custom
    const clocks = parsed.events.map((e) => e.lamport_clock);
    expect(new Set(clocks).size).toBe(clocks.length);
    expect(new Set(parsed.events.map((e) => e.run_id)).size).toBe(N);
    // The two events of one --custom are adjacent (one append) and in order.
    for (const [i, e] of parsed.events.entries()) {
      if (e.event_type === 'GlossarySenseUpdated') expect(parsed.events[i + 1]).toMatchObject({ event_type: 'GlossaryClarificationResolved', run_id: e.run_id, lamport_clock: e.lamport_clock! + 1 });
    }
    expect((await cli(['validate'], ws.root)).status).toBe(0);
  });

  test('concurrent resolves of one open clarification: it is closed once (seed 002), every decision is still recorded', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const requested = readLog(ws).at(-1)!.event;
    expect(requested['event_type']).toBe('GlossaryClarificationRequested');
    const N = 6;
    const results = await Promise.all(Array.from({ length: N }, (_, i) => cliProcessAsync(['resolve', 'workspace', '--mission', MISSION, '--sense', String((i % 2) + 1)], ws.root)));
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    // One process says it closed the clarification; the others recorded their decision apart.
    expect(results.filter((r) => r.stdout.includes(`Closed clarification ${requested['conflict_id']}.`))).toHaveLength(1);
    const resolved = readLog(ws).map((l) => l.event).filter((e) => e['event_type'] === 'GlossaryClarificationResolved');
    expect(resolved).toHaveLength(N);
    expect(resolved.filter((e) => e['conflict_id'] === requested['conflict_id'])).toHaveLength(1);
    expect(new Set(resolved.map((e) => e['conflict_id'])).size).toBe(N);
    const validate = await cli(['validate'], ws.root);
    expect(validate.stdout + validate.stderr).not.toContain('was resolved by');
    expect(validate.status).toBe(0);
  });
});
