/**
 * The language server's term index of each workspace folder (core/terms/termIndex.ts holds the
 * data; this keeps it current). Built in the background after `initialized`, with
 * `window/workDoneProgress` when the client supports it, yielding to the event loop every few
 * milliseconds so requests and keystrokes are served meanwhile. Then kept up to date:
 *
 * - an open spec that changes is marked dirty and indexed again from its buffer shortly after
 *   (and before any answer that reads the index: answers never see a stale open document);
 * - a spec created, changed or deleted on disk (watched files) is read again or dropped; a
 *   closed spec is read again from disk (the disk version counts again);
 * - a glossary reload that changes which surfaces or synonyms exist (not a definition or a
 *   confidence) indexes the folder's specs again, in the background: only the specs of the
 *   missions whose own senses changed, when nothing else did (a decision that defines a term in a
 *   mission's glossary re-reads that mission's specs, not the workspace's).
 *
 * Every spec is checked by the server's engine as `check` would check it, with only the
 * glossary_match extractor: the occurrences are the engine's, and the other extractors' work
 * (unknown terms) is not needed here.
 */

import path from 'node:path';
import * as zlib from 'node:zlib';
import type { Engine } from '../core/check/engine';
import { TermIndex } from '../core/terms/termIndex';
import { fileStamp, type WorkspaceFileSystem } from '../node/fileSystem';
import { readWorkspaceText } from '../node/files';
import { isInside } from '../node/fsSafety';
import { isMarkdownFile, isWalkedMarkdown, markdownFilesIn } from '../node/markdownFiles';
import type { SpecVocabularies } from '../node/specVocabularies';
import type { WorkspaceSnapshot } from '../node/workspace';
import { DocumentIndexer } from '../node/indexDocument';
import type { Logger } from './logger';
import type { WorkspaceRegistry } from './workspaces';

/** What reports the progress of a build (LSP work-done progress). */
export interface IndexProgress {
  begin(title: string, percentage?: number, message?: string, cancellable?: boolean): void;
  report(percentage: number, message?: string): void;
  done(): void;
}

export interface TermIndexerDeps {
  registry: WorkspaceRegistry;
  engine: () => Engine;
  fs: WorkspaceFileSystem;
  logger: Logger;
  maxFileBytes(root: string): Promise<number>;
  /** The text of an open editor buffer of this path, if there is one. */
  openText(fsPath: string): string | undefined;
  /** Missions' specs: a mission's Domain Language defines words for its documents (the session's). */
  vocabularies?: SpecVocabularies;
  /** A progress reporter, when the client supports work-done progress. */
  progress(): Promise<IndexProgress | undefined>;
  stopped(): boolean;
  /**
   * Called as a build of `specs` specs starts; what it returns, as it ends. The server collects
   * for the build meanwhile instead of for memory (lsp/collectorMode.ts `hold`).
   */
  building?(specs: number): () => void;
}

/** Milliseconds of work between two yields to the event loop. */
const SLICE_MS = 8;
/** Milliseconds between two progress reports of a build. */
const PROGRESS_MS = 100;
/** An edited open spec is indexed again this long after its last change (answers flush it at once). */
export const EDIT_DELAY_MS = 300;

interface RootIndex {
  index: TermIndex;
  /** The folder's specs (what a re-index goes through, even when a build was stopped half-way). */
  files: Set<string>;
  /** Which surfaces and synonyms the index was built against (undefined: none yet). */
  surfaces: IndexedSurfaces | undefined;
  /** Bumped by each new build of the folder: an older build stops. */
  generation: number;
  /** Whether a build went through every file once (until then, answers wait for the builds). */
  complete: boolean;
  /** The build under way, if any (true once it went through every file). */
  building?: Promise<boolean>;
  /** Each spec indexed from the disk: what its file was then. */
  diskReads: Map<string, DiskRead>;
  /** The size limit (setting `maxFileSize`) the last build read the specs under. */
  maxBytes?: number;
}

/** A folder's index before any spec is in it. */
function emptyRootIndex(): RootIndex {
  return { index: new TermIndex(), files: new Set(), surfaces: undefined, generation: 0, complete: false, diskReads: new Map() };
}

