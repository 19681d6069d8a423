/**
 * Markdown files named on the command line: files as given, folders searched recursively
 * (node/markdownFiles.ts).
 *
 * A spec that cannot be read must not pass a CI gate unchecked, so nothing is skipped in silence.
 * A named path that does not exist is a usage error. A named path that cannot be read or is
 * neither a regular file nor a folder (a named pipe, a device), a folder met while walking that
 * cannot be listed, or a markdown file in it that cannot be opened (permission denied, I/O
 * error, …) stops the command before anything is checked, with every such path named (exit 2).
 * Only a folder that disappears while it is walked (ENOENT: removed meanwhile) is passed over: it
 * no longer holds specs. (A file that becomes unreadable between this listing and its reading is
 * caught by `check` later: cli/events/checkHooks.ts.)
 */

import { accessSync, constants, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { describeCode } from '../node/eventStoreErrors';
import { collectMarkdownUnder } from '../node/markdownFiles';
import { assertInsideWorkspace, isInside, OutsideWorkspaceError } from '../node/fsSafety';
import { findWorkspaceRoot } from '../node/workspace';
import { FileError, UsageError } from './errors';

/** A path that could not be read, with the reason in words (`permission denied (EACCES)`). */
interface Unreadable {
  path: string;
  reason: string;
}

/**
 * `paths` relative to `cwd` (the run's current directory) or absolute. Symbolic links met while
 * walking a folder are not followed, and each is told to `notFollowed` (a gate must not pass over
 * them in silence); a named symbolic link that leads out of its workspace is refused, as
 * unreadable.
 */
export function collectMarkdownFiles(paths: readonly string[], cwd: string, notFollowed?: (link: string) => void): string[] {
  const out = new Set<string>();
  const unreadable: Unreadable[] = [];
  const onUnreadable = (file: string, error: unknown) => unreadable.push({ path: file, reason: describeCode(error).text });
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const outside = outsideItsWorkspace(absolute, path.resolve(cwd));
    if (outside) {
      unreadable.push({ path: given, reason: outside });
      continue;
    }
    let stat;
    try {
      stat = statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${given}: no such file or directory`);
      onUnreadable(given, error);
      continue;
    }
    if (stat.isDirectory()) {
      collectMarkdownUnder(absolute, out, onUnreadable, notFollowed);
    } else if (stat.isFile()) {
      try {
        accessSync(absolute, constants.R_OK);
        out.add(absolute);
      } catch (error) {
        onUnreadable(given, error);
      }
    } else {
      // A named pipe, socket or device: reading it could block forever or never end.
      unreadable.push({ path: given, reason: `not a regular file or folder (${kindOf(stat)})` });
    }
  }
  if (unreadable.length > 0) throw unreadableError(unreadable, cwd);
  return [...out].sort();
}

/**
 * Why `file` is not read, when it — or a folder on the way to it — is a symbolic link that leads
 * out of its workspace (the folder holding the `.kittify/` above it, else the current directory
 * when it is in it): the check every read of a workspace file makes (node/fsSafety.ts).
 */
function outsideItsWorkspace(file: string, cwd: string): string | undefined {
  const root = findWorkspaceRoot(path.dirname(file)) ?? (isInside(cwd, file) ? cwd : undefined);
  if (!root) return undefined; // (no workspace to leave)
  try {
    assertInsideWorkspace(root, file);
    return undefined;
  } catch (error) {
    if (error instanceof OutsideWorkspaceError) return error.message;
    return undefined; // (it cannot be resolved, e.g. a folder on the way denies it: the read below says so)
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a file';
}

function unreadableError(unreadable: readonly Unreadable[], cwd: string): FileError {
  const list = unreadable.map((u) => `${shownPath(u.path, cwd)}: ${u.reason}`).join('; ');
  return new FileError(`cannot read ${list}. Nothing was checked: a spec that cannot be read must not pass unchecked.`);
}

/** Relative to the current directory when inside it, as the user named or would name it. */
function shownPath(file: string, cwd: string): string {
  const absolute = path.resolve(cwd, file);
  const rel = path.relative(cwd, absolute);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? absolute : rel;
}
