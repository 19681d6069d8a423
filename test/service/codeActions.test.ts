import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { codeActionsFor, truncateDefinition } from '../../server/src/service/codeActions';
import { documentDiagnostics } from '../../server/src/service/diagnostics';
import { withFindingData } from '../../server/src/service/findingData';
import { Commands } from '../../server/src/shared/protocol';
import { checkDocument, makeWorkspace, MISSION, RANGES, SPEC, SPEC_MD, settingsWith, TEAM, type TempWorkspace } from './fixtures';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

async function diagnosticsOf(files: Record<string, string> = {}) {
  ws = makeWorkspace(files);
  const doc = await checkDocument(ws);
  // (As the server hands them to the code actions: with complete finding data.)
  return documentDiagnostics(doc, settingsWith()).map((d) => withFindingData(d, doc));
}

const titles = (actions: CodeAction[]) => actions.map((a) => a.title);

describe('code actions', () => {
  it('offers, for an ambiguous term, each candidate sense in order, then define and defer', async () => {
    const [ambiguous] = await diagnosticsOf();
    const actions = codeActionsFor(ws.uri(SPEC), [ambiguous!], { textAt: () => 'workspace' });
    expect(titles(actions)).toEqual([
      "Use 'workspace' = Git worktree directory for a work package (team_domain)",
      "Use 'workspace' = VS Code workspace configuration file (team_domain)",
      "Define 'workspace' in the mission glossary",
      "Define 'workspace' in the team glossary",
      "Defer 'workspace' for later clarification",
    ]);
    expect(actions.every((a) => a.kind === 'quickfix' && a.diagnostics?.[0] === ambiguous)).toBe(true);
    expect(actions[1]!.command).toEqual({
      title: actions[1]!.title,
      command: Commands.selectSense,
      arguments: [{ uri: ws.uri(SPEC), missionId: MISSION, stepId: 'spec', term: 'workspace', sense: { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 } }],
    });
    expect(actions[2]!.command).toEqual({ title: actions[2]!.title, command: Commands.defineTerm, arguments: [{ uri: ws.uri(SPEC), missionId: MISSION, stepId: 'spec', term: 'workspace', scope: 'mission_local' }] });
    expect(actions[3]!.command!.arguments![0]).toMatchObject({ scope: 'team_domain' });
    // The server works out the urgency, options and conflict ids when the command runs.
    expect(actions[4]!.command).toEqual({ title: actions[4]!.title, command: Commands.deferTerm, arguments: [{ uri: ws.uri(SPEC), missionId: MISSION, stepId: 'spec', term: 'workspace' }] });
  });

  it("replaces a deprecated term with the one its entry names instead, in the use's case and number", async () => {
    const text = '# Spec\n\nEach ceremony commit, and the Ceremony Commits.\n';
    const diagnostics = await diagnosticsOf({
      [TEAM]: 'terms:\n  - surface: ceremony commit\n    definition: "DEPRECATED. Replaced by `status commit`."\n    status: deprecated\n  - surface: status commit\n    definition: A commit that records a status change\n    status: active\n',
      [SPEC]: text,
    });
    const document = TextDocument.create(ws.uri(SPEC), 'markdown', 1, text);
    const deprecated = diagnostics.filter((d) => d.code === 'inconsistent');
    expect(deprecated.map((d) => d.message)).toEqual([
      "Inconsistent term 'ceremony commit': deprecated in team_domain (1 sense, none active); use 'status commit' instead.",
      "Inconsistent term 'Ceremony Commits': deprecated in team_domain (1 sense, none active); use 'status commit' instead.",
    ]);
    const actions = codeActionsFor(ws.uri(SPEC), deprecated, { textAt: (r) => document.getText(r) });
    expect(titles(actions)).toEqual(["Replace with 'status commit'", "Defer 'ceremony commit' for later clarification"]);
    expect(TextDocument.applyEdits(document, actions[0]!.edit!.changes![ws.uri(SPEC)]!)).toBe('# Spec\n\nEach status commit, and the Status Commits.\n');
  });

  it('replaces a synonym to avoid with a plain text edit, keeping a capital letter', async () => {
    const [, workDir] = await diagnosticsOf({ [SPEC]: SPEC_MD });
    const document = TextDocument.create(ws.uri(SPEC), 'markdown', 1, SPEC_MD);
    const actions = codeActionsFor(ws.uri(SPEC), [workDir!], { textAt: (r) => document.getText(r) });
    expect(titles(actions)).toEqual(["Replace with 'worktree'", "Defer 'work dir' for later clarification"]);
    expect(actions[0]).toMatchObject({ isPreferred: true, edit: { changes: { [ws.uri(SPEC)]: [{ range: RANGES.workDir, newText: 'worktree' }] } } });
    const edited = TextDocument.applyEdits(document, actions[0]!.edit!.changes![ws.uri(SPEC)]!);
    expect(edited.split('\n')[6]).toBe('Never share a worktree between work packages.');

    const capital = { ...workDir!, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } } };
    const upper = codeActionsFor(ws.uri(SPEC), [capital], { textAt: () => 'Work dir' });
    expect(upper[0]!.edit!.changes![ws.uri(SPEC)]![0]!.newText).toBe('Worktree');
    // A plural use is replaced by the plural, in its case; across a line break too.
    for (const [written, replaced] of [['work dirs', 'worktrees'], ['Work dirs', 'Worktrees'], ['WORK DIRS', 'WORKTREES'], ['work\ndirs', 'worktrees'], ['work-dirs', 'worktrees']]) {
      const actions = codeActionsFor(ws.uri(SPEC), [capital], { textAt: () => written });
      expect(actions[0]!.edit!.changes![ws.uri(SPEC)]![0]!.newText, written).toBe(replaced);
    }
  });

  it('offers define and defer for an unknown term', async () => {
    const [, , qzx] = await diagnosticsOf();
    expect(titles(codeActionsFor(ws.uri(SPEC), [qzx!]))).toEqual(["Define 'qzx' in the mission glossary", "Define 'qzx' in the team glossary", "Defer 'qzx' for later clarification"]); // (no text: the normalized term)
  });

  it('lists each action once when several diagnostics of a term are in range, and merges replacements', async () => {
    const all = await diagnosticsOf({ [SPEC]: SPEC_MD + 'A work dir again.\n' });
    const actions = codeActionsFor(ws.uri(SPEC), all);
    expect(titles(actions).filter((t) => t.startsWith("Use 'workspace'"))).toHaveLength(2);
    expect(actions[0]!.diagnostics).toHaveLength(2);
    const replace = actions.find((a) => a.title === "Replace with 'worktree'")!;
    expect(replace.edit!.changes![ws.uri(SPEC)]).toHaveLength(2);
  });

  it('does not offer defer again while a clarification is open, and never passes a conflict id (the server closes what is open when the command runs)', async () => {
    const [ambiguous] = await diagnosticsOf();
    const data = { ...(ambiguous!.data as object), openConflictId: 'c-7' };
    const actions = codeActionsFor(ws.uri(SPEC), [{ ...ambiguous!, data }]);
    expect(titles(actions)).not.toContain("Defer 'workspace' for later clarification");
    expect(actions.every((a) => !('conflictId' in (a.command!.arguments![0] as object)))).toBe(true);
  });

  it('names the term as the document writes it at the diagnostic, and passes that form along', async () => {
    const [, , qzx] = await diagnosticsOf();
    const actions = codeActionsFor(ws.uri(SPEC), [qzx!], { textAt: () => 'QZX' });
    expect(titles(actions)).toEqual(["Define 'QZX' in the mission glossary", "Define 'QZX' in the team glossary", "Defer 'QZX' for later clarification"]);
    expect(actions[0]!.command!.arguments![0]).toMatchObject({ term: 'qzx', written: 'QZX' });
    // Two occurrences written differently are still one action each.
    const both = codeActionsFor(ws.uri(SPEC), [qzx!, { ...qzx!, range: RANGES.workspace1 }], { textAt: (r) => (r === RANGES.workspace1 ? 'qzx' : 'QZX') });
    expect(titles(both)).toEqual(titles(actions));
    expect(both[0]!.diagnostics).toHaveLength(2);
  });

  it('ignores diagnostics without a finding payload and kinds that were not asked for', async () => {
    const [ambiguous] = await diagnosticsOf();
    const foreign: Diagnostic = { ...ambiguous!, data: undefined };
    expect(codeActionsFor(ws.uri(SPEC), [foreign])).toEqual([]);
    expect(codeActionsFor(ws.uri(SPEC), [ambiguous!], { only: ['refactor'] })).toEqual([]);
    expect(codeActionsFor(ws.uri(SPEC), [ambiguous!], { only: ['quickfix'] })).toHaveLength(5);
  });

  it('truncates long definitions in titles to 60 characters', () => {
    const long = 'Git worktree directory in which one work package is implemented, created and removed by Spec Kitty.';
    expect(truncateDefinition(long)).toBe('Git worktree directory in which one work package is impleme…');
    expect(truncateDefinition(long)).toHaveLength(60);
    expect(truncateDefinition('short')).toBe('short');
  });
});
