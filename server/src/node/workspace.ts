/**
 * One workspace folder's glossary state, read from disk: seed files of the four scopes (the
 * bundled core when the workspace has none), `.kittify/config.yaml` and the replayed event logs.
 * Shared by the CLI and the language server; the server passes unsaved editor buffers as overlays.
 */

import path from 'node:path';
import { DEFAULT_CONFIG, parseGlossaryConfig, type GlossaryConfig } from '../core/config';
import { sha256Hex } from '../core/hash';
import { isEntryRecord, isFileRecord, isSpecEntryRecord } from '../core/events/decisions';
import { GlossaryIndex } from '../core/glossary';
import { sensesForMission } from '../core/replay';
import { parseSeedFile, type SeedFile } from '../core/seeds';
import { SCOPE_ORDER, type OpenClarification, type Pin, type ReplayState, type ScopeId, type Sense, type SourceProblem } from '../core/types';
import { replayWorkspace, type LogProblem } from './eventStore';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from './fileSystem';
import { readWorkspaceText, versionIdOf } from './files';
import { bundledSeed } from './bundledGlossary';
import { bundledCoreGlossaryPath } from './packageFiles';

export interface LoadedSeed {
  scope: ScopeId;
  path: string;
  bundled: boolean;
  versionId: string;
  seed: SeedFile;
  /** The file could not be parsed or read; `seed` is the last good version (or empty). */
  stale: boolean;
  /**
   * The last version of the file that parsed, with its version id: `seed` itself when it parsed,
   * carried from snapshot to snapshot while the file stays broken (however many reloads that
   * takes), so a broken file never drops its scope. Absent when no version ever parsed here.
   */
  lastGood?: { seed: SeedFile; versionId: string };
}

export interface LoadOptions {
  /** Unsaved editor contents by absolute path; they win over the disk. */
  overlays?: ReadonlyMap<string, string>;
  /** The previous snapshot of this root: its seeds are kept when a file stops parsing. */
  previous?: WorkspaceSnapshot;
  maxFileBytes?: number;
  /** Where the seed files and config are read (the disk by default). */
  fs?: WorkspaceFileSystem;
  /** Replays the workspace's event logs (those on disk, through the event store, by default). */
  replay?: ReplayLogs;
  /** Told of each seed file and config read from the disk (not from an overlay), with its version id. */
  readFromDisk?: (file: string, versionId: string) => void;
}

/** Replays the event logs of a workspace (`overlays`: unsaved editor contents of logs). */
export type ReplayLogs = (root: string, overlays?: ReadonlyMap<string, string>) => Promise<{ state: ReplayState; problems: LogProblem[] }>;

export function seedPath(root: string, scope: ScopeId): string {
  return path.join(root, '.kittify', 'glossaries', `${scope}.yaml`);
}

export function configPath(root: string): string {
  return path.join(root, '.kittify', 'config.yaml');
}

/** The folder holding `.kittify/`, walking up from `start` (a file or folder). */
export function findWorkspaceRoot(start: string, fs: WorkspaceFileSystem = NODE_FILE_SYSTEM): string | undefined {
  const dir = path.resolve(start);
  const here = fs.stat(dir);
  return new WorkspaceRootFinder(fs).rootOf(here && here.kind !== 'directory' ? path.dirname(dir) : dir);
}

/**
 * The walk up to the folder holding `.kittify/`, for many folders of one tree (`check` of a
 * workspace asks for every spec's folder): what a folder's walk up found is kept for each folder it passed, so the next spec of
 * `kitty-specs/` stops at `kitty-specs/` instead of looking for `.kittify/` in each folder above
 * again (~4 stats per spec). For a run that takes the tree as it is while it runs.
 */
export class WorkspaceRootFinder {
  private readonly known = new Map<string, string | undefined>();

  constructor(private readonly fs: WorkspaceFileSystem = NODE_FILE_SYSTEM) {}

