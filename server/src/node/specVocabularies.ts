/**
 * The vocabularies of missions' specs (SPEC §3): a document of a mission is checked with the
 * Domain Language (Key Entities, …) of its mission's spec. The spec of a document's mission is a
 * `spec.md` in the document's folder or a folder above it (up to the workspace root), or
 * `kitty-specs/<mission>/spec.md`, whose own mission (node/identity.ts) is the document's.
 *
 * Read once and kept: from the disk, or from an editor's buffer when the spec is open (its
 * unsaved edits count). The CLI makes one per run; the language server one per session, told
 * when a spec changes on disk (`invalidate`) and given the vocabulary its check of an open spec
 * read (`update`). `versionFor(mission)` changes whenever what a kept spec says to that
 * mission's documents may have changed.
 */

import path from 'node:path';
import { missionName } from '../core/check/wording';
import { readHeader } from '../core/extract/scan';
import { readVocabulary } from '../core/missionVocabulary/read';
import type { VocabularySource } from '../core/missionVocabulary/types';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from './fileSystem';
import { DEFAULT_MAX_FILE_BYTES, readWorkspaceText } from './files';
import { isInside } from './fsSafety';
import { documentIdentity, identityFields, type MetaCache } from './identity';

export const SPEC_FILE_NAME = 'spec.md';

/** Specs (and missing ones) kept from the disk at most; open specs' buffers are kept besides. */
const MAX_KEPT = 256;
/** Missions whose changes are counted one by one at most (`versionFor`). */
const MAX_MISSIONS_COUNTED = 10_000;

export interface SpecVocabulariesOptions {
  fs?: WorkspaceFileSystem;
  /** The text and version of a file open in an editor (it wins over the disk). */
  openText?: (file: string) => { text: string; version: number } | undefined;
  maxFileBytes?: number;
  /**
   * Told (at once, from inside a check) whenever what the spec `file` says to the documents of
   * its mission may have changed, however it was found: its own check, another document's check
   * reading a newer buffer or file, a change on disk, its mission moved. The language server
   * checks that folder's documents again (the changes counted by `versionFor` tell which).
   */
  changed?: (file: string) => void;
}

/** What a check read of a spec that is no longer kept (`reread`), to tell when it next says something else. */
interface ReadBefore {
  missionId: string;
  missionSlug: string;
  key: string;
  /** Whether it had a vocabulary section (a place "Define … in this spec's Domain Language" writes to). */
  sections: boolean;
}

/** One spec as last read. */
interface KeptSpec {
  /** The editor buffer's version it was read from; undefined: read from the disk. */
  version: number | undefined;
  source: VocabularySource;
  /** The fields of its front matter its mission is read from (with the meta.json files above it). */
  fields: Record<string, string> | undefined;
}

export class SpecVocabularies {
  /** By absolute path; null: no readable spec there. */
  private readonly specs = new Map<string, KeptSpec | null>();
  /** Where the spec of a (folder, mission) may be (`specCandidates`), worked out once. */
  private readonly candidates = new Map<string, string[]>();
  /** Changes that may concern every mission (specs forgotten, or one whose mission was unknown). */
  private everyMission = 0;
  /** Changes per mission: of the specs it had or has. */
  private readonly byMission = new Map<string, number>();
  /**
   * Specs read by a check and let go since (`reread`: closed, or changed on disk), by path: when
   * such a spec is opened and checked again, what it says is compared with what was read before
   * (`update`), as for a kept one. A few strings each, not the spec's text.
   */
  private readonly readBefore = new Map<string, ReadBefore>();

  constructor(private readonly options: SpecVocabulariesOptions = {}) {}

  /**
   * Changes whenever what the kept specs say to the documents of `missionId` may have changed
   * (part of the language server's cache keys: the spec of one mission edited leaves the other
   * missions' documents as they were).
   */
  versionFor(missionId: string): string {
    return `${this.everyMission}.${this.byMission.get(missionId) ?? 0}`;
  }

  /**
   * Something spec `file` says changed, for the documents of these missions (undefined: of any
   * mission); `file` undefined: specs were forgotten without a change being seen (`clear`).
   */
  private changed(file: string | undefined, ...missions: (string | undefined)[]): void {
    for (const mission of missions) {
      if (mission === undefined) this.everyMission++;
      else this.byMission.set(mission, (this.byMission.get(mission) ?? 0) + 1);
    }
    // (Every mission id a spec's front matter held while being typed has its count: past a bound,
    // one change of every mission's version lets them all go.)
    if (this.byMission.size > MAX_MISSIONS_COUNTED) {
      this.byMission.clear();
      this.everyMission++;
    }
    if (file !== undefined) this.options.changed?.(file);
  }

