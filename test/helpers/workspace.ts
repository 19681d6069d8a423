/** Temporary on-disk workspaces for CLI and server tests. */

import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

export interface TempWorkspace {
  root: string;
  write(relative: string, content: string): string;
  path(relative: string): string;
  remove(): void;
}

export function tempWorkspace(files: Record<string, string> = {}): TempWorkspace {
  const root = mkdtempSync(path.join(tmpdir(), 'spec-glossary-'));
  const workspace: TempWorkspace = {
    root,
    write(relative, content) {
      const full = path.join(root, relative);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    path: (relative) => path.join(root, relative),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) workspace.write(relative, content);
  return workspace;
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Two active senses of `workspace`: any use of it in prose is an ambiguous finding. */
export const WORKSPACE_SENSES_SEED = `terms:
  - surface: workspace
    definition: Git worktree directory for a work package
    confidence: 0.9
    status: active
  - surface: workspace
    definition: VS Code workspace configuration file
    confidence: 0.7
    status: active
`;

/** The two senses of `workspace`, and `worktree` with a synonym to avoid. */
export const TEAM_WORKSPACE_SEED = `${WORKSPACE_SENSES_SEED}  - surface: worktree
    definition: A git worktree checked out for one work package
    status: active
    synonyms_to_avoid: [work dir]
`;
