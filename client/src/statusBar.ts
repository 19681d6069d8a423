/**
 * The gate status of the active spec in the status bar, taken from the server's code lens
 * (`textDocument/codeLens`) whenever the active editor or its diagnostics change.
 */

import * as vscode from 'vscode';
import { CodeLensRequest, type LanguageClient } from 'vscode-languageclient/node';
import { DIAGNOSTIC_SOURCE } from '../../server/src/shared/protocol';
import { isSpecDocument } from './documents';
import { gateLensTitle, gateStatusText, type SeverityCounts } from './gateStatus';

const REFRESH_DELAY_MS = 150;

export class GateStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.item = vscode.window.createStatusBarItem('specGlossary.gateStatus', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Spec Glossary gate status';
    this.item.command = 'workbench.actions.view.problems';
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.languages.onDidChangeDiagnostics((event) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && event.uris.some((uri) => uri.toString() === active)) this.schedule(REFRESH_DELAY_MS);
      }),
    );
  }

  /** Re-read the status now (e.g. after the server started or stopped). */
  refresh(): void {
    this.schedule(0);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delay);
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    const client = this.client();
    if (!document || !client || !isSpecDocument(document)) {
      this.item.hide();
      return;
    }
    let title: string | undefined;
    try {
      const lenses = await client.sendRequest(CodeLensRequest.type, { textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) } });
      title = gateLensTitle(lenses);
    } catch {
      title = undefined;
    }
    // A newer update (another editor, newer diagnostics) has started meanwhile.
    if (generation !== this.generation) return;
    if (!title) {
      this.item.hide();
      return;
    }
    this.item.text = gateStatusText(title, countSeverities(document.uri));
    this.item.tooltip = `${title}\nSpec Glossary — click to open the Problems view.`;
    this.item.show();
  }
}

function countSeverities(uri: vscode.Uri): SeverityCounts {
  const counts: SeverityCounts = { errors: 0, warnings: 0, others: 0 };
  for (const diagnostic of vscode.languages.getDiagnostics(uri)) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
    if (diagnostic.severity === vscode.DiagnosticSeverity.Error) counts.errors++;
    else if (diagnostic.severity === vscode.DiagnosticSeverity.Warning) counts.warnings++;
    else counts.others++;
  }
  return counts;
}