  /** The folder holding `.kittify/` at or above `folder` (a folder, not a file). */
  rootOf(folder: string): string | undefined {
    let dir = path.resolve(folder);
    const passed: string[] = [];
    let root: string | undefined;
    for (;;) {
      if (this.known.has(dir)) {
        root = this.known.get(dir);
        break;
      }
      passed.push(dir);
      if (kittifyIn(dir, this.fs)) {
        root = dir;
        break;
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    for (const folder of passed) this.known.set(folder, root);
    return root;
  }
}

/**
 * Whether `dir` holds a `.kittify/` folder. A folder that cannot be searched (no `x` permission)
 * holds none as far as anyone can tell: the walk goes on up, and the spec's own read says why it
 * cannot be read.
 */
function kittifyIn(dir: string, fs: WorkspaceFileSystem): boolean {
  try {
    return fs.stat(path.join(dir, '.kittify'))?.kind === 'directory';
  } catch {
    return false;
  }
}

/** A workspace file that could not be read, or was read with a caveat (`read`: invalid UTF-8 replaced). */
export interface FileProblem {
  file: string;
  message: string;
  /** The file was read all the same (its bad bytes replaced): a warning, not a file left out. */
  read?: true;
  /** What is said of it, when not that it cannot be read (`file.unreadable`): a warning. */
  code?: 'file.misnamed';
}

/** The missions' own glossaries a reload takes over at most (those asked for last). */
const ADOPTED_MISSION_GLOSSARIES = 8;

/** The log's senses, pins and open clarifications by mission (one pass over each). */
interface MissionGroups {
  /** Senses events added for every mission. */
  shared: Sense[];
  /** Senses events added for one mission only (mission_local), by mission. */
  ownSenses: Map<string, Sense[]>;
  pins: Map<string, Pin[]>;
  clarifications: Map<string, OpenClarification[]>;
}

export class WorkspaceSnapshot {
  private readonly indexes = new Map<string, GlossaryIndex>();
  private baseIndex: GlossaryIndex | undefined;
  private readonly pinsByMission = new Map<string, ReadonlyMap<string, Pin>>();
  private seedKeys: Set<string> | undefined;
  private liveEventSenses: readonly Sense[] | undefined;
  private grouped: MissionGroups | undefined;
  private sharedView: string | undefined;
  private readonly views = new Map<string, string>();
  private readonly ownKeys = new Map<string, string>();

  constructor(
    readonly root: string,
    readonly seeds: readonly LoadedSeed[],
    readonly config: GlossaryConfig,
    readonly configProblems: readonly SourceProblem[],
    readonly replay: ReplayState,
    readonly eventProblems: readonly LogProblem[],
    /** Problems reading files (too large, binary, outside the workspace). */
    readonly fileProblems: readonly FileProblem[],
    /** Where its files were read (and a document's meta.json is). */
    readonly fs: WorkspaceFileSystem = NODE_FILE_SYSTEM,
  ) {}

  /**
   * The senses the logs add, as every glossary of this folder takes them: the replay's, less the
   * records of a glossary file's entries (provenance source GLOSSARY_FILE_SOURCE) that the file no
   * longer holds — edited or removed while no server ran — which went with the entry, and less
   * every record of a spec's entry (SPEC_ENTRY_SOURCE): the spec's own section is read instead,
   * so such an entry edited or removed takes its record with it. A file that cannot be read, and
   * never could here, keeps its scope's records (its last good version then). Every view of the
   * glossary (checks, hover, the term index, glossary health, validate) reads these, so they
   * agree; what the log holds (to plan what to write) is `replay.addedSenses`.
   */
  get eventSenses(): readonly Sense[] {
    if (this.liveEventSenses) return this.liveEventSenses;
    const all = this.replay.addedSenses;
    if (!all.some(isEntryRecord)) return (this.liveEventSenses = all);
    if (!all.some(isFileRecord)) return (this.liveEventSenses = all.filter((s) => !isSpecEntryRecord(s)));
    const held = this.heldSeedKeys();
    const unreadable = new Set(this.unusableScopes());
    return (this.liveEventSenses = all.filter((s) => !isSpecEntryRecord(s) && (!isFileRecord(s) || held.has(senseKey(s)) || unreadable.has(s.scope))));
  }

  /**
   * The scopes whose glossary file is there but gives no sense: broken without a last good
   * version, or not read at all (binary, too large, denied, a link out of the workspace).
   */
  unusableScopes(): ScopeId[] {
    return SCOPE_ORDER.filter((scope) => {
      const seed = this.seeds.find((s) => s.scope === scope);
      if (seed) return seed.stale && !seed.lastGood;
      const file = seedPath(this.root, scope);
      return this.fileProblems.some((p) => p.file === file);
    });
  }

  /** The glossary a document of `missionId` is checked against. */
  glossaryFor(missionId: string): GlossaryIndex {
    if (!this.groups().ownSenses.has(missionId)) return (this.baseIndex ??= this.buildIndex(undefined));
    let index = this.indexes.get(missionId);
    if (index) this.indexes.delete(missionId); // (the last asked for last: see adoptGlossaries)
    else index = this.buildIndex(missionId);
    this.indexes.set(missionId, index);
    return index;
  }

  /** The mission's pins by term (one map per mission and snapshot). */
  pinsFor(missionId: string): ReadonlyMap<string, Pin> {
    let pins = this.pinsByMission.get(missionId);
    if (!pins) {
      const own = new Map<string, Pin>();
      for (const pin of this.groups().pins.get(missionId) ?? []) own.set(pin.term, pin.scopeGuessed ? this.withGlossaryScope(pin, missionId) : pin);
      this.pinsByMission.set(missionId, (pins = own));
    }
    return pins;
  }

  /** The mission's open clarifications (deferred questions), in replay order. */
  openClarificationsFor(missionId: string): readonly OpenClarification[] {
    return this.groups().clarifications.get(missionId) ?? [];
  }

  /**
   * What a document of `missionId` is checked against, as a short id: the seed files (by version
   * id), the config, the senses the logs add for every mission and for this one, and this
   * mission's pins and open clarifications. Two snapshots that give a mission the same id check
   * its documents alike: a decision in one mission leaves the others' documents as they were.
   */
  viewOf(missionId: string): string {
    let view = this.views.get(missionId);
    if (view === undefined) {
      const groups = this.groups();
      const own = sha256Hex(JSON.stringify([this.ownSensesKey(missionId), groups.pins.get(missionId) ?? [], groups.clarifications.get(missionId) ?? []])).slice(0, 24);
      this.views.set(missionId, (view = `${this.sharedKey()}.${own}`));
    }
    return view;
  }

  /**
   * Takes the glossaries `previous` (the folder's snapshot before this one) built, where they
   * are the same here: the same seed files and config and the same senses from the logs, for
   * every mission (the base glossary) and for the mission (its own). A reload for a decision then
   * builds again only the glossary of the mission it changed, and the engine's caches keyed by a
   * glossary keep what they hold.
   */
  adoptGlossaries(previous: WorkspaceSnapshot): void {
    if (previous.sharedKey() !== this.sharedKey()) return;
    if (previous.baseIndex) this.baseIndex = previous.baseIndex;
    // (Only those of the missions asked about last: the term index's first build asks for every
    // mission's, which would otherwise be carried from reload to reload for the whole session.)
    for (const [missionId, index] of [...previous.indexes].slice(-ADOPTED_MISSION_GLOSSARIES)) {
      if (previous.ownSensesKey(missionId) === this.ownSensesKey(missionId)) this.indexes.set(missionId, index);
    }
  }

  /**
   * The seed files (by the version id of the senses in use: a broken seed's last good one), the
   * config and the senses the logs add for every mission, as a short id. (A seed that breaks
   * keeps its senses, so the documents need no new check; its own diagnostics are keyed apart.)
   */
  private sharedKey(): string {
    return (this.sharedView ??= sha256Hex(JSON.stringify([this.seeds.map((s) => [s.scope, s.path, s.versionId]), this.config, this.groups().shared])).slice(0, 24));
  }

  /** The senses the logs add for `missionId` only, as a short id. */
  private ownSensesKey(missionId: string): string {
    let key = this.ownKeys.get(missionId);
    if (key === undefined) {
      const own = this.groups().ownSenses.get(missionId);
      this.ownKeys.set(missionId, (key = own === undefined ? '' : sha256Hex(JSON.stringify(own)).slice(0, 24)));
    }
    return key;
  }

  /**
   * A pin whose event named no scope, given the scope and confidence of the sense of its
   * definition in the mission's glossary (seed files, the bundled core glossary, the logs): the
   * sense Spec Kitty's CLI offered, wherever it comes from. Replay, which knows only the logs,
   * had guessed team_domain.
   */
  private withGlossaryScope(pin: Pin, missionId: string): Pin {
    const senses = this.glossaryFor(missionId)
      .sensesOf(pin.term)
      .filter((s) => s.definition === pin.sense.definition);
    const sense = senses.find((s) => s.status !== 'deprecated') ?? senses[0];
    return sense ? { ...pin, sense: { ...pin.sense, scope: sense.scope, confidence: sense.confidence } } : pin;
  }

  /** scope_refs of StepCheckpointed: every scope with a seed file, with its version id. */
  scopeRefs(): { scope: ScopeId; version_id: string }[] {
    return this.seeds.map((s) => ({ scope: s.scope, version_id: s.versionId }));
  }

  private groups(): MissionGroups {
    if (this.grouped) return this.grouped;
    const groups: MissionGroups = { shared: [], ownSenses: new Map(), pins: new Map(), clarifications: new Map() };
    const add = <T>(map: Map<string, T[]>, missionId: string, item: T) => {
      const list = map.get(missionId);
      if (list) list.push(item);
      else map.set(missionId, [item]);
    };
    for (const sense of this.eventSenses) {
      if (sense.scope === 'mission_local' && sense.origin.kind === 'event') add(groups.ownSenses, sense.origin.missionId, sense);
      else groups.shared.push(sense);
    }
    for (const pin of this.replay.pins) add(groups.pins, pin.missionId, pin);
    for (const open of this.replay.openClarifications) add(groups.clarifications, open.missionId, open);
    return (this.grouped = groups);
  }

  private buildIndex(missionId: string | undefined): GlossaryIndex {
    const seedSenses = this.seeds.flatMap((s) => s.seed.senses);
    // (A mission's: the shared and its own in the logs' order, as `sensesForMission` keeps them.)
    const eventSenses = missionId === undefined ? this.groups().shared : sensesForMission(this.eventSenses, missionId);
    return new GlossaryIndex([...seedSenses, ...this.withoutSeedEntries(eventSenses)]);
  }

  /**
   * Event senses that are not the record of a seed entry. A GlossarySenseUpdated with the scope,
   * surface and definition of an entry of the seed files (the editor records an entry saved in a
   * glossary file that way) is that entry, not a second sense of the term: the file's entry is
   * used (its place for go-to-definition, its status as the file says now).
   */
  private withoutSeedEntries(eventSenses: readonly Sense[]): readonly Sense[] {
    if (eventSenses.length === 0) return eventSenses;
    const keys = this.heldSeedKeys();
    return keys.size === 0 ? eventSenses : eventSenses.filter((s) => !keys.has(senseKey(s)));
  }

  /** scope, surface and definition of every entry of the seed files (a broken one's last good). */
  private heldSeedKeys(): Set<string> {
    return (this.seedKeys ??= new Set(this.seeds.flatMap((s) => s.seed.senses).map(senseKey)));
  }
}


function senseKey(sense: Pick<Sense, 'scope' | 'surface' | 'definition'>): string {
  return `${sense.scope}\u0000${sense.surface}\u0000${sense.definition}`;
}

/** A file's text and version id (the hash of its bytes); undefined when it is missing or unreadable. */
type ReadFile = (file: string) => { text: string; versionId: string } | undefined;

/** Reads a workspace's seed files, config and event logs into a snapshot. */
export async function loadWorkspace(root: string, options: LoadOptions = {}): Promise<WorkspaceSnapshot> {
  const fileProblems: FileProblem[] = [];
  const fs = options.fs ?? NODE_FILE_SYSTEM;
  // Editor buffers win over the files; a file that cannot be read is a problem, a missing one not.
  const read: ReadFile = (file) => {
    const overlay = options.overlays?.get(file);
    if (overlay !== undefined) return { text: overlay, versionId: versionIdOf(overlay) };
    const outcome = readWorkspaceText(root, file, options.maxFileBytes, fs);
    if (outcome.ok) {
      if (outcome.warning) fileProblems.push({ file, message: outcome.warning, read: true });
      const versionId = versionIdOf(outcome.bytes);
      options.readFromDisk?.(file, versionId);
      return { text: outcome.text, versionId };
    }
    if (!outcome.missing) fileProblems.push({ file, message: outcome.reason });
    return undefined;
  };
  const seeds: LoadedSeed[] = [];
  for (const scope of SCOPE_ORDER) {
    const seed = loadSeed(root, scope, read, fs, options.previous, fileProblems);
    if (seed) seeds.push(seed);
  }
  misnamedFiles(root, fs, fileProblems);
  const { config, problems: configProblems } = loadConfig(root, read, options.previous);
  const { replay, problems: eventProblems } = await replayLogs(root, options, fileProblems);
  const snapshot = new WorkspaceSnapshot(root, seeds, config, configProblems, replay, eventProblems, fileProblems, fs);
  if (options.previous) snapshot.adoptGlossaries(options.previous);
  return snapshot;
}

/**
 * Glossary files and the config spelt `.yml` (`team_domain.yml`) where no `.yaml` one is: Spec
 * Kitty reads only `.yaml`, and so does spec-glossary, so such a file is never read — said, with
 * the name to give it, instead of leaving its scope silently empty.
 */
function misnamedFiles(root: string, fs: WorkspaceFileSystem, fileProblems: FileProblem[]): void {
  for (const file of [...SCOPE_ORDER.map((scope) => seedPath(root, scope)), configPath(root)]) {
    const yml = file.replace(/\.yaml$/, '.yml');
    if (fs.stat(yml)?.kind !== 'file' || fs.stat(file) !== undefined) continue;
    fileProblems.push({ file: yml, code: 'file.misnamed', message: `${yml} is not read: glossary files end in .yaml, as Spec Kitty reads them; rename it to ${path.basename(file)}` });
  }
}

/**
 * The seed file of one scope (for the core scope, the bundled glossary when the workspace has
 * none). A file that is there but does not parse, or cannot be read (too large, binary, not a
 * regular file), keeps the last good version in memory (SPEC §3) and says so — on every reload
 * while it stays broken. A deleted file drops its scope. Nothing is kept across a restart: a
 * process that never saw a good version has none to keep (docs/reliability.md).
 */
function loadSeed(root: string, scope: ScopeId, read: ReadFile, fs: WorkspaceFileSystem, previous: WorkspaceSnapshot | undefined, fileProblems: FileProblem[]): LoadedSeed | undefined {
  const file = seedPath(root, scope);
  const problemsBefore = fileProblems.length;
  let content = read(file);
  let bundled = false;
  if (!content && scope === 'spec_kitty_core' && !fs.stat(file)) {
    const outcome = readWorkspaceText(undefined, bundledCoreGlossaryPath());
    if (outcome.ok) {
      content = { text: outcome.text, versionId: versionIdOf(outcome.bytes) };
      bundled = true;
    }
  }
  const sourcePath = bundled ? bundledCoreGlossaryPath() : file;
  const before = previous?.seeds.find((s) => s.scope === scope && s.path === sourcePath);
  const last = before?.lastGood;
  const kept = last ? `; the last good version (${last.seed.senses.length} senses) is still in use` : '';
  if (!content) {
    // There but unreadable (the reader recorded why): the last good version stays in use.
    if (!last || fileProblems.length === problemsBefore) return undefined;
    for (let i = problemsBefore; i < fileProblems.length; i++) fileProblems[i] = { ...fileProblems[i]!, message: fileProblems[i]!.message + kept };
    return { scope, path: sourcePath, bundled, versionId: last.versionId, seed: { ...last.seed, problems: [], parsed: false }, stale: true, lastGood: last };
  }
  const versionId = content.versionId;
  // The bytes the previous snapshot parsed: its seed, not another parse (a decision reloads the
  // folder for its log, and a glossary of thousands of entries took seconds to parse again).
  if (before !== undefined && !before.stale && before.versionId === versionId) return before;
  const seed = bundled ? bundledSeed(content.text, sourcePath) : parseSeedFile(content.text, sourcePath, scope, 'seed');
  if (seed.parsed) return { scope, path: sourcePath, bundled, versionId, seed, stale: false, lastGood: { seed, versionId } };
  const problems = seed.problems.map((p) => ({ ...p, message: p.message + kept }));
  return { scope, path: sourcePath, bundled, versionId: last?.versionId ?? versionId, seed: { ...(last?.seed ?? seed), problems, parsed: false }, stale: true, ...(last ? { lastGood: last } : {}) };
}

/** `.kittify/config.yaml` (the defaults without one; the last good one when it stops parsing). */
function loadConfig(root: string, read: ReadFile, previous: WorkspaceSnapshot | undefined): { config: GlossaryConfig; problems: SourceProblem[] } {
  const content = read(configPath(root));
  if (!content) return { config: DEFAULT_CONFIG, problems: [] };
  const parsed = parseGlossaryConfig(content.text);
  return { config: parsed.parsed ? parsed.config : (previous?.config ?? DEFAULT_CONFIG), problems: parsed.problems };
}

/** The replayed event logs; when they cannot be read, the previous state (or none) and a file problem. */
async function replayLogs(root: string, options: LoadOptions, fileProblems: FileProblem[]): Promise<{ replay: ReplayState; problems: LogProblem[] }> {
  try {
    const result = await (options.replay ?? replayWorkspace)(root, options.overlays);
    return { replay: result.state, problems: result.problems };
  } catch (error) {
    fileProblems.push({ file: path.join(root, '.kittify', 'events', 'glossary'), message: `event logs could not be read: ${(error as Error).message}` });
    return { replay: options.previous?.replay ?? { addedSenses: [], pins: [], openClarifications: [] }, problems: [] };
  }
}
