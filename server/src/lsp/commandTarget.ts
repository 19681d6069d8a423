/**
 * What a command works on, checked against the server's own state: every argument a client sends
 * is untrusted (a stale code action, a made-up uri, another program speaking LSP). The document
 * must be open or a file inside a workspace folder the client opened (or, with no folder at all,
 * inside a folder that already holds `.kittify/`), so a command never makes a `.kittify/` tree
 * anywhere else; its mission must be the one the document has now; the term must be one the
 * document uses now. A refusal is a `CommandRefused` whose message tells the user what to do.
 */

import path from 'node:path';
import type { TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { writtenForm } from '../core/check/wording';
import { normalizeSurface } from '../core/normalize';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import { namingFileAs, readWorkspaceText } from '../node/files';
import { isInside } from '../node/fsSafety';
import type { CheckedDocument } from '../service/types';
import { fileUri } from '../service/paths';
import { missionOf } from '../service/wording';
import type { DocumentAnalyzer } from './analysis';
import type { SettingsStore } from './settings';
import type { WorkspaceRegistry } from './workspaces';

/** A command that cannot run as asked: nothing was written; the message says why. */
export class CommandRefused extends Error {}

/** The refusal of a definition that is a placeholder (SPEC §3: it defines nothing), in the term's words as written. */
export function placeholderRefused(definition: string, written: string): CommandRefused {
  return new CommandRefused(`"${definition}" is a placeholder, not a definition of '${written}'. Nothing was written.`);
}

export interface TargetDeps {
  documents: TextDocuments<TextDocument>;
  registry: WorkspaceRegistry;
  analyzer: DocumentAnalyzer;
  settings: SettingsStore;
  fs: WorkspaceFileSystem;
}

export interface DocumentTarget {
  uri: string;
  /** The folder holding (or to hold) `.kittify/`. */
  root: string;
  checked: CheckedDocument;
}

export interface TermTarget extends DocumentTarget {
  /** Normalized term. */
  term: string;
  /** As the document writes it. */
  written: string;
}

/**
 * The workspace folder a file may be written for: it must lie inside a folder the client opened,
 * or, when the client opened none, below a folder that already holds `.kittify/`.
 */
export function writableRoot(deps: Pick<TargetDeps, 'registry' | 'fs'>, fsPath: string, shown: string): string {
  const file = path.resolve(fsPath);
  const folders = deps.registry.getFolders();
  const root = deps.registry.rootFor(file);
  if (folders.length > 0) {
    if (!folders.some((folder) => isInside(folder, file))) {
      throw new CommandRefused(`${shown} is outside every workspace folder (${folders.join(', ')}); spec-glossary writes decisions only inside them. Nothing was written.`);
    }
  } else if (deps.fs.stat(path.join(root, '.kittify'))?.kind !== 'directory') {
    throw new CommandRefused(`${shown} is not in a Spec Kitty workspace (no .kittify/ folder above it) and no workspace folder is open. Nothing was written.`);
  }
  return root;
}

/** The document of `uri` as it is now (the open buffer, else the file), checked. */
export async function documentTarget(deps: TargetDeps, uri: string): Promise<DocumentTarget> {
  const parsed = URI.parse(uri);
  const open = deps.documents.get(uri);
  let document: TextDocument;
  if (open) {
    document = open;
    if (parsed.scheme === 'file') writableRoot(deps, parsed.fsPath, uri);
    else if (deps.registry.getFolders().length === 0) throw new CommandRefused(`${uri} is not saved in a workspace folder. Nothing was written.`);
  } else {
    if (parsed.scheme !== 'file') throw new CommandRefused(`${uri} is not an open document or a file. Nothing was written.`);
    const root = writableRoot(deps, parsed.fsPath, uri);
    const outcome = readWorkspaceText(root, parsed.fsPath, (await deps.settings.get(fileUri(root))).maxFileSize, deps.fs);
    if (!outcome.ok) throw new CommandRefused(outcome.missing ? `${uri} is not an open document and no such file exists. Nothing was written.` : `${namingFileAs(outcome.reason, parsed.fsPath, path.relative(root, parsed.fsPath))}. Nothing was written.`);
    document = TextDocument.create(uri, 'markdown', 0, outcome.text);
  }
  const analysis = await deps.analyzer.analyze(document, undefined, open !== undefined);
  if (analysis.kind !== 'markdown') throw new CommandRefused(`${uri} is not a spec the server checks (a markdown document). Nothing was written.`);
  return { uri, root: analysis.checked.root, checked: analysis.checked };
}

/** The document, its mission as the client saw it, and a term it uses. */
export async function termTarget(deps: TargetDeps, args: { uri: string; missionId: string; term: string; written?: unknown }): Promise<TermTarget> {
  const target = await documentTarget(deps, args.uri);
  const { checked } = target;
  if (args.missionId !== checked.missionId) {
    throw new CommandRefused(`The document now belongs to mission ${missionOf(checked)} (${checked.missionId}), not ${args.missionId}: ask for the quick fixes again. Nothing was written.`);
  }
  const term = normalizeSurface(args.term);
  const candidate = checked.report.candidates.find((c) => c.surface === term);
  if (!candidate) throw new CommandRefused(`'${args.term}' does not occur in ${path.basename(URI.parse(args.uri).path)} now: ask for the quick fixes again. Nothing was written.`);
  const given = typeof args.written === 'string' ? writtenForm(args.written) : '';
  const written = given !== '' && normalizeSurface(given) === term ? given : writtenForm(candidate.texts[0] ?? '') || term;
  return { ...target, term, written };
}