  /**
   * The vocabularies (with a section) of the specs of `missionId`, which define words for `documentPath` (not the
   * document itself: its own sections are read by its check). `missionOverride`: every document
   * is taken to be of this mission (the CLI's `--mission`).
   */
  forDocument(root: string, documentPath: string, missionId: string, metaCache: MetaCache, missionOverride?: string): VocabularySource[] {
    const out: VocabularySource[] = [];
    const self = path.resolve(documentPath);
    const key = `${root}\u0000${path.dirname(self)}\u0000${missionId}`;
    let files = this.candidates.get(key);
    if (!files) {
      // (Keyed by mission too: each mission id a front matter held while being typed adds one.)
      if (this.candidates.size >= MAX_MISSIONS_COUNTED) this.candidates.clear();
      this.candidates.set(key, (files = specCandidates(root, self, missionId)));
    }
    for (const file of files) {
      if (file === self) continue;
      const spec = this.spec(root, file, metaCache, missionOverride);
      // (A spec whose sections hold no entry yet still takes new ones: "Define … in this spec's Domain Language".)
      if (spec && spec.source.missionId === missionId && spec.source.vocabulary.sections.length > 0) out.push(spec.source);
    }
    return out;
  }

  /** The current vocabulary of a spec file, if it was read (for where an entry is now). */
  current(file: string): VocabularySource | undefined {
    return this.specs.get(path.resolve(file))?.source;
  }

  /**
   * An open spec was checked: keep the vocabulary its check read from buffer `version`, when a
   * vocabulary of that file is kept (another document's check read it). Returns true when it
   * says something else than what was kept.
   *
   * A spec no check read is not kept: its vocabulary holds the spec's whole text (its line
   * index), and an editor with 200 specs open, each its own mission's, kept 200 texts this way
   * beside the documents' own. A check that needs it later reads it from the editor's buffer.
   */
  update(source: VocabularySource, version: number, frontMatter: Record<string, unknown> | undefined): boolean {
    const file = path.resolve(source.file);
    const kept = this.specs.get(file);
    const before = kept === undefined ? this.readBefore.get(file) : kept?.source;
    if (kept === undefined && before === undefined) return false;
    this.readBefore.delete(file);
    const changed = before === undefined || before === null || differs(before, source);
    this.keep(file, { version, source: { ...source, file }, fields: identityFields(frontMatter) });
    if (changed) this.changed(file, before?.missionId, source.missionId);
    return changed;
  }

  /** A spec changed: read it again when next needed. */
  invalidate(file: string): void {
    const resolved = path.resolve(file);
    const kept = this.specs.get(resolved);
    if (this.specs.delete(resolved)) this.changed(resolved, kept?.source.missionId);
  }

  /**
   * A spec changed on disk, or its editor closed (its file counts again): read it again now.
   * True when it says something else than what was kept (the documents of its mission need
   * checking again); false also when it was never read (no check depended on it).
   */
  reread(root: string, file: string, metaCache: MetaCache): boolean {
    const resolved = path.resolve(file);
    const kept = this.specs.get(resolved);
    // (What checks read of it: kept, or remembered since it was let go.)
    const before = kept === undefined ? this.readBefore.get(resolved) : kept === null ? null : kept.source;
    if (before === undefined) return false;
    this.specs.delete(resolved);
    const now = this.spec(root, resolved, metaCache, undefined, false);
    // (Not kept: read again when a check needs it, so closing many specs keeps none of their
    // texts; what it says now is remembered, for when it changes again or is opened and checked.)
    this.specs.delete(resolved);
    if (now !== null) this.rememberRead(resolved, now.source);
    else this.readBefore.delete(resolved); // (gone: the checks it changes find it missing, and keep that)
    const changed = before === null ? now !== null && now.source.vocabulary.sections.length > 0 : now === null || differs(before, now.source);
    if (changed) this.changed(resolved, before?.missionId, now?.source.missionId);
    return changed;
  }

  private rememberRead(file: string, source: VocabularySource): void {
    this.readBefore.delete(file);
    if (this.readBefore.size >= MAX_MISSIONS_COUNTED) this.readBefore.clear();
    this.readBefore.set(file, { missionId: source.missionId, missionSlug: source.missionSlug, key: source.vocabulary.key, sections: source.vocabulary.sections.length > 0 });
  }

  /**
   * A folder was loaded again, its meta.json files to be read again (`metaCache`, fresh): a kept
   * spec under it whose mission is another now — a meta.json changed, reported or not — is
   * forgotten (read again when needed), a change for the mission it had and the one it has.
   */
  recheckMissions(root: string, metaCache: MetaCache): void {
    const fs = this.options.fs ?? NODE_FILE_SYSTEM;
    for (const [file, kept] of [...this.specs]) {
      if (kept === null || !isInside(root, file)) continue;
      const identity = documentIdentity(root, file, kept.fields, metaCache, fs);
      if (identity.missionId === kept.source.missionId && missionName(identity.missionId, identity.missionSlug) === kept.source.missionSlug) continue;
      this.specs.delete(file);
      this.changed(file, kept.source.missionId, identity.missionId);
    }
  }

