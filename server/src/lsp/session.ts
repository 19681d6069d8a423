/**
 * The state of one initialized server: client features, settings, workspace folders and their
 * snapshots, analyses, diagnostics publishing, commands and features — and how document, file
 * and configuration events move them. Created by `startServer` on `initialize`.
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isInside } from '../node/fsSafety';
import { FileChangeType, type Connection, type FileEvent, type InitializeParams, type TextDocuments, type WorkspaceFolder } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { ActorIdentity } from '../core/events/types';
import type { Engine } from '../core/check/engine';
import { currentActor } from '../node/actor';
import { EventStore } from '../node/eventStore';
import { readWorkspaceText } from '../node/files';
import { isMarkdownFile } from '../node/markdownFiles';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from '../node/fileSystem';
import type { ReplayLogs, WorkspaceSnapshot } from '../node/workspace';
import { SPEC_FILE_NAME, SpecVocabularies } from '../node/specVocabularies';
import { SpecEntrySaves } from './specEntrySaves';
import { fileUri } from '../service/paths';
import type { CheckedDocument } from '../service/types';
import { DocumentAnalyzer } from './analysis';
import { clientFeatures, type ClientFeatures } from './capabilities';
import { CommandHandlers } from './commands';
import { CommandRefused, writableRoot } from './commandTarget';
import { CreatedSeedFiles } from './createdFiles';
import type { EventAppender } from './decisionLog';
import { SeedSaveRecorder } from './seedSaves';
import { RenameSaves } from './renameSaves';
import { DiagnosticsPublisher } from './diagnostics';
import { LanguageFeatures } from './features';
import { isGlossaryFile } from './fileKinds';
import { GlossaryHealth, IndexedUsage } from './glossaryHealth';
import type { Logger } from './logger';
import { SettingsStore } from './settings';
import { TermFeatures } from './termFeatures';
import { EDIT_DELAY_MS, TermIndexer } from './termIndexer';
import { WorkspaceRegistry } from './workspaces';

/** The least delay between an edit of a glossary file's buffer and the reload it brings (the delay before debounceMs became 50 ms). */
const GLOSSARY_EDIT_DELAY_MS = 200;

export interface SessionOptions {
  /** The server's engine (made on first use). */
  engine: () => Engine;
  /** Where workspace files are read and watched. */
  fs: WorkspaceFileSystem;
  /**
   * Where a folder's decisions are appended: its EventStore on disk by default. A session on
   * another file system (tests in memory) must give its own, or events are refused.
   */
  eventStore?: (root: string) => EventAppender;
  /** How event logs are replayed (the event store's, by default). */
  replay?: ReplayLogs;
  runId?: string;
  actor?: ActorIdentity;
  /** Called as a build of the term index of `specs` specs starts; what it returns, as it ends (server.ts: the collector's mode). */
  indexBuilding?: (specs: number) => () => void;
}

