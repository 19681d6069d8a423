/** `spec-glossary validate`: the glossary's health against the workspace's specs (core/health.ts). */

import { afterEach, describe, expect, test } from 'vitest';
import { cli } from './support';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const TEAM = `terms:
  - surface: workspace
    definition: Git worktree directory for a work package
    status: active
    synonyms_to_avoid: [work dir, lane]
    see_also:
      - term: worktree
      - term: ghost town
  - surface: work dir
    definition: Old name of the workspace
    status: deprecated
  - surface: lane
    definition: A column of the kanban board
    status: active
  - surface: quarkle
    definition: A thing no spec mentions
    status: active
  - surface: mission_id
    definition: The identifier of a mission
    status: active
`;
const MISSION_LOCAL = `terms:
  - surface: lane
    definition: A parallel track of work packages
    status: active
`;
const CORE = `terms:
  - surface: worktree
    definition: A git worktree
    status: active
  - surface: charter
    definition: The project charter
    status: active
`;

function healthWorkspace(): TempWorkspace {
  return tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM,
    '.kittify/glossaries/mission_local.yaml': MISSION_LOCAL,
    '.kittify/glossaries/spec_kitty_core.yaml': CORE,
    'kitty-specs/041-demo/spec.md': '# Demo\n\nThe workspace has a worktree.\n\nClean the work dir first.\n',
    'kitty-specs/042-other/spec.md': '# Other\n\nEach lane moves.\n\nThe Work-Dirs are old; set `mission_id` in meta.json.\n',
  });
}

const TEAM_FILE = '.kittify/glossaries/team_domain.yaml';

