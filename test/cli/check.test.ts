import { existsSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { tempWorkspace, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../helpers/workspace';
import { cli } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

function setup(extra: Record<string, string> = {}) {
  ws = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED,
    'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: '01KN2371WSJ7573ZG5D21WP82S' }),
    ...extra,
  });
  return ws;
}

const json = (stdout: string) => JSON.parse(stdout) as { documents: any[]; summary: any };

describe('spec-glossary check', () => {
  test('JSON output: shape, zero-based ranges, candidate order, mission and step', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': '# Demo\n\nThe workspace holds `workspace` code.\nOpen the work dir.\n' });
    const result = await cli(['check', '--format', 'json'], ws.root);
    expect(result.status).toBe(0);
    const out = json(result.stdout);
    expect(out.summary).toEqual({ documents: 1, blocked: 0, findings: 2, terms: 2 });
    const [doc] = out.documents;
    expect(doc).toMatchObject({ path: 'kitty-specs/041-demo/spec.md', mission_id: '01KN2371WSJ7573ZG5D21WP82S', step_id: 'spec', strictness: 'medium', blocked: false, overall_severity: 'medium', recommended_action: 'warn' });
    expect(doc.findings[0]).toEqual({
      term: 'workspace',
      conflict_type: 'ambiguous',
      severity: 'medium',
      confidence: 1,
      extraction_method: 'glossary_match',
      scope: 'team_domain',
      range: { start: { line: 2, character: 4 }, end: { line: 2, character: 13 } },
      candidate_senses: [
        { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
        { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 },
      ],
      message: "Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means.",
    });
    expect(doc.findings[1]).toMatchObject({ term: 'work dir', conflict_type: 'inconsistent', severity: 'low', range: { start: { line: 3, character: 9 }, end: { line: 3, character: 17 } } });
  });

  test('a critical step is blocked: exit 1, text output line per finding and a summary', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': '---\ncritical_step: true\n---\nThe workspace is ready.\n' });
    const result = await cli(['check', 'kitty-specs'], ws.root);
    expect(result.status).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe("kitty-specs/041-demo/spec.md:4:5 high ambiguous Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means.");
    expect(lines.at(-1)).toBe('1 document checked, 1 finding (1 high, 0 medium, 0 low), 1 blocked.');
  });

  test('strictness precedence: runtime > front matter > meta.json > config.yaml', async () => {
    setup({
      '.kittify/config.yaml': 'glossary:\n  strictness: off\n',
      'kitty-specs/041-demo/spec.md': '---\ncritical_step: true\n---\nThe workspace is ready.\n',
    });
    expect((await cli(['check'], ws.root)).status).toBe(0); // config: off
    ws.write('kitty-specs/041-demo/meta.json', JSON.stringify({ mission_id: 'm1', glossary: { strictness: 'medium' } }));
    expect((await cli(['check'], ws.root)).status).toBe(1); // mission overrides config
    ws.write('kitty-specs/041-demo/spec.md', '---\ncritical_step: true\nglossary_check_strictness: off\n---\nThe workspace is ready.\n');
    expect((await cli(['check'], ws.root)).status).toBe(0); // step overrides mission
    expect((await cli(['check', '--strictness', 'max'], ws.root)).status).toBe(1); // runtime overrides step
    const out = json((await cli(['check', '--strictness', 'max', '--format', 'json'], ws.root)).stdout);
    expect(out.documents[0]).toMatchObject({ strictness: 'max', blocked: true, mission_id: 'm1' });
  });

  test('max strictness blocks on any conflict; off never blocks', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': 'Open the work dir.\n' });
    expect((await cli(['check', '--strictness', 'max'], ws.root)).status).toBe(1);
    expect((await cli(['check', '--strictness', 'off'], ws.root)).status).toBe(0);
  });

  test('mission from front matter, then meta.json, then the kitty-specs folder, else default', async () => {
    setup({
      'kitty-specs/041-demo/spec.md': '---\nmission_id: from-front\nstep_id: plan-x\n---\nText.\n',
      'kitty-specs/042-nometa/plan.md': 'Text.\n',
      'docs/notes.md': 'Text.\n',
      'kitty-specs/041-demo/tasks.md': 'Text.\n',
    });
    const docs = json((await cli(['check', '--format', 'json'], ws.root)).stdout).documents;
    const byPath = Object.fromEntries(docs.map((d: any) => [d.path, [d.mission_id, d.step_id]]));
    expect(byPath).toEqual({
      'docs/notes.md': ['default', 'notes'],
      'kitty-specs/041-demo/spec.md': ['from-front', 'plan-x'],
      'kitty-specs/041-demo/tasks.md': ['01KN2371WSJ7573ZG5D21WP82S', 'tasks'],
      'kitty-specs/042-nometa/plan.md': ['042-nometa', 'plan'],
    });
  });

  test('without .kittify/, a spec under kitty-specs/<mission>/ is of that mission, from wherever it is checked, as in the editor', async () => {
    ws = tempWorkspace({
      'kitty-specs/002-merge/spec.md': '# Merge\n\nA zorblax. A zorblax. A zorblax.\n',
      'notes/loose.md': '# Notes\n\nA zorblax. A zorblax. A zorblax.\n',
    });
    for (const [cwd, args] of [
      [ws.root, ['check', '.', '--format', 'json']],
      [ws.path('kitty-specs'), ['check', '.', '--format', 'json']],
      [ws.path('kitty-specs/002-merge'), ['check', 'spec.md', '--format', 'json']],
    ] as const) {
      const result = await cli([...args], cwd);
      expect(result.stderr).toBe('');
      const missions = JSON.parse(result.stdout).documents.map((d: { path: string; mission_id: string }) => d.mission_id);
      expect(missions[0]).toBe('002-merge');
    }
    const all = JSON.parse((await cli(['check', '.', '--format', 'json'], ws.root)).stdout);
    expect(all.documents.map((d: { path: string; mission_id: string }) => [d.path, d.mission_id])).toEqual([
      ['kitty-specs/002-merge/spec.md', '002-merge'],
      ['notes/loose.md', 'default'],
    ]);
    // Still no Spec Kitty workspace: no event log is made for it, anywhere.
    const emitted = await cli(['check', 'kitty-specs/002-merge/spec.md', '--emit-events'], ws.root);
    expect(emitted.stderr).toContain('not inside a Spec Kitty workspace (no .kittify/ folder above it); no events recorded for it');
    expect(existsSync(ws.path('.kittify'))).toBe(false);
    expect(existsSync(ws.path('kitty-specs/002-merge/.kittify'))).toBe(false);
  });

  test('--mission overrides the mission of every document', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': 'Text.\n' });
    const docs = json((await cli(['check', '--format', 'json', '--mission', 'forced'], ws.root)).stdout).documents;
    expect(docs[0].mission_id).toBe('forced');
  });

  test('terms inside code, links and front matter are not reported', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': '---\ntitle: the workspace\n---\n```\nworkspace\n```\n\n    workspace\n\n`workspace` [x](https://e.com/workspace) <!-- workspace -->\n' });
    const out = json((await cli(['check', '--format', 'json'], ws.root)).stdout);
    expect(out.summary.findings).toBe(0);
    expect(out.documents[0].recommended_action).toBe('proceed');
  });

  test('the bundled core glossary is used when the workspace has none', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': 'Each work package moves through a lane.\n' });
    const out = json((await cli(['check', '--format', 'json', '--strictness', 'max'], ws.root)).stdout);
    expect(out.summary.findings).toBe(0);
  });

  test('usage errors exit 2 with a message', async () => {
    setup();
    for (const args of [['check', '--format', 'xml'], ['check', '--strictness', 'hard'], ['check', 'missing-folder'], ['check', '--bogus'], ['frobnicate']]) {
      const result = await cli(args, ws.root);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.length, args.join(' ')).toBeGreaterThan(0);
    }
  });

  test('seed problems are reported on stderr with their position; good entries still apply', async () => {
    setup({
      '.kittify/glossaries/team_domain.yaml': TEAM_WORKSPACE_SEED + '  - surface: Broken\n    definition: x\n',
      'kitty-specs/041-demo/spec.md': '---\ncritical_step: true\n---\nThe workspace.\n',
    });
    const result = await cli(['check'], ws.root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('.kittify/glossaries/team_domain.yaml:14:14 error glossary.surface-not-normalized');
  });

  test('check writes nothing without --emit-events', async () => {
    setup({ 'kitty-specs/041-demo/spec.md': '---\ncritical_step: true\n---\nThe workspace.\n' });
    await cli(['check'], ws.root);
    const { existsSync } = require('node:fs') as typeof import('node:fs');
    expect(existsSync(ws.path('.kittify/events'))).toBe(false);
  });
});
