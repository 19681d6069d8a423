import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { skCheckpoint, skTime } from '../fixtures/events/specKitty';
import { blockedWorkspace, cli, HAS_SCRIPT, logPath, MISSION, ptyCli, readLog, SPEC, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

/** A blocked check with --emit-events; returns the checkpoint's retry token. */
async function blockedCheck(args: string[] = [], mission = MISSION): Promise<string> {
  expect((await cli(['check', '--emit-events', ...args], ws.root)).status).toBe(1);
  const checkpoint = readLog(ws, mission).find((l) => l.event['event_type'] === 'StepCheckpointed')!.event;
  return checkpoint['retry_token'] as string;
}

describe('spec-glossary resume', () => {
  test('unchanged inputs: still blocked (exit 1) until resolved, then the gate passes (exit 0); nothing is written', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    const before = readLog(ws).length;
    const still = await cli(['resume', '--retry-token', token], ws.root);
    expect(still.status).toBe(1);
    expect(still.stderr).toContain(`Resuming step 'spec' of mission ${MISSION} (${SPEC}) from checkpoint ${token} at pre_generation_gate, strictness medium.`);
    expect(still.stdout).toContain('Still blocked by 1 conflict: workspace (ambiguous, high).');
    expect(still.stdout).toContain(`Resolve with: spec-glossary resolve workspace --mission ${MISSION} --sense N, then resume again.`);
    expect(still.stderr).not.toContain('Inputs changed');

    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws.root)).status).toBe(0);
    const passed = await cli(['resume', '--retry-token', token], ws.root);
    expect(passed.status).toBe(0);
    expect(passed.stdout).toContain(`Gate passed: step 'spec' of mission ${MISSION} is no longer blocked; generation may proceed.`);
    expect(readLog(ws).length).toBe(before + 1); // only the Resolved of `resolve`
  });

  test('strictness is restored from the checkpoint, not taken from the current config', async () => {
    ws = blockedWorkspace({ [SPEC]: 'The workspace is ready.\n' }); // medium severity: blocks only at max
    const token = await blockedCheck(['--strictness', 'max']);
    ws.write('.kittify/config.yaml', 'glossary:\n  strictness: off\n');
    const result = await cli(['resume', '--retry-token', token], ws.root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('strictness max');
  });

  test('a token whose checkpoint line cannot be read: "no checkpoint", and that a line could not be read', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    const log = ws.path(`.kittify/events/glossary/${MISSION}.events.jsonl`);
    writeFileSync(log, readFileSync(log, 'utf8').replace(/("event_type": "StepCheckpointed".*?"strictness": )"medium"/, '$1"bogus"'));
    const result = await cli(['resume', '--retry-token', token], ws.root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`no StepCheckpointed with retry token ${token} in the event logs in .kittify/events/glossary (1 line of the logs could not be read, perhaps its own: spec-glossary validate says why)`);
  });

  test('a term with no sense to pick is to be defined: the hint says --custom, naming each term', async () => {
    ws = blockedWorkspace({ [SPEC]: '---\ncritical_step: true\nglossary_check_strictness: max\n---\n# Demo\n\nThe QXZW runs, and the workspace too.\n' });
    const token = await blockedCheck();
    const still = await cli(['resume', '--retry-token', token], ws.root);
    expect(still.status).toBe(1);
    expect(still.stdout).toContain(
      `Resolve with: spec-glossary resolve qxzw --mission ${MISSION} --custom "definition"\n              spec-glossary resolve workspace --mission ${MISSION} --sense N, then resume again.\n`,
    );
  });

  test('run from outside the workspace: the printed commands carry --root and work as pasted; odd mission ids are quoted', async () => {
    ws = blockedWorkspace();
    const outside = path.dirname(ws.root);
    const folder = path.basename(ws.root);
    const checked = await cli(['check', '--emit-events', folder], outside);
    expect(checked.status).toBe(1);
    const hint = /resume with: (spec-glossary resume --retry-token \S+ --root \S+)$/m.exec(checked.stderr)?.[1];
    expect(hint).toBe(`spec-glossary resume --retry-token ${readLog(ws).find((l) => l.event['event_type'] === 'StepCheckpointed')!.event['retry_token']} --root ${folder}`);
    const resumed = await cli(hint!.split(' ').slice(1), outside);
    expect(resumed.status).toBe(1);
    expect(resumed.stdout).toContain(`Resolve with: spec-glossary resolve workspace --mission ${MISSION} --root ${folder} --sense N, then resume again.`);

    ws.remove();
    ws = blockedWorkspace({ [SPEC]: "---\nmission_id: it's a mission\ncritical_step: true\n---\n# Demo\n\nThe workspace is ready.\n" });
    const token = await blockedCheck([], 'it-s-a-mission');
    const still = await cli(['resume', '--retry-token', token], ws.root);
    expect(still.stdout).toContain(`Resolve with: spec-glossary resolve workspace --mission 'it'\\''s a mission' --sense N, then resume again.`);
  });

  test('changed inputs: without a terminal it fails (exit 2) unless --yes; --yes re-checks the new text', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    ws.write(SPEC, '---\ncritical_step: true\n---\n# Demo\n\nEach worktree is ready.\n');
    const refused = await cli(['resume', '--retry-token', token], ws.root);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Inputs changed since the checkpoint \(kitty-specs\/041-demo\/spec\.md: input_hash [0-9a-f]{12}… → [0-9a-f]{12}…\)\. Not resuming without confirmation: re-run with --yes/);
    const forced = await cli(['resume', '--retry-token', token, '--yes'], ws.root);
    expect(forced.status).toBe(0);
    expect(forced.stderr).toContain('Proceeding (--yes).');
  });

  test('changed inputs at a terminal: asks, and proceeds only on yes (stdin-driven)', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    ws.write(SPEC, '---\ncritical_step: true\n---\n# Demo\n\nThe workspace is ready, really.\n');
    const no = await cli(['resume', '--retry-token', token], ws.root, { input: 'n\n', env: { SPEC_GLOSSARY_FORCE_TTY: '1' } });
    expect(no.status).toBe(2);
    // The change is said once, then asked about; the refusal on a line of its own, as every error.
    expect(no.stderr.match(/Inputs changed since the checkpoint/g)).toHaveLength(1);
    expect(no.stderr).toContain('Proceed? [y/N] \nspec-glossary resume: not resumed: the inputs changed and the change was not confirmed.\n');
    const yes = await cli(['resume', '--retry-token', token], ws.root, { input: 'y\n', env: { SPEC_GLOSSARY_FORCE_TTY: '1' } });
    expect(yes.status).toBe(1); // proceeds; the new text is still blocked
    expect(yes.stdout).toContain('Still blocked by 1 conflict: workspace');
  });

  test.skipIf(!HAS_SCRIPT)('changed inputs in a real pseudo-terminal: the question, then yes', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    ws.write(SPEC, '---\ncritical_step: true\n---\n# Demo\n\nEach worktree is ready.\n');
    const session = ptyCli(['resume', '--retry-token', token], ws.root);
    await session.waitFor('Proceed? [y/N] ');
    session.type('y');
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain('Gate passed');
  });

  test('the glossary changed since the checkpoint: resume says so and uses the new one', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    ws.write('.kittify/glossaries/team_domain.yaml', 'terms:\n  - surface: workspace\n    definition: Git worktree directory for a work package\n    status: active\n');
    const result = await cli(['resume', '--retry-token', token], ws.root);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/Glossary scope team_domain changed since the checkpoint \(version [0-9a-f]{12} → [0-9a-f]{12}\)\./);
  });

  test('the document is found by mission and step; a checkpoint of `check --mission` too', async () => {
    ws = blockedWorkspace({ 'kitty-specs/041-demo/plan.md': '---\nstep_id: spec-x\ncritical_step: true\n---\nThe workspace.\n' });
    const token = await blockedCheck(['--mission', 'forced', 'kitty-specs/041-demo/plan.md'], 'forced');
    expect(readLog(ws, 'forced').find((l) => l.event['event_type'] === 'StepCheckpointed')!.event).toMatchObject({ mission_id: 'forced', step_id: 'spec-x' });
    const result = await cli(['resume', '--retry-token', token], ws.root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Resuming step 'spec-x' of mission forced (kitty-specs/041-demo/plan.md)");
  });

  test('unknown token, missing token, vanished document: exit 2', async () => {
    ws = blockedWorkspace();
    const token = await blockedCheck();
    expect(await cli(['resume', '--retry-token', '00000000-0000-4000-8000-000000000000'], ws.root)).toMatchObject({ status: 2, stderr: expect.stringContaining('no StepCheckpointed with retry token 00000000-0000-4000-8000-000000000000') });
    expect(await cli(['resume'], ws.root)).toMatchObject({ status: 2, stderr: expect.stringContaining('--retry-token T is required') });
    rmSync(ws.path(SPEC));
    expect(await cli(['resume', '--retry-token', token], ws.root)).toMatchObject({ status: 2, stderr: expect.stringContaining(`no document of the workspace is step 'spec' of mission ${MISSION} (gone, or named otherwise`) });
  });

  test("a checkpoint Spec Kitty wrote (step 'specify'): its mission's spec is resumed (its inputs hashed Spec Kitty's way: confirmed with --yes)", async () => {
    ws = blockedWorkspace();
    ws.write(`.kittify/events/glossary/${MISSION}.events.jsonl`, '');
    appendFileSync(logPath(ws), JSON.stringify(skCheckpoint({ mission: MISSION, run: 'sk-run', id: 1, t: skTime(1), token: 'sk-token-1' })) + '\n');
    const refused = await cli(['resume', '--retry-token', 'sk-token-1'], ws.root);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('Inputs changed since the checkpoint (kitty-specs/041-demo/spec.md');
    const resumed = await cli(['resume', '--retry-token', 'sk-token-1', '--yes'], ws.root);
    expect(resumed.stderr).toContain(`Resuming step 'specify' of mission ${MISSION} (kitty-specs/041-demo/spec.md) from checkpoint sk-token-1`);
    expect(resumed.status).toBe(1); // still blocked: the term is as ambiguous as when Spec Kitty stopped
  });
});
