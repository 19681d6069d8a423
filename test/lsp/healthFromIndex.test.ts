/**
 * The server's glossary health reads the workspace's term index (lsp/glossaryHealth.ts
 * `IndexedUsage`): the same findings as `spec-glossary validate`, which checks the specs itself,
 * and the specs are read once for both the index and health — not a second time.
 */

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { cli } from '../cli/support';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { TestClient } from './client';

let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
  ws = undefined;
});

const CORPUS = '/work/shared/corpus/spec-kitty';
const CORE = '.kittify/glossaries/spec_kitty_core.yaml';
const TEAM = '.kittify/glossaries/team_domain.yaml';

/** The real specs (and their meta.json) and the real core glossary, as a workspace's files. */
function corpusFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(CORPUS, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(path.join(CORPUS, 'kitty-specs'));
  out[CORE] = readFileSync(path.join(CORPUS, CORE), 'utf8');
  return out;
}

const entry = (surface: string, extra = '', status = 'active') => `  - surface: ${surface}\n    definition: The ${surface} here\n    status: ${status}\n${extra}`;

/** A team glossary with every kind of finding: unused, only in code, deprecated in use, a synonym that is a term, a see_also to nothing, an alias's term. */
const TEAM_YAML = `terms:
${entry('quarkle')}${entry('mission_id')}${entry('work dir', '', 'deprecated')}${entry('workspace', '    synonyms_to_avoid: [lane]\n    see_also:\n      - term: ghost town\n')}${entry('lane')}${entry('zorbit')}${entry('ghost house')}`;

const EXTRA_SPECS: Record<string, string> = {
  'kitty-specs/900-extra/spec.md': '---\nglossary_aliases:\n  ZB: zorbit\n---\n# Extra\n\nEach ZB waits; set `mission_id` first. Clean the work dir.\n\n## Domain Language\n\n| Term | Definition |\n|---|---|\n| Ghost house | Named here only |\n',
  'kitty-specs/901-off/spec.md': '---\nglossary_check: false\n---\n# Off\n\nA quarkle and the work dir.\n',
};

type Finding = string;

/** Health findings as `code path:line:column term` (what both the editor and validate show). */
function fromDiagnostics(file: string, ds: readonly Diagnostic[]): Finding[] {
  return ds.filter((d) => String(d.code).startsWith('glossary.') && d.code !== 'glossary.parse-error').map((d) => `${String(d.code)} ${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
}

describe('glossary health from the term index', () => {
  it('gives the findings validate gives, on the real specs and core glossary with a team glossary of every kind of finding', async () => {
    ws = tempWorkspace({ ...corpusFiles(), ...EXTRA_SPECS, [TEAM]: TEAM_YAML });
    const json = JSON.parse((await cli(['validate', '--format', 'json'], ws.root)).stdout) as { problems: { code: string; path: string; line: number; column: number; message: string }[] };
    const expected = json.problems.filter((p) => p.code.startsWith('glossary.') && p.code !== 'glossary.parse-error').map((p) => `${p.code} ${p.path}:${p.line}:${p.column} ${p.message}`);
    // (The team file holds findings of every rule that reads uses or entries; the core copy's are hints.)
    expect(new Set(expected.filter((f) => f.split(' ')[1]!.startsWith(TEAM)).map((f) => f.split(' ')[0]))).toEqual(new Set(['glossary.unused-term', 'glossary.deprecated-in-use', 'glossary.synonym-is-term', 'glossary.see-also-missing']));

    client = await TestClient.start({ folders: [ws.root] });
    const root = ws;
    const uri = (relative: string) => URI.file(root.path(relative)).toString();
    client.open(uri('kitty-specs/900-extra/spec.md'), EXTRA_SPECS['kitty-specs/900-extra/spec.md']!);
    const team = await client.diagnostics(uri(TEAM), (ds) => fromDiagnostics(TEAM, ds).length > 0, 0, 'health on the team glossary');
    const core = await client.diagnostics(uri(CORE), (ds) => fromDiagnostics(CORE, ds).length > 0, 0, 'health on the core copy');
    expect([...fromDiagnostics(TEAM, team.diagnostics), ...fromDiagnostics(CORE, core.diagnostics)].sort()).toEqual([...expected].sort());
    // What the index had to record for these: an alias's use, a term only in code, a mission's own sense, a spec not checked.
    const unused = expected.filter((f) => f.startsWith('glossary.unused-term')).join('\n');
    expect(unused).not.toMatch(/'zorbit'|'mission_id'|'ghost house'/);
    // (10 real specs and the extra one: the spec with glossary_check: false is not read.)
    expect(unused).toContain("No spec uses 'quarkle' (11 specs read)");
  });

  it('reads each spec once: the index build is the only pass over the workspace (health adds none)', async () => {
    const root = '/mem/once';
    const specs = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`${root}/kitty-specs/04${i}-m/plan.md`, `# Plan ${i}\n\nThe workspace and the work dir.\n`]));
    const reads = new Map<string, number>();
    class CountingFileSystem extends MemoryFileSystem {
      override readFile(file: string): Uint8Array {
        reads.set(file, (reads.get(file) ?? 0) + 1);
        return super.readFile(file);
      }
    }
    const fs = new CountingFileSystem({ [`${root}/${TEAM}`]: TEAM_YAML, ...specs });
    client = await TestClient.start({ folders: [root], fs });
    client.open(URI.file(`${root}/${TEAM}`).toString(), TEAM_YAML, 'yaml');
    const published = await client.diagnostics(URI.file(`${root}/${TEAM}`).toString(), (ds) => ds.some((d) => d.code === 'glossary.deprecated-in-use'), 0, 'health');
    expect(published.diagnostics.find((d) => d.code === 'glossary.deprecated-in-use')!.message).toContain('still used in 6 specs');
    // Every spec read exactly once (by the index), none again for health.
    expect(Object.keys(specs).map((file) => reads.get(file) ?? 0)).toEqual(Object.keys(specs).map(() => 1));
  });

  it('a folder with no spec yet: the first spec written on disk is indexed, and health counts it', async () => {
    ws = tempWorkspace({ [TEAM]: TEAM_YAML });
    client = await TestClient.start({ folders: [ws.root], settings: { debounceMs: 0 } });
    const root = ws;
    const uri = (relative: string) => URI.file(root.path(relative)).toString();
    client.open(uri(TEAM), TEAM_YAML, 'yaml');
    // Nothing read: no term is called unused, and nothing is deprecated in use.
    await client.diagnostics(uri(TEAM), (ds) => ds.some((d) => d.code === 'glossary.see-also-missing'), 0, 'health without specs');
    const since = client.mark();
    mkdirSync(root.path('kitty-specs/050-first'), { recursive: true });
    writeFileSync(root.path('kitty-specs/050-first/spec.md'), '# First\n\nClean the work dir.\n');
    client.fileChanged(uri('kitty-specs/050-first/spec.md'), 1);
    const after = await client.diagnostics(uri(TEAM), (ds) => ds.some((d) => d.code === 'glossary.deprecated-in-use'), since, 'the new spec counted');
    expect(after.diagnostics.find((d) => d.code === 'glossary.deprecated-in-use')!.message).toContain('still used in 1 spec,');
    expect(after.diagnostics.find((d) => d.code === 'glossary.unused-term' && d.message.includes("'quarkle'"))!.message).toContain('(1 spec read)');
  });
});
