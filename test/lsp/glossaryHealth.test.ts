/**
 * Glossary health through the protocol (lsp/glossaryHealth.ts): diagnostics on the seed YAML —
 * unused terms, shadowed surfaces, deprecated terms still used (with where), synonyms to avoid
 * that are terms, `see_also` to nothing — pushed (or pulled) with the file's other diagnostics and
 * kept up to date as specs and glossary files change in the editor.
 */

import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DocumentDiagnosticReport, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { TestClient } from './client';

let ws: TempWorkspace | undefined;
let client: TestClient;
afterEach(async () => {
  await client?.stop();
  ws?.remove();
  ws = undefined;
});

const TEAM = '.kittify/glossaries/team_domain.yaml';
const MISSION_LOCAL = '.kittify/glossaries/mission_local.yaml';
const SPEC_A = 'kitty-specs/041-demo/spec.md';
const SPEC_B = 'kitty-specs/042-other/spec.md';

const TEAM_YAML = `terms:
  - surface: workspace
    definition: Git worktree directory for a work package
    status: active
    synonyms_to_avoid: [lane]
    see_also:
      - term: ghost town
  - surface: work dir
    definition: Old name of the workspace
    status: deprecated
  - surface: lane
    definition: A column of the kanban board
    status: active
  - surface: quarkle
    definition: A thing no spec mentions yet
    status: active
`;
const MISSION_LOCAL_YAML = `terms:
  - surface: lane
    definition: A parallel track of work packages
    status: active
`;
const SPEC_A_MD = '# Demo\n\nThe workspace is ready.\n\nClean the work dir first.\n';
const SPEC_B_MD = '# Other\n\nEach lane moves.\n\nThe Work-Dirs are old.\n';

const pos = (line: number, character: number) => ({ line, character });
const range = (line: number, from: number, to: number) => ({ start: pos(line, from), end: pos(line, to) });

function files(): Record<string, string> {
  return { [TEAM]: TEAM_YAML, [MISSION_LOCAL]: MISSION_LOCAL_YAML, [SPEC_A]: SPEC_A_MD, [SPEC_B]: SPEC_B_MD };
}

async function onDisk(options: { pull?: boolean; settings?: Record<string, unknown> } = {}): Promise<{ uri: (relative: string) => string }> {
  ws = tempWorkspace(files());
  client = await TestClient.start({ folders: [ws.root], ...options });
  const root = ws;
  return { uri: (relative) => URI.file(root.path(relative)).toString() };
}

const health = (ds: readonly Diagnostic[]) => ds.filter((d) => String(d.code).startsWith('glossary.') && d.code !== 'glossary.parse-error');
const byCode = (ds: readonly Diagnostic[], code: string) => ds.filter((d) => d.code === code);

