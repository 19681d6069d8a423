/**
 * A stand-in for the `vscode` module, complete enough for the bundled extension to activate and
 * for vscode-languageclient to start, talk to and stop the real server. APIs the tests look at
 * are real little implementations that record what happened; everything else is an inert stub
 * (any property, call or `new` works and returns another stub).
 */

import { URI, Utils } from 'vscode-uri';

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Disposable {
  static from(...items: Array<{ dispose(): unknown }>) {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  constructor(private readonly callOnDispose: () => unknown) {}
  dispose(): void {
    this.callOnDispose();
  }
}

class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly Source = new CodeActionKind('source');
  constructor(readonly value: string) {}
  append(part: string) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind) {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind) {
    return this.contains(other) || other.contains(this);
  }
}

class CodeAction {
  diagnostics?: unknown[];
  command?: unknown;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

/** `languages.match` for the filters the extension uses: scheme, language and `**`/`*` globs. */
function matches(selector: unknown, document: FakeDocument): boolean {
  const filters = Array.isArray(selector) ? selector : [selector];
  return filters.some((filter: { scheme?: string; language?: string; pattern?: string } | string) => {
    if (typeof filter === 'string') return filter === document.languageId;
    if (filter.scheme && filter.scheme !== document.uri.scheme) return false;
    if (filter.language && filter.language !== document.languageId) return false;
    if (filter.pattern) {
      const glob = filter.pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?');
      if (!new RegExp(`^${glob}$`).test(document.uri.path)) return false;
    }
    return true;
  });
}

/** Any property, call or `new`: another stub; awaiting it gives undefined. */
function stub(): any {
  const cache = new Map<PropertyKey, unknown>();
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => 0;
      if (prop === Symbol.iterator) return function* () {};
      if (!cache.has(prop)) cache.set(prop, stub());
      return cache.get(prop);
    },
    set(_t, prop, value) {
      cache.set(prop, value);
      return true;
    },
    apply: () => stub(),
    construct: () => stub(),
  });
}

/** Real objects first, stubs for the rest. */
function withStubs<T extends object>(real: T): T & Record<string, any> {
  const fallback = stub();
  return new Proxy(real, {
    get: (target, prop, receiver) => (prop in target ? Reflect.get(target, prop, receiver) : prop === 'then' ? undefined : fallback[prop]),
  }) as T & Record<string, any>;
}

export interface FakeDocument {
  uri: URI;
  fileName: string;
  languageId: string;
  version: number;
  isClosed: boolean;
  getText(): string;
}

export interface FakeVscode {
  module: Record<string, any>;
  /** Status bar items the extension created (their `text` is what the user sees). */
  statusBarItems: Array<Record<string, any>>;
  /** Open a file as a text document (fires onDidOpenTextDocument) and make it the active editor. */
  showDocument(path: string, languageId: string, text: string): FakeDocument;
  settings: Map<string, unknown>;
  commands: Map<string, (...args: any[]) => unknown>;
  contexts: Map<string, unknown>;
  messages: Array<{ level: string; text: string }>;
  output: string[];
  /** Fire `workspace.onDidChangeConfiguration` for these setting ids. */
  changeSettings(changes: Record<string, unknown>): void;
}

