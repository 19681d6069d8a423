/**
 * Spec Kitty interop through the language server (in this process, test/lsp/client.ts): decisions
 * Spec Kitty logged clear the diagnostics they settle, the server's own decisions continue a log
 * Spec Kitty wrote to, and seed files Spec Kitty's schema refuses get error diagnostics that say
 * so (the same seed problems `validate` prints).
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { blockedWorkspace, logPath, MISSION, SPEC, TEAM_WORKSPACE_SEED, type TempWorkspace } from '../cli/support';
import { skLine, skRequested, skResolvedByCli, skSenseByPipeline, skTime } from '../fixtures/events/specKitty';
import { TestClient } from '../lsp/client';
import { uriOf } from '../robustness/helpers';

const TEAM = '.kittify/glossaries/team_domain.yaml';
const VSCODE = { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 };

let ws: TempWorkspace | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
  ws = undefined;
});

function appendLines(file: string, lines: string[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, lines.join('\n') + '\n');
}

const logLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');

async function openSpec(): Promise<Diagnostic[]> {
  client = await TestClient.start({ folders: [ws!.root] });
  client.open(uriOf(ws!.path(SPEC)), readFileSync(ws!.path(SPEC), 'utf8'));
  return (await client.diagnostics(uriOf(ws!.path(SPEC)))).diagnostics;
}

describe("the server reads Spec Kitty's decisions", () => {
  it('without them the ambiguous term is an error; with its CLI resolution (no clock, no event_id, no mission_id) it is gone', async () => {
    ws = blockedWorkspace();
    expect((await openSpec()).map((d) => d.code)).toEqual(['ambiguous']);
    await client!.stop();
    appendLines(logPath(ws), [skLine(skRequested({ mission: MISSION, run: 'sk', id: 1, t: skTime(1), conflict: 'sk-c1', term: 'workspace', urgency: 'high' })), skLine(skResolvedByCli({ t: skTime(2), conflict: 'sk-c1', term: 'workspace', sense: VSCODE }))]);
    expect((await openSpec()).filter((d) => d.code === 'ambiguous')).toEqual([]);
    // Hover names the pinned sense Spec Kitty chose.
    const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uriOf(ws.path(SPEC)) }, position: { line: 5, character: 5 } });
    expect(JSON.stringify(hover)).toContain('VS Code workspace configuration file');
  });

  it("its pipeline's custom answer pins the new sense; the server's next decision is appended after its lines with a higher clock", async () => {
    ws = blockedWorkspace();
    appendLines(logPath(ws), [
      skLine(skRequested({ mission: MISSION, run: 'sk', id: 1, t: skTime(1), conflict: 'sk-c1', term: 'workspace', urgency: 'high' })),
      skLine(skSenseByPipeline({ id: 2, t: skTime(2), term: 'workspace', definition: 'The folder a work package is built in' })),
    ]);
    const before = logLines(logPath(ws));
    expect((await openSpec()).filter((d) => d.code === 'ambiguous')).toEqual([]);
    // A new decision, as the "Use 'workspace' = …" quick fix runs it.
    const since = client!.mark();
    const result = await client!.request<{ ok: boolean }>('workspace/executeCommand', {
      command: 'specGlossary.selectSense',
      arguments: [{ uri: uriOf(ws.path(SPEC)), missionId: MISSION, term: 'workspace', sense: { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 } }],
    });
    expect(result).toMatchObject({ ok: true });
    await client!.diagnostics(uriOf(ws.path(SPEC)), () => true, since);
    const after = logLines(logPath(ws));
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(added).toMatchObject([{ event_type: 'GlossaryClarificationResolved', lamport_clock: 1, mission_id: MISSION }]);
    expect(after.every((l) => /^[\x20-\x7e]*$/.test(l))).toBe(true);
  });
});

describe("seed files Spec Kitty's schema refuses", () => {
  it('get an Error diagnostic on the YAML saying Spec Kitty refuses the whole file; a placeholder definition is a warning and defines nothing', async () => {
    const seed = `${TEAM_WORKSPACE_SEED}  - surface: frobnicator\n    definition: A device that frobs\n    aliases: [frob]\n  - surface: qzx\n    definition: "TODO: define qzx"\nversion: 2\n`;
    ws = blockedWorkspace({ [TEAM]: seed, [SPEC]: '# Demo\n\nThe workspace holds the "frobnicator" and the "qzx" card.\n' });
    const spec = await openSpec();
    const yaml = await client!.diagnostics(uriOf(ws.path(TEAM)), (ds) => ds.length > 0, 0, 'diagnostics of the seed file');
    const lines = seed.split('\n');
    const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
    expect(yaml.diagnostics.map((d) => [d.code, d.severity, d.range.start.line])).toEqual([
      ['glossary.unknown-key', 1, lineOf('version: 2')],
      ['glossary.unknown-key', 1, lineOf('aliases:')],
      ['glossary.placeholder-definition', 2, lineOf('TODO: define qzx')],
    ]);
    for (const d of yaml.diagnostics.filter((x) => x.severity === 1)) expect(d.message).toContain('Spec Kitty refuses the whole file');
    // spec-glossary still reads the rest: frobnicator is defined, qzx (a placeholder) is not.
    const unknown = spec.filter((d) => d.code === 'unknown').map((d) => d.message);
    expect(unknown.some((m) => m.includes("'qzx'"))).toBe(true);
    expect(unknown.some((m) => m.includes("'frobnicator'"))).toBe(false);
  });
});
