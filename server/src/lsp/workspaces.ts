/**
 * The workspace folders the server knows and one glossary snapshot per folder holding
 * `.kittify/` (multi-root: each has its own). A snapshot is rebuilt — with the previous one, so an
 * unparseable seed keeps its last good version — when a seed, config or event log changes on
 * disk or in an editor buffer (buffers are passed as overlays). Reloads of one folder never run
 * at the same time; requests that arrive while one is pending share it. Each rebuild gets a new
 * version number (part of the cache keys of the glossary files' analyses; a markdown document's
 * key holds what its mission is checked against instead: lsp/analysis.ts).
 *
 * An event log, seed file or config that is on disk as the current snapshot's load found it is
 * not read again when the watchers report it: the server's own decisions are appended,
 * then the folder reloaded at once (lsp/session.ts `glossaryWritten`), and a saved seed or config
 * is reloaded on `didSave`; the watchers' report of the same write came ~100 ms later and
 * reloaded the folder a second time — every open document checked again and the client asked to
 * pull its diagnostics again, for nothing.
 */

import path from 'node:path';
import type { FileStat, Watcher, WorkspaceFileSystem } from '../node/fileSystem';
import { META_FILE_NAME, type MetaCache } from '../node/identity';
import { isInside } from '../node/fsSafety';
import { eventLogDir } from '../node/eventStore';
import { DEFAULT_MAX_FILE_BYTES, readWorkspaceText, versionIdOf } from '../node/files';
import { configPath, findWorkspaceRoot, loadWorkspace, seedPath, type ReplayLogs, type WorkspaceSnapshot } from '../node/workspace';
import { SCOPE_ORDER } from '../core/types';
import { EVENT_LOG_SUFFIX } from '../core/events/logged';
import { affectsGlossary, classifyFile, isGlossaryFile } from './fileKinds';
import type { Logger } from './logger';

export interface OpenFile {
  fsPath: string;
  languageId: string;
  version: number;
  /** Its text (asked only of glossary files: a spec's buffer may be packed, and unpacking 200 of them is work). */
  text(): string;
}

export interface RegistryHost {
  /** Open editor buffers (file URIs only). */
  openFiles(): Iterable<OpenFile>;
  maxFileBytes(root: string): Promise<number>;
  logger: Logger;
  /** Where workspace files are read and watched. */
  fs: WorkspaceFileSystem;
  /** How event logs are replayed (the event store's, by default). */
  replay?: ReplayLogs;
}

/**
 * Told of each load of a folder (`first`: its first, nothing was checked against an older state).
 * `missionsMoved`: a meta.json was reported
 * changed since the load before (or a full reload was asked for), so documents — specs included —
 * may belong to other missions now.
 */
export type ReloadListener = (root: string, snapshot: WorkspaceSnapshot, first: boolean, missionsMoved: boolean) => void;

/** Delay that merges a burst of file-system events into one reload. */
const WATCH_RELOAD_DELAY_MS = 100;

interface RootState {
  root: string;
  snapshot?: WorkspaceSnapshot;
  version: number;
  chain: Promise<unknown>;
  queued?: Promise<WorkspaceSnapshot>;
  /** The latest reload asked for, until it settles (the first load is shared by every caller). */
  latest?: Promise<WorkspaceSnapshot>;
  timer?: NodeJS.Timeout;
  /** The watchers of `.kittify/` (one recursive, or one per folder where that is refused). */
  watchers: Watcher[];
  /** The folder itself, for `.kittify/` appearing, going or being replaced. */
  rootWatcher?: Watcher;
  /** The `.kittify/` the watchers follow (FileStat `id`, or its kind), '' when there is none: what the folder's watcher compares with. */
  kittify?: string;
  metaCache: MetaCache;
  /** Editor buffers (path → document version) the current snapshot was built from. */
  overlayVersions: Map<string, number>;
  /**
   * The size of each event log (absolute path) when the current snapshot's load began, before it
   * read them. Logs are only ever appended to, so a log of that size now is the one it read.
   */
  logSizes: Map<string, number>;
  /**
   * The version id of the bytes on disk of each seed file and the config (absolute path) as that
   * load read them — or, for one it read from an editor's buffer, as they were when it began.
   */
  yamlIds: Map<string, string>;
  /** A meta.json was reported changed (or every mission is to be read again) since the last load began. */
  missionsMoved: boolean;
  /**
   * The event logs open in an editor whose buffer, at this document version, was the log's text
   * on disk when a load last looked (`dropOlderLogCopies`).
   */
  logBuffersAsRead: Map<string, number>;
}