describe('spec-glossary validate: glossary health', () => {
  test('text: each finding at file:line:col of the entry, then a health summary; warnings alone exit 0', async () => {
    ws = healthWorkspace();
    const result = await cli(['validate'], ws.root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      `${TEAM_FILE}:5:35 warning glossary.synonym-is-term 'lane' is listed as a synonym to avoid for 'workspace' (team_domain), but it is itself a term of mission_local (${'.kittify/glossaries/mission_local.yaml'}:2), so specs that use it resolve to that term and are never told to use 'workspace'.`,
      `${TEAM_FILE}:8:15 warning glossary.see-also-missing 'workspace' has see_also 'ghost town', which no glossary defines.`,
      `${TEAM_FILE}:9:14 warning glossary.deprecated-in-use 'work dir' is deprecated in team_domain but still used in 2 specs, e.g. kitty-specs/041-demo/spec.md:5, kitty-specs/042-other/spec.md:5; each use is reported as inconsistent.`,
      `${TEAM_FILE}:12:14 information glossary.shadowed 'lane' is shadowed: mission_local defines it too (.kittify/glossaries/mission_local.yaml:2), and that scope decides first, so this team_domain sense is never used.`,
      `${TEAM_FILE}:15:14 information glossary.unused-term No spec uses 'quarkle' (2 specs read): remove the entry or deprecate it if the term is no longer meant to be used.`,
      '',
      'Glossary health (2 specs read): 3 warnings, 2 information, 1 hint (not listed; --format json lists them).',
      '3 glossary files, 0 event logs (0 valid events): 0 errors, 0 warnings.',
    ]);
  });

  test('json: every finding with its term, scope and uses (hints too); the same exit code', async () => {
    ws = healthWorkspace();
    const result = await cli(['validate', '--format', 'json'], ws.root);
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.summary).toEqual({ glossary_files: 3, event_logs: 0, events: 0, errors: 0, warnings: 0, health: { specs: 2, warnings: 3, information: 2, hints: 1 } });
    expect(json.problems.find((p: { code: string }) => p.code === 'glossary.deprecated-in-use')).toEqual({
      path: TEAM_FILE,
      line: 9,
      column: 14,
      severity: 'warning',
      code: 'glossary.deprecated-in-use',
      message: expect.stringContaining("'work dir' is deprecated in team_domain but still used in 2 specs"),
      term: 'work dir',
      scope: 'team_domain',
      uses: { specs: 2, occurrences: 2, examples: [{ path: 'kitty-specs/041-demo/spec.md', line: 5 }, { path: 'kitty-specs/042-other/spec.md', line: 5 }] },
    });
    // The core glossary's copy: its unused term is a hint, listed only here.
    expect(json.problems.filter((p: { severity: string }) => p.severity === 'hint')).toEqual([
      expect.objectContaining({ path: '.kittify/glossaries/spec_kitty_core.yaml', line: 5, code: 'glossary.unused-term', term: 'charter', scope: 'spec_kitty_core' }),
    ]);
    // `mission_id` is only written in code: in use, not unused.
    expect(json.problems.map((p: { term?: string }) => p.term)).not.toContain('mission_id');
  });

  test('paths are relative to the current directory when the workspace is given as an argument', async () => {
    ws = healthWorkspace();
    const result = await cli(['validate', ws.root, '--format', 'json'], ws.path('kitty-specs'));
    const deprecated = JSON.parse(result.stdout).problems.find((p: { code: string }) => p.code === 'glossary.deprecated-in-use');
    expect(deprecated.path).toBe(`../${TEAM_FILE}`);
    expect(deprecated.uses.examples[0]).toEqual({ path: '041-demo/spec.md', line: 5 });
  });

  test('health never changes the exit code; errors in the files still do (exit 1, JSON too)', async () => {
    ws = healthWorkspace();
    ws.write('.kittify/config.yaml', 'glossary: [unclosed\n');
    const text = await cli(['validate'], ws.root);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('Glossary health (2 specs read): 3 warnings');
    const json = await cli(['validate', '--format', 'json'], ws.root);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ errors: 1, health: { warnings: 3 } });
  });

  test('--no-health reads no spec and reports no health; a bad --format is a usage error', async () => {
    ws = healthWorkspace();
    const result = await cli(['validate', '--no-health', '--format', 'json'], ws.root);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ problems: [], summary: { glossary_files: 3, event_logs: 0, events: 0, errors: 0, warnings: 0, health: null } });
    expect(await cli(['validate', '--format', 'sarif'], ws.root)).toMatchObject({ status: 2, stderr: expect.stringContaining('--format must be text or json') });
  });

  test("a term a mission defines in its spec's Domain Language counts: a see_also to it is not missing, and the team's entry is not unused", async () => {
    ws = healthWorkspace();
    ws.write('kitty-specs/041-demo/spec.md', '# Demo\n\nThe workspace has a worktree.\n\nClean the work dir first.\n\n## Domain Language\n\n| Term | Definition |\n|---|---|\n| Ghost town | A place no spec visits |\n| Quarkle | Named here, used nowhere |\n');
    const json = JSON.parse((await cli(['validate', '--format', 'json'], ws.root)).stdout);
    const codes = json.problems.map((p: { code: string; term?: string }) => `${p.code} ${p.term}`);
    expect(codes).not.toContain('glossary.see-also-missing workspace');
    // The mission names the team's term in its own vocabulary: the term matters to it.
    expect(codes).not.toContain('glossary.unused-term quarkle');
    expect(codes).toContain('glossary.deprecated-in-use work dir');
  });

  test('with the glossary matcher switched off, term use is not judged; the other rules still are', async () => {
    ws = healthWorkspace();
    ws.write('.kittify/config.yaml', 'glossary:\n  disabled_extractors: [glossary_match]\n');
    const result = await cli(['validate'], ws.root);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain('glossary.unused-term');
    expect(result.stdout).not.toContain('glossary.deprecated-in-use');
    expect(result.stdout).toContain('glossary.see-also-missing');
    expect(result.stdout).toContain('Glossary health (term use not looked at: glossary_match is switched off): 2 warnings, 1 information.');
  });
});
