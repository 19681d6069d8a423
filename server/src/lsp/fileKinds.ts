/** What an open file is to the server, relative to its workspace folder. */

import path from 'node:path';
import { SCOPE_ORDER, type ScopeId } from '../core/types';
import { EVENT_LOG_SUFFIX, eventLogDir } from '../node/eventStore';
import { configPath, seedPath } from '../node/workspace';

export type FileKind = { kind: 'markdown' } | { kind: 'seed'; scope: ScopeId } | { kind: 'config' } | { kind: 'eventLog' } | { kind: 'other' };

// (`.mdx` too: the CLI checks it and the term index reads it, so the editor does the same.)
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.mdx']);

export function classifyFile(root: string, fsPath: string, languageId?: string): FileKind {
  const file = path.resolve(fsPath);
  for (const scope of SCOPE_ORDER) if (file === seedPath(root, scope)) return { kind: 'seed', scope };
  if (file === configPath(root)) return { kind: 'config' };
  if (path.dirname(file) === eventLogDir(root) && file.endsWith(EVENT_LOG_SUFFIX)) return { kind: 'eventLog' };
  if (languageId === 'markdown' || MARKDOWN_EXTENSIONS.has(path.extname(file).toLowerCase())) return { kind: 'markdown' };
  return { kind: 'other' };
}

/** Seed, config and event-log files: their contents are part of the glossary state. */
export function isGlossaryFile(kind: FileKind): boolean {
  return kind.kind === 'seed' || kind.kind === 'config' || kind.kind === 'eventLog';
}

/** A changed path (from a watcher) that can change a folder's glossary state or a document's mission. */
export function affectsGlossary(fsPath: string): boolean {
  const normalized = fsPath.replace(/\\/g, '/');
  if (normalized.endsWith('/meta.json')) return true;
  if (!normalized.includes('/.kittify/')) return false;
  return normalized.endsWith('.yaml') || normalized.endsWith('.yml') || normalized.endsWith(EVENT_LOG_SUFFIX) || normalized.endsWith('/.kittify/events/glossary') || normalized.endsWith('/.kittify/glossaries');
}
