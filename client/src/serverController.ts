/**
 * Starts, stops and restarts the language client. Start and stop requests are queued, so a
 * burst of setting changes ends in exactly one running server (or none when disabled), and the
 * output channels survive restarts.
 */

import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type Middleware, type ServerOptions } from 'vscode-languageclient/node';
import { SETTINGS_SECTION } from '../../server/src/shared/protocol';
import { RUNNING_CONTEXT_KEY } from './commands';
import { DOCUMENT_SELECTOR } from './documents';
import { readClientSettings } from './settings';

export const CLIENT_NAME = 'Spec Glossary';

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** Stops and restarts asked for and not done yet. */
  private stopsPending = 0;
  private readonly changed = new vscode.EventEmitter<LanguageClient | undefined>();
  /** Fires with the new client after a start, and with undefined after a stop. */
  readonly onDidChangeClient = this.changed.event;
  /** The running client's state changes (a crash, the library's own restart, or its giving up). */
  private stateListener: vscode.Disposable | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.OutputChannel,
    private readonly traceOutput: vscode.OutputChannel,
    private readonly middleware: Middleware,
  ) {}

  get current(): LanguageClient | undefined {
    return this.client?.isRunning() ? this.client : undefined;
  }

  /** Starts the server unless `specGlossary.enable` is false. */
  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    const stop = this.stopSoon();
    return this.enqueue(stop);
  }

  restart(): Promise<void> {
    const stop = this.stopSoon();
    return this.enqueue(async () => {
      await stop();
      await this.doStart();
    });
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }

  /**
   * A stop to run later; from now until it has run the client sends nothing more to the server
   * (see withoutStaleNotifications).
   */
  private stopSoon(): () => Promise<void> {
    this.stopsPending++;
    return () => this.doStop().finally(() => this.stopsPending--);
  }

  /**
   * The settings change that restarts the server also reaches the client library, which would
   * forward it to the server being stopped and report the failure: skip it then (the next
   * server reads its settings when it starts), and ignore a failure of a server already gone.
   */
  private withoutStaleNotifications(middleware: Middleware): Middleware {
    return {
      ...middleware,
      workspace: {
        ...middleware.workspace,
        didChangeConfiguration: async (sections, next) => {
          const client = this.client;
          if (this.stopsPending > 0 || !client?.isRunning()) return;
          try {
            await next(sections);
          } catch (error) {
            if (this.client === client && client.isRunning()) throw error;
          }
        },
      },
    };
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async doStart(): Promise<void> {
    if (this.client) return;
    const settings = readClientSettings((key) => vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key));
    if (!settings.enable) {
      this.output.appendLine('specGlossary.enable is false: the language server is not started.');
      return;
    }
    // (The launcher, not the bundle itself: it loads the bundle without raising malloc's mmap
    // threshold, which keeps ~8 MB off the server's resident memory; see scripts/launcher.cjs.)
    const module = settings.serverPath || this.context.asAbsolutePath('dist/server.js');
    if (!existsSync(module)) {
      void vscode.window.showErrorMessage(`Spec Glossary: the language server ${module} does not exist (check specGlossary.server.path).`);
      return;
    }
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR.map((filter) => ({ ...filter })),
      outputChannel: this.output,
      traceOutputChannel: this.traceOutput,
      // No diagnosticCollectionName: the client's pull-diagnostics collection is already named
      // after the server's diagnostic provider ('spec-glossary'), and a second collection of the
      // same name makes VS Code warn "DiagnosticCollection with name … does already exist" and
      // share one marker owner between the two.
      middleware: this.withoutStaleNotifications(this.middleware),
    };
    // The id is the settings section: the library reads `specGlossary.trace.server` by it.
    const client = new SpecGlossaryClient(SETTINGS_SECTION, CLIENT_NAME, serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      this.client = undefined;
      this.output.appendLine(`The language server did not start: ${(error as Error).message}`);
      void vscode.window.showErrorMessage(`Spec Glossary: the language server did not start (${(error as Error).message}).`);
      return;
    }
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, true);
    this.changed.fire(client);
    // After a crash the library restarts the server, or gives up after five crashes in three
    // minutes (then only "Restart Language Server" starts it): the commands' enablement and the
    // status bar follow.
    this.stateListener?.dispose();
    this.stateListener = client.onDidChangeState((event) => {
      if (this.client !== client || event.newState === State.Starting) return;
      const running = event.newState === State.Running;
      // (Stopped also between a crash and the library's restart; when it gives up it says so itself.)
      void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, running);
      this.changed.fire(running ? client : undefined);
    });
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    this.stateListener?.dispose();
    this.stateListener = undefined;
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
    this.changed.fire(undefined);
    try {
      // dispose = stop (shutdown + exit) and unregister the server's commands; our output
      // channels are not the client's to dispose, so they stay for the next start.
      if (client.needsStop()) await client.dispose(5_000);
    } catch (error) {
      this.output.appendLine(`Stopping the language server: ${(error as Error).message}`);
    }
  }
}

/**
 * vscode-languageclient 9 reports every exit of the server process as an error, a clean exit
 * after shutdown too, so each restart printed "[Error] Server process exited with code 0." in the
 * output channel. Later releases of the library log that exit as information (its issue #1403);
 * this does the same.
 */
class SpecGlossaryClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification?: boolean | 'force'): void {
    if (message === 'Server process exited with code 0.') {
      this.info('Server process exited normally.');
      return;
    }
    super.error(message, data, showNotification);
  }
}