/** A spec's file as the index read it. */
interface DiskRead {
  /** Size, time and inode (fileSystem.ts `fileStamp`). */
  stamp: string;
  /** CRC-32 of its bytes (undefined where Node has no `zlib.crc32`: before 20.15). */
  checksum: number | undefined;
}

/** zlib's CRC-32 (Node 20.15 and later): a few GB/s, over bytes read anyway. */
const crc32 = (zlib as { crc32?: (data: string | Uint8Array) => number }).crc32;

export class TermIndexer {
  private readonly roots = new Map<string, RootIndex>();
  private readonly dirty = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;
  /** After a settings change: the folders' size limits compared, and any re-index it needs started. */
  private limitsChecked: Promise<void> = Promise.resolve();
  /** Checks a spec and gathers what the index records of it (node/indexDocument.ts). */
  private readonly documents = new DocumentIndexer();

  /** Resolves once the session asked for the first build (after `initialized`). */
  private readonly startAsked: Promise<void>;
  private askStart: () => void = () => undefined;

  constructor(private readonly deps: TermIndexerDeps) {
    this.startAsked = new Promise((resolve) => (this.askStart = resolve));
  }

  /** Builds the index of every workspace folder (once; later calls wait for that build). */
  start(): Promise<void> {
    this.askStart();
    return (this.started ??= this.buildFolders(this.deps.registry.getFolders()));
  }

  /** Workspace folders added: index them. */
  foldersAdded(folders: readonly string[]): Promise<void> {
    const previous = this.start();
    return (this.started = previous.then(() => this.buildFolders(folders)));
  }

  /**
   * The index of a folder as it is now: after a first complete build and the open specs edited since.
   * (A re-index after a glossary change is not waited for: meanwhile each spec answers with the
   * occurrences of the glossary it was last indexed against.) Undefined for a folder not indexed.
   */
  async current(root: string): Promise<TermIndex | undefined> {
    await this.start();
    await this.limitsChecked;
    // (A glossary change during the first build stops it and indexes every file again: wait for that.)
    for (let state = this.roots.get(root); state?.building && !state.complete; state = this.roots.get(root)) await state.building;
    await this.flush();
    return this.roots.get(root)?.index;
  }

  /**
   * Indexes again the folder's closed specs whose file changed since it was indexed, and new ones,
   * and forgets deleted ones: another program wrote, made or removed them and no watcher has said
   * so yet (a client that watches no files). An edit is then built from the specs as they are now.
   * True when one changed. (A walk and a stat per spec: for a rename, not for every request.)
   */
  async refreshChanged(root: string): Promise<boolean> {
    const own = this.roots.get(root);
    if (!own) return false;
    const folders = this.deps.registry.getFolders().filter((folder) => isInside(folder, root) || isInside(root, folder));
    // (Outside every workspace folder there is no walk: the specs it knows are looked at.)
    const walked = folders.length === 0 ? undefined : new Set(this.specsByRoot(folders).get(root));
    let changed = false;
    // (The folder's glossary and size limit, asked once and only when a spec is to be read again.)
    let reading: { snapshot: WorkspaceSnapshot; maxBytes: number } | undefined;
    for (const file of new Set([...own.files, ...(walked ?? [])])) {
      if (this.deps.openText(file) !== undefined) continue;
      if (walked !== undefined && !walked.has(file)) {
        this.forgetFile(own, file);
        changed = true;
        continue;
      }
      if (own.files.has(file) && fileStamp(this.deps.fs.stat(file)) === own.diskReads.get(file)?.stamp) continue;
      own.files.add(file);
      reading ??= { snapshot: await this.deps.registry.snapshot(root), maxBytes: await this.deps.maxFileBytes(root) };
      this.indexFile(own, root, file, reading.snapshot, reading.maxBytes);
      changed = true;
    }
    return changed;
  }

  /** Whether a build of the folder (a re-index after a glossary change, say) is under way. */
  building(root: string): boolean {
    return this.roots.get(root)?.building !== undefined;
  }

