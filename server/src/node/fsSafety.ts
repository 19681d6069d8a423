/**
 * Keeping file access inside a workspace folder (SPEC §11): a path is refused when it, or any
 * directory on the way to it, is a symbolic link that resolves outside the workspace root.
 * Symlinks that stay inside are fine. Parts of the path that do not exist yet are fine too:
 * whatever gets created there lands under the resolved, checked parent.
 *
 * Synchronous on purpose: a handful of `realpath`/`lstat` calls, usable from any caller.
 * This is a check, not a sandbox: a process racing to swap a directory for a symlink between the
 * check and the use is out of scope (we guard against repository contents, not local attackers).
 */
import path from 'node:path';
import { NODE_FILE_SYSTEM, type WorkspaceFileSystem } from './fileSystem';

export class OutsideWorkspaceError extends Error {
  readonly code = 'E_OUTSIDE_WORKSPACE';
  constructor(
    message: string,
    readonly target: string,
  ) {
    super(message);
    this.name = 'OutsideWorkspaceError';
  }
}

/** Lexical containment: `child` is `parent` or below it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/**
 * Throws OutsideWorkspaceError when `target` is, or would be created, outside `root`. `fs`: the
 * file system the paths are on (the disk by default).
 */
export function assertInsideWorkspace(root: string, target: string, fs: WorkspaceFileSystem = NODE_FILE_SYSTEM): void {
  const realpathOrUndefined = (p: string) => fs.realpath(p);
  const isSymbolicLink = (p: string) => fs.isSymbolicLink(p);
  const absRoot = path.resolve(root);
  const absTarget = path.resolve(target);
  if (!isInside(absRoot, absTarget)) {
    throw new OutsideWorkspaceError(`${absTarget} is outside the workspace folder ${absRoot}`, absTarget);
  }
  const realRoot = realpathOrUndefined(absRoot);
  if (realRoot === undefined) throw new OutsideWorkspaceError(`workspace folder ${absRoot} does not exist`, absTarget);
  // Resolve the deepest part of the path that exists; the rest would be created below it.
  for (let probe = absTarget; ; probe = path.dirname(probe)) {
    // (A directory another writer creates meanwhile fails realpath first and exists the moment
    // after: it is looked at again, not mistaken for a dangling link.)
    const real = realpathOrUndefined(probe) ?? (isSymbolicLink(probe) ? undefined : realpathOrUndefined(probe));
    if (real !== undefined) {
      if (isInside(realRoot, real)) return;
      throw new OutsideWorkspaceError(
        `${probe} resolves to ${real} through a symbolic link, outside the workspace folder ${realRoot}; refusing to use it`,
        absTarget,
      );
    }
    // realpath failed but the path is a link: a link to nothing. Creating through it would land
    // in a place we cannot check, so it is refused.
    if (isSymbolicLink(probe)) {
      throw new OutsideWorkspaceError(`${probe} is a symbolic link to a missing target; refusing to use it`, absTarget);
    }
    if (probe === absRoot || path.dirname(probe) === probe) return;
  }
}