  /** Forget every spec under `root` (its meta.json files, hence missions, may have changed). */
  clear(root: string): void {
    for (const file of [...this.specs.keys()]) if (isInside(root, file)) this.specs.delete(file);
    for (const file of [...this.readBefore.keys()]) if (isInside(root, file)) this.readBefore.delete(file);
    this.changed(undefined, undefined);
  }

  /**
   * Keeps what was read of a file, the most recent last; past `MAX_KEPT` the oldest spec read
   * from disk is let go (read again when needed): a spec's vocabulary holds its text.
   */
  private keep(file: string, spec: KeptSpec | null): void {
    this.specs.delete(file);
    this.specs.set(file, spec);
    if (this.specs.size <= MAX_KEPT) return;
    for (const [oldest, kept] of this.specs) {
      if (kept !== null && kept.version !== undefined) continue; // an open buffer's: kept while open
      this.specs.delete(oldest);
      if (this.specs.size <= MAX_KEPT) return;
    }
  }

  /** The spec at `file` as it is now, kept; `tell`: say when it changed (`reread` says so itself). */
  private spec(root: string, file: string, metaCache: MetaCache, missionOverride: string | undefined, tell = true): KeptSpec | null {
    const open = this.options.openText?.(file);
    const kept = this.specs.get(file);
    if (kept !== undefined && (open === undefined ? kept === null || kept.version === undefined : kept !== null && kept.version === open.version)) return kept;
    const fs = this.options.fs ?? NODE_FILE_SYSTEM;
    let text = open?.text;
    if (text === undefined) {
      const outcome = fs.stat(file)?.kind === 'file' ? readWorkspaceText(root, file, this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, fs) : undefined;
      if (!outcome?.ok) {
        this.keep(file, null);
        if (kept && tell) this.changed(file, kept.source.missionId);
        return null;
      }
      text = outcome.text;
    }
    const header = readHeader(text);
    const identity = documentIdentity(root, file, header.frontMatter?.data, metaCache, fs);
    const source: VocabularySource = {
      file,
      missionId: missionOverride ?? identity.missionId,
      missionSlug: missionOverride ?? missionName(identity.missionId, identity.missionSlug),
      vocabulary: readVocabulary(text, header.lines),
    };
    const spec: KeptSpec = { version: open?.version, source, fields: identityFields(header.frontMatter?.data) };
    const before = kept ? kept.source : this.readBefore.get(file);
    this.readBefore.delete(file);
    if (tell && before && differs(before, source)) this.changed(file, before.missionId, source.missionId);
    // (A spec checks found missing that now exists, with a section: its entries, and the place
    // "Define … in this spec's Domain Language" writes to, are new to its mission's documents.)
    else if (tell && kept === null && source.vocabulary.sections.length > 0) this.changed(file, source.missionId);
    this.keep(file, spec);
    return spec;
  }
}

/** Where the spec of a document's mission may be: `spec.md` in its folder or above (to the root), and `kitty-specs/<mission>/spec.md`. */
export function specCandidates(root: string, documentPath: string, missionId: string): string[] {
  const out: string[] = [];
  const top = path.resolve(root);
  for (let dir = path.dirname(path.resolve(documentPath)); isInside(top, dir); dir = path.dirname(dir)) {
    out.push(path.join(dir, SPEC_FILE_NAME));
    if (dir === top) break;
  }
  // (A mission id that is not a plain folder name names no folder: a separator, a NUL, too long.)
  if (missionId !== '.' && missionId !== '..' && !/[\\/\0]/.test(missionId) && Buffer.byteLength(missionId) <= 255) {
    const inKittySpecs = path.join(top, 'kitty-specs', missionId, SPEC_FILE_NAME);
    if (!out.includes(inKittySpecs)) out.push(inKittySpecs);
  }
  return out;
}

/**
 * `a` is a kept spec's vocabulary, or what was read of a spec before (`ReadBefore`). What it says
 * to its mission's documents: its mission, its entries, and whether it has a vocabulary section
 * at all (an empty one already offers "Define … in this spec's Domain Language" to them).
 */
function differs(a: VocabularySource | ReadBefore, b: VocabularySource): boolean {
  const [key, sections] = 'key' in a ? [a.key, a.sections] : [a.vocabulary.key, a.vocabulary.sections.length > 0];
  return a.missionId !== b.missionId || a.missionSlug !== b.missionSlug || key !== b.vocabulary.key || sections !== b.vocabulary.sections.length > 0;
}
