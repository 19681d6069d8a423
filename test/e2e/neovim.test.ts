/**
 * End to end in a real editor: headless Neovim configured with the Neovim 0.7 snippet of
 * docs/editors.md (verbatim) opens a spec whose term "workspace" has two active senses on a
 * critical step, gets the diagnostic, hovers it, picks a sense from the code-action menu, and
 * sees the diagnostic go away; the decision is in the mission's event log.
 *
 * Neovim missing: skipped locally with a message, a failure in CI (`CI` set).
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TEAM_WORKSPACE_SEED, tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { DEFINE_DEFINITION, DEFINE_TERM, defineWorkspace, definedEvents, docSnippet, EVENT_LOG, EXPECTED_MESSAGE, EXPECTED_RANGE, hasCommand, IN_CI, MISSION, OTHER_TITLE, PICKED_TITLE, serverOnPath, SPEC_PATH, specWorkspace, TEAM_SEED } from './fixture';

const here = path.dirname(fileURLToPath(import.meta.url));
const DRIVER = path.join(here, 'nvim', 'driver.lua');
const DEFINE_DRIVER = path.join(here, 'nvim', 'define.lua');
const RENAME_DRIVER = path.join(here, 'nvim', 'rename.lua');
const CONFIG_011 = path.join(here, 'nvim', 'config011.lua');
const HAS_NVIM = hasCommand('nvim');
/** [major, minor] of the installed Neovim. */
const NVIM_VERSION: [number, number] = (() => {
  const match = HAS_NVIM ? /NVIM v(\d+)\.(\d+)/.exec(spawnSync('nvim', ['--version'], { encoding: 'utf8' }).stdout ?? '') : null;
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
})();
const HAS_NVIM_011 = NVIM_VERSION[0] > 0 || NVIM_VERSION[1] >= 11;
const RUN_TIMEOUT_MS = 90_000;

if (!HAS_NVIM && !IN_CI) {
  console.warn('test/e2e/neovim.test.ts: skipped — `nvim` is not on PATH (install Neovim; in CI this is a failure).');
}

interface Recorded {
  nvim: { major: number; minor: number; patch: number };
  steps: string[];
  error?: string;
  file: string;
  filetype: string;
  diagnostics?: Array<{ lnum: number; col: number; end_lnum: number; end_col: number; severity: number; message: string; source: string; code: string | null }>;
  hover?: string;
  action_titles?: string[];
  diagnostics_after?: unknown[];
  outside_clients?: number;
}

interface NvimRun {
  code: number | null;
  output: string;
  recorded: Recorded | undefined;
  lspLog: string;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function isolatedEnv(home: string, bin: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    ...extra,
  };
}

/** A snippet as docs/editors.md has it, or with its settings table changed (`settings`). */
function snippetText(snippet: 'neovim-0.7' | 'neovim-0.11', settings?: string): string {
  const text = docSnippet(snippet);
  if (settings === undefined) return text;
  const documented = "settings = { specGlossary = { strictness = '', debounceMs = 50 } },";
  if (!text.includes(documented)) throw new Error(`the ${snippet} snippet no longer sets ${documented}`);
  return text.replace(documented, `settings = { specGlossary = ${settings} },`);
}

