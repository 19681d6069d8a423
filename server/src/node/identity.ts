/**
 * Mission and step of a document (SPEC §2): front matter `mission_id`, else the nearest
 * `meta.json` below the workspace root, else the folder directly under `kitty-specs/`, else
 * `default`; `step_id` from front matter, else the file name without extension.
 */

import path from 'node:path';
import { isStrictness } from '../core/policy';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from './fileSystem';
import { readWorkspaceText } from './files';

/** The file of a mission's folder that names the mission (`mission_id`) and may set its strictness. */
export const META_FILE_NAME = 'meta.json';

export interface DocumentIdentity {
  missionId: string;
  stepId: string;
  /** `glossary.strictness` of the mission's meta.json, if any. */
  missionStrictness?: unknown;
  /** The meta.json that was used, if any. */
  metaPath?: string;
  /**
   * The mission's folder name under `kitty-specs/` (`001-checkout-flow`), how people name a
   * mission whose id is a ULID; undefined for a document outside `kitty-specs/<mission>/`, or
   * whose front matter names another mission than the folder's meta.json.
   */
  missionSlug?: string;
}

interface MetaInfo {
  missionId?: string;
  strictness?: unknown;
  /** Why the file (or its mission_id) could not be used; it then counts as absent. */
  problem?: string;
}

/** Parsed meta.json files by folder; `null` when the folder has none. */
export type MetaCache = Map<string, MetaInfo | null>;

/** The meta.json files read so far that could not be used, and why (for the CLI's warnings). */
export function metaProblems(cache: MetaCache): { file: string; message: string }[] {
  const out: { file: string; message: string }[] = [];
  for (const [dir, info] of cache) if (info?.problem) out.push({ file: path.join(dir, META_FILE_NAME), message: info.problem });
  return out;
}

export function documentIdentity(root: string, documentPath: string, frontMatter: Record<string, unknown> | undefined, cache: MetaCache = new Map(), fs: WorkspaceFileSystem = NODE_FILE_SYSTEM): DocumentIdentity {
  const absolute = path.resolve(documentPath);
  // (Values of their own: an identity outlives the check in the server's caches, keyed by mission.)
  const fields = identityFields(frontMatter);
  const stepId = fields?.['step_id'] ?? path.basename(absolute).replace(/\.[^.]*$/, '');

  const declared = fields?.['mission_id'];
  let metaMission: string | undefined;
  let missionStrictness: unknown;
  let metaPath: string | undefined;
  // Walk from the document's folder up to (not including) the workspace root.
  const rootAbs = path.resolve(root);
  for (let dir = path.dirname(absolute); isStrictlyInside(rootAbs, dir); dir = path.dirname(dir)) {
    const meta = readMeta(root, dir, cache, fs);
    if (!meta) continue;
    if (missionStrictness === undefined && meta.strictness !== undefined) missionStrictness = meta.strictness;
    if (meta.missionId !== undefined) {
      metaPath ??= path.join(dir, META_FILE_NAME);
      metaMission = meta.missionId;
      break;
    }
  }
  const parts = path.relative(rootAbs, absolute).split(path.sep);
  const at = parts.indexOf('kitty-specs');
  const folder = at !== -1 && at + 2 < parts.length ? parts[at + 1] : undefined;
  const missionId = declared ?? metaMission ?? folder;
  // (The folder names the document's mission unless its meta.json says the folder holds another
  // one than the front matter's: without a meta.json, the folder is the mission's, whatever its id.)
  const missionSlug = metaMission === undefined || missionId === metaMission ? folder : undefined;
  return { missionId: missionId ?? 'default', stepId, ...(missionStrictness !== undefined ? { missionStrictness } : {}), ...(metaPath ? { metaPath } : {}), ...(missionSlug ? { missionSlug } : {}) };
}

/**
 * A mission named on the command line (`--mission`), read against the workspace once: people
 * call a mission by its folder, and `check` prints both, so `kitty-specs/<given>/` whose meta.json
 * gives another id stands for that id — unless some mission already has `given` as its id (its
 * log exists, or a meta.json gives it), which stays that mission's, so a decision never lands in
 * another mission's log. `known`: something in the workspace names the mission (its log, a folder
 * of that name, a meta.json giving it; a document's front matter may name one too, which is not
 * read here: a "no" is a reason to look at the name, not a proof).
 */
