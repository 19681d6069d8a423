/**
 * `check` and `candidates` with missions' own vocabularies (SPEC §3, §6, §8): two missions that
 * each define words in their spec, one plan checked alone, and the terms they define listed as
 * candidates with the definitions.
 */

import { afterEach, describe, expect, test } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { cli } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const SYNC_SPEC = `# Sync

The coordination branch receives every lane branch merge. The quarkle waits on the coordination branch.

## Domain Language

| Term | Meaning | Avoid |
|---|---|---|
| Coordination branch | The branch every lane merges into before the target branch | "integration branch" |
| Quarkle | A queued sync request | |
`;

const MERGE_SPEC = `# Merge

The coordination branch is rebased nightly.

### Key Entities

- **Coordination branch**: the shared branch the merge train rebases
- **Blorf**: [What it represents, key attributes without implementation]
`;

function setup(): TempWorkspace {
  return (ws = tempWorkspace({
    '.kittify/config.yaml': 'glossary:\n  strictness: medium\n',
    'kitty-specs/001-sync/spec.md': SYNC_SPEC,
    'kitty-specs/001-sync/plan.md': '# Plan\n\nEach quarkle lands on the coordination branch, never on an integration branch of the lane branch.\n',
    'kitty-specs/002-merge/spec.md': MERGE_SPEC,
    'kitty-specs/003-docs/spec.md': '# Docs\n\nA quarkle, the quarkle, one more quarkle. The coordination branch.\n',
  }));
}

describe('check', () => {
  test("a plan checked alone takes its mission spec's words; the other missions know neither", async () => {
    setup();
    const result = await cli(['check', 'kitty-specs/001-sync/plan.md', 'kitty-specs/003-docs/spec.md', '--format', 'json'], ws.root);
    const documents = JSON.parse(result.stdout).documents as { path: string; findings: { term: string; conflict_type: string; candidate_senses: { scope: string; definition: string }[] }[] }[];
    expect(documents.map((d) => [d.path, d.findings.map((f) => `${f.conflict_type} ${f.term}`)])).toEqual([
      ['kitty-specs/001-sync/plan.md', ['inconsistent integration branch']],
      ['kitty-specs/003-docs/spec.md', ['unknown quarkle', 'unknown quarkle', 'unknown quarkle']],
    ]);
    expect(documents[0]!.findings[0]!.candidate_senses).toEqual([{ surface: 'coordination branch', scope: 'mission_local', definition: 'The branch every lane merges into before the target branch', confidence: 1 }]);
  });

  test("a template's placeholder entry is a warning on stderr that does not change the exit code", async () => {
    setup();
    const result = await cli(['check', 'kitty-specs/002-merge/spec.md'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("kitty-specs/002-merge/spec.md:8:1 warning domain.placeholder 'Blorf' in Key Entities has the template's placeholder definition \"[What it represents, key attributes without implementation]\"");
  });
});

describe('candidates', () => {
  test('terms missions define but no team or core glossary does, ranked by the specs using them, with each definition', async () => {
    setup();
    const result = await cli(['candidates', '--format', 'json'], ws.root);
    expect(result.status).toBe(0);
    const candidates = JSON.parse(result.stdout).candidates as { term: string; specs: number; occurrences: number; definitions: unknown[] }[];
    expect(candidates.find((c) => c.term === 'coordination branch')).toEqual({
      term: 'coordination branch',
      specs: 4,
      occurrences: 7, // five uses and the two missions' entries
      examples: [
        { path: 'kitty-specs/001-sync/spec.md', line: 3 },
        { path: 'kitty-specs/001-sync/plan.md', line: 3 },
        { path: 'kitty-specs/002-merge/spec.md', line: 3 },
      ],
      definitions: [
        { mission: '001-sync', path: 'kitty-specs/001-sync/spec.md', line: 9, definition: 'The branch every lane merges into before the target branch' },
        { mission: '002-merge', path: 'kitty-specs/002-merge/spec.md', line: 7, definition: 'the shared branch the merge train rebases' },
      ],
    });
    expect(candidates.find((c) => c.term === 'quarkle')).toMatchObject({ specs: 3, definitions: [{ mission: '001-sync', line: 10, definition: 'A queued sync request' }] });
    // A placeholder entry defines nothing: no definition to promote.
    expect(candidates.find((c) => c.term === 'blorf')).toBeUndefined();
    const text = (await cli(['candidates'], ws.root)).stdout;
    expect(text).toContain('defined by 002-merge (kitty-specs/002-merge/spec.md:7): the shared branch the merge train rebases');
  });
});
