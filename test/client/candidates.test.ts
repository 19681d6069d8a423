import { describe, expect, it } from 'vitest';
import { candidatePicks, promoteChoice } from '../../client/src/candidatePicks';
import type { CandidatesResult } from '../../server/src/shared/protocol';

const example = (path: string, line: number) => ({ path, line, uri: `file:///ws/${path}`, missionId: 'm' });

describe('"Show Glossary Candidates" quick pick items', () => {
  it('one per candidate in the server order: term, documents and uses, where it is used or who defines it', () => {
    const result: CandidatesResult = {
      ok: true,
      message: '2 glossary candidates in 9 documents.',
      workspaces: [
        {
          workspaceUri: 'file:///ws',
          documents: 9,
          candidates: [
            { term: 'quarkle', specs: 7, occurrences: 20, examples: [example('a.md', 3), example('b.md', 9)], definitions: [] },
            { term: 'zorblax', specs: 1, occurrences: 3, examples: [example('c.md', 1)], definitions: [{ mission: '012-sync', path: 'c.md', line: 40, definition: 'A sync daemon' }] },
          ],
        },
      ],
    };
    expect(candidatePicks(result).map(({ label, description, detail }) => ({ label, description, detail }))).toEqual([
      { label: 'quarkle', description: '7 documents · 20×', detail: 'a.md:3, b.md:9' },
      { label: 'zorblax', description: '1 document · 3×', detail: 'Defined by 012-sync · c.md:1' },
    ]);
  });

  it('names the folder when the workspace has several', () => {
    const folder = (name: string) => ({ workspaceUri: `file:///${name}`, documents: 1, candidates: [{ term: 'quarkle', specs: 1, occurrences: 3, examples: [example('a.md', 1)], definitions: [] }] });
    const picks = candidatePicks({ ok: true, message: '', workspaces: [folder('front'), folder('back%20end')] });
    expect(picks.map((p) => p.description)).toEqual(['1 document · 3× · front', '1 document · 3× · back end']);
  });

  it("offers to promote a term missions define, with the first mission's definition, on that mission's spec", () => {
    const candidate = { term: 'zorblax', specs: 1, occurrences: 3, examples: [example('c.md', 1)], definitions: [{ mission: '012-sync', path: 'kitty-specs/012 sync/spec.md', line: 40, definition: 'A sync daemon' }] };
    expect(promoteChoice({ candidate, workspaceUri: 'file:///ws/' })).toEqual({
      title: `Promote 'zorblax' to the team glossary: "A sync daemon" (012-sync)`,
      args: { uri: 'file:///ws/kitty-specs/012%20sync/spec.md', term: 'zorblax' },
    });
    expect(promoteChoice({ candidate: { ...candidate, definitions: [] }, workspaceUri: 'file:///ws' })).toBeUndefined();
  });
});