function runNeovim(workspace: TempWorkspace, bin: string, snippet: 'neovim-0.7' | 'neovim-0.11', driver = DRIVER, extra: Record<string, string> = {}, settings?: string): Promise<NvimRun> {
  const home = mkdtempSync(path.join(tmpdir(), 'spec-glossary-nvim-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const init = path.join(home, 'init.lua');
  writeFileSync(init, snippetText(snippet, settings));
  const out = path.join(home, 'result.json');
  const env = isolatedEnv(home, bin, { SG_E2E_OUT: out, SG_E2E_PICK: PICKED_TITLE, SG_E2E_TIMEOUT_MS: '20000', ...extra });
  const args = ['--headless', '-n', '-i', 'NONE', '-u', init, workspace.path(SPEC_PATH), '-c', `luafile ${driver}`];
  return new Promise((resolve, reject) => {
    const child = spawn('nvim', args, { cwd: workspace.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const recorded = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Recorded) : undefined;
      const logFile = [path.join(home, 'cache', 'nvim', 'lsp.log'), path.join(home, 'state', 'nvim', 'lsp.log')].find((f) => existsSync(f));
      resolve({ code, output, recorded, lspLog: logFile ? readFileSync(logFile, 'utf8') : '' });
    });
  });
}

describe.skipIf(!HAS_NVIM && !IN_CI)('Neovim (headless, configured from docs/editors.md)', () => {
  it('(0.7 snippet) shows the diagnostic, hovers it, applies "Use sense" and the diagnostic is gone; the event is logged', async () => {
    expect(HAS_NVIM, 'Neovim (`nvim`) must be installed in CI: .ci/run installs it from Debian').toBe(true);
    await quickFixSession('neovim-0.7');
  });

  it("(0.7 snippet) its settings reach the server (Neovim 0.7 does not declare workspace/configuration): an ambiguity made a warning shows as one", async () => {
    expect(HAS_NVIM, 'Neovim (`nvim`) must be installed in CI: .ci/run installs it from Debian').toBe(true);
    await quickFixSession('neovim-0.7', { settings: "{ severityOverrides = { ambiguous = 'warning' } }", severity: 2 });
  });

  it('(0.7 snippet) defers an unknown term, then defines it by editing and saving the glossary file: the diagnostic goes, the events are in the log', async () => {
    expect(HAS_NVIM, 'Neovim (`nvim`) must be installed in CI: .ci/run installs it from Debian').toBe(true);
    await defineSession('neovim-0.7');
  });

  it('(0.7 snippet) renames a term: the edit sits in buffers and nothing is recorded until :wall, which records the rename once', async () => {
    expect(HAS_NVIM, 'Neovim (`nvim`) must be installed in CI: .ci/run installs it from Debian').toBe(true);
    const workspace = tempWorkspace({
      [TEAM_SEED]: TEAM_WORKSPACE_SEED,
      [SPEC_PATH]: '# Checkout\n\nEach worktree holds one checkout of the code.\n',
      'kitty-specs/002-other/spec.md': '# Other\n\nWorktrees are cheap.\n',
    });
    const bin = serverOnPath(workspace);
    cleanups.push(() => workspace.remove(), () => rmSync(bin, { recursive: true, force: true }));
    const run = await runNeovim(workspace, bin, 'neovim-0.7', RENAME_DRIVER, { SG_E2E_SEED: workspace.path(TEAM_SEED), SG_E2E_LOG: workspace.path(EVENT_LOG), SG_E2E_NEW_NAME: 'sandbox' });
    const recorded = run.recorded as unknown as { steps: string[]; error?: string; spec_buffer?: string; log_before_save?: boolean } | undefined;
    const explain = `nvim exited with ${run.code}\n--- recorded ---\n${JSON.stringify(recorded, null, 2)}\n--- nvim output ---\n${run.output}\n--- lsp.log (tail) ---\n${run.lspLog.slice(-4000)}`;
    expect(recorded?.error, explain).toBeUndefined();
    expect(run.code, explain).toBe(0);
    expect(recorded!.spec_buffer).toBe('# Checkout\n\nEach sandbox holds one checkout of the code.');
    expect(recorded!.log_before_save).toBe(false);
    expect(readFileSync(workspace.path(TEAM_SEED), 'utf8')).toBe(TEAM_WORKSPACE_SEED.replace('surface: worktree', 'surface: sandbox'));
    expect(readFileSync(workspace.path('kitty-specs/002-other/spec.md'), 'utf8')).toBe('# Other\n\nSandboxes are cheap.\n');
    expect(definedEvents(workspace)).toMatchObject([
      { event_type: 'GlossarySenseUpdated', mission_id: MISSION, term_surface: 'sandbox', scope: 'team_domain', update_type: 'create', new_sense: { surface: 'sandbox', definition: 'A git worktree checked out for one work package', status: 'active', confidence: 1 } },
    ]);
  });

  it.skipIf(!HAS_NVIM_011)('(0.11 snippet, Neovim 0.11+ only) the same session with vim.lsp.config / vim.lsp.enable', async () => {
    await quickFixSession('neovim-0.11');
  });

  it('(0.11 snippet) loads and starts the server only for specs and seed glossaries, rooted at the workspace', async () => {
    const workspace = specWorkspace();
    workspace.write('.kittify/config.yaml', 'glossary:\n  strictness: medium\n');
    workspace.write('ci/pipeline.yaml', 'steps: []\n');
    const home = mkdtempSync(path.join(tmpdir(), 'spec-glossary-nvim-'));
    cleanups.push(() => workspace.remove(), () => rmSync(home, { recursive: true, force: true }));
    const snippet = path.join(home, 'spec_glossary.lua');
    writeFileSync(snippet, docSnippet('neovim-0.11'));
    // A markdown file outside every project (no .kittify/, kitty-specs/ or .git above it).
    const outside = path.join(home, 'notes', 'todo.md');
    mkdirSync(path.dirname(outside), { recursive: true });
    writeFileSync(outside, '# Notes\n\nThe QZX list.\n');
    const out = path.join(home, 'result.json');
    const env = isolatedEnv(home, home, {
      SG_E2E_OUT: out,
      SG_E2E_SNIPPET: snippet,
      SG_E2E_SPEC: workspace.path(SPEC_PATH),
      SG_E2E_SEED: workspace.path('.kittify/glossaries/team_domain.yaml'),
      SG_E2E_OTHER_YAML: workspace.path('ci/pipeline.yaml'),
      SG_E2E_OUTSIDE: outside,
    });
    const run = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', 'NONE', '-c', `luafile ${CONFIG_011}`], { cwd: workspace.root, env, encoding: 'utf8', timeout: 30_000 });
    expect(existsSync(out), `${run.stdout}\n${run.stderr}`).toBe(true);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    expect(result.error).toBeUndefined();
    if (!result.native) expect(result.enabled).toEqual(['spec_glossary']);
    expect(result.cmd).toEqual(['spec-glossary-language-server', '--stdio']);
    expect(result.filetypes).toEqual(['markdown', 'yaml']);
    expect(result.settings).toEqual({ specGlossary: { strictness: '', debounceMs: 50 } });
    expect(result.roots).toEqual({ spec: workspace.root, seed: workspace.root, other_yaml: null, outside: null });
  });
});

interface DefineRecorded {
  steps: string[];
  error?: string;
  messages: string[];
  diagnostics?: Array<{ lnum: number; col: number; end_lnum: number; end_col: number; severity: number; message: string; source: string; code: string | null }>;
  deferred?: Array<{ severity: number; message: string }>;
  define_titles?: string[];
  seed_text?: string;
  diagnostics_after?: unknown[];
}

async function defineSession(snippet: 'neovim-0.7' | 'neovim-0.11'): Promise<void> {
  const workspace = defineWorkspace();
  const bin = serverOnPath(workspace);
  cleanups.push(() => workspace.remove(), () => rmSync(bin, { recursive: true, force: true }));
  const run = await runNeovim(workspace, bin, snippet, DEFINE_DRIVER, { SG_E2E_SEED: workspace.path(TEAM_SEED), SG_E2E_DEFINITION: DEFINE_DEFINITION, SG_E2E_LOG: workspace.path(EVENT_LOG), SG_E2E_TERM: DEFINE_TERM });
  const recorded = run.recorded as unknown as DefineRecorded | undefined;
  const explain = `nvim exited with ${run.code}\n--- recorded ---\n${JSON.stringify(recorded, null, 2)}\n--- nvim output ---\n${run.output}\n--- lsp.log (tail) ---\n${run.lspLog.slice(-4000)}`;
  expect(recorded, explain).toBeDefined();
  expect(recorded!.error, explain).toBeUndefined();
  expect(run.code, explain).toBe(0);

  expect(recorded!.diagnostics).toEqual([{ lnum: 2, col: 4, end_lnum: 2, end_col: 7, severity: 3, code: 'unknown', source: 'spec-glossary', message: "Unknown term 'QZX': not defined in any glossary scope (0 senses)." }]);
  expect(recorded!.deferred![0]!.message).toMatch(/^Unknown term 'QZX': .* Deferred since \d{4}-\d\d-\d\d \d\d:\d\d UTC: a clarification is open for this mission\.$/);
  expect(recorded!.define_titles).toEqual(expect.arrayContaining(["Define 'QZX' in the mission glossary", "Define 'QZX' in the team glossary", "Ignore 'QZX' in this spec", "Ignore 'QZX' in this workspace"]));
  // Neovim 0.7 cannot show documents: the server said where the draft went.
  expect(recorded!.messages).toContainEqual('Added a draft entry for \'QZX\' to .kittify/glossaries/team_domain.yaml:11: replace "TODO: define QZX" with its definition and save the file (open .kittify/glossaries/team_domain.yaml at line 11). Saving records it in the event log.');
  expect(recorded!.seed_text).toContain(`  - surface: qzx\n    definition: ${DEFINE_DEFINITION}\n    status: draft`);
  expect(recorded!.diagnostics_after).toEqual([]);

  const events = definedEvents(workspace);
  expect(events.map((e) => e['event_type'])).toEqual(['GlossaryClarificationRequested', 'GlossarySenseUpdated', 'GlossaryClarificationResolved']);
  expect(events[1]).toMatchObject({ mission_id: MISSION, term_surface: 'qzx', scope: 'team_domain', update_type: 'create', new_sense: { surface: 'qzx', definition: DEFINE_DEFINITION, scope: 'team_domain', status: 'draft', confidence: 1 } });
  expect(events[2]).toMatchObject({ conflict_id: events[0]!['conflict_id'], term_surface: 'qzx', selected_sense: { definition: DEFINE_DEFINITION, scope: 'team_domain' } });
  expect(String(events[1]!['run_id'])).toMatch(/^lsp-[0-9a-f-]{36}$/);
}

/** `settings`: the snippet's settings table replaced by this one, under which the diagnostic has `severity`. */
async function quickFixSession(snippet: 'neovim-0.7' | 'neovim-0.11', changed?: { settings: string; severity: number }): Promise<void> {
  const workspace = specWorkspace();
  const bin = serverOnPath(workspace);
  cleanups.push(() => workspace.remove(), () => rmSync(bin, { recursive: true, force: true }));

  // (And a markdown file outside every project, opened after: no server for it.)
  const outside = path.join(mkdtempSync(path.join(tmpdir(), 'spec-glossary-notes-')), 'todo.md');
  cleanups.push(() => rmSync(path.dirname(outside), { recursive: true, force: true }));
  writeFileSync(outside, '# Notes\n\nThe QZX list.\n');
  const run = await runNeovim(workspace, bin, snippet, DRIVER, { SG_E2E_OUTSIDE: outside }, changed?.settings);
  const explain = `nvim exited with ${run.code}\n--- recorded ---\n${JSON.stringify(run.recorded, null, 2)}\n--- nvim output ---\n${run.output}\n--- lsp.log (tail) ---\n${run.lspLog.slice(-4000)}`;
  expect(run.recorded, explain).toBeDefined();
  const recorded = run.recorded!;
  expect(recorded.error, explain).toBeUndefined();
  expect(run.code, explain).toBe(0);

  expect(recorded.filetype).toBe('markdown');
  expect(recorded.diagnostics).toEqual([
    {
      lnum: EXPECTED_RANGE.line,
      col: EXPECTED_RANGE.start,
      end_lnum: EXPECTED_RANGE.line,
      end_col: EXPECTED_RANGE.end,
      severity: changed?.severity ?? 1, // vim.diagnostic.severity.ERROR: ambiguous on a critical step is high
      message: EXPECTED_MESSAGE,
      source: 'spec-glossary',
      code: 'ambiguous',
    },
  ]);
  expect(recorded.hover).toContain('Git worktree directory for a work package');
  expect(recorded.hover).toContain('VS Code workspace configuration file');
  expect(recorded.action_titles).toEqual(expect.arrayContaining([PICKED_TITLE, OTHER_TITLE, "Define 'workspace' in the mission glossary", "Defer 'workspace' for later clarification"]));
  expect(recorded.diagnostics_after).toEqual([]);
  expect(recorded.outside_clients).toBe(0);
  expect(existsSync(path.join(path.dirname(outside), '.kittify'))).toBe(false);
  expect(recorded.steps.at(-1)).toBe('done');

  const lines = readFileSync(workspace.path(EVENT_LOG), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  const resolved = lines.filter((event) => event['event_type'] === 'GlossaryClarificationResolved');
  expect(resolved).toHaveLength(1);
  expect(resolved[0]).toMatchObject({
    mission_id: MISSION,
    term_surface: 'workspace',
    resolution_mode: 'interactive',
    selected_sense: { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
  });
  expect(String(resolved[0]!['run_id'])).toMatch(/^lsp-[0-9a-f-]{36}$/);
}