describe('glossary health on the seed YAML', () => {
  it('publishes every finding on its entry once the folder is loaded, the seed file not even open', async () => {
    const { uri } = await onDisk();
    client.open(uri(SPEC_A), SPEC_A_MD);
    const published = await client.diagnostics(uri(TEAM), (ds) => health(ds).length > 0, 0, 'health diagnostics on the team glossary');
    const ds = health(published.diagnostics);
    expect(ds.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['glossary.synonym-is-term', DiagnosticSeverity.Warning, range(4, 24, 28)],
      ['glossary.see-also-missing', DiagnosticSeverity.Warning, range(6, 14, 24)],
      ['glossary.deprecated-in-use', DiagnosticSeverity.Warning, range(7, 13, 21)],
      ['glossary.shadowed', DiagnosticSeverity.Information, range(10, 13, 17)],
      ['glossary.unused-term', DiagnosticSeverity.Information, range(13, 13, 20)],
    ]);
    const deprecated = byCode(ds, 'glossary.deprecated-in-use')[0]!;
    // Where: every spec of the folder counts, open or not, in any written form (Work-Dirs).
    expect(deprecated.message).toBe(`'work dir' is deprecated in team_domain but still used in 2 specs, e.g. ${SPEC_A}:5, ${SPEC_B}:5; each use is reported as inconsistent.`);
    expect(deprecated.tags).toEqual([DiagnosticTag.Deprecated]);
    expect(deprecated.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line])).toEqual([
      [uri(SPEC_A), 4],
      [uri(SPEC_B), 4],
    ]);
    const shadowed = byCode(ds, 'glossary.shadowed')[0]!;
    expect(shadowed.message).toBe(`'lane' is shadowed: mission_local defines it too (${MISSION_LOCAL}:2), and that scope decides first, so this team_domain sense is never used.`);
    expect(shadowed.relatedInformation?.[0]?.location).toEqual({ uri: uri(MISSION_LOCAL), range: range(1, 13, 17) });
    const unused = byCode(ds, 'glossary.unused-term')[0]!;
    expect(unused).toMatchObject({ message: "No spec uses 'quarkle' (2 specs read): remove the entry or deprecate it if the term is no longer meant to be used.", tags: [DiagnosticTag.Unnecessary], source: 'spec-glossary' });
  });

  it('follows the specs as they are edited: a term that gets used is no longer unused; the last use of a deprecated term gone, so is its warning', async () => {
    const { uri } = await onDisk({ settings: { debounceMs: 0 } });
    client.open(uri(SPEC_A), SPEC_A_MD);
    await client.diagnostics(uri(TEAM), (ds) => byCode(ds, 'glossary.unused-term').length === 1, 0, 'quarkle unused');
    let since = client.mark();
    // Line 3 of the spec: "The workspace is ready." → "The Quarkles and the workspace is ready." (plural, capitalised).
    client.change(uri(SPEC_A), [{ range: range(2, 0, 3), text: 'The Quarkles and the' }]);
    const used = await client.diagnostics(uri(TEAM), (ds) => byCode(ds, 'glossary.unused-term').length === 0 && health(ds).length > 0, since, 'quarkle used');
    expect(byCode(used.diagnostics, 'glossary.deprecated-in-use')).toHaveLength(1);
    since = client.mark();
    client.change(uri(SPEC_A), [{ range: range(4, 10, 18), text: 'workspace' }]);
    const once = await client.diagnostics(uri(TEAM), (ds) => byCode(ds, 'glossary.deprecated-in-use')[0]?.message.includes('1 spec,') === true, since, 'work dir in one spec');
    expect(byCode(once.diagnostics, 'glossary.deprecated-in-use')[0]!.message).toBe(`'work dir' is deprecated in team_domain but still used in 1 spec, e.g. ${SPEC_B}:5; each use is reported as inconsistent.`);
    // Closing the spec: its file on disk (still saying "work dir") counts again.
    since = client.mark();
    client.close(uri(SPEC_A));
    await client.diagnostics(uri(TEAM), (ds) => byCode(ds, 'glossary.deprecated-in-use')[0]?.message.includes('2 specs') === true, since, 'work dir in two specs again');
  });

  it('follows the glossary buffer: a see_also target defined, the shadowing entry removed', async () => {
    const { uri } = await onDisk({ settings: { debounceMs: 0 } });
    client.open(uri(SPEC_A), SPEC_A_MD);
    await client.diagnostics(uri(TEAM), (ds) => health(ds).length === 5, 0, 'five findings');
    const since = client.mark();
    client.open(uri(TEAM), TEAM_YAML + '  - surface: ghost town\n    definition: A town nobody lives in\n    status: active\n', 'yaml');
    client.open(uri(MISSION_LOCAL), 'terms:\n', 'yaml');
    const after = await client.diagnostics(uri(TEAM), (ds) => byCode(ds, 'glossary.see-also-missing').length === 0 && byCode(ds, 'glossary.shadowed').length === 0 && health(ds).length > 0, since, 'see_also found, nothing shadowed');
    // 'lane' is now a team term only: still a synonym to avoid that is a term; ghost town is unused.
    expect(health(after.diagnostics).map((d) => [d.code, d.message.slice(0, 24)])).toEqual([
      ['glossary.synonym-is-term', "'lane' is listed as a sy"],
      ['glossary.deprecated-in-use', "'work dir' is deprecated"],
      ['glossary.unused-term', "No spec uses 'quarkle' ("],
      ['glossary.unused-term', "No spec uses 'ghost town"],
    ]);
  });

  it('a file written on disk counts too, and severityOverrides hide or change a health code', async () => {
    const { uri } = await onDisk({ settings: { debounceMs: 0, severityOverrides: { 'glossary.unused-term': 'off', 'glossary.shadowed': 'hint' } } });
    client.open(uri(SPEC_A), SPEC_A_MD);
    const first = await client.diagnostics(uri(TEAM), (ds) => health(ds).length > 0, 0, 'health');
    expect(byCode(first.diagnostics, 'glossary.unused-term')).toEqual([]);
    expect(byCode(first.diagnostics, 'glossary.shadowed')[0]!.severity).toBe(DiagnosticSeverity.Hint);
    // A seed change on disk reloads the folder: the deprecated entry made active, nothing is deprecated in use.
    const since = client.mark();
    writeFileSync(ws!.path(TEAM), TEAM_YAML.replace('status: deprecated', 'status: active'));
    client.fileChanged(uri(TEAM));
    await client.diagnostics(uri(TEAM), (ds) => health(ds).length > 0 && byCode(ds, 'glossary.deprecated-in-use').length === 0, since, 'nothing deprecated in use');
  });

  it('pull mode: an open seed file pulls its health findings, and is asked to pull again when a spec changes', async () => {
    const { uri } = await onDisk({ pull: true, settings: { debounceMs: 0 } });
    const pull = (u: string, previousResultId?: string) => client.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: u }, ...(previousResultId ? { previousResultId } : {}) });
    client.open(uri(TEAM), TEAM_YAML, 'yaml');
    const refreshed = client.diagnosticRefreshes;
    await client.until(() => client.diagnosticRefreshes > refreshed, 'a refresh once health is known');
    // (Refreshes are gathered over a few milliseconds: one asked earlier may be the one seen; pulled again until health is in.)
    const pulledUntil = async (accept: (report: FullDocumentDiagnosticReport) => boolean, previousResultId?: string): Promise<FullDocumentDiagnosticReport> => {
      for (let attempt = 0; ; attempt++) {
        const pulled = await pull(uri(TEAM), previousResultId);
        if (pulled.kind === 'full' && accept(pulled)) return pulled;
        if (attempt === 100) throw new Error(`no such report: ${JSON.stringify(pulled).slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const report = await pulledUntil((r) => health(r.items).some((d) => d.code === 'glossary.unused-term'));
    const before = client.diagnosticRefreshes;
    client.open(uri(SPEC_B), SPEC_B_MD + '\nA quarkle.\n');
    await client.until(() => client.diagnosticRefreshes > before, 'a refresh after the spec changed');
    const again = await pulledUntil((r) => byCode(r.items, 'glossary.unused-term').length === 0, report.resultId);
    expect(again.kind).toBe('full');
  });

  it('works on an in-memory workspace (the file system the server is given)', async () => {
    const root = '/mem/project';
    const fs = new MemoryFileSystem(Object.fromEntries(Object.entries(files()).map(([relative, text]) => [`${root}/${relative}`, text])));
    client = await TestClient.start({ folders: [root], fs });
    client.open(URI.file(`${root}/${SPEC_A}`).toString(), SPEC_A_MD);
    const published = await client.diagnostics(URI.file(`${root}/${TEAM}`).toString(), (ds) => health(ds).length > 0, 0, 'health in memory');
    expect(byCode(published.diagnostics, 'glossary.deprecated-in-use')[0]!.message).toContain('still used in 2 specs');
  });

  it('a glossary of thousands of unused terms: at most 500 health diagnostics on the file, the warnings first, then one saying how many more', async () => {
    const root = '/mem/big';
    const many = Array.from({ length: 600 }, (_, i) => `  - surface: filler${i}\n    definition: Filler term ${i}\n    status: active\n`).join('');
    const fs = new MemoryFileSystem({ [`${root}/${TEAM}`]: TEAM_YAML + many, [`${root}/${SPEC_A}`]: SPEC_A_MD });
    client = await TestClient.start({ folders: [root], fs });
    client.open(URI.file(`${root}/${SPEC_A}`).toString(), SPEC_A_MD);
    const published = await client.diagnostics(URI.file(`${root}/${TEAM}`).toString(), (ds) => ds.some((d) => d.code === 'glossary.health-more'), 0, 'capped health');
    const ds = published.diagnostics;
    expect(health(ds).filter((d) => d.code !== 'glossary.health-more')).toHaveLength(500);
    expect(byCode(ds, 'glossary.deprecated-in-use')).toHaveLength(1); // the warning is kept
    expect(byCode(ds, 'glossary.health-more')[0]).toMatchObject({ severity: DiagnosticSeverity.Information, range: range(0, 0, 0) });
    // 605 findings: 3 warnings (lane listed to avoid yet a term, ghost town missing, work dir in use),
    // 602 unused (600 fillers, lane, quarkle); 500 shown.
    expect(byCode(ds, 'glossary.health-more')[0]!.message).toBe('Glossary health: 105 more findings in this file are not shown (at most 500 per file, the most severe first); `spec-glossary validate --format json` lists them all.');
  });
});

