/**
 * `check`'s text output in the user's words: the term as the spec writes it (QZX, not qzx) and
 * the mission by its folder name under kitty-specs/, with its id beside it when that differs.
 */
import { afterEach, expect, test } from 'vitest';
import { blockedWorkspace, cli, MISSION, SPEC, type TempWorkspace } from './support';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

test('names terms as written and missions by slug (id beside it)', async () => {
  ws = blockedWorkspace({ [SPEC]: '---\ncritical_step: true\n---\n# Demo\n\nThe Workspace holds the QZX rules.\n' });
  const result = await cli(['check'], ws.root);
  expect(result.status).toBe(1);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toContain("kitty-specs/041-demo/spec.md:6:5 high ambiguous Ambiguous term 'Workspace': 2 senses in team_domain; choose the one this mission means.");
  expect(lines).toContain("kitty-specs/041-demo/spec.md:6:25 low unknown Unknown term 'QZX': not defined in any glossary scope (0 senses).");
  expect(lines).toContain(`blocked: kitty-specs/041-demo/spec.md (mission 041-demo, id ${MISSION}, step spec, strictness medium)`);
});

test('a term written across a line break in a block quote or a hard break is named without the markers', async () => {
  ws = blockedWorkspace({ [SPEC]: '# Demo\n\n> Never use a work\n> dir for this.\n\nNor a work\\\ndir there.\n' });
  const messages = (await cli(['check'], ws.root)).stdout.split('\n').filter((l) => l.includes('synonym to avoid'));
  expect(messages.map((l) => l.replace(/^.*Inconsistent term ('[^']*').*$/, '$1'))).toEqual(["'work dir'", "'work dir'"]);
});
