/**
 * VS Code's "Define 'Term' in this spec's Domain Language" (SPEC §9): the server's action inserts
 * the entry with a placeholder for the writer to fill; in VS Code the definition is asked for
 * first, in an input box (left empty, the entry is inserted with the placeholder, as elsewhere).
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import { Commands, type CommandResult, type DefineInSpecArgs } from '../../server/src/shared/protocol';
import { ClientCommands, defineInSpecArgs, isCommandResult, writtenTerm } from './commands';

/** The action, made to ask for the definition first (same title, kind and diagnostics). */
export function askingForDefinition(action: vscode.CodeAction): vscode.CodeAction {
  const args = defineInSpecArgs(action);
  if (!args) return action;
  action.command = { title: action.title, command: ClientCommands.defineInSpecWithDefinition, arguments: [args] };
  return action;
}

/** `specGlossary.defineInSpecWithDefinition`: input box, then the server's defineInSpec. */
export async function defineInSpecWithDefinition(client: LanguageClient | undefined, args: DefineInSpecArgs | undefined, show: (result: unknown) => void): Promise<CommandResult | undefined> {
  if (!client) {
    void vscode.window.showWarningMessage('Spec Glossary: the language server is not running.');
    return undefined;
  }
  if (!args || typeof args.term !== 'string' || typeof args.uri !== 'string') {
    void vscode.window.showWarningMessage("Spec Glossary: use this command from a quick fix on an unknown term.");
    return undefined;
  }
  const term = writtenTerm(args);
  const definition = await vscode.window.showInputBox({
    title: `Define '${term}' in this spec's Domain Language`,
    prompt: `What '${term}' means in mission ${args.missionSlug ?? args.missionId}: added to the spec's Domain Language and recorded in the event log. Leave empty to write it in the spec yourself.`,
    placeHolder: `What '${term}' means in this mission`,
    ignoreFocusOut: true,
  });
  if (definition === undefined) return undefined; // cancelled
  const trimmed = definition.trim();
  try {
    const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: Commands.defineInSpec, arguments: [trimmed ? { ...args, definition: trimmed } : args] });
    show(result);
    return isCommandResult(result) ? result : undefined;
  } catch (error) {
    void vscode.window.showErrorMessage(`Spec Glossary: ${(error as Error).message}`);
    return undefined;
  }
}
