/**
 * A decision whose event names no scope (Spec Kitty's CLI answers a request with a candidate built
 * from its options: `"scope": "unknown"`, confidence 0.5) pins the sense of that definition as the
 * glossary holds it: its scope and confidence, wherever it comes from (a seed file, the bundled
 * core glossary). Replay alone, which knows only the logs, guesses team_domain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkspace } from '../../server/src/node/workspace';
import { skResolvedByCli, skTime } from '../fixtures/events/specKitty';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

const MISSION = 'm-a';
const LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;
const CORE = '.kittify/glossaries/spec_kitty_core.yaml';
const answer = (definition: string) => JSON.stringify(skResolvedByCli({ t: skTime(5), conflict: 'c-gantry', term: 'gantry', sense: { surface: 'gantry', scope: 'unknown', definition, confidence: 0.5 } })) + '\n';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('a pin whose event names no scope', () => {
  it('takes the scope and confidence of the glossary sense with its definition (here the core one)', async () => {
    ws = tempWorkspace({
      [CORE]: 'terms:\n  - surface: gantry\n    definition: What lifts the load\n    status: active\n    confidence: 0.85\n',
      '.kittify/glossaries/team_domain.yaml': 'terms:\n  - surface: gantry\n    definition: A crane on rails\n    status: active\n',
      [LOG]: answer('What lifts the load'),
    });
    const snapshot = await loadWorkspace(ws.root);
    expect(snapshot.replay.pins[0]).toMatchObject({ sense: { scope: 'team_domain', confidence: 0.5 }, scopeGuessed: true });
    expect(snapshot.pinsFor(MISSION).get('gantry')!.sense).toEqual({ surface: 'gantry', scope: 'spec_kitty_core', definition: 'What lifts the load', confidence: 0.85 });
  });

  it('keeps the guess when no sense of the glossary has that definition', async () => {
    ws = tempWorkspace({ [LOG]: answer('Something only the answer says') });
    const snapshot = await loadWorkspace(ws.root);
    expect(snapshot.pinsFor(MISSION).get('gantry')!.sense).toEqual({ surface: 'gantry', scope: 'team_domain', definition: 'Something only the answer says', confidence: 0.5 });
  });
});
