import { appendFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-types';
import { loadWorkspace, configPath } from '../../server/src/node/workspace';
import { DiagnosticReuse, documentDiagnostics, skippedDiagnostics, workspaceFileDiagnostics } from '../../server/src/service/diagnostics';
import { analyzeDocument } from '../../server/src/node/analyzer';
import { checkedDocumentOf, runtimeSettings } from '../../server/src/lsp/analysis';
import { engine } from '../helpers/core';
import { checkDocument, makeWorkspace, MESSAGES, MISSION, RANGES, SPEC, SPEC_MD, TEAM, settingsWith, type TempWorkspace } from './fixtures';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('conflict diagnostics', () => {
  it('covers each occurrence with the conflict type, mapped severity, the finding message and the payload', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const diagnostics = documentDiagnostics(doc, settingsWith());
    expect(diagnostics.map((d) => [d.range, d.code, d.severity, d.message, d.source])).toEqual([
      [RANGES.workspace1, 'ambiguous', DiagnosticSeverity.Error, MESSAGES.ambiguous, 'spec-glossary'],
      [RANGES.workDir, 'inconsistent', DiagnosticSeverity.Information, MESSAGES.workDir, 'spec-glossary'],
      [RANGES.qzx, 'unknown', DiagnosticSeverity.Information, MESSAGES.qzx, 'spec-glossary'],
      [RANGES.workspace2, 'ambiguous', DiagnosticSeverity.Error, MESSAGES.ambiguous, 'spec-glossary'],
    ]);
    // (The conflict type is the code; mission and step are the document's.)
    expect(diagnostics[0]!.data).toEqual({
      kind: 'finding',
      term: 'workspace',
      severity: 'high',
      scope: 'team_domain',
      candidates: [
        { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
        { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 },
      ],
    });
    expect(diagnostics[1]!.data).toEqual({ kind: 'finding', reason: 'synonym_to_avoid', replacement: 'worktree', term: 'work dir', severity: 'low', scope: 'team_domain', candidates: [expect.anything()] });
    // An unknown term has no candidates, and says so by leaving them out.
    expect(diagnostics[2]!.data).toEqual({ kind: 'finding', term: 'qzx', severity: 'low', scope: null });
  });

  it('points relatedInformation at the seed entries of the candidate senses', async () => {
    ws = makeWorkspace();
    const [ambiguous, workDir, qzx] = documentDiagnostics(await checkDocument(ws), settingsWith());
    expect(ambiguous!.relatedInformation).toEqual([
      {
        location: { uri: ws.uri(TEAM), range: { start: { line: 2, character: 4 }, end: { line: 6, character: 0 } } },
        message: "team_domain sense 1 of 2 of 'workspace' (confidence 0.9): Git worktree directory for a work package",
      },
      {
        location: { uri: ws.uri(TEAM), range: { start: { line: 7, character: 4 }, end: { line: 11, character: 0 } } },
        message: "team_domain sense 2 of 2 of 'workspace' (confidence 0.7): VS Code workspace configuration file",
      },
    ]);
    expect(workDir!.relatedInformation?.map((r) => [r.location.range.start, r.message])).toEqual([
      [{ line: 12, character: 4 }, "team_domain sense of 'worktree' (confidence 0.95): Extra Git working directory checked out on its own branch"],
    ]);
    expect(qzx!.relatedInformation).toBeUndefined();
  });

  it('gives the same diagnostics for the same text, the occurrences of a term sharing their payload', async () => {
    ws = makeWorkspace();
    const settings = settingsWith();
    const before = documentDiagnostics(await checkDocument(ws), settings);
    const same = documentDiagnostics(await checkDocument(ws), settings);
    expect(same).toEqual(before);
    // Findings of one term share their payload and related entries; each has its own range.
    const [first, , , second] = same;
    expect(second!.data).toBe(first!.data);
    expect(second!.relatedInformation).toBe(first!.relatedInformation);
    expect(second!.range).not.toEqual(first!.range);
    // A new line at the top moves every finding down a line.
    const moved = documentDiagnostics(await checkDocument(ws, SPEC, SPEC_MD.replace(/\n# /, '\n\n# ')), settings);
    expect(moved.map((d) => d.range.start.line)).toEqual(before.map((d) => d.range.start.line + 1));
  });

  it('uses Warning for an ambiguous term on a step that is not critical', async () => {
    ws = makeWorkspace({ [SPEC]: SPEC_MD.replace('critical_step: true', 'critical_step: false') });
    const diagnostics = documentDiagnostics(await checkDocument(ws), settingsWith());
    expect(diagnostics.filter((d) => d.code === 'ambiguous').map((d) => d.severity)).toEqual([DiagnosticSeverity.Warning, DiagnosticSeverity.Warning]);
  });

  it('applies severity overrides per code, and "off" hides the code', async () => {
    ws = makeWorkspace();
    const settings = settingsWith({ severityOverrides: { unknown: 'off', ambiguous: 'hint' } });
    const diagnostics = documentDiagnostics(await checkDocument(ws), settings);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['ambiguous', DiagnosticSeverity.Hint],
      ['inconsistent', DiagnosticSeverity.Information],
      ['ambiguous', DiagnosticSeverity.Hint],
    ]);
  });

  it('marks an open clarification in the payload and tags deprecated-only terms', async () => {
    ws = makeWorkspace({
      '.kittify/glossaries/audience_domain.yaml': 'terms:\n  - surface: basket\n    definition: Old word for the cart\n    status: deprecated\n',
      [SPEC]: SPEC_MD + 'The basket is shown.\n',
    });
    ws.write(
      `.kittify/events/glossary/${MISSION}.events.jsonl`,
      JSON.stringify({ conflict_id: 'c-1', event_id: '11111111-1111-4111-8111-111111111111', event_type: 'GlossaryClarificationRequested', lamport_clock: 1, mission_id: MISSION, options: [], question: 'q', run_id: 'cli-x', step_id: 'spec', term: 'workspace', timestamp: '2026-02-16T12:00:00.000Z', urgency: 'high' }) + '\n',
    );
    const diagnostics = documentDiagnostics(await checkDocument(ws), settingsWith());
    expect(diagnostics.find((d) => d.code === 'ambiguous')!.data).toMatchObject({ openConflictId: 'c-1' });
    const basket = diagnostics.find((d) => (d.data as { term: string }).term === 'basket')!;
    expect(basket.code).toBe('inconsistent');
    expect(basket.tags).toEqual([DiagnosticTag.Deprecated]);
  });

  it('gives a skipped document one Information diagnostic at its start', () => {
    expect(skippedDiagnostics('too big', settingsWith())).toEqual([
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Information, code: 'file.too-large', source: 'spec-glossary', message: 'too big' },
    ]);
  });
});

describe('glossary, config and event-log file diagnostics', () => {
  it('reports a bad entry at its node and keeps the rest of the file', async () => {
    ws = makeWorkspace({ [TEAM]: 'terms:\n  - surface: widget\n    definition: A thing\n    confidence: high\n  - surface: gadget\n    definition: Another thing\n' });
    const snapshot = await loadWorkspace(ws.root);
    const byFile = workspaceFileDiagnostics(snapshot, configPath(ws.root), settingsWith());
    expect(byFile.get(ws.file(TEAM))).toEqual([
      {
        range: { start: { line: 3, character: 16 }, end: { line: 3, character: 20 } },
        severity: DiagnosticSeverity.Error,
        code: 'glossary.invalid-confidence',
        source: 'spec-glossary',
        message: '`confidence` must be a number between 0 and 1 (not a string or boolean). Spec Kitty refuses the whole file; spec-glossary reads the rest (the entry is skipped).',
        data: { kind: 'source', file: ws.file(TEAM) },
      },
    ]);
    expect(snapshot.glossaryFor(MISSION).sensesOf('gadget')).toHaveLength(1);
  });

  it('reports malformed YAML, and says the last good version is still in use', async () => {
    ws = makeWorkspace();
    const good = await loadWorkspace(ws.root);
    ws.write(TEAM, 'terms:\n  - surface: workspace\n    definition: [unclosed\n');
    const bad = await loadWorkspace(ws.root, { previous: good });
    const [first] = workspaceFileDiagnostics(bad, configPath(ws.root), settingsWith()).get(ws.file(TEAM))!;
    expect(first!.code).toBe('glossary.parse-error');
    expect(first!.severity).toBe(DiagnosticSeverity.Error);
    expect(first!.message).toMatch(/^YAML syntax error: .*; the last good version \(3 senses\) is still in use$/);
    expect(bad.glossaryFor(MISSION).sensesOf('workspace').filter((s) => s.scope === 'team_domain')).toHaveLength(2);
  });

  it('reports config problems on config.yaml and torn log lines on their line', async () => {
    ws = makeWorkspace({ '.kittify/config.yaml': 'glossary:\n  strictness: extreme\n' });
    const log = `.kittify/events/glossary/${MISSION}.events.jsonl`;
    ws.write(log, '');
    appendFileSync(ws.file(log), '{"event_type": "GlossaryClarificationReq');
    const byFile = workspaceFileDiagnostics(await loadWorkspace(ws.root), configPath(ws.root), settingsWith());
    expect(byFile.get(ws.file('.kittify/config.yaml'))!.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['config.invalid-strictness', DiagnosticSeverity.Warning, "glossary.strictness must be off, medium or max (got 'extreme'); using medium."],
    ]);
    expect(byFile.get(ws.file(log))!.map((d) => [d.code, d.severity, d.range, d.message])).toEqual([
      ['events.invalid-line', DiagnosticSeverity.Warning, { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, 'torn last line (no newline at the end and incomplete JSON); line skipped'],
    ]);
  });
});

describe('diagnostics of a document being edited', () => {
  /** Publishes `text` as the server does for a document being edited (incremental check, diagnostics reused under `key`). */
  async function typist(settings = settingsWith()) {
    const snapshot = await loadWorkspace(ws.root, { maxFileBytes: settings.maxFileSize });
    const checker = engine.createIncrementalChecker();
    const memo = new DiagnosticReuse();
    return (text: string, key = 'same') => {
      const analyzed = analyzeDocument(engine, snapshot, { path: ws.file(SPEC), text, settings: runtimeSettings(settings), checker });
      return documentDiagnostics(checkedDocumentOf(ws.uri(SPEC), ws.root, snapshot, analyzed), settings, { memo, key });
    };
  }
  const fresh = async (text: string) => documentDiagnostics(await checkDocument(ws, SPEC, text), settingsWith());

  it("takes the last diagnostics of findings an edit left alone, and publishes what a fresh check gives", async () => {
    // (Paragraphs after the findings: an edit there re-checks only its own.)
    const text = `${SPEC_MD}\nA paragraph.\n\nAnother paragraph.\n\nThe last one.\n`;
    ws = makeWorkspace({ [SPEC]: text });
    const publish = await typist();
    const first = publish(text);
    const edited = text.replace('The last one.', 'The very last one.');
    const second = publish(edited);
    expect(second).toEqual(await fresh(edited));
    expect(second[0]).toBe(first[0]);
    // Made with something else (a glossary, a setting): made anew.
    const third = publish(`${edited}And more.\n`, 'other');
    expect(third).toEqual(await fresh(`${edited}And more.\n`));
    expect(third[0]).not.toBe(second[0]);
  });

  it('makes anew the diagnostics that point at an entry of a spec, which an edit above it moves', async () => {
    const spec = ['# Lanes', '', 'A kanbanette moves on.', '', 'Filler line.', '', 'Another line.', '', '## Domain Language', '', '| Term | Definition | Avoid |', '|---|---|---|', '| Quarkle | A card that moves through the board | kanbanette |', ''].join('\n');
    ws = makeWorkspace({ [SPEC]: spec });
    const publish = await typist();
    const first = publish(spec);
    expect(first.map((d) => [d.code, d.relatedInformation?.[0]?.location.range.start.line])).toEqual([['inconsistent', 12]]);
    const edited = spec.replace('Another line.', 'Another\nline.');
    const second = publish(edited);
    expect(second).toEqual(await fresh(edited));
    expect(second[0]!.relatedInformation![0]!.location.range.start.line).toBe(13);
  });
});
