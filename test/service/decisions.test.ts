/**
 * How the features show a mission's decisions: a pinned term offers to change or reopen the
 * decision (with no diagnostic there), and a deferred term is shown as deferred (severity,
 * message, payload, hover).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, type MarkupContent } from 'vscode-languageserver-types';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { documentDiagnostics } from '../../server/src/service/diagnostics';
import { hoverAt } from '../../server/src/service/hover';
import { pinnedActions } from '../../server/src/service/pinnedActions';
import { Commands } from '../../server/src/shared/protocol';
import { requested, resolved } from '../fixtures/events/factory';
import { checkDocument, makeWorkspace, MISSION, RANGES, SPEC, SPEC_MD, settingsWith, type TempWorkspace } from './fixtures';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const LOG = `.kittify/events/glossary/${MISSION}.events.jsonl`;
const GIT = 'Git worktree directory for a work package';
const VSCODE = 'VS Code workspace configuration file';

describe('a pinned term', () => {
  it('offers every other sense "instead" and "Reopen", as server commands, at a position without a diagnostic', async () => {
    ws = makeWorkspace({ [SPEC]: SPEC_MD.replace('in its own workspace', 'in its own Workspace') });
    ws.write(LOG, serializeEvent(resolved({ conflict: 'c-1', mission: MISSION, term: 'workspace', definition: GIT })) + '\n');
    const doc = await checkDocument(ws);
    expect(doc.report.findings.map((f) => f.term)).not.toContain('workspace');
    const actions = pinnedActions(doc, RANGES.workspace1.start);
    expect(actions.map((a) => a.title)).toEqual([
      `Use 'Workspace' = ${VSCODE} (team_domain) instead`,
      "Use 'Workspace' = Folder that holds the projects a developer works on (spec_kitty_core) instead",
      "Reopen 'Workspace' for clarification",
    ].map((t, i) => (i === 1 ? expect.stringMatching(/^Use 'Workspace' = .+ \(spec_kitty_core\) instead$/) : t)));
    expect(actions.every((a) => a.kind === 'quickfix' && a.diagnostics === undefined)).toBe(true);
    expect(actions[0]!.command).toEqual({
      title: actions[0]!.title,
      command: Commands.selectSense,
      arguments: [{ uri: ws.uri(SPEC), missionId: MISSION, stepId: 'spec', term: 'workspace', written: 'Workspace', sense: { surface: 'workspace', scope: 'team_domain', definition: VSCODE, confidence: 0.7 } }],
    });
    expect(actions.at(-1)!.command).toEqual({ title: actions.at(-1)!.title, command: Commands.reopenTerm, arguments: [{ uri: ws.uri(SPEC), missionId: MISSION, stepId: 'spec', term: 'workspace', written: 'Workspace' }] });
    // Nothing on a term that is not pinned, away from terms, or for other kinds.
    expect(pinnedActions(doc, RANGES.qzx.start)).toEqual([]);
    expect(pinnedActions(doc, { line: 4, character: 0 })).toEqual([]);
    expect(pinnedActions(doc, RANGES.workspace1.start, ['refactor'])).toEqual([]);
  });
});

describe('a deferred term', () => {
  it('is shown at most as Information, says since when in its message, and carries the clarification in its payload; the gate still counts it', async () => {
    ws = makeWorkspace();
    ws.write(LOG, serializeEvent(requested({ conflict: 'c-9', mission: MISSION, term: 'workspace', timestamp: '2026-02-16T12:05:00.000Z' })) + '\n');
    const doc = await checkDocument(ws);
    const [first, , , second] = documentDiagnostics(doc, settingsWith());
    for (const d of [first!, second!]) {
      expect(d.severity).toBe(DiagnosticSeverity.Information);
      expect(d.message).toBe("Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means. Deferred since 2026-02-16 12:05 UTC: a clarification is open for this mission.");
      expect(d.data).toMatchObject({ openConflictId: 'c-9', deferredSince: '2026-02-16T12:05:00.000Z', severity: 'high' });
    }
    expect(doc.report.blocked).toBe(true);
    // An override to hide the code still hides it.
    expect(documentDiagnostics(doc, settingsWith({ severityOverrides: { ambiguous: 'off' } })).map((d) => d.code)).not.toContain('ambiguous');
    const hover = (hoverAt(doc, RANGES.workspace1.start)!.contents as MarkupContent).value;
    expect(hover).toContain(`**Deferred** since 2026-02-16 12:05 UTC: a clarification is open for mission 041-mission (${MISSION}) (conflict c-9`);
  });

  it('counts as Information when only the most severe diagnostics fit under maxProblems', async () => {
    ws = makeWorkspace();
    const summary = (ds: { code?: string | number; range: { start: { line: number } } }[]) => ds.map((d) => `${d.code}@${d.range.start.line}`);
    // Not deferred, the two Errors (workspace) are the ones shown.
    expect(summary(documentDiagnostics(await checkDocument(ws), settingsWith({ maxProblems: 2 })))).toEqual(['ambiguous@5', 'ambiguous@7', 'problems.not-shown@0']);
    ws.write(LOG, serializeEvent(requested({ conflict: 'c-9', mission: MISSION, term: 'workspace', timestamp: '2026-02-16T12:05:00.000Z' })) + '\n');
    // Deferred, they are Information like the rest: the first two in document order.
    expect(summary(documentDiagnostics(await checkDocument(ws), settingsWith({ maxProblems: 2 })))).toEqual(['ambiguous@5', 'inconsistent@6', 'problems.not-shown@0']);
  });

  it('a hover heading and the messages name the term as written', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    expect((hoverAt(doc, RANGES.qzx.start)!.contents as MarkupContent).value.split('\n')[0]).toBe('### QZX');
    expect(documentDiagnostics(doc, settingsWith()).find((d) => d.code === 'unknown')!.message).toBe("Unknown term 'QZX': not defined in any glossary scope (0 senses).");
  });
});
