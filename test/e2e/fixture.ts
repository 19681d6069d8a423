/**
 * What the editor tests share: the snippets of docs/editors.md (run verbatim), a Spec Kitty
 * workspace with an ambiguous term on a critical step, and a PATH on which
 * `spec-glossary-language-server` is the freshly built server — as `npm install -g .` would
 * leave it.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { REPO, tempWorkspace, WORKSPACE_SENSES_SEED, type TempWorkspace } from '../helpers/workspace';

export const SERVER_JS = path.join(REPO, 'dist', 'server.js');
export const EDITORS_DOC = path.join(REPO, 'docs', 'editors.md');

/** The fenced code block right after `<!-- tested: NAME -->` (or `<!-- snippet: NAME -->`). */
export function docSnippet(name: string): string {
  const doc = readFileSync(EDITORS_DOC, 'utf8');
  const match = new RegExp(`<!-- (?:tested|snippet): ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/editors.md has no snippet marked ${name}`);
  return match[1]! + '\n';
}

export const MISSION = '001-demo';
export const SPEC_PATH = `kitty-specs/${MISSION}/spec.md`;
export const EVENT_LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;
export const PICKED_TITLE = "Use 'workspace' = Git worktree directory for a work package (team_domain)";
export const OTHER_TITLE = "Use 'workspace' = VS Code workspace configuration file (team_domain)";
export const EXPECTED_MESSAGE = "Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means.";
/** Zero-based line and UTF-16 columns of the one flagged occurrence. */
export const EXPECTED_RANGE = { line: 5, start: 5, end: 14 };

export function specWorkspace(): TempWorkspace {
  return tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': WORKSPACE_SENSES_SEED,
    [SPEC_PATH]: `---
critical_step: true
---
# Checkout

Each workspace holds one checkout of the code.
`,
  });
}

/** The unknown acronym of `defineWorkspace`, and the definition the tests write for it. */
export const DEFINE_TERM = 'QZX';
export const DEFINE_DEFINITION = 'Quality zone exchange rules';
export const TEAM_SEED = '.kittify/glossaries/team_domain.yaml';

/** A workspace whose spec uses an acronym no glossary defines. */
export function defineWorkspace(): TempWorkspace {
  return tempWorkspace({
    [TEAM_SEED]: WORKSPACE_SENSES_SEED,
    [SPEC_PATH]: `# Checkout

The ${DEFINE_TERM} rules apply to the checkout.
`,
  });
}

/**
 * What defining the term by editing and saving the seed file records: the deferral, then the
 * sense as the file holds it and the answer to that deferral (checked in the mission's log).
 */
export function definedEvents(workspace: TempWorkspace): Record<string, any>[] {
  return readFileSync(workspace.path(EVENT_LOG), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** A bin folder holding `spec-glossary-language-server` → dist/server.js. */
export function serverOnPath(workspace: TempWorkspace): string {
  if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run \`npm run build\` first`);
  const bin = path.join(path.dirname(workspace.root), `${path.basename(workspace.root)}-bin`);
  mkdirSync(bin, { recursive: true });
  symlinkSync(SERVER_JS, path.join(bin, 'spec-glossary-language-server'));
  return bin;
}

export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

/** In CI a missing editor is a failure, not a skip. */
export const IN_CI = !!process.env['CI'] && process.env['CI'] !== 'false' && process.env['CI'] !== '0';
