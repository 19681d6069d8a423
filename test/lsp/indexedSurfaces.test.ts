/**
 * What a glossary reload makes the term index read again (lsp/termIndexer.ts): the specs of the
 * missions whose own senses alone changed, or every spec.
 */
import { describe, expect, it } from 'vitest';
import { missionsChanged, type IndexedSurfaces } from '../../server/src/lsp/termIndexer';

const surfaces = (keys: string[], check = true): IndexedSurfaces => ({ check, keys: new Set(keys) });
const key = (mission: string, surface: string, synonyms = '') => `${mission}\u0000${surface}\u0000${synonyms}`;

describe('missionsChanged', () => {
  const team = [key('', 'workspace'), key('', 'worktree', 'work dir')];

  it('nothing changed: no mission, no spec', () => {
    expect(missionsChanged(surfaces(team), surfaces([...team].reverse()))).toEqual(new Set());
  });

  it("a mission's own sense added or removed: that mission", () => {
    const before = surfaces([...team, key('042-other', 'gantry')]);
    expect(missionsChanged(before, surfaces([...team, key('042-other', 'gantry'), key('043-more', 'crane')]))).toEqual(new Set(['043-more']));
    expect(missionsChanged(before, surfaces(team))).toEqual(new Set(['042-other']));
    expect(missionsChanged(surfaces([...team, key('042-other', 'gantry')]), surfaces([...team, key('043-more', 'gantry')]))).toEqual(new Set(['042-other', '043-more']));
  });

  it("a sense of every mission added, removed or given other synonyms, or checking switched: every spec", () => {
    expect(missionsChanged(surfaces(team), surfaces([...team, key('', 'crane')]))).toBeUndefined();
    expect(missionsChanged(surfaces(team), surfaces([team[0]!]))).toBeUndefined();
    expect(missionsChanged(surfaces(team), surfaces([team[0]!, key('', 'worktree', 'work folder')]))).toBeUndefined();
    expect(missionsChanged(surfaces([...team, key('042-other', 'gantry')]), surfaces([key('042-other', 'gantry')]))).toBeUndefined();
    expect(missionsChanged(surfaces(team), surfaces(team, false))).toBeUndefined();
  });
});