export class WorkspaceRegistry {
  private folders: string[] = [];
  private readonly states = new Map<string, RootState>();
  private readonly rootOfDir = new Map<string, string>();
  private readonly listeners: ReloadListener[] = [];
  private counter = 0;
  private disposed = false;

  constructor(private readonly host: RegistryHost) {}

  /** Workspace folder paths; the deepest folder containing a document wins. */
  setFolders(folders: readonly string[]): void {
    this.folders = [...new Set(folders.map((f) => path.resolve(f)))].sort((a, b) => b.length - a.length);
    this.rootOfDir.clear();
  }

  getFolders(): readonly string[] {
    return this.folders;
  }

  /**
   * The folder whose `.kittify/` governs a file: the nearest ancestor holding `.kittify/` (as the
   * CLI finds it, so both agree; a workspace folder opened below a Spec Kitty project still uses
   * its glossaries), else the deepest workspace folder containing the file, else its own folder.
   */
  rootFor(fsPath: string): string {
    const dir = path.dirname(path.resolve(fsPath));
    const cached = this.rootOfDir.get(dir);
    if (cached !== undefined) return cached;
    const root = findWorkspaceRoot(dir, this.host.fs) ?? this.folders.find((f) => isInside(f, dir)) ?? dir;
    this.rootOfDir.set(dir, root);
    return root;
  }

  onDidReload(listener: ReloadListener): void {
    this.listeners.push(listener);
  }

  current(root: string): WorkspaceSnapshot | undefined {
    return this.states.get(root)?.snapshot;
  }

  /** Version of the folder's glossary state (0 before the first load). */
  version(root: string): number {
    return this.states.get(root)?.version ?? 0;
  }

  /** meta.json cache of the folder, reset with every reload. */
  metaCache(root: string): MetaCache {
    return this.state(root).metaCache;
  }

  loadedRoots(): string[] {
    return [...this.states.values()].filter((s) => s.snapshot !== undefined).map((s) => s.root);
  }

  /** The current snapshot, loading the folder the first time. */
  snapshot(root: string): Promise<WorkspaceSnapshot> {
    const state = this.states.get(root);
    if (state?.snapshot) return Promise.resolve(state.snapshot);
    // A first load under way (started or waiting) is shared: loading again would make a new version.
    return state?.latest ?? this.reload(root);
  }

  /** A snapshot that reflects every open glossary buffer of the folder as it is now. */
  fresh(root: string): Promise<WorkspaceSnapshot> {
    const state = this.states.get(root);
    if (!state?.snapshot || state.queued || state.timer) return this.reload(root);
    const now = this.overlays(root).versions;
    const same = now.size === state.overlayVersions.size && [...now].every(([file, version]) => state.overlayVersions.get(file) === version);
    return same ? Promise.resolve(state.snapshot) : this.reload(root);
  }

