/**
 * Reading workspace files defensively: size limit, binary detection, invalid UTF-8 and symlinks
 * that lead outside the workspace all become a clear problem instead of an exception.
 */

import { createHash } from 'node:crypto';
import { fileStamp, NODE_FILE_SYSTEM, type WorkspaceFileSystem } from './fileSystem';
import { describeCode } from './eventStoreErrors';
import { assertInsideWorkspace } from './fsSafety';

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

export type ReadOutcome =
  | { ok: true; text: string; bytes: Uint8Array; warning?: string; /** fileSystem.ts `fileStamp` of the file read. */ stamp: string }
  | { ok: false; missing: boolean; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A reader's message without the absolute path it begins with (`/w/x.yaml is 50 MB, …` → `is 50
 * MB, …`), for a line that names the file at its start already; other messages as they are.
 */
export function afterItsPath(message: string, file: string): string {
  return message.startsWith(`${file} `) ? message.slice(file.length + 1) : message;
}

/**
 * A reader's message naming its file as `shown` (a path relative to the workspace, a file name)
 * instead of by its absolute path; a message that does not begin with it comes after `shown: `.
 */
export function namingFileAs(message: string, file: string, shown: string): string {
  const rest = afterItsPath(message, file);
  return rest === message ? `${shown}: ${message}` : `${shown} ${rest}`;
}

/**
 * The text of a workspace file, or why there is none. `root`: the workspace the file must stay
 * inside (symbolic links included); `fs`: where files are read (the disk by default).
 */
export function readWorkspaceText(root: string | undefined, file: string, maxBytes = DEFAULT_MAX_FILE_BYTES, fs: WorkspaceFileSystem = NODE_FILE_SYSTEM): ReadOutcome {
  try {
    const stat = fs.stat(file);
    // Nothing there (and no link to nothing): nothing is read, so there is nothing to check. (Most
    // files asked for are missing, e.g. a meta.json in every folder above a spec.)
    if (!stat && !fs.isSymbolicLink(file)) return { ok: false, missing: true, reason: `${file} does not exist` };
    if (root) assertInsideWorkspace(root, file, fs);
    if (!stat) return { ok: false, missing: true, reason: `${file} does not exist` };
    if (stat.kind !== 'file') return { ok: false, missing: false, reason: `${file} is not a regular file` };
    if (stat.size > maxBytes) return { ok: false, missing: false, reason: `${file} is ${formatBytes(stat.size)}, above the ${formatBytes(maxBytes)} limit; it was skipped` };
    const bytes = fs.readFile(file);
    if (bytes.subarray(0, 8192).includes(0)) return { ok: false, missing: false, reason: `${file} looks binary (it contains NUL bytes); it was skipped` };
    const stamp = fileStamp(stat);
    try {
      return { ok: true, text: stripBom(utf8.decode(bytes)), bytes, stamp };
    } catch {
      const text = stripBom(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
      const where = firstInvalidUtf8(bytes);
      return { ok: true, text, bytes, stamp, warning: `${file} is not valid UTF-8 (first invalid byte at line ${where.line}, column ${where.column}); invalid bytes were replaced with U+FFFD` };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, reason: `${file} does not exist` };
    // (A link out of the workspace says so itself; a system error is said in words: "permission denied (EACCES)".)
    if (typeof code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string') return { ok: false, missing: false, reason: `${file} cannot be read: ${describeCode(error).text}` };
    return { ok: false, missing: false, reason: (error as Error).message };
  }
}

/** glossary_version_id: first 12 hex characters of the sha256 of the file's bytes (SPEC §3). */
export function versionIdOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/**
 * 1-based line and column (in UTF-16 units of the decoded line, as editors count) of the first
 * byte that is not part of a valid UTF-8 sequence.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { offset: number; line: number; column: number } {
  let offset = 0;
  // Valid prefix: decode growing windows would be quadratic; walk the sequences instead.
  while (offset < bytes.length) {
    const length = utf8SequenceLength(bytes, offset);
    if (length === 0) break;
    offset += length;
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lineStart = bytes.lastIndexOf(10, offset - 1) + 1;
  let line = 1;
  for (let i = bytes.indexOf(10); i !== -1 && i < offset; i = bytes.indexOf(10, i + 1)) line++;
  const from = Math.max(lineStart, line === 1 ? bom : 0);
  const column = Buffer.from(bytes.buffer, bytes.byteOffset + from, offset - from).toString('utf8').length + 1;
  return { offset, line, column };
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const c1 = b[i + 1] ?? 0;
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return 0; // overlong, surrogate
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const c1 = b[i + 1] ?? 0;
    if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return 0; // overlong, above U+10FFFF
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(size % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (size >= 1024) return `${Math.round(size / 1024)} KB`;
  return `${size} byte${size === 1 ? '' : 's'}`;
}
