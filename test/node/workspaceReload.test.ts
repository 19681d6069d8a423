/**
 * A folder loaded again (`loadWorkspace` with the previous snapshot, as the language server
 * reloads): seed files whose bytes did not change are not parsed again, and the glossaries that
 * are the same are taken over — the base one when only a mission's own senses changed, a
 * mission's own when its senses did not — while any change builds them anew.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkspace } from '../../server/src/node/workspace';
import { TEAM_WORKSPACE_SEED, tempWorkspace, type TempWorkspace } from '../helpers/workspace';

const TEAM = '.kittify/glossaries/team_domain.yaml';
const log = (mission: string) => `.kittify/events/glossary/${mission}.events.jsonl`;
const senseLine = (mission: string, surface: string, eventId: string) =>
  JSON.stringify({ event_id: eventId, event_type: 'GlossarySenseUpdated', lamport_clock: 1, mission_id: mission, run_id: 'lsp-2c9d1e0f-4b3a-4f8e-9c7d-6a5b4c3d2e1f', timestamp: '2026-12-07T06:00:00+00:00', term_surface: surface, scope: 'mission_local', update_type: 'create', actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' }, provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-12-07T06:00:00+00:00' }, new_sense: { surface, scope: 'mission_local', definition: `What ${mission} means by ${surface}`, confidence: 1, status: 'active' } }) + '\n';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('loadWorkspace with the previous snapshot', () => {
  it("a mission's log changed: the seeds and the base glossary are the previous ones, that mission's glossary is built anew, another mission's is kept", async () => {
    ws = tempWorkspace({ [TEAM]: TEAM_WORKSPACE_SEED, [log('m-a')]: senseLine('m-a', 'gantry', '5c0e2a8e-3b1f-4c55-9d8e-2f4a6b7c8d90'), [log('m-b')]: senseLine('m-b', 'crane', '6d1f3b9f-4c2a-4d66-8e9f-3a5b7c8d9e01') });
    const first = await loadWorkspace(ws.root);
    const [base, a, b] = [first.glossaryFor('m-none'), first.glossaryFor('m-a'), first.glossaryFor('m-b')];
    ws.write(log('m-a'), senseLine('m-a', 'gantry', '5c0e2a8e-3b1f-4c55-9d8e-2f4a6b7c8d90') + senseLine('m-a', 'hoist', '7e2a4c0a-5d3b-4e77-9fa0-4b6c8d9e0f12'));
    const second = await loadWorkspace(ws.root, { previous: first });
    expect(second.seeds.map((s) => s.seed)).toEqual(first.seeds.map((s) => s.seed));
    second.seeds.forEach((seed, i) => expect(seed, 'the same seed, not parsed again').toBe(first.seeds[i]));
    expect(second.glossaryFor('m-none')).toBe(base);
    expect(second.glossaryFor('m-b')).toBe(b);
    expect(second.glossaryFor('m-a')).not.toBe(a);
    expect(second.glossaryFor('m-a').senses.map((s) => s.surface)).toContain('hoist');
    expect(second.viewOf('m-b')).toBe(first.viewOf('m-b'));
    expect(second.viewOf('m-a')).not.toBe(first.viewOf('m-a'));
  });

  it('a seed file changed: parsed again, and every glossary built anew', async () => {
    ws = tempWorkspace({ [TEAM]: TEAM_WORKSPACE_SEED, [log('m-b')]: senseLine('m-b', 'crane', '6d1f3b9f-4c2a-4d66-8e9f-3a5b7c8d9e01') });
    const first = await loadWorkspace(ws.root);
    const [base, b] = [first.glossaryFor('m-none'), first.glossaryFor('m-b')];
    ws.write(TEAM, `${TEAM_WORKSPACE_SEED}  - surface: hoist\n    definition: What lifts the load\n    confidence: 0.9\n    status: active\n`);
    const second = await loadWorkspace(ws.root, { previous: first });
    expect(second.seeds.find((s) => s.scope === 'team_domain')).not.toBe(first.seeds.find((s) => s.scope === 'team_domain'));
    expect(second.glossaryFor('m-none')).not.toBe(base);
    expect(second.glossaryFor('m-b')).not.toBe(b);
    expect(second.glossaryFor('m-none').senses.map((s) => s.surface)).toContain('hoist');
    expect(second.viewOf('m-b')).not.toBe(first.viewOf('m-b'));
  });

  it("only the glossaries of the missions asked about last are taken over (the term index's first build asks for every mission's)", async () => {
    const missions = Array.from({ length: 12 }, (_, i) => `m-${String(i).padStart(2, '0')}`);
    const files: Record<string, string> = { [TEAM]: TEAM_WORKSPACE_SEED };
    missions.forEach((m, i) => (files[log(m)] = senseLine(m, `term${i}`, `5c0e2a8e-3b1f-4c55-9d8e-2f4a6b7c8d${String(i).padStart(2, '0')}`)));
    ws = tempWorkspace(files);
    const first = await loadWorkspace(ws.root);
    const built = missions.map((m) => first.glossaryFor(m));
    first.glossaryFor('m-00'); // asked about again: among the last
    ws.write(log('m-11'), files[log('m-11')]! + senseLine('m-11', 'extra', '7e2a4c0a-5d3b-4e77-9fa0-4b6c8d9e0f12'));
    const second = await loadWorkspace(ws.root, { previous: first });
    const kept = missions.filter((m, i) => second.glossaryFor(m) === built[i]);
    // The eight asked for last (m-05 … m-11 and m-00 again), but for m-11, whose senses changed.
    expect(kept).toEqual(['m-00', 'm-05', 'm-06', 'm-07', 'm-08', 'm-09', 'm-10']);
  });
});