export function createFakeVscode(folder: string): FakeVscode {
  const settings = new Map<string, unknown>();
  const commands = new Map<string, (...args: any[]) => unknown>();
  const contexts = new Map<string, unknown>();
  const messages: Array<{ level: string; text: string }> = [];
  const output: string[] = [];
  const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  const documentOpened = new EventEmitter<FakeDocument>();
  const activeEditorChanged = new EventEmitter<unknown>();
  const textDocuments: FakeDocument[] = [];
  const statusBarItems: Array<Record<string, any>> = [];

  const Uri = withStubs({
    file: (path: string) => URI.file(path),
    parse: (value: string) => URI.parse(value),
    joinPath: (base: URI, ...parts: string[]) => Utils.joinPath(base, ...parts),
    from: (components: Parameters<typeof URI.from>[0]) => URI.from(components),
  });
  const disposable = () => new Disposable(() => undefined);
  const event = () => new EventEmitter<unknown>().event;
  const channel = (name: string) =>
    withStubs({
      name,
      append: (text: string) => output.push(text),
      appendLine: (text: string) => output.push(text),
      replace: () => undefined,
      clear: () => undefined,
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
    });
  const message = (level: string) => async (text: string) => {
    messages.push({ level, text });
    return undefined;
  };
  const configuration = (section?: string) =>
    withStubs({
      get: (key: string, fallback?: unknown) => {
        const id = section ? `${section}.${key}` : key;
        if (settings.has(id)) return settings.get(id);
        // A whole section (`get('specGlossary')`) as one object, as VS Code answers it.
        let found = false;
        const object: Record<string, any> = {};
        for (const [setting, value] of settings) {
          if (!setting.startsWith(`${id}.`)) continue;
          found = true;
          const parts = setting.slice(id.length + 1).split('.');
          let at = object;
          for (const part of parts.slice(0, -1)) at = at[part] ??= {};
          at[parts.at(-1)!] = value;
        }
        return found ? object : fallback;
      },
      has: (key: string) => settings.has(section ? `${section}.${key}` : key),
      inspect: () => undefined,
      update: async () => undefined,
    });

  const module: Record<string, any> = {
    version: '1.90.0',
    Uri,
    EventEmitter,
    Disposable,
    CancellationTokenSource,
    CodeActionKind,
    CodeAction,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    UIKind: { Desktop: 1, Web: 2 },
    env: withStubs({ language: 'en', appName: 'Fake Code', machineId: 'test', sessionId: 'test', uiKind: 1, remoteName: undefined }),
    workspace: withStubs({
      workspaceFolders: [{ uri: URI.file(folder), name: 'workspace', index: 0 }],
      textDocuments,
      notebookDocuments: [],
      getConfiguration: configuration,
      getWorkspaceFolder: () => ({ uri: URI.file(folder), name: 'workspace', index: 0 }),
      onDidChangeConfiguration: configurationChanged.event,
      onDidOpenTextDocument: documentOpened.event,
      onDidCloseTextDocument: event(),
      onDidChangeTextDocument: event(),
      onDidSaveTextDocument: event(),
      onWillSaveTextDocument: event(),
      onDidChangeWorkspaceFolders: event(),
      onDidCreateFiles: event(),
      onDidRenameFiles: event(),
      onDidDeleteFiles: event(),
      onWillCreateFiles: event(),
      onWillRenameFiles: event(),
      onWillDeleteFiles: event(),
      onDidOpenNotebookDocument: event(),
      onDidCloseNotebookDocument: event(),
      onDidChangeNotebookDocument: event(),
      onDidSaveNotebookDocument: event(),
      createFileSystemWatcher: () => withStubs({ onDidCreate: event(), onDidChange: event(), onDidDelete: event(), dispose: () => undefined }),
    }),
    window: withStubs({
      activeTextEditor: undefined,
      visibleTextEditors: [],
      createOutputChannel: channel,
      createStatusBarItem: () => {
        const item: Record<string, any> = { visible: false, text: '' };
        Object.assign(item, { show: () => (item['visible'] = true), hide: () => (item['visible'] = false), dispose: () => undefined });
        statusBarItems.push(item);
        return item;
      },
      onDidChangeActiveTextEditor: activeEditorChanged.event,
      onDidChangeVisibleTextEditors: event(),
      showErrorMessage: message('error'),
      showWarningMessage: message('warning'),
      showInformationMessage: message('information'),
      setStatusBarMessage: (text: string) => {
        messages.push({ level: 'status', text });
        return disposable();
      },
    }),
    languages: withStubs({
      createDiagnosticCollection: () => withStubs({ set: () => undefined, delete: () => undefined, clear: () => undefined, dispose: () => undefined, forEach: () => undefined, get: () => [], has: () => false }),
      onDidChangeDiagnostics: event(),
      getDiagnostics: () => [],
      match: (selector: unknown, document: FakeDocument) => (matches(selector, document) ? 10 : 0),
    }),
    commands: withStubs({
      registerCommand: (id: string, handler: (...args: any[]) => unknown) => {
        if (commands.has(id)) throw new Error(`command '${id}' already exists`);
        commands.set(id, handler);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        if (id === 'setContext') {
          contexts.set(String(args[0]), args[1]);
          return undefined;
        }
        const handler = commands.get(id);
        if (!handler) throw new Error(`command '${id}' not found`);
        return handler(...args);
      },
      getCommands: async () => [...commands.keys()],
    }),
    extensions: withStubs({ all: [], getExtension: () => undefined, onDidChange: event() }),
  };

  const vscode = withStubs(module);
  return {
    module: vscode,
    statusBarItems,
    showDocument(path, languageId, text) {
      const document: FakeDocument = { uri: URI.file(path), fileName: path, languageId, version: 1, isClosed: false, getText: () => text };
      textDocuments.push(document);
      documentOpened.fire(document);
      vscode['window'].activeTextEditor = { document };
      activeEditorChanged.fire(vscode['window'].activeTextEditor);
      return document;
    },
    settings,
    commands,
    contexts,
    messages,
    output,
    changeSettings(changes) {
      for (const [id, value] of Object.entries(changes)) settings.set(id, value);
      configurationChanged.fire({ affectsConfiguration: (section) => Object.keys(changes).some((id) => id === section || id.startsWith(`${section}.`)) });
    },
  };
}
