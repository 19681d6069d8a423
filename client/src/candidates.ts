/**
 * "Spec Glossary: Show Glossary Candidates": asks the server for the workspace's glossary
 * candidates (terms no glossary defines, most-used first), shows them in a quick pick, and for the
 * one picked offers to promote it with a mission's definition when missions define it (the
 * server's promoteTerm), to add a draft entry to the team glossary (the server's defineTerm, as the
 * "Define … in the team glossary" quick fix does) or to open where it is used.
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import { Commands, isCandidatesResult, type DefineTermArgs } from '../../server/src/shared/protocol';
import { candidatePicks, promoteChoice, type CandidatePick } from './candidatePicks';
import { isCommandResult } from './commands';

export async function showCandidates(client: LanguageClient | undefined): Promise<void> {
  if (!client) {
    void vscode.window.showWarningMessage('Spec Glossary: the language server is not running.');
    return;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const args = active && active.scheme === 'file' ? { uri: active.toString() } : {};
  let result: unknown;
  try {
    result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Spec Glossary: listing glossary candidates…' }, () =>
      client.sendRequest(ExecuteCommandRequest.type, { command: Commands.listCandidates, arguments: [args] }),
    );
  } catch (error) {
    void vscode.window.showErrorMessage(`Spec Glossary: ${(error as Error).message}`);
    return;
  }
  if (!isCandidatesResult(result)) {
    if (isCommandResult(result)) void vscode.window.showWarningMessage(`Spec Glossary: ${result.message}`);
    return;
  }
  const picks = candidatePicks(result);
  if (picks.length === 0) {
    void vscode.window.showInformationMessage(`Spec Glossary: no glossary candidates (${result.message})`);
    return;
  }
  const picked = await vscode.window.showQuickPick(picks, {
    title: `Glossary candidates: ${result.message}`,
    placeHolder: 'Terms no glossary defines, most-used first',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked) await actOn(client, picked);
}

async function actOn(client: LanguageClient, pick: CandidatePick): Promise<void> {
  const { candidate } = pick;
  const example = candidate.examples[0];
  if (!example) return;
  // A term missions define goes to the team glossary with their definition; another as a draft.
  const promote = promoteChoice(pick);
  const add = `Add '${candidate.term}' to the team glossary`;
  const open = `Open ${example.path}:${example.line}`;
  const choice = await vscode.window.showQuickPick(promote ? [promote.title, add, open] : [add, open], { title: candidate.term });
  if (promote && choice === promote.title) {
    try {
      const outcome: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: Commands.promoteTerm, arguments: [promote.args] });
      if (isCommandResult(outcome) && !outcome.ok) void vscode.window.showWarningMessage(`Spec Glossary: ${outcome.message}`);
    } catch (error) {
      void vscode.window.showErrorMessage(`Spec Glossary: ${(error as Error).message}`);
    }
  } else if (choice === open) {
    const line = Math.max(0, example.line - 1);
    await vscode.window.showTextDocument(vscode.Uri.parse(example.uri), { selection: new vscode.Range(line, 0, line, 0) });
  } else if (choice === add) {
    const args: DefineTermArgs = { uri: example.uri, missionId: example.missionId, term: candidate.term, scope: 'team_domain' };
    try {
      const outcome: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: Commands.defineTerm, arguments: [args] });
      if (isCommandResult(outcome) && !outcome.ok) void vscode.window.showWarningMessage(`Spec Glossary: ${outcome.message}`);
    } catch (error) {
      void vscode.window.showErrorMessage(`Spec Glossary: ${(error as Error).message}`);
    }
  }
}
