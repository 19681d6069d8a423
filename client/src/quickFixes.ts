/**
 * VS Code additions to the server's quick fixes: a "Define … with a definition…" companion for
 * each "Define …" action, which asks for the definition in an input box and passes it to the
 * server's defineTerm command, and a visible outcome for every server command.
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient, type Middleware } from 'vscode-languageclient/node';
import { Commands, type CommandResult, type DefineTermArgs } from '../../server/src/shared/protocol';
import { ClientCommands, definitionCompanions, isCommandResult, scopeLabel, validateDefinition, withDefinitionTitle, writtenTerm } from './commands';
import { askingForDefinition } from './vocabularyFixes';

const RESULT_MESSAGE_MS = 5_000;

export function quickFixMiddleware(): Middleware {
  return {
    async provideCodeActions(document, range, context, token, next) {
      const items = await next(document, range, context, token);
      if (!items || items.length === 0) return items;
      // "Define … in this spec's Domain Language" asks for the definition first.
      const out = items.map((item) => (item instanceof vscode.CodeAction ? askingForDefinition(item) : item));
      // Insert from the back so earlier indexes stay valid.
      for (const [index, args] of definitionCompanions(items).reverse()) {
        const source = items[index] as vscode.CodeAction;
        const title = withDefinitionTitle(args);
        const action = new vscode.CodeAction(title, source.kind ?? vscode.CodeActionKind.QuickFix);
        if (source.diagnostics) action.diagnostics = source.diagnostics;
        action.command = { title, command: ClientCommands.defineTermWithDefinition, arguments: [args] };
        out.splice(index + 1, 0, action);
      }
      return out;
    },
    async executeCommand(command, args, next) {
      const result: unknown = await next(command, args);
      showOutcome(result);
      return result;
    },
  };
}

/** `specGlossary.defineTermWithDefinition`: input box, then the server's defineTerm with the definition. */
export async function defineTermWithDefinition(client: LanguageClient | undefined, args: DefineTermArgs | undefined): Promise<CommandResult | undefined> {
  if (!client) {
    void vscode.window.showWarningMessage('Spec Glossary: the language server is not running.');
    return undefined;
  }
  if (!args || typeof args.term !== 'string') {
    void vscode.window.showWarningMessage('Spec Glossary: use this command from a quick fix on a glossary diagnostic.');
    return undefined;
  }
  const definition = await vscode.window.showInputBox({
    title: withDefinitionTitle(args),
    prompt: `Definition of '${writtenTerm(args)}': recorded in the event log as a sense of the ${scopeLabel(args.scope)} (the YAML file is not changed) and pinned for this spec's mission.`,
    placeHolder: args.scope === 'team_domain' ? `What '${writtenTerm(args)}' means for the team` : `What '${writtenTerm(args)}' means in this mission`,
    ignoreFocusOut: true,
    validateInput: validateDefinition,
  });
  if (definition === undefined) return undefined; // cancelled
  try {
    const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: Commands.defineTerm, arguments: [{ ...args, definition: definition.trim() }] });
    showOutcome(result);
    return isCommandResult(result) ? result : undefined;
  } catch (error) {
    void vscode.window.showErrorMessage(`Spec Glossary: ${(error as Error).message}`);
    return undefined;
  }
}

export function showOutcome(result: unknown): void {
  if (!isCommandResult(result)) return;
  if (result.ok) vscode.window.setStatusBarMessage(`$(check) ${result.message}`, RESULT_MESSAGE_MS);
  else void vscode.window.showWarningMessage(`Spec Glossary: ${result.message}`);
}
