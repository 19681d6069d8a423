/**
 * Reading workspace files defensively: size limit, binary detection, invalid UTF-8 and symlinks
 * that lead outside the workspace all become a clear problem instead of an exception.
 */

import { lstatSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { assertInsideWorkspace } from './fsSafety';

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

export type ReadOutcome =
  | { ok: true; text: string; bytes: Buffer; warning?: string }
  | { ok: false; missing: boolean; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readWorkspaceText(root: string | undefined, file: string, maxBytes = DEFAULT_MAX_FILE_BYTES): ReadOutcome {
  try {
    if (root) assertInsideWorkspace(root, file);
    const stat = statSync(file);
    if (!stat.isFile()) return { ok: false, missing: false, reason: `${file} is not a regular file` };
    if (stat.size > maxBytes) return { ok: false, missing: false, reason: `${file} is ${formatBytes(stat.size)}, above the ${formatBytes(maxBytes)} limit; it was skipped` };
    const bytes = readFileSync(file);
    if (bytes.subarray(0, 8192).includes(0)) return { ok: false, missing: false, reason: `${file} looks binary (it contains NUL bytes); it was skipped` };
    try {
      return { ok: true, text: stripBom(utf8.decode(bytes)), bytes };
    } catch {
      return { ok: true, text: stripBom(bytes.toString('utf8')), bytes, warning: `${file} is not valid UTF-8; invalid bytes were replaced with U+FFFD` };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, reason: `${file} does not exist` };
    return { ok: false, missing: false, reason: (error as Error).message };
  }
}

export function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** glossary_version_id: first 12 hex characters of the sha256 of the file's bytes (SPEC §3). */
export function versionIdOf(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(size % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (size >= 1024) return `${Math.round(size / 1024)} KB`;
  return `${size} bytes`;
}
