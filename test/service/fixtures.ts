/**
 * Temporary workspaces for the service and protocol tests: a `.kittify/` with a team glossary in
 * which `workspace` has two active senses, `worktree` has `work dir` as a synonym to avoid, and
 * a critical spec that uses all three plus the unknown acronym QZX.
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { URI } from 'vscode-uri';
import { analyzeDocument } from '../../server/src/node/analyzer';
import { engine } from '../helpers/core';
import { loadWorkspace } from '../../server/src/node/workspace';
import { checkedDocumentOf, runtimeSettings } from '../../server/src/lsp/analysis';
import type { CheckedDocument } from '../../server/src/service/types';
import { DEFAULT_SETTINGS, type SpecGlossarySettings } from '../../server/src/shared/protocol';

export const MISSION = '01KN2371WSJ7573ZG5D21WP82S';
export const SPEC = 'kitty-specs/041-mission/spec.md';
export const TEAM = '.kittify/glossaries/team_domain.yaml';
export const MISSION_GLOSSARY = '.kittify/glossaries/mission_local.yaml';
export const CONFIG = '.kittify/config.yaml';

export const TEAM_YAML = `# Team glossary used by the tests.
terms:
  - surface: workspace
    definition: Git worktree directory for a work package
    confidence: 0.9
    status: active

  - surface: workspace
    definition: VS Code workspace configuration file
    confidence: 0.7
    status: active

  - surface: worktree
    definition: Extra Git working directory checked out on its own branch
    confidence: 0.95
    status: active
    synonyms_to_avoid: [work dir]
`;

export const SPEC_MD = `---
critical_step: true
---
# Checkout spec

Each work package is built in its own workspace.
Never share a work dir between work packages.
The QZX rules apply to the workspace too.
`;

/** Zero-based ranges of the findings in SPEC_MD. */
export const RANGES = {
  workspace1: { start: { line: 5, character: 38 }, end: { line: 5, character: 47 } },
  workDir: { start: { line: 6, character: 14 }, end: { line: 6, character: 22 } },
  qzx: { start: { line: 7, character: 4 }, end: { line: 7, character: 7 } },
  workspace2: { start: { line: 7, character: 27 }, end: { line: 7, character: 36 } },
};

export const MESSAGES = {
  ambiguous: "Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means.",
  workDir: "Inconsistent term 'work dir': a synonym to avoid; use 'worktree' (team_domain, 1 sense).",
  qzx: "Unknown term 'QZX': not defined in any glossary scope (0 senses).",
};

export const DEFAULT_FILES: Record<string, string> = {
  [TEAM]: TEAM_YAML,
  [CONFIG]: 'glossary:\n  strictness: medium\n',
  'kitty-specs/041-mission/meta.json': JSON.stringify({ mission_id: MISSION }),
  [SPEC]: SPEC_MD,
};

export interface TempWorkspace {
  root: string;
  file(relative: string): string;
  uri(relative: string): string;
  write(relative: string, text: string): void;
  remove(): void;
}

/** A fresh workspace folder under the OS temp dir; `files` overrides (null removes) the defaults. */
export function makeWorkspace(files: Record<string, string | null> = {}, base?: string): TempWorkspace {
  const parent = base ?? realpathSync(mkdtempSync(path.join(tmpdir(), 'sg-lsp-')));
  const root = base ? path.join(base, `ws-${Math.random().toString(36).slice(2, 8)}`) : path.join(parent, 'ws');
  mkdirSync(root, { recursive: true });
  const write = (relative: string, text: string) => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  for (const [relative, text] of Object.entries({ ...DEFAULT_FILES, ...files })) if (text !== null) write(relative, text);
  return {
    root,
    file: (relative) => path.join(root, relative),
    uri: (relative) => URI.file(path.join(root, relative)).toString(),
    write,
    remove: () => rmSync(base ? root : parent, { recursive: true, force: true }),
  };
}

export function settingsWith(overrides: Partial<SpecGlossarySettings> = {}): SpecGlossarySettings {
  return { ...DEFAULT_SETTINGS, ...overrides };
}

/** Loads the workspace from disk and checks one document, as the server does. */
export async function checkDocument(ws: TempWorkspace, relative = SPEC, text?: string, settings = settingsWith()): Promise<CheckedDocument> {
  const snapshot = await loadWorkspace(ws.root, { maxFileBytes: settings.maxFileSize });
  const file = ws.file(relative);
  const source = text ?? (await import('node:fs')).readFileSync(file, 'utf8');
  const analyzed = analyzeDocument(engine, snapshot, { path: file, text: source, settings: runtimeSettings(settings) });
  return checkedDocumentOf(ws.uri(relative), ws.root, snapshot, analyzed);
}