export function missionOfArgument(root: string, given: string, options: { fs?: WorkspaceFileSystem; logExists?: (missionId: string) => boolean } = {}): { missionId: string; known: boolean } {
  const fs = options.fs ?? NODE_FILE_SYSTEM;
  const logExists = options.logExists ?? (() => false);
  let folders: { name: string; missionId: string | undefined }[];
  try {
    const specs = path.join(root, 'kitty-specs');
    const cache: MetaCache = new Map();
    folders = (fs.readDirectory(specs) ?? []).filter((e) => e.kind === 'directory').map((e) => ({ name: e.name, missionId: readMeta(root, path.join(specs, e.name), cache, fs)?.missionId }));
  } catch {
    return { missionId: given, known: true }; // (kitty-specs/ cannot be read: the name is the id, and nothing to say)
  }
  const idInUse = (id: string) => logExists(id) || folders.some((f) => f.missionId === id);
  const name = given.replace(/[\\/]+$/, ''); // (as a shell completes a folder: `041-demo/`)
  const folder = folders.find((f) => f.name === name);
  const missionId = folder?.missionId !== undefined && folder.missionId !== name && !idInUse(name) ? folder.missionId : given;
  return { missionId, known: idInUse(missionId) || folders.some((f) => f.name === missionId) };
}

function readMeta(root: string, dir: string, cache: MetaCache, fs: WorkspaceFileSystem): MetaInfo | null {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached;
  let info: MetaInfo | null = null;
  const outcome = readWorkspaceText(root, path.join(dir, META_FILE_NAME), 1024 * 1024, fs);
  if (!outcome.ok && !outcome.missing) info = { problem: `${outcome.reason}; the mission is worked out without it` };
  if (outcome.ok) {
    // An unreadable meta.json, or one without a usable mission_id, is treated as absent.
    try {
      const data = JSON.parse(outcome.text) as unknown;
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        const record = data as Record<string, unknown>;
        const strictness = metaStrictness(record);
        const missionId = scalarString(record['mission_id']);
        const bad = record['mission_id'] !== undefined && record['mission_id'] !== null && missionId === undefined;
        const invalidStrictness = invalidStrictnessOf(strictness);
        const problems = [
          ...(bad ? [`mission_id must be a non-empty string (got ${JSON.stringify(record['mission_id'])}); it is ignored`] : []),
          ...(invalidStrictness ? [invalidStrictness] : []),
        ];
        info = {
          ...(missionId !== undefined ? { missionId } : {}),
          ...(strictness !== undefined ? { strictness } : {}),
          ...(problems.length > 0 ? { problem: problems.join('; ') } : {}),
        };
      } else {
        info = { problem: 'meta.json must hold a JSON object; it is ignored' };
      }
    } catch (error) {
      info = { problem: `not valid JSON (${(error as Error).message}); it is ignored` };
    }
  }
  cache.set(dir, info);
  return info;
}

/** The `glossary.strictness` of a meta.json's object, as written (undefined: none). */
export function metaStrictness(meta: Record<string, unknown>): unknown {
  const glossary = meta['glossary'];
  return glossary !== null && typeof glossary === 'object' ? (glossary as Record<string, unknown>)['strictness'] : undefined;
}

/** What is said of a meta.json's `glossary.strictness` that is not a strictness (SPEC §6: medium is used); undefined for none or a valid one. */
export function invalidStrictnessOf(value: unknown): string | undefined {
  if (value === undefined || isStrictness(value)) return undefined;
  return `glossary.strictness ${JSON.stringify(value)} is not off, medium or max; the mission's documents are checked at medium`;
}

/**
 * The front matter's fields a document's identity reads (`mission_id`, `step_id`), as values of
 * their own: kept by the language server per open document and as keys of its per-mission
 * caches, they must not be slices of the document's text, which would keep the whole text alive
 * beside its packed copy (200 open specs: 8 MB).
 */
export function identityFields(frontMatter: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const missionId = scalarString(frontMatter?.['mission_id']);
  const stepId = scalarString(frontMatter?.['step_id']);
  if (missionId === undefined && stepId === undefined) return undefined;
  // (A round trip through JSON makes flat strings of their own.)
  return JSON.parse(JSON.stringify({ ...(missionId !== undefined ? { mission_id: missionId } : {}), ...(stepId !== undefined ? { step_id: stepId } : {}) })) as Record<string, string>;
}

function scalarString(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function isStrictlyInside(root: string, dir: string): boolean {
  const rel = path.relative(root, dir);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
