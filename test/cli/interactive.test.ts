import { afterEach, describe, expect, test } from 'vitest';
import { blockedWorkspace, cli, HAS_SCRIPT, MISSION, ptyCli, readLog, SPEC, types, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const FORCE_TTY = { SPEC_GLOSSARY_FORCE_TTY: '1' };
const MANY = '---\ncritical_step: true\n---\n# Demo\n\nThe zorblax feeds the zorblax; open the work dir.\nThe workspace holds a zorblax and a "frobnicator".\n';

describe('check --interactive through a real pseudo-terminal', () => {
  test.skipIf(!HAS_SCRIPT)('picking a sense: the prompt shows term, context, scope and numbered candidates; exit per the re-check', async () => {
    ws = blockedWorkspace();
    const session = ptyCli(['check', '--interactive'], ws.root);
    await session.waitFor('> ');
    const screen = session.output();
    expect(screen).toContain('[1/1] High-severity conflict: "workspace" (ambiguous)');
    expect(screen).toContain('Term: workspace');
    expect(screen).toContain(`Context: ${SPEC}:6:5  "The workspace is ready."`);
    expect(screen).toContain('Scope: team_domain (2 senses)');
    expect(screen).toContain('Candidate senses:\r\n  1. [team_domain] Git worktree directory for a work package (confidence: 0.9)\r\n  2. [team_domain] VS Code workspace configuration file (confidence: 0.7)');
    expect(screen).toContain('Select: 1-2 (candidate), c (custom sense), d (defer to async)');
    session.type('7'); // out of range: asked again
    await session.waitFor('Please answer a number from 1 to 2, c or d.');
    session.type('2');
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain('Resolved: workspace = VS Code workspace configuration file (team_domain)');
    expect(session.output()).toContain('1 document checked, 0 findings (0 high, 0 medium, 0 low), 0 blocked.');
    const lines = readLog(ws);
    expect(types(lines)).toEqual(['GlossaryClarificationResolved']); // --interactive alone records decisions only
    expect(lines[0]!.event).toMatchObject({ term_surface: 'workspace', resolution_mode: 'interactive', selected_sense: { definition: 'VS Code workspace configuration file', confidence: 0.7 }, actor: { actor_type: 'human' } });
    expect((await cli(['check'], ws.root)).status).toBe(0);
  });

  test.skipIf(!HAS_SCRIPT)('a custom definition with --emit-events: pipeline events, then GlossarySenseUpdated + Resolved', async () => {
    ws = blockedWorkspace();
    const session = ptyCli(['check', '--interactive', '--emit-events'], ws.root);
    await session.waitFor('> ');
    session.type('c');
    await session.waitFor("Definition of 'workspace' (added to team_domain): ");
    session.type('The folder one mission works in');
    expect(await session.exit).toBe(0);
    const lines = readLog(ws);
    expect(types(lines)).toEqual([
      'GlossaryScopeActivated',
      'GlossaryScopeActivated',
      'TermCandidateObserved',
      'SemanticCheckEvaluated',
      'StepCheckpointed',
      'GenerationBlockedBySemanticConflict',
      'GlossarySenseUpdated',
      'GlossaryClarificationResolved',
    ]);
    const [updated, resolved] = lines.slice(-2).map((l) => l.event);
    expect(updated).toMatchObject({ scope: 'team_domain', update_type: 'create', new_sense: { surface: 'workspace', definition: 'The folder one mission works in', confidence: 1, status: 'active' } });
    expect(resolved).toMatchObject({ resolution_mode: 'interactive', selected_sense: { scope: 'team_domain', definition: 'The folder one mission works in', confidence: 1 } });
    expect(new Set(lines.map((l) => l.event['run_id'])).size).toBe(1);
    // Re-check passed, so no retry token is offered.
    expect(session.output()).not.toContain('resume with:');
  });
});

describe('check --interactive driven through stdin (SPEC_GLOSSARY_FORCE_TTY=1)', () => {
  test('defer: GlossaryClarificationRequested, still blocked (exit 1), open until resolved', async () => {
    ws = blockedWorkspace();
    const result = await cli(['check', '--interactive'], ws.root, { input: 'd\n', env: FORCE_TTY });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Deferred: 'workspace' awaits clarification.");
    const lines = readLog(ws);
    expect(types(lines)).toEqual(['GlossaryClarificationRequested']);
    expect(lines[0]!.event).toMatchObject({ term: 'workspace', urgency: 'high', step_id: 'spec', options: ['Git worktree directory for a work package', 'VS Code workspace configuration file'] });
    expect(JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout).open_clarifications).toHaveLength(1);
    // Answering later at the prompt closes the same conflict.
    expect((await cli(['check', '--interactive'], ws.root, { input: '1\n', env: FORCE_TTY })).status).toBe(0);
    const after = readLog(ws);
    expect(after[1]!.event).toMatchObject({ event_type: 'GlossaryClarificationResolved', conflict_id: lines[0]!.event['conflict_id'] });
    expect(JSON.parse((await cli(['replay', '--mission', MISSION, '--json'], ws.root)).stdout).open_clarifications).toEqual([]);
  });

  test('at most 3 conflicts, highest severity first (ties in document order); the rest deferred with --emit-events', async () => {
    ws = blockedWorkspace({ [SPEC]: MANY });
    const result = await cli(['check', '--interactive', '--emit-events', '--strictness', 'max'], ws.root, { input: 'd\nd\nd\n', env: FORCE_TTY });
    expect(result.status).toBe(1);
    const asked = [...result.stderr.matchAll(/\[(\d)\/3\] (\w+)-severity conflict: "([^"]+)"/g)].map((m) => [m[2], m[3]]);
    expect(asked).toEqual([
      ['High', 'workspace'],
      // (A word found by repetition alone is low: docs/configuration.md, "Severity".)
      ['Low', 'zorblax'],
      ['Low', 'work dir'],
    ]);
    expect(result.stderr).toContain('4 blocking conflicts; asking about the 3 most severe.');
    // Every blocking conflict ends up deferred: three at the prompt, "frobnicator" automatically.
    const requested = readLog(ws).filter((l) => l.event['event_type'] === 'GlossaryClarificationRequested').map((l) => l.event['term']);
    expect(requested.sort()).toEqual(['frobnicator', 'work dir', 'workspace', 'zorblax']);
  });

  test('end of input stops the prompt; unanswered conflicts are left as they are', async () => {
    ws = blockedWorkspace({ [SPEC]: MANY });
    const result = await cli(['check', '--interactive', '--strictness', 'max'], ws.root, { input: '1\n', env: FORCE_TTY });
    expect(result.status).toBe(1); // still blocked by the others
    expect(result.stderr).toContain('No more input; the remaining conflicts are left as they are.');
    expect(types(readLog(ws))).toEqual(['GlossaryClarificationResolved']);
    expect(result.stdout).not.toContain("'workspace'"); // pinned, so no longer reported
  });

  test('an unknown term offers only c and d', async () => {
    ws = blockedWorkspace({ [SPEC]: '---\ncritical_step: true\n---\nThe "frobnicator" is ready.\n' });
    const result = await cli(['check', '--interactive', '--strictness', 'max'], ws.root, { input: '1\nc\n\nTBD\nA device that frobs\n', env: FORCE_TTY });
    expect(result.stderr).toContain('Scope: none (not defined in any glossary scope)');
    expect(result.stderr).toContain('Select: c (custom sense), d (defer to async)');
    expect(result.stderr).toContain('Please answer c or d.');
    expect(result.stderr).toContain('The definition must not be blank.');
    expect(result.stderr).toContain('"TBD" is a placeholder, not a definition: write what the term means.');
    expect(result.status).toBe(0);
    expect(types(readLog(ws))).toEqual(['GlossarySenseUpdated', 'GlossaryClarificationResolved']);
  });

  test('not a terminal: no prompt; with --emit-events blocking conflicts are deferred', async () => {
    ws = blockedWorkspace();
    const plain = await cli(['check', '--interactive'], ws.root, { input: '1\n' });
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('--interactive needs a terminal on stdin and stdout; not prompting.');
    expect(plain.stderr).not.toContain('Select:');
    expect(readLog(ws)).toEqual([]);
    const deferred = await cli(['check', '--interactive', '--emit-events'], ws.root, { input: '1\n' });
    expect(deferred.status).toBe(1);
    expect(deferred.stderr).toContain('not prompting (blocking conflicts are deferred)');
    expect(types(readLog(ws)).at(-1)).toBe('GlossaryClarificationRequested');
  });

  test('nothing blocked: no prompt, nothing written', async () => {
    ws = blockedWorkspace({ [SPEC]: 'The workspace is ready.\n' }); // medium: warns, does not block
    const result = await cli(['check', '--interactive'], ws.root, { input: '', env: FORCE_TTY });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('Select:');
    expect(readLog(ws)).toEqual([]);
  });

  test('JSON output with --interactive stays one parseable object (prompts go to stderr)', async () => {
    ws = blockedWorkspace();
    const result = await cli(['check', '--interactive', '--format', 'json'], ws.root, { input: '1\n', env: FORCE_TTY });
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.summary).toEqual({ documents: 1, blocked: 0, findings: 0, terms: 0 });
  });
});