  /** The index of a folder as far as it is built now, without waiting (undefined: not indexed, or not started). */
  asBuilt(root: string): TermIndex | undefined {
    return this.roots.get(root)?.index;
  }

  /**
   * The index of a folder once nothing is left to do: any build under way (a re-index after a
   * glossary change included) finished, and the edited specs indexed. Glossary health reads this.
   */
  async settled(root: string): Promise<TermIndex | undefined> {
    // (Health may be computed as soon as a folder loads: it does not start the build before the
    // session does, which reports its progress.)
    await this.startAsked;
    await this.start();
    await this.limitsChecked;
    for (let state = this.roots.get(root); state?.building; state = this.roots.get(root)) await state.building;
    await this.flush();
    return this.roots.get(root)?.index;
  }

  /**
   * Whether the index holds this spec as the editor now counts it, so that opening or closing it
   * changes nothing: the index read it from disk, no edit waits to be indexed, and what counts now
   * (an open buffer, else the file) has the bytes it read (CRC-32). An editor restoring a session
   * opens many specs as they are on disk; each was checked again 300 ms later for nothing, and
   * again from disk once closed (200 real specs: 0.4–0.75 s of CPU after opening them, 0.7–1 s on
   * closing, a peak resident set of ~100 MB against ~88; docs/performance.md).
   */
  private holdsAsIs(fsPath: string, root: string): boolean {
    const file = path.resolve(fsPath);
    const read = this.roots.get(root)?.diskReads.get(file);
    if (read?.checksum === undefined || crc32 === undefined || this.dirty.has(file)) return false;
    const open = this.deps.openText(file);
    // Open: the buffer, as UTF-8, is the bytes the index read (nothing is read; a leading U+FEFF
    // would be a character of the buffer, where the text read had its byte order mark dropped).
    if (open !== undefined) return open.charCodeAt(0) !== 0xfeff && crc32(open) === read.checksum;
    // Closed: the file is the one read, by its size, time and inode (nothing read when they
    // differ: a file grown past the size limit included), then by its bytes, as a rewrite can
    // keep the first three.
    if (fileStamp(this.deps.fs.stat(file)) !== read.stamp) return false;
    try {
      return crc32(this.deps.fs.readFile(file)) === read.checksum;
    } catch {
      return false; // (unreadable now: read again, which says why)
    }
  }

  /**
   * A spec was opened in the editor: its buffer counts now. True when that changes what the index
   * holds (the spec is indexed again soon, and glossary health should look again); false when the
   * buffer is the very text the index read.
   */
  opened(fsPath: string, root: string): boolean {
    if (this.holdsAsIs(fsPath, root)) return false;
    this.edited(path.resolve(fsPath), root);
    return true;
  }