export class Session {
  readonly client: ClientFeatures;
  readonly settings: SettingsStore;
  readonly registry: WorkspaceRegistry;
  readonly analyzer: DocumentAnalyzer;
  readonly publisher: DiagnosticsPublisher;
  readonly commands: CommandHandlers;
  readonly features: LanguageFeatures;
  /** The workspace's term index and the requests over it (references, highlight, rename, symbols). */
  readonly indexer: TermIndexer;
  readonly terms: TermFeatures;
  /** Health diagnostics on the glossary files (lsp/glossaryHealth.ts). */
  readonly health: GlossaryHealth;
  readonly runId: string;
  /** Who the session's decisions are recorded as (read once: the user's name is a system call). */
  private readonly actor: ActorIdentity;
  /** Missions' specs: their Domain Language defines words for every document of the mission (open buffers win). */
  readonly vocabularies: SpecVocabularies;
  /** Define-here entries waiting for their definition, recorded when the spec is saved with it. */
  private readonly specEntries: SpecEntrySaves;
  private readonly stores = new Map<string, EventAppender>();
  private readonly makeStore: (root: string) => EventAppender;
  private readonly seedSaves: SeedSaveRecorder;
  /** Renames answered and waiting for their save, recorded then. */
  private readonly renames: RenameSaves;
  /** Set on `shutdown`: nothing is written or published any more. */
  private stopped = false;
  /** Specs whose vocabulary changed since the documents were last checked again for it (`specVocabularyChanged`). */
  private readonly changedSpecs = new Set<string>();
  /** Appends to the event logs under way (`dispose` waits for them). */
  private readonly appending = new Set<Promise<unknown>>();
  /** Documents whose didOpen was just handled (TextDocuments also fires a content change for it). */
  private readonly justOpened = new Set<string>();
  private readonly fs: WorkspaceFileSystem;
  /** Workspace folders the client removed (absolute paths), until it adds them again. */
  private readonly removedFolders = new Set<string>();
  /** Spec Kitty workspaces taken as folders because the client named none (adoptWorkspace). */
  private readonly adoptedFolders = new Set<string>();
  /** Seed files made for draft entries the editor holds unsaved (removed while still empty). */
  private readonly createdFiles: CreatedSeedFiles;

  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly logger: Logger,
    params: InitializeParams,
    options: SessionOptions,
  ) {
    this.client = clientFeatures(params.capabilities);
    this.fs = options.fs;
    this.createdFiles = new CreatedSeedFiles(options.fs, logger);
    this.makeStore = options.eventStore ?? (options.fs === NODE_FILE_SYSTEM ? (root) => new EventStore(root) : () => REFUSING_STORE);
    this.runId = options.runId ?? `lsp-${randomUUID()}`;
    this.actor = options.actor ?? currentActor();
    this.settings = new SettingsStore(connection, this.client.configuration, logger, params.initializationOptions);
    const level = this.settings.pushedLogLevel();
    if (level) logger.setLevel(level);
    this.registry = this.createRegistry(options);
    this.registry.setFolders(foldersOf(params));
    this.vocabularies = new SpecVocabularies({ fs: options.fs, openText: (file) => this.openText(file), changed: (file) => this.specVocabularyChanged(file) });
    this.health = this.createHealth();
    this.analyzer = this.createAnalyzer(options);
    this.publisher = new DiagnosticsPublisher(connection, documents, this.analyzer, this.settings, this.client, logger, this.health);
    this.features = new LanguageFeatures(documents, this.analyzer, this.client, (root, file) => this.readText(root, file), (uri) => this.writesFor(uri));
    this.specEntries = this.createSpecEntries();
    this.commands = this.createCommands(connection, options);
    this.renames = this.createRenames(options);
    this.seedSaves = this.createSeedSaves(options);
    this.indexer = this.createIndexer(connection, options);
    this.terms = this.createTerms(options);
    this.registry.onDidReload((root, snapshot, first, missionsMoved) => this.glossaryReloaded(root, snapshot, first, missionsMoved));
  }

  // The parts the constructor makes, one method each. Their callbacks may reach parts made after
  // them (the indexer, the publisher, the save recorders): none is called before the session is made.

  private createRegistry(options: SessionOptions): WorkspaceRegistry {
    return new WorkspaceRegistry({
      openFiles: () => this.openFiles(),
      maxFileBytes: async (root) => (await this.settings.get(fileUri(root))).maxFileSize,
      logger: this.logger,
      fs: options.fs,
      ...(options.replay ? { replay: options.replay } : {}),
    });
  }

  private createHealth(): GlossaryHealth {
    return new GlossaryHealth({
      snapshot: (root) => this.registry.snapshot(root),
      settings: (root) => this.settings.get(fileUri(root)),
      provider: new IndexedUsage({ settled: (root) => this.indexer.settled(root) }),
      logger: this.logger,
      changed: (root, snapshot) => {
        if (!this.stopped) void this.publisher.glossaryFilesChanged(root, snapshot).catch((error: unknown) => this.logger.error('publishing glossary health failed', error));
      },
    });
  }

  private createAnalyzer(options: SessionOptions): DocumentAnalyzer {
    return new DocumentAnalyzer(
      this.registry,
      this.settings,
      options.engine,
      (uri) => this.documents.get(uri) !== undefined,
      this.vocabularies,
      this.health,
    );
  }

  private createSpecEntries(): SpecEntrySaves {
    return new SpecEntrySaves({
      logger: this.logger,
      runId: this.runId,
      actor: this.actor,
      eventStore: (root) => this.eventStore(root),
      snapshot: (root) => this.registry.fresh(root),
      recorded: (root) => this.glossaryWritten(root),
      stopped: () => this.stopped,
    });
  }

  /**
   * Whether decisions and edits of the workspace's files may be made for the document `uri`, as
   * the commands decide (commandTarget.ts `documentTarget`): a file inside a workspace folder (or
   * below a .kittify/ when none is open), an unsaved buffer when a folder is open.
   */
  private writesFor(uri: string): boolean {
    const parsed = URI.parse(uri);
    if (parsed.scheme !== 'file') return this.registry.getFolders().length > 0;
    try {
      writableRoot({ registry: this.registry, fs: this.fs }, parsed.fsPath, uri);
      return true;
    } catch (error) {
      if (error instanceof CommandRefused) return false;
      throw error;
    }
  }

  private createCommands(connection: Connection, options: SessionOptions): CommandHandlers {
    return new CommandHandlers({
      connection,
      documents: this.documents,
      registry: this.registry,
      analyzer: this.analyzer,
      settings: this.settings,
      client: this.client,
      logger: this.logger,
      runId: this.runId,
      actor: this.actor,
      eventStore: (root) => this.eventStore(root),
      fs: options.fs,
      createdFiles: this.createdFiles,
      engine: options.engine,
      vocabularies: this.vocabularies,
      specEntries: this.specEntries,
      glossaryWritten: (root) => this.glossaryWritten(root),
      stopped: () => this.stopped,
      glossaryFilesRecorded: async (root) => {
        await this.seedSaves.idle(root);
        await this.renames.idle();
      },
    });
  }

  private createRenames(options: SessionOptions): RenameSaves {
    return new RenameSaves({
      logger: this.logger,
      runId: this.runId,
      actor: this.actor,
      engine: options.engine,
      eventStore: (root) => this.eventStore(root),
      snapshot: (root) => this.registry.fresh(root),
      recorded: (root) => this.glossaryWritten(root),
      stopped: () => this.stopped,
    });
  }

  private createSeedSaves(options: SessionOptions): SeedSaveRecorder {
    return new SeedSaveRecorder({
      fs: options.fs,
      logger: this.logger,
      runId: this.runId,
      actor: this.actor,
      maxFileBytes: async (root) => (await this.settings.get(fileUri(root))).maxFileSize,
      openSpecs: (root) => this.openSpecs(root),
      eventStore: (root) => this.eventStore(root),
      recorded: (root) => this.glossaryWritten(root),
      renames: this.renames,
      stopped: () => this.stopped,
    });
  }

  private createIndexer(connection: Connection, options: SessionOptions): TermIndexer {
    return new TermIndexer({
      registry: this.registry,
      engine: options.engine,
      fs: options.fs,
      logger: this.logger,
      maxFileBytes: async (root) => (await this.settings.get(fileUri(root))).maxFileSize,
      openText: (fsPath) => this.documents.get(fileUri(fsPath))?.getText(),
      vocabularies: this.vocabularies,
      progress: async () => (this.client.workDoneProgress && !this.stopped ? connection.window.createWorkDoneProgress() : undefined),
      stopped: () => this.stopped,
      ...(options.indexBuilding ? { building: options.indexBuilding } : {}),
    });
  }

  private createTerms(options: SessionOptions): TermFeatures {
    return new TermFeatures({
      documents: this.documents,
      analyzer: this.analyzer,
      registry: this.registry,
      indexer: this.indexer,
      client: this.client,
      engine: options.engine,
      logger: this.logger,
      renames: this.renames,
      readText: (root, file) => this.readText(root, file),
    });
  }

  /** A folder's glossary files were read again (`first`: its first load; `missionsMoved`: meta.json files changed). */
  private glossaryReloaded(root: string, snapshot: WorkspaceSnapshot, first: boolean, missionsMoved: boolean): void {
    if (this.stopped) return;
    // (A folder the client removed is not reported on again when its files change.)
    if (this.inRemovedFolder(root)) return;
    // (A meta.json reported changed, or the reload command: every spec read again. Otherwise only
    // the specs whose mission is another now — a meta.json changed unreported — are: what the
    // others define stands, and the documents of a mission the change left alone need no check.)
    if (!first) {
      if (missionsMoved) this.vocabularies.clear(root);
      else this.vocabularies.recheckMissions(root, this.registry.metaCache(root));
      this.indexer.glossaryReloaded(root, snapshot, missionsMoved);
    }
    void this.publisher.publishGlossaryFiles(root, snapshot).catch((error: unknown) => this.logger.error('publishing glossary file diagnostics failed', error));
    if (!first) this.publisher.refresh((document) => this.analyzer.locate(document)?.root === root);
    void this.seedSaves.reloaded(root, snapshot, first).catch((error: unknown) => this.logger.error('recording a glossary file change failed', error));
    this.health.glossaryReloaded(root);
  }

  /** Whether `root` lies in a workspace folder the client removed, and in none it has open. */
  private inRemovedFolder(root: string): boolean {
    if (this.removedFolders.size === 0) return false;
    const folders = this.registry.getFolders();
    return [...this.removedFolders].some((gone) => isInside(gone, root)) && !folders.some((folder) => isInside(folder, root));
  }

  /** Reload a folder after a write and re-check its open documents at once. */
  private async glossaryWritten(root: string): Promise<void> {
    await this.registry.reload(root);
    if (!this.stopped) await this.publisher.publishNow((document) => this.analyzer.locate(document)?.root === root);
  }

  /** The open markdown documents of a folder, checked now. */
  private async openSpecs(root: string): Promise<CheckedDocument[]> {
    const out: CheckedDocument[] = [];
    for (const document of this.documents.all()) {
      const located = this.analyzer.locate(document);
      if (located?.root !== root || located.kind.kind !== 'markdown') continue;
      const analysis = await this.analyzer.analyze(document);
      if (analysis.kind === 'markdown') out.push(analysis.checked);
    }
    return out;
  }

  /** A document was saved: a glossary file's folder is reloaded now (its change may be recorded). */
  saved(document: TextDocument): void {
    const located = this.analyzer.locate(document);
    if (located && isGlossaryFile(located.kind)) this.registry.requestReload(located.root, 0);
    // A file a rename of a term only the log defines changed: recorded once saved with it (renameSaves.ts).
    if (located && this.renames.watching(located.fsPath)) {
      this.renames.fileSaved(located.fsPath, document.getText()).catch((error: unknown) => this.logger.error('recording a saved rename failed', error));
    }
    // A document whose define-here entry waits for its definition (a spec, or a document with a
    // vocabulary section of its own): recorded once it is written (specEntrySaves.ts).
    if (located && this.specEntries.watching(located.fsPath)) {
      void this.specEntries.saved(located.fsPath, document.getText()).catch((error: unknown) => this.logger.error('recording a definition written in a spec failed', error));
    }
  }

  opened(document: TextDocument): void {
    this.justOpened.add(document.uri);
    const located = this.analyzer.locate(document);
    if (!located) return;
    if (isGlossaryFile(located.kind)) this.registry.requestReload(located.root, 0);
    else if (located.kind.kind === 'markdown') {
      this.adoptWorkspace(document, located.root, located.fsPath);
      this.publisher.schedule(document.uri, true);
      // (A buffer that holds the file as the index read it changes neither the index nor health.)
      if (this.indexer.opened(located.fsPath, located.root)) this.healthSpecChanged(document, located.root, located.fsPath);
    }
  }

  /**
   * A spec of a Spec Kitty workspace (a folder holding `.kittify/`) opened while the client names
   * no workspace folder — an editor started on the file alone: that workspace is taken as a
   * folder of the session, as if the client had named it, so that references, rename and
   * glossary health see its other specs. Not a loose document's folder (no `.kittify/`), nor one
   * the client removed; and never beside a folder the client named, which bounds what the server
   * reads and writes.
   */
  private adoptWorkspace(document: TextDocument, root: string, fsPath: string): void {
    if (URI.parse(document.uri).scheme !== 'file') return;
    const folders = this.registry.getFolders();
    // (Only when the client named no folder: one it named bounds what is read and written.)
    if (!folders.every((folder) => this.adoptedFolders.has(folder))) return;
    if (folders.some((folder) => isInside(folder, fsPath)) || this.inRemovedFolder(root)) return;
    if (this.fs.stat(path.join(root, '.kittify'))?.kind !== 'directory') return;
    this.logger.info(`${root}: a spec of this Spec Kitty workspace was opened and no workspace folder is open; its specs are indexed as a folder's`);
    this.adoptedFolders.add(path.resolve(root));
    this.registry.setFolders([...folders, root]);
    this.indexer.foldersAdded([root]).catch((error: unknown) => this.logger.error('indexing the workspace of an opened spec failed', error));
  }

  /** After `initialized`: the term index of every folder is built in the background. */
  startIndexing(): void {
    this.indexer.start().catch((error: unknown) => this.logger.error('indexing the workspace failed', error));
  }

  changed(document: TextDocument): void {
    if (this.justOpened.delete(document.uri)) return;
    const located = this.analyzer.locate(document);
    if (!located) return;
    if (isGlossaryFile(located.kind)) {
      // (A reload reads the folder again and checks every open document: kept to typing's pauses,
      // not the 50 ms a spec's own check waits.)
      void this.settings.get(document.uri).then((s) => this.registry.requestReload(located.root, Math.max(s.debounceMs, GLOSSARY_EDIT_DELAY_MS)));
    } else if (located.kind.kind === 'markdown') {
      this.analyzer.edited(document.uri);
      this.publisher.schedule(document.uri);
      this.indexer.edited(path.resolve(located.fsPath), located.root);
      this.healthSpecChanged(document, located.root, located.fsPath);
    }
  }

  /**
   * A spec's text changed (typed, opened, closed: the disk counts again): its uses count for health
   * once the writer pauses. Not sooner than the index would take the edit in by itself: a health
   * run waits for the index to settle, which would otherwise index the whole edited document again
   * at every keystroke (measured: a 1 MB spec's keystroke went from ~12 to ~90 ms at debounce 0).
   */
  private healthSpecChanged(document: TextDocument, root: string, fsPath: string): void {
    if (URI.parse(document.uri).scheme !== 'file') return; // an untitled buffer is no spec of the workspace
    void this.settings.get(document.uri).then((s) => this.health.specChanged(root, fsPath, Math.max(s.debounceMs, EDIT_DELAY_MS)));
  }

  closed(document: TextDocument): void {
    this.justOpened.delete(document.uri);
    this.analyzer.forget(document.uri);
    this.settings.forget(document.uri);
    const located = this.analyzer.locate(document);
    // A closed spec's file counts again (its unsaved edits are gone).
    if (located && this.isSpec(document.uri)) this.specChanged(located.root, located.fsPath);
    // (A seed file made for a draft entry and closed unsaved, still empty, is removed.)
    if (located && isGlossaryFile(located.kind)) this.createdFiles.closed(located.fsPath);
    if (located && isGlossaryFile(located.kind)) this.registry.requestReload(located.root, 0); // the disk version counts again
    else {
      this.publisher.closed(document.uri);
      // The disk version counts again (nothing to do when the index holds it already).
      if (located?.kind.kind === 'markdown' && this.indexer.closed(located.fsPath, located.root)) this.healthSpecChanged(document, located.root, located.fsPath);
    }
  }

  watchedFilesChanged(changes: readonly FileEvent[]): void {
    for (const change of changes) {
      const uri = URI.parse(change.uri);
      if (uri.scheme !== 'file') continue;
      this.registry.fileChanged(uri.fsPath);
      const specsDropped = this.indexer.fileChanged(uri.fsPath, change.type === FileChangeType.Deleted);
      // A spec changed on disk (an open one is read from its buffer).
      if (this.isSpec(change.uri) && !this.documents.get(change.uri)) {
        this.specChanged(this.registry.rootFor(uri.fsPath), uri.fsPath);
        this.specWrittenOnDisk(this.registry.rootFor(uri.fsPath), uri.fsPath);
      }
      // A file a rename waits for, written by now (renameSaves.ts).
      if (!this.documents.get(change.uri) && change.type !== FileChangeType.Deleted) this.renamedOnDisk(this.registry.rootFor(uri.fsPath), uri.fsPath);
      // Any markdown file changed on disk (clients that watch more than we register for): its uses for health.
      if (isMarkdownFile(uri.fsPath) && !this.documents.get(change.uri)) this.health.specChanged(this.registry.rootFor(uri.fsPath), uri.fsPath, EDIT_DELAY_MS);
      // A folder of specs deleted or moved away: their uses are gone from health too.
      else if (specsDropped) this.health.specChanged(this.registry.rootFor(uri.fsPath), uri.fsPath, EDIT_DELAY_MS);
    }
  }

  private isSpec(uri: string): boolean {
    const parsed = URI.parse(uri);
    return parsed.scheme === 'file' && path.basename(parsed.fsPath) === SPEC_FILE_NAME;
  }

  /**
   * A spec's text changed outside its check (on disk, or its buffer closed): read it again, and
   * when what it says changed, check its folder's documents again.
   */
  private specChanged(root: string, fsPath: string): void {
    // (A change is told back through `specVocabularyChanged`.)
    this.vocabularies.reread(root, fsPath, this.registry.metaCache(root));
  }

  /**
   * What spec `file` says to its mission's documents changed (its check, another document's check
   * reading its newer buffer or file, a change on disk, its mission moved): on the next turn,
   * the open documents of its folder are checked again (those whose mission saw no change keep
   * their diagnostics: their keys did not change), and its documents are indexed again. The spec
   * itself is left to its own check (it may be being typed into: a re-check now would cut its
   * debounce short).
   */
  private specVocabularyChanged(file: string): void {
    if (this.changedSpecs.size === 0) setImmediate(() => this.recheckAfterSpecChanges());
    this.changedSpecs.add(path.resolve(file));
  }

  private recheckAfterSpecChanges(): void {
    const specs = [...this.changedSpecs];
    this.changedSpecs.clear();
    if (this.stopped) return;
    const roots = new Set(specs.map((file) => this.registry.rootFor(file)));
    this.publisher.refresh((document) => {
      const located = this.analyzer.locate(document);
      return located !== undefined && roots.has(located.root) && !specs.includes(path.resolve(located.fsPath));
    });
    for (const file of specs) this.indexer.vocabularyChanged(file);
  }

  /** A file not open in the editor changed on disk: a rename it shows saved is recorded. */
  private renamedOnDisk(root: string, fsPath: string): void {
    if (!this.renames.watching(fsPath)) return;
    const text = async () => {
      const outcome = readWorkspaceText(root, fsPath, (await this.settings.get(fileUri(root))).maxFileSize, this.fs);
      return outcome.ok ? outcome.text : undefined;
    };
    this.renames.fileSaved(fsPath, text).catch((error: unknown) => this.logger.error('recording a saved rename failed', error));
  }

  /** A spec not open in the editor changed on disk: its define-here entries written by now are recorded. */
  private specWrittenOnDisk(root: string, fsPath: string): void {
    if (!this.specEntries.watching(fsPath)) return;
    void (async () => {
      const outcome = readWorkspaceText(root, fsPath, (await this.settings.get(fileUri(root))).maxFileSize, this.fs);
      if (outcome.ok) await this.specEntries.saved(fsPath, outcome.text);
    })().catch((error: unknown) => this.logger.error('recording a definition written in a spec failed', error));
  }

  /** The text and version of an open file. */
  private openText(fsPath: string): { text: string; version: number } | undefined {
    const document = this.documents.get(URI.file(fsPath).toString());
    return document ? { text: document.getText(), version: document.version } : undefined;
  }

  configurationChanged(settings: unknown): void {
    this.settings.changed(settings);
    void this.updateLogLevel();
    this.indexer.settingsChanged();
    const roots = this.registry.loadedRoots();
    for (const root of roots) this.registry.requestReload(root, 0); // maxFileSize may have changed
    // Documents of folders not loaded yet still depend on the settings.
    this.publisher.refresh((document) => !roots.includes(this.analyzer.locate(document)?.root ?? ''));
  }

  workspaceFoldersChanged(added: readonly WorkspaceFolder[], removed: readonly WorkspaceFolder[]): void {
    const gone = new Set(removed.map((f) => URI.parse(f.uri).fsPath));
    for (const root of gone) {
      this.health.forget(root);
      this.publisher.forgetFolder(root);
      this.removedFolders.add(path.resolve(root));
    }
    for (const folder of added) this.removedFolders.delete(path.resolve(URI.parse(folder.uri).fsPath));
    const folders = [...this.registry.getFolders().filter((f) => !gone.has(f)), ...added.map((f) => URI.parse(f.uri).fsPath)];
    this.registry.setFolders(folders);
    this.publisher.refresh(() => true);
    this.indexer.foldersAdded(added.map((f) => URI.parse(f.uri).fsPath)).catch((error: unknown) => this.logger.error('indexing added folders failed', error));
  }

  async updateLogLevel(): Promise<void> {
    this.logger.setLevel((await this.settings.get()).logLevel);
  }

  /**
   * On `shutdown`: no more writes, publications, reloads or watching; settles once the appends
   * already under way are written (the `exit` that follows must not cut one, nor leave its lock).
   */
  async dispose(): Promise<void> {
    this.stopped = true;
    this.createdFiles.dispose();
    this.indexer.dispose();
    this.health.dispose();
    this.publisher.dispose();
    this.registry.dispose();
    await Promise.allSettled([...this.appending]);
  }

  /** A workspace file as the editor has it (its open buffer) or as it is on disk: undefined when missing, null when unreadable. */
  async readText(root: string, file: string): Promise<string | undefined | null> {
    const open = this.documents.get(fileUri(file));
    if (open) return open.getText();
    const outcome = readWorkspaceText(root, file, (await this.settings.get(fileUri(root))).maxFileSize, this.fs);
    return outcome.ok ? outcome.text : outcome.missing ? undefined : null;
  }

  private eventStore(root: string): EventAppender {
    let store = this.stores.get(root);
    if (!store) {
      const log = this.makeStore(root);
      store = { append: (missionId, drafts, options) => this.appended(() => log.append(missionId, drafts, options)) };
      this.stores.set(root, store);
    }
    return store;
  }

  /** An append, refused once shut down, and waited for by `dispose` while under way. */
  private appended<T>(append: () => Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('the server is shutting down: nothing was written'));
    const running = append();
    this.appending.add(running);
    const done = () => this.appending.delete(running);
    running.then(done, done);
    return running;
  }

  private *openFiles() {
    for (const document of this.documents.all()) {
      const uri = URI.parse(document.uri);
      if (uri.scheme !== 'file') continue;
      yield { fsPath: uri.fsPath, languageId: document.languageId, version: document.version, text: () => document.getText() };
    }
  }
}

/** The event store of a session on a file system other than the disk, when none was given. */
const REFUSING_STORE: EventAppender = {
  append: () => Promise.reject(new Error('this server has no event store for its file system; nothing was appended')),
};

function foldersOf(params: InitializeParams): string[] {
  const fromFolders = (params.workspaceFolders ?? []).map((f) => URI.parse(f.uri)).filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  if (fromFolders.length > 0) return fromFolders;
  if (params.rootUri) {
    const uri = URI.parse(params.rootUri);
    if (uri.scheme === 'file') return [uri.fsPath];
  }
  return params.rootPath ? [path.resolve(params.rootPath)] : [];
}
