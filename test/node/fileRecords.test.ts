/**
 * Senses recorded as a glossary file's entries (provenance source `glossary_file`, written when a
 * file is saved in an editor or a file's entry renamed) follow the file: every view of the
 * folder's glossary takes them only while the file holds the entry, and keeps them while the file
 * cannot be read and never could (docs/events.md, "A glossary file's records follow the file").
 * Senses recorded as a spec's vocabulary entries (`spec_domain_language`) are read from the spec
 * itself, never from their record.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkspace } from '../../server/src/node/workspace';
import { cli } from '../cli/support';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

const TEAM = '.kittify/glossaries/team_domain.yaml';
const LOG = '.kittify/events/glossary/m-a.events.jsonl';
const entry = (definition: string) => `terms:\n  - surface: gantry\n    definition: ${definition}\n    status: active\n`;
const record = (source: string, definition: string, n = 1) =>
  JSON.stringify({ event_id: `5c0e2a8e-3b1f-4c55-9d8e-2f4a6b7c8d9${n}`, event_type: 'GlossarySenseUpdated', lamport_clock: n, mission_id: 'm-a', run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f', timestamp: '2026-12-07T06:00:00+00:00', term_surface: 'gantry', scope: 'team_domain', update_type: 'create', actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, provenance: { actor_id: 'user:alice', source, timestamp: '2026-12-07T06:00:00+00:00' }, new_sense: { surface: 'gantry', scope: 'team_domain', definition, confidence: 1, status: 'active' } }) + '\n';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const definitions = async () => {
  const snapshot = await loadWorkspace(ws.root);
  return { checked: snapshot.glossaryFor('m-a').sensesOf('gantry').map((s) => s.definition), events: snapshot.eventSenses.map((s) => s.definition), logged: snapshot.replay.addedSenses.map((s) => s.definition) };
};

describe("a glossary file's records", () => {
  it('while the file holds the entry: the entry, once', async () => {
    ws = tempWorkspace({ [TEAM]: entry('What lifts the load'), [LOG]: record('glossary_file', 'What lifts the load') });
    expect(await definitions()).toEqual({ checked: ['What lifts the load'], events: ['What lifts the load'], logged: ['What lifts the load'] });
  });

  it('the entry edited or removed since: gone from every view, still in the log', async () => {
    ws = tempWorkspace({ [TEAM]: entry('What moves the load'), [LOG]: record('glossary_file', 'What lifts the load') });
    expect(await definitions()).toEqual({ checked: ['What moves the load'], events: [], logged: ['What lifts the load'] });
    ws.write(TEAM, 'terms: []\n');
    expect(await definitions()).toEqual({ checked: [], events: [], logged: ['What lifts the load'] });
  });

  it('a file that cannot be parsed or read, and never could here: its records stand in for it', async () => {
    ws = tempWorkspace({ [TEAM]: 'terms: [unclosed\n', [LOG]: record('glossary_file', 'What lifts the load') });
    expect((await definitions()).checked).toEqual(['What lifts the load']);
    ws.write(TEAM, `${entry('What moves the load')}\u0000`); // binary: not read at all
    expect((await definitions()).checked).toEqual(['What lifts the load']);
    rmSync(ws.path(TEAM)); // deleted: its scope and its records go
    expect((await definitions()).checked).toEqual([]);
  });

  it("replay lists what the log holds, a record marked as the file's", async () => {
    ws = tempWorkspace({ [TEAM]: entry('What moves the load'), [LOG]: record('glossary_file', 'What lifts the load') });
    const text = (await cli(['replay'], ws.root)).stdout;
    expect(text).toContain('[team_domain] gantry = "What lifts the load" (active, confidence 1), by user:alice [mission m-a], recorded from team_domain.yaml');
  });

  it('a sense of its own (a custom definition, user_clarification) stays beside the entry', async () => {
    ws = tempWorkspace({ [TEAM]: entry('What moves the load'), [LOG]: record('user_clarification', 'What lifts the load') });
    expect((await definitions()).checked.sort()).toEqual(['What lifts the load', 'What moves the load']);
  });
});

describe("a spec's entry records", () => {
  const SPEC = 'kitty-specs/001-a/spec.md';
  const META = 'kitty-specs/001-a/meta.json';
  const spec = (definition: string) => `# A\n\n## Domain Language\n\n- **Quarkle**: ${definition}\n\nThe quarkle moves.\n`;
  const missionRecord = (definition: string) => record('spec_domain_language', definition).replace(/"team_domain"/g, '"mission_local"').replace(/gantry/g, 'quarkle');
  const quarkles = async () => {
    const snapshot = await loadWorkspace(ws.root);
    return { checked: snapshot.glossaryFor('m-a').sensesOf('quarkle').map((s) => s.definition), events: snapshot.eventSenses.map((s) => s.definition), logged: snapshot.replay.addedSenses.map((s) => s.definition) };
  };
  const findings = async () => {
    const report = JSON.parse((await cli(['check', SPEC, '--format', 'json'], ws.root)).stdout) as { documents: { findings: { term: string; conflict_type: string }[] }[] };
    return report.documents[0]!.findings.map((f) => `${f.term} ${f.conflict_type}`);
  };

  it('no view takes the record: the spec is read instead, so an entry edited or removed takes it along; replay still lists it', async () => {
    ws = tempWorkspace({ [META]: JSON.stringify({ mission_id: 'm-a', mission_slug: '001-a' }), [SPEC]: spec('What moves the load'), [LOG]: missionRecord('What lifts the load') });
    expect(await quarkles()).toEqual({ checked: [], events: [], logged: ['What lifts the load'] });
    expect((await cli(['replay'], ws.root)).stdout).toContain(`[mission_local] quarkle = "What lifts the load" (active, confidence 1), by user:alice [mission m-a], recorded from the mission spec's own vocabulary`);
    // The spec's own entry resolves the term, whatever the record said; removed, nothing does.
    expect(await findings()).toEqual([]);
    ws.write(SPEC, '# A\n\nThe quarkle moves. The quarkle stops. The quarkle waits.\n');
    expect(await findings()).toContain('quarkle unknown');
  });

  it('a record of the same entry written as a sense of its own (before the source existed) still counts as one', async () => {
    ws = tempWorkspace({ [META]: JSON.stringify({ mission_id: 'm-a', mission_slug: '001-a' }), [SPEC]: '# A\n\nThe quarkle moves. The quarkle stops. The quarkle waits.\n', [LOG]: missionRecord('What lifts the load').replace('spec_domain_language', 'user_clarification') });
    expect((await quarkles()).checked).toEqual(['What lifts the load']);
    expect(await findings()).toEqual([]);
  });
});
