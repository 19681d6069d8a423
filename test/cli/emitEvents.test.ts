import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { computeInputHash } from '../../server/src/core/hash';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { tempWorkspace } from '../helpers/workspace';
import { BLOCKED_SPEC, blockedWorkspace, cli, logPath, MISSION, readLog, SPEC, TEAM_WORKSPACE_SEED, types, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const sha12 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const WORKSPACE_SENSES = [
  { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
  { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 },
];

describe('check --emit-events', () => {
  test('a blocked step: the full event set, in pipeline order, in one append with one run id', async () => {
    ws = blockedWorkspace();
    const result = await cli(['check', '--emit-events'], ws.root);
    expect(result.status).toBe(1);
    const lines = readLog(ws);
    expect(types(lines)).toEqual([
      'GlossaryScopeActivated', // team_domain seed
      'GlossaryScopeActivated', // bundled spec_kitty_core
      'TermCandidateObserved',
      'SemanticCheckEvaluated',
      'StepCheckpointed',
      'GenerationBlockedBySemanticConflict',
      'GlossaryClarificationRequested',
    ]);
    const events = lines.map((l) => l.event);
    // Lamport clocks 1..n, every line carries mission_id and the same cli-<uuid4> run id.
    expect(events.map((e) => e['lamport_clock'])).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const runId = events[0]!['run_id'] as string;
    expect(runId).toMatch(/^cli-[0-9a-f-]{36}$/);
    expect(UUID.test(runId.slice(4))).toBe(true);
    for (const e of events) expect(e).toMatchObject({ mission_id: MISSION, run_id: runId });
    // One write: one timestamp for all lines (the store stamps a whole append at once).
    expect(new Set(events.map((e) => e['timestamp'])).size).toBe(1);

    const [teamScope, coreScope, candidate, evaluated, checkpoint, blocked, requested] = events;
    expect(teamScope).toMatchObject({ scope_id: 'team_domain', glossary_version_id: sha12(TEAM_WORKSPACE_SEED) });
    expect(coreScope).toMatchObject({ scope_id: 'spec_kitty_core' });
    expect(coreScope!['glossary_version_id']).toMatch(/^[0-9a-f]{12}$/);

    const conflict = { term: 'workspace', conflict_type: 'ambiguous', severity: 'high', confidence: 1, candidate_senses: WORKSPACE_SENSES, context: `${SPEC}:6:5` };
    expect(strip(candidate!)).toEqual({ event_type: 'TermCandidateObserved', term: 'workspace', source_step: 'spec', actor_id: 'service:spec-glossary', confidence: 1, extraction_method: 'glossary_match', context: `${SPEC}:6:5` });
    expect(strip(evaluated!)).toEqual({
      event_type: 'SemanticCheckEvaluated',
      step_id: 'spec',
      findings: [conflict],
      overall_severity: 'high',
      confidence: 1,
      effective_strictness: 'medium',
      recommended_action: 'block',
      blocked: true,
    });
    expect(strip(checkpoint!)).toEqual({
      event_type: 'StepCheckpointed',
      step_id: 'spec',
      strictness: 'medium',
      scope_refs: [
        { scope: 'team_domain', version_id: teamScope!['glossary_version_id'] },
        { scope: 'spec_kitty_core', version_id: coreScope!['glossary_version_id'] },
      ],
      input_hash: computeInputHash({ path: SPEC, text: BLOCKED_SPEC }),
      cursor: 'pre_generation_gate',
      retry_token: checkpoint!['retry_token'],
    });
    expect(checkpoint!['retry_token']).toMatch(UUID);
    expect(strip(blocked!)).toEqual({ event_type: 'GenerationBlockedBySemanticConflict', step_id: 'spec', conflicts: [conflict], strictness_mode: 'medium', effective_strictness: 'medium' });
    expect(strip(requested!)).toEqual({
      event_type: 'GlossaryClarificationRequested',
      question: "What does 'workspace' mean in this context?",
      term: 'workspace',
      options: WORKSPACE_SENSES.map((s) => s.definition),
      urgency: 'high',
      step_id: 'spec',
      conflict_id: requested!['conflict_id'],
    });
    expect(requested!['conflict_id']).toMatch(UUID);

    // The lines are written as SPEC §7 says: sorted keys, Python separators, floats as floats.
    for (const line of lines) expect(line.raw).toBe(serializeEvent(line.event));
    expect(lines[2]!.raw).toContain('"confidence": 1.0');

    // The retry token is printed for the user.
    expect(result.stderr).toContain(`resume with: spec-glossary resume --retry-token ${checkpoint!['retry_token']}`);
  });

  test('input_hash follows SPEC §7 (the given example hash) over {"path", "text"}', () => {
    expect(computeInputHash({ description: 'The workspace contains files' })).toBe('4765e44eb2155da88dcadd2849b2695a09a05ccf2a1eb9ac4a6adc5f1526de2e');
    const text = 'Ünïcode "quotes"\nand a tab\t.\n';
    const python = `{"path": "kitty-specs/x/spec.md", "text": ${JSON.stringify(text)}}`;
    expect(computeInputHash({ text, path: 'kitty-specs/x/spec.md' })).toBe(createHash('sha256').update(python, 'utf8').digest('hex'));
  });

  test('a clean step: scopes, candidates and the evaluation only, exit 0', async () => {
    ws = blockedWorkspace({ [SPEC]: '# Demo\n\nEach worktree is ready.\n' });
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(0);
    const events = readLog(ws).map((l) => l.event);
    expect(types(readLog(ws))).toEqual(['GlossaryScopeActivated', 'GlossaryScopeActivated', 'TermCandidateObserved', 'SemanticCheckEvaluated']);
    expect(events[3]).toMatchObject({ findings: [], overall_severity: 'low', recommended_action: 'proceed', blocked: false, confidence: 1 });
  });

  test('a warning that does not block is evaluated but neither checkpointed nor deferred', async () => {
    ws = blockedWorkspace({ [SPEC]: '# Demo\n\nThe workspace is ready.\n' }); // not critical: medium
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(0);
    const events = readLog(ws).map((l) => l.event);
    expect(types(readLog(ws)).slice(-1)).toEqual(['SemanticCheckEvaluated']);
    expect(events.at(-1)).toMatchObject({ overall_severity: 'medium', recommended_action: 'warn', blocked: false });
  });

  test('max strictness: every conflict blocks and is deferred (document order)', async () => {
    ws = blockedWorkspace({ [SPEC]: '# Demo\n\nOpen the work dir.\n\nThe workspace is ready.\n' });
    expect((await cli(['check', '--emit-events', '--strictness', 'max'], ws.root)).status).toBe(1);
    const events = readLog(ws).map((l) => l.event);
    const blocked = events.find((e) => e['event_type'] === 'GenerationBlockedBySemanticConflict')!;
    expect(blocked['conflicts'].map((c: any) => [c.term, c.severity])).toEqual([['work dir', 'low'], ['workspace', 'medium']]);
    expect(blocked).toMatchObject({ strictness_mode: 'medium', effective_strictness: 'max' });
    const requested = events.filter((e) => e['event_type'] === 'GlossaryClarificationRequested');
    expect(requested.map((e) => [e['term'], e['urgency'], e['options']])).toEqual([
      ['work dir', 'low', ['A git worktree checked out for one work package']],
      ['workspace', 'medium', WORKSPACE_SENSES.map((s) => s.definition)],
    ]);
  });

  test('documents of two missions: one log each; several documents of a mission share one append', async () => {
    ws = blockedWorkspace({
      'kitty-specs/041-demo/plan.md': '---\ncritical_step: true\n---\nThe workspace again.\n',
      'kitty-specs/042-other/spec.md': 'Each worktree is ready.\n',
    });
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const mine = readLog(ws);
    expect(types(mine).filter((t) => t === 'GlossaryScopeActivated')).toHaveLength(2); // once per mission and run
    const steps = mine.filter((l) => l.event['event_type'] === 'SemanticCheckEvaluated').map((l) => l.event['step_id']);
    expect(steps).toEqual(['plan', 'spec']);
    // One deferred clarification for the term in this mission, not one per document.
    expect(types(mine).filter((t) => t === 'GlossaryClarificationRequested')).toHaveLength(1);
    expect(types(mine).filter((t) => t === 'StepCheckpointed')).toHaveLength(2);
    const other = readLog(ws, '042-other');
    expect(types(other)).toEqual(['GlossaryScopeActivated', 'GlossaryScopeActivated', 'TermCandidateObserved', 'SemanticCheckEvaluated']);
  });

  test('a deferred conflict is open until it is resolved, and is not asked again meanwhile', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const open1 = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(open1.open_clarifications).toHaveLength(1);
    const conflictId = open1.open_clarifications[0].conflict_id;
    expect(open1.open_clarifications[0]).toMatchObject({ term: 'workspace', urgency: 'high', step_id: 'spec', options: WORKSPACE_SENSES.map((s) => s.definition) });

    // A second blocked run checkpoints again but does not re-ask an open question.
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    expect(types(readLog(ws)).filter((t) => t === 'GlossaryClarificationRequested')).toHaveLength(1);
    expect(JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout).open_clarifications.map((o: any) => o.conflict_id)).toEqual([conflictId]);

    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '2'], ws.root)).status).toBe(0);
    const after = JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout);
    expect(after.open_clarifications).toEqual([]);
    expect(after.pins[0]).toMatchObject({ term: 'workspace', conflict_id: conflictId, selected_sense: WORKSPACE_SENSES[1] });
  });

  test('without --emit-events or --interactive nothing is written; outside a workspace nothing is written', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check'], ws.root)).status).toBe(1);
    expect(existsSync(ws.path('.kittify/events'))).toBe(false);
    // A folder with no .kittify/ above it: checked, but no log is created there.
    const loose = tempWorkspace({ 'notes.md': '---\ncritical_step: true\n---\nThe "frobnicator" is ready.\n' });
    try {
      const result = await cli(['check', '--emit-events', '--strictness', 'max'], loose.root);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('notes.md: not inside a Spec Kitty workspace (no .kittify/ folder above it); no events recorded for it');
      expect(existsSync(loose.path('.kittify'))).toBe(false);
    } finally {
      loose.remove();
    }
  });

  test('the log stays valid, line by line, after many runs', async () => {
    ws = blockedWorkspace();
    for (let i = 0; i < 3; i++) await cli(['check', '--emit-events'], ws.root);
    const text = readFileSync(logPath(ws), 'utf8');
    const lines = readLog(ws);
    expect(lines.length).toBe(text.split('\n').length - 1);
    expect(lines.map((l) => l.event['lamport_clock'])).toEqual(lines.map((_, i) => i + 1));
    expect((await cli(['validate'], ws.root)).status).toBe(0);
  });
});

/** The event without the store-assigned and envelope fields. */
function strip(event: Record<string, unknown>): Record<string, unknown> {
  const { event_id, timestamp, lamport_clock, mission_id, run_id, ...rest } = event;
  return rest;
}
