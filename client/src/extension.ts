/**
 * The "Spec Glossary" VS Code extension: starts the bundled language server for markdown specs
 * and the `.kittify/` glossary files, adds the input-box "Define … with a definition…" quick
 * fixes, shows the gate status of the active spec, and restarts the server when a setting that
 * decides how it runs changes.
 */

import * as vscode from 'vscode';
import type { DefineInSpecArgs, DefineTermArgs } from '../../server/src/shared/protocol';
import { showCandidates } from './candidates';
import { ClientCommands } from './commands';
import { defineTermWithDefinition, quickFixMiddleware, showOutcome } from './quickFixes';
import { defineInSpecWithDefinition } from './vocabularyFixes';
import { CLIENT_NAME, ServerController } from './serverController';
import { needsRestart } from './settings';
import { GateStatusBar } from './statusBar';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(CLIENT_NAME);
  const traceOutput = vscode.window.createOutputChannel(`${CLIENT_NAME} (trace)`);
  const servers = new ServerController(context, output, traceOutput, quickFixMiddleware());
  controller = servers;
  const statusBar = new GateStatusBar(() => servers.current);

  context.subscriptions.push(
    output,
    traceOutput,
    servers,
    statusBar,
    servers.onDidChangeClient(() => statusBar.refresh()),
    vscode.commands.registerCommand(ClientCommands.defineTermWithDefinition, (args?: DefineTermArgs) => defineTermWithDefinition(servers.current, args)),
    vscode.commands.registerCommand(ClientCommands.defineInSpecWithDefinition, (args?: DefineInSpecArgs) => defineInSpecWithDefinition(servers.current, args, showOutcome)),
    vscode.commands.registerCommand(ClientCommands.showCandidates, () => showCandidates(servers.current)),
    vscode.commands.registerCommand(ClientCommands.restartServer, () => servers.restart()),
    vscode.commands.registerCommand(ClientCommands.showOutput, () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((section) => event.affectsConfiguration(section))) {
        output.appendLine('A Spec Glossary setting that decides how the server runs changed: restarting it.');
        void servers.restart();
      }
    }),
  );
  await servers.start();
}

export function deactivate(): Promise<void> | undefined {
  const current = controller;
  controller = undefined;
  return current?.stop();
}