  /** An open spec changed in the editor: index it again soon (a markdown file the walk would not find is not indexed). */
  edited(fsPath: string, root: string): void {
    if (!this.walked(fsPath)) return;
    this.dirty.set(fsPath, root);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch((error: unknown) => this.deps.logger.error('indexing an edited spec failed', error)), EDIT_DELAY_MS);
  }

  /**
   * A file was created, changed or deleted on disk (a watcher's report). True when specs left the
   * index at once (a folder of them deleted).
   */
  fileChanged(fsPath: string, deleted: boolean): boolean {
    return this.noteChange(fsPath, deleted, 'reported');
  }

  /**
   * A spec was closed in the editor: its disk version counts again (or the buffer of the same file
   * still open under another spelling of its URI). True when that changes what the index holds, as
   * for `opened`.
   */
  closed(fsPath: string, root: string): boolean {
    if (this.holdsAsIs(fsPath, root)) return false;
    this.noteChange(fsPath, false, 'closed');
    return true;
  }

  private noteChange(fsPath: string, deleted: boolean, how: 'reported' | 'closed'): boolean {
    const file = path.resolve(fsPath);
    const root = this.deps.registry.rootFor(file);
    // A folder deleted or moved away (one event for the folder, none for the files in it): its
    // specs that are not open are gone from the index. (Deletions where the walk finds no spec —
    // node_modules, hidden folders — are passed over without a look at the indexed files.)
    if (deleted && !isMarkdownFile(file)) {
      const state = this.roots.get(root);
      if (!state || !this.walked(path.join(file, 'spec.md'))) return false;
      let dropped = false;
      for (const indexed of [...state.files]) {
        if (indexed.startsWith(file + path.sep) && this.deps.openText(indexed) === undefined) {
          this.forgetFile(state, indexed);
          dropped = true;
        }
      }
      return dropped;
    }
    if (!this.walked(file)) return false;
    let state = this.roots.get(root);
    // An open spec is indexed from its buffer (any edit marks it): its file counts again once it is
    // closed (`holdsAsIs` then compares). A save, an editor's auto-save above all, changes nothing here.
    if (how === 'reported' && !deleted && state?.files.has(file) && this.deps.openText(file) !== undefined) return false;
    if (!state) {
      // The folder held no spec when it was indexed (nothing was kept for it): its first one.
      if (deleted || this.started === undefined) return false;
      // (Not complete: a first build of the folder still to come — folders are built one by one — is waited for.)
      this.roots.set(root, (state = emptyRootIndex()));
    }
    if (deleted && this.deps.openText(file) === undefined) {
      this.forgetFile(state, file);
      return false;
    }
    this.edited(file, root);
    return false;
  }

  /**
   * What a mission's spec defines changed (its buffer, or its file): the documents of the mission
   * — in the spec's folder and below — are indexed again soon, against its new vocabulary.
   */
  vocabularyChanged(specPath: string): void {
    const dir = path.dirname(path.resolve(specPath));
    const root = this.deps.registry.rootFor(specPath);
    const state = this.roots.get(root);
    if (!state) return;
    let any = false;
    for (const file of state.files) {
      if (file !== path.resolve(specPath) && file.startsWith(dir + path.sep)) {
        this.dirty.set(file, root);
        any = true;
      }
    }
    if (any) this.edited(path.resolve(specPath), root);
  }

  /**
   * The folder's glossary was reloaded: when its surfaces or synonyms changed, index its specs
   * again (those of the missions whose own senses changed, when only those did). `missionsMoved`:
   * meta.json files changed, so specs may be of other missions now (which the index records, and
   * which decides the senses a spec is indexed with): every spec is indexed again.
   */
  glossaryReloaded(root: string, snapshot: WorkspaceSnapshot, missionsMoved = false): void {
    const state = this.roots.get(root);
    if (!state?.surfaces) return;
    const missions = missionsMoved ? undefined : missionsChanged(state.surfaces, glossarySurfaces(snapshot));
    if (missions?.size === 0) return;
    // (A build under way goes through every file again: one of only some missions would stop it half-way.)
    const files = missions && !state.building ? this.filesOfMissions(state, missions) : [...state.files];
    this.reindex(root, files, 'a glossary change');
  }

  /** Indexes `files` of a folder again in the background, and says so in the log once done (`after`: why). */
  private reindex(root: string, files: readonly string[], after: string): void {
    const started = Date.now();
    this.rebuild(root, files).then(
      (finished) => finished && this.deps.logger.info(`indexed the glossary terms of ${files.length} specs again after ${after} in ${Date.now() - started} ms`),
      (error: unknown) => this.deps.logger.error(`indexing ${root} failed`, error),
    );
  }

  /**
   * The settings changed: a folder whose size limit (`maxFileSize`) is another now is indexed
   * again, so specs the old limit left out are read and ones it let in may be left out. Answers
   * and health wait for the comparison, then for the build as for any other.
   */
  settingsChanged(): void {
    const check = async () => {
      await this.started;
      for (const [root, state] of this.roots) {
        const maxBytes = await this.deps.maxFileBytes(root);
        if (state.maxBytes === undefined || state.maxBytes === maxBytes || this.deps.stopped()) continue;
        this.reindex(root, [...state.files], 'the file size limit changed');
      }
    };
    this.limitsChecked = this.limitsChecked.then(check).catch((error: unknown) => this.deps.logger.error('comparing the size limits of the indexed folders failed', error));
  }

  /** The indexed specs of these missions (as the index last found each spec's mission). */
  private filesOfMissions(state: RootIndex, missions: ReadonlySet<string>): string[] {
    const files: string[] = [];
    for (const file of state.files) {
      const mission = state.index.detailsOf(file)?.missionId;
      if (mission !== undefined && missions.has(mission)) files.push(file);
    }
    return files;
  }

  /** The specs the walk of `folders` finds (each once), by the folder root each belongs to. */
  private specsByRoot(folders: readonly string[]): Map<string, string[]> {
    const byRoot = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const folder of folders) {
      for (const file of markdownFilesIn(folder, this.deps.fs)) {
        if (seen.has(file)) continue;
        seen.add(file);
        const root = this.deps.registry.rootFor(file);
        const list = byRoot.get(root);
        if (list) list.push(file);
        else byRoot.set(root, [file]);
      }
    }
    return byRoot;
  }

  /** Whether the walk of a workspace folder finds this file (markdown, in no skipped folder). */
  private walked(file: string): boolean {
    return this.deps.registry.getFolders().some((folder) => isWalkedMarkdown(folder, file));
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const state of this.roots.values()) state.generation++;
  }

  private forgetFile(state: RootIndex, file: string): void {
    this.dirty.delete(file);
    state.index.delete(file);
    state.files.delete(file);
    state.diskReads.delete(file);
  }

  /** Indexes the dirty open specs now. */
  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    let count = 0;
    while (this.dirty.size > 0) {
      const [file, root] = this.dirty.entries().next().value as [string, string];
      this.dirty.delete(file);
      const state = this.roots.get(root);
      if (!state) continue;
      const snapshot = await this.deps.registry.snapshot(root);
      state.surfaces ??= glossarySurfaces(snapshot); // (a folder's first spec, created since)
      state.files.add(file);
      const maxBytes = await this.deps.maxFileBytes(root);
      // (A folder whose specs all came this way, made after the first build: its limit is this one.)
      state.maxBytes ??= maxBytes;
      this.indexFile(state, root, file, snapshot, maxBytes);
      count++;
    }
    if (count > 0) this.deps.logger.debug(`indexed ${count === 1 ? 'a spec' : `${count} specs`} again: edited, opened or closed in the editor, or changed on disk`);
  }

  private async buildFolders(folders: readonly string[]): Promise<void> {
    if (this.deps.stopped()) return;
    const byRoot = this.specsByRoot(folders);
    const total = [...byRoot.values()].reduce((n, files) => n + files.length, 0);
    const progress = total > 0 ? await this.deps.progress().catch(() => undefined) : undefined;
    progress?.begin('Indexing glossary terms', 0, `0/${total} specs`, false);
    const started = Date.now();
    let done = 0;
    let reported = started;
    try {
      for (const [root, files] of byRoot) {
        await this.rebuild(root, files, (count) => {
          done += count;
          // (Each report is a message to write and for the client to read: a few per second do.)
          if (Date.now() - reported < PROGRESS_MS) return;
          reported = Date.now();
          progress?.report(Math.floor((100 * done) / total), `${done}/${total} specs`);
        });
      }
    } finally {
      progress?.done();
    }
    this.deps.logger.info(`indexed the glossary terms of ${total} specs in ${Date.now() - started} ms`);
  }

  /** Indexes `files` of a folder again (a newer build of the folder stops this one). */
  private rebuild(root: string, files: readonly string[], onProgress?: (count: number) => void): Promise<boolean> {
    let state = this.roots.get(root);
    if (!state) this.roots.set(root, (state = emptyRootIndex()));
    for (const file of files) state.files.add(file);
    const generation = ++state.generation;
    const own = state;
    const run = async () => {
      const done = this.deps.building?.(files.length);
      try {
        return await this.indexFiles(own, generation, root, files, onProgress);
      } finally {
        done?.();
      }
    };
    const building = run().finally(() => {
      if (own.building === building) delete own.building;
    });
    own.building = building;
    return building;
  }

  /** The build of `rebuild` (false: a newer build of the folder, or the session's end, stopped it). */
  private async indexFiles(own: RootIndex, generation: number, root: string, files: readonly string[], onProgress?: (count: number) => void): Promise<boolean> {
    const snapshot = await this.deps.registry.snapshot(root);
    const maxBytes = await this.deps.maxFileBytes(root);
    own.surfaces = glossarySurfaces(snapshot);
    // (Only a build of every spec reads the whole folder under this limit: after one of some
    // missions' specs, a changed limit still has the others read again.)
    if (files.length >= own.files.size) own.maxBytes = maxBytes;
    else own.maxBytes ??= maxBytes;
    let slice = Date.now();
    let counted = 0;
    for (const file of files) {
      if (own.generation !== generation || this.deps.stopped()) return false;
      this.indexFile(own, root, file, snapshot, maxBytes);
      counted++;
      if (Date.now() - slice >= SLICE_MS) {
        onProgress?.(counted);
        counted = 0;
        await new Promise((resolve) => setImmediate(resolve));
        slice = Date.now();
      }
    }
    onProgress?.(counted);
    own.complete = true;
    return true;
  }

  /** Checks one spec (its open buffer, else the file) and records its terms; a spec that cannot be read is dropped. */
  private indexFile(own: RootIndex, root: string, file: string, snapshot: WorkspaceSnapshot, maxBytes: number): void {
    const index = own.index;
    let text = this.deps.openText(file);
    own.diskReads.delete(file);
    // (Indexed from its buffer as it is now: an edit or an opening that marked it is taken in. An
    // editor restoring its session opens specs before the first build reaches them.)
    if (text !== undefined) this.dirty.delete(file);
    if (text === undefined) {
      const outcome = readWorkspaceText(root, file, maxBytes, this.deps.fs);
      if (!outcome.ok) {
        index.delete(file);
        return;
      }
      text = outcome.text;
      own.diskReads.set(file, { stamp: outcome.stamp, checksum: crc32?.(outcome.bytes) });
    }
    // One spec that cannot be checked (a defect its text brings out) is left out of the index and
    // logged; the folder's other specs are still indexed, so references, rename and health work.
    let indexed: ReturnType<DocumentIndexer['index']>;
    try {
      indexed = this.documents.index(this.deps.engine(), snapshot, file, text, this.deps.registry.metaCache(root), this.deps.vocabularies);
    } catch (error) {
      this.deps.logger.error(`indexing ${file} failed; it is left out of the term index`, error);
      index.delete(file);
      return;
    }
    index.set(file, indexed.occurrences, indexed.details);
  }
}