  /** Reload after `delayMs` (merging requests that come in meanwhile). */
  requestReload(root: string, delayMs: number): void {
    if (this.disposed) return;
    const state = this.state(root);
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.reload(root).catch((error: unknown) => this.host.logger.error(`reloading ${root} failed`, error));
    }, delayMs);
  }

  /** Reload now; a reload already waiting to start is shared. */
  reload(root: string): Promise<WorkspaceSnapshot> {
    const state = this.state(root);
    clearTimeout(state.timer);
    state.timer = undefined;
    if (state.queued) return state.queued;
    const run = () => {
      state.queued = undefined;
      return this.load(state);
    };
    const next = state.chain.then(run, run);
    state.queued = next;
    state.latest = next;
    state.chain = next.catch(() => undefined);
    void next.finally(() => {
      if (state.latest === next) state.latest = undefined;
    }).catch(() => undefined);
    return next;
  }

  /** A file changed on disk (watcher): reload the folders it can affect, unless it is as their last load found it. */
  fileChanged(fsPath: string): void {
    if (!affectsGlossary(fsPath)) return;
    const file = path.resolve(fsPath);
    if (file.split(path.sep).includes('.kittify')) this.rootOfDir.clear(); // a .kittify/ may have appeared
    for (const state of this.states.values()) {
      if (!state.snapshot || !isInside(state.root, file)) continue;
      if (path.basename(file) === META_FILE_NAME) state.missionsMoved = true;
      if (this.readAsItIs(state, file)) this.host.logger.debug(`${file} reported changed, as it was read: ${state.root} not reloaded`);
      else this.requestReload(state.root, WATCH_RELOAD_DELAY_MS);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const state of this.states.values()) {
      clearTimeout(state.timer);
      for (const watcher of state.watchers) watcher.close();
      state.watchers = [];
      state.rootWatcher?.close();
      delete state.rootWatcher;
    }
  }

  /**
   * Whether `file` is on disk as the current snapshot's load found it: an event log of the same
   * size, or a seed file or the config whose bytes have the same version id (SPEC §3).
   */
  private readAsItIs(state: RootState, file: string): boolean {
    if (file.endsWith(EVENT_LOG_SUFFIX)) {
      const read = state.logSizes.get(file);
      return read !== undefined && this.host.fs.stat(file)?.size === read;
    }
    const read = state.yamlIds.get(file);
    return read !== undefined && this.versionId(file) === read;
  }

  /** The version id of a file's bytes; undefined when it is not a readable file within the size limit. */
  private versionId(file: string): string | undefined {
    const stat = this.host.fs.stat(file);
    if (stat?.kind !== 'file' || stat.size > DEFAULT_MAX_FILE_BYTES) return undefined;
    try {
      return versionIdOf(this.host.fs.readFile(file));
    } catch {
      return undefined;
    }
  }

  /** The version ids on disk now of the folder's seed files and config that `overlays` hold (see `RootState.yamlIds`). */
  private overlaidYamlIds(root: string, overlays: ReadonlyMap<string, string>): Map<string, string> {
    const ids = new Map<string, string>();
    for (const file of [...SCOPE_ORDER.map((scope) => seedPath(root, scope)), configPath(root)]) {
      if (!overlays.has(file)) continue;
      const id = this.versionId(file);
      if (id !== undefined) ids.set(file, id);
    }
    return ids;
  }

  /** The sizes of the folder's event logs now (see `RootState.logSizes`). */
  private logSizes(root: string): Map<string, number> {
    const sizes = new Map<string, number>();
    const dir = eventLogDir(root);
    for (const entry of this.host.fs.readDirectory(dir) ?? []) {
      if (entry.kind !== 'file' || !entry.name.endsWith(EVENT_LOG_SUFFIX)) continue;
      const file = path.join(dir, entry.name);
      const size = this.host.fs.stat(file)?.size;
      if (size !== undefined) sizes.set(file, size);
    }
    return sizes;
  }

  private state(root: string): RootState {
    let state = this.states.get(root);
    if (!state) {
      state = { root, version: 0, chain: Promise.resolve(), watchers: [], metaCache: new Map(), overlayVersions: new Map(), logSizes: new Map(), yamlIds: new Map(), missionsMoved: false, logBuffersAsRead: new Map() };
      this.states.set(root, state);
    }
    return state;
  }

  private overlays(root: string): { texts: Map<string, string>; versions: Map<string, number>; logs: Set<string> } {
    const texts = new Map<string, string>();
    const versions = new Map<string, number>();
    const logs = new Set<string>();
    for (const file of this.host.openFiles()) {
      const fsPath = path.resolve(file.fsPath);
      const kind = isInside(root, fsPath) ? classifyFile(root, fsPath, file.languageId) : undefined;
      if (!kind || !isGlossaryFile(kind)) continue;
      texts.set(fsPath, file.text());
      versions.set(fsPath, file.version);
      if (kind.kind === 'eventLog') logs.add(fsPath);
    }
    return { texts, versions, logs };
  }

  /**
   * Drops from `texts` the buffers of event logs that are older copies of the log, not edits of
   * it: the disk counts for them. A log is append-only, written by the server and the CLI, so a
   * buffer is what the editor read before the latest appends when it is the log's text on disk,
   * or has not changed (same document version) since a load found it was, or is seen for the first
   * time and the log begins with it (opened just before an append). An editor that does not
   * reload such a buffer would otherwise hide a decision the server just recorded. A buffer edited
   * since it matched the disk — a line deleted, unsaved — counts, as every glossary file's buffer
   * does. (Line ends are compared as lines: an editor may show a CRLF log with LF.)
   */
  private dropOlderLogCopies(state: RootState, texts: Map<string, string>, versions: ReadonlyMap<string, number>, logs: ReadonlySet<string>, maxFileBytes: number): void {
    const asRead = new Map<string, number>();
    for (const file of logs) {
      const text = texts.get(file);
      const version = versions.get(file);
      if (text === undefined || version === undefined) continue;
      const disk = readWorkspaceText(state.root, file, maxFileBytes, this.host.fs);
      // (A buffer no load saw yet that the log begins with was opened before the latest appends.)
      const firstSeenBehind = !state.overlayVersions.has(file) && disk.ok && startsWithLines(disk.text, text);
      if ((disk.ok && sameLines(disk.text, text)) || state.logBuffersAsRead.get(file) === version || firstSeenBehind) {
        asRead.set(file, version);
        texts.delete(file);
      }
    }
    state.logBuffersAsRead = asRead;
  }

  /** The next load of `root` reads every document's mission again (the reload command). */
  missionsMayHaveMoved(root: string): void {
    this.state(root).missionsMoved = true;
  }

  private async load(state: RootState): Promise<WorkspaceSnapshot> {
    const missionsMoved = state.missionsMoved;
    state.missionsMoved = false;
    const { texts, versions, logs } = this.overlays(state.root);
    const maxFileBytes = await this.host.maxFileBytes(state.root);
    this.dropOlderLogCopies(state, texts, versions, logs, maxFileBytes);
    // (Before the logs are read, and as the seeds and config are read — those in a buffer, whose
    // files the load does not read, before: a file written meanwhile is then reported, and read, again.)
    const logSizes = this.logSizes(state.root);
    const yamlIds = this.overlaidYamlIds(state.root, texts);
    const readFromDisk = (file: string, versionId: string) => yamlIds.set(file, versionId);
    const started = Date.now();
    const snapshot = await loadWorkspace(state.root, { overlays: texts, ...(state.snapshot ? { previous: state.snapshot } : {}), maxFileBytes, fs: this.host.fs, readFromDisk, ...(this.host.replay ? { replay: this.host.replay } : {}) });
    const first = state.snapshot === undefined;
    state.snapshot = snapshot;
    state.version = ++this.counter;
    state.overlayVersions = versions;
    state.logSizes = logSizes;
    state.yamlIds = yamlIds;
    state.metaCache = new Map();
    this.host.logger.debug(`loaded ${state.root} (version ${state.version}, ${snapshot.seeds.length} seed files) in ${Date.now() - started} ms`);
    this.watch(state);
    for (const listener of this.listeners) {
      try {
        listener(state.root, snapshot, first, missionsMoved);
      } catch (error) {
        this.host.logger.error('reload listener failed', error);
      }
    }
    return snapshot;
  }

  /**
   * The server also watches `.kittify/` itself, so edits by other processes are seen even when
   * the client sends no `workspace/didChangeWatchedFiles`. Bursts are merged into one reload. The
   * folder is watched too (not its tree), for a `.kittify/` made later (`spec-kitty init`), removed
   * or replaced (`git checkout`): the watchers then follow the one that is there.
   */
  private watch(state: RootState): void {
    const fs = this.host.fs;
    if (this.disposed || !fs.watch) return;
    const kittify = path.join(state.root, '.kittify');
    const found = fs.stat(kittify);
    // (Not a loose document's folder, such as ~/Downloads: only workspace folders and folders holding a .kittify/.)
    if (found?.kind === 'directory' || this.folders.includes(state.root)) state.rootWatcher ??= this.watchFolder(state);
    if (state.watchers.length > 0) return;
    state.kittify = kittifyIdentity(found);
    if (found?.kind !== 'directory') return;
    const add = (dir: string, recursive: boolean): boolean => {
      const watcher = this.startWatcher(
        dir,
        recursive,
        (name) => {
          if (name) this.fileChanged(path.join(dir, name));
          else this.requestReload(state.root, WATCH_RELOAD_DELAY_MS);
        },
        (stopped) => (state.watchers = state.watchers.filter((w) => w !== stopped)),
      );
      if (watcher) state.watchers.push(watcher);
      return watcher !== undefined;
    };
    if (add(kittify, true)) return;
    for (const dir of [kittify, path.join(kittify, 'glossaries'), path.join(kittify, 'events', 'glossary')]) if (fs.stat(dir)?.kind === 'directory') add(dir, false);
  }

  /** The watcher of the folder's own entries, for `.kittify` (see `watch`); undefined when it cannot watch. */
  private watchFolder(state: RootState): Watcher | undefined {
    return this.startWatcher(
      state.root,
      false,
      (name) => {
        if (name !== undefined && name !== '.kittify') return;
        // Only a `.kittify/` made, removed or replaced: some systems also report its entries' changes on it.
        if (kittifyIdentity(this.host.fs.stat(path.join(state.root, '.kittify'))) === state.kittify) return;
        // Whatever `.kittify/` there is now is watched after the reload (`watch`).
        for (const w of state.watchers) w.close();
        state.watchers = [];
        this.rootOfDir.clear();
        this.requestReload(state.root, WATCH_RELOAD_DELAY_MS);
      },
      (stopped) => {
        if (state.rootWatcher === stopped) delete state.rootWatcher;
      },
    );
  }

  /**
   * A watcher of `dir` (its tree when `recursive`); undefined, and said in the debug log, when the
   * system refuses one. One that fails later is closed, said, and handed to `stopped`.
   */
  private startWatcher(dir: string, recursive: boolean, onChange: (name: string | undefined) => void, stopped: (watcher: Watcher) => void): Watcher | undefined {
    try {
      const watcher: Watcher = this.host.fs.watch!(dir, recursive, onChange, (error) => {
        this.host.logger.debug(`watching ${dir} stopped: ${error.message}`);
        watcher.close();
        stopped(watcher);
      });
      return watcher;
    } catch (error) {
      this.host.logger.debug(`cannot watch ${dir}: ${(error as Error).message}`);
      return undefined;
    }
  }
}

/** What identifies a `.kittify/` for the folder's watcher: '' when there is no folder of that name. */
function kittifyIdentity(stat: FileStat | undefined): string {
  return stat?.kind === 'directory' ? (stat.id ?? 'directory') : '';
}

/** The same text, line ends aside (`\r\n` and `\n`). */
function sameLines(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}

/** `text` begins with `head`, line ends aside. */
function startsWithLines(text: string, head: string): boolean {
  return text.startsWith(head) || text.replace(/\r\n/g, '\n').startsWith(head.replace(/\r\n/g, '\n'));
}
