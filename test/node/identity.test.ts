/** A document's mission (node/identity.ts): front matter, then the nearest meta.json, then its folder under kitty-specs/. */
import { afterEach, describe, expect, it } from 'vitest';
import { documentIdentity } from '../../server/src/node/identity';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('documentIdentity', () => {
  it("names the mission's folder (its slug), unless its meta.json says it holds another mission than the front matter's", () => {
    ws = tempWorkspace({ 'kitty-specs/002-clean-mission/meta.json': JSON.stringify({ mission_id: '01JQ4A2M' }), 'kitty-specs/003-bare/plan.md': '' });
    const odd = ws.path('kitty-specs/002-clean-mission/odd.md');
    expect(documentIdentity(ws.root, odd, undefined)).toMatchObject({ missionId: '01JQ4A2M', stepId: 'odd', missionSlug: '002-clean-mission' });
    expect(documentIdentity(ws.root, odd, { mission_id: '01JQ4A2M' })).toMatchObject({ missionId: '01JQ4A2M', missionSlug: '002-clean-mission' });
    // Front matter naming another mission: the folder's name is not that mission's.
    const other = documentIdentity(ws.root, odd, { mission_id: 'team/alpha beta' });
    expect(other.missionId).toBe('team/alpha beta');
    expect(other.missionSlug).toBeUndefined();
    // Without a meta.json the folder's name is the mission's, whatever id the front matter gives it.
    expect(documentIdentity(ws.root, ws.path('kitty-specs/003-bare/plan.md'), undefined)).toMatchObject({ missionId: '003-bare', missionSlug: '003-bare' });
    expect(documentIdentity(ws.root, ws.path('kitty-specs/003-bare/plan.md'), { mission_id: '01JQ5ULID' })).toMatchObject({ missionId: '01JQ5ULID', missionSlug: '003-bare' });
  });
});