/**
 * What the index depends on in a folder's glossary: whether checking is on, and the surfaces and
 * synonyms to avoid of every sense, each with the mission of a mission's own senses (`''` for the
 * others). A changed definition, confidence or pin leaves it alone.
 */
export interface IndexedSurfaces {
  check: boolean;
  /** `mission \0 surface \0 synonyms`, one per sense that differs in them. */
  keys: ReadonlySet<string>;
}

export function glossarySurfaces(snapshot: WorkspaceSnapshot): IndexedSurfaces {
  const keys = new Set<string>();
  for (const sense of [...snapshot.seeds.flatMap((s) => s.seed.senses), ...snapshot.eventSenses]) {
    const mission = sense.scope === 'mission_local' && sense.origin.kind === 'event' ? sense.origin.missionId : '';
    const synonyms = sense.status === 'deprecated' ? '' : sense.synonymsToAvoid.join('\u0001');
    keys.add(`${mission}\u0000${sense.surface}\u0000${synonyms}`);
  }
  return { check: snapshot.config.check, keys };
}

/**
 * Whose specs a change from `before` to `after` concerns: the missions whose own senses alone
 * changed (an empty set: nothing changed), or undefined for every spec (checking switched, or a
 * sense of every mission changed).
 */
export function missionsChanged(before: IndexedSurfaces, after: IndexedSurfaces): Set<string> | undefined {
  if (before.check !== after.check) return undefined;
  const missions = new Set<string>();
  for (const [from, to] of [
    [before.keys, after.keys],
    [after.keys, before.keys],
  ] as const) {
    for (const key of from) {
      if (to.has(key)) continue;
      const mission = key.slice(0, key.indexOf('\u0000'));
      if (mission === '') return undefined;
      missions.add(mission);
    }
  }
  return missions;
}
