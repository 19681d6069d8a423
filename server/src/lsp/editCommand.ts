/**
 * `specGlossary.applyEdit`: the quick fixes that are plain edits (Replace, Ignore …) for a client
 * that takes Commands only, not CodeAction objects (LSP: without `codeActionLiteralSupport`). The
 * command carries the fix's edit; the server asks the editor to apply it (`workspace/applyEdit`),
 * so it is offered only to a client that declares that. The arguments are untrusted: the edit may
 * only change open documents and files inside a folder decisions may be written for, and only
 * with text edits (a new file allowed, nothing renamed or deleted).
 */

import { URI } from 'vscode-uri';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { WorkspaceEdit } from 'vscode-languageserver-types';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import type { CommandResult } from '../shared/protocol';
import { invalid, record, requiredString } from './commandArgs';
import { CommandRefused, writableRoot } from './commandTarget';
import type { WorkspaceRegistry } from './workspaces';

export interface EditCommandDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  registry: WorkspaceRegistry;
  fs: WorkspaceFileSystem;
  stopped(): boolean;
}

export async function applyQuickFixEdit(deps: EditCommandDeps, args: Record<string, unknown>): Promise<CommandResult> {
  const label = requiredString(args, 'label');
  const edit = record(args['edit']) as WorkspaceEdit;
  const targets = editTargets(edit);
  if (targets.length === 0) throw invalid('edit must change a document (changes or documentChanges)');
  for (const uri of targets) {
    if (deps.documents.get(uri)) continue;
    const parsed = URI.parse(uri);
    if (parsed.scheme !== 'file') throw new CommandRefused(`${uri} is not open and not a file: the edit "${label}" was not applied. Nothing was written.`);
    writableRoot(deps, parsed.fsPath, parsed.fsPath);
  }
  if (deps.stopped()) throw new CommandRefused('The server is shutting down; nothing was written.');
  let applied: { applied: boolean; failureReason?: string };
  try {
    applied = await deps.connection.workspace.applyEdit({ label, edit });
  } catch (error) {
    throw new CommandRefused(`The editor did not apply "${label}" (${(error as Error).message}). Nothing was written.`);
  }
  if (!applied.applied) throw new CommandRefused(`The editor did not apply "${label}"${applied.failureReason ? `: ${applied.failureReason}` : ''}. Nothing was written.`);
  return { ok: true, message: `Applied: ${label}.` };
}

/** The URIs the edit changes; a malformed edit, or one that renames or deletes, is refused. */
function editTargets(edit: WorkspaceEdit): string[] {
  const uris: string[] = [];
  if (edit.changes !== undefined) {
    const changes = record(edit.changes);
    for (const [uri, edits] of Object.entries(changes)) {
      if (!Array.isArray(edits)) throw invalid('edit.changes must map URIs to lists of text edits');
      uris.push(uri);
    }
  }
  if (edit.documentChanges !== undefined) {
    if (!Array.isArray(edit.documentChanges)) throw invalid('edit.documentChanges must be a list');
    for (const change of edit.documentChanges as unknown[]) {
      const item = record(change);
      if (item['kind'] === 'create' && typeof item['uri'] === 'string') uris.push(item['uri']);
      else if (item['kind'] === undefined && Array.isArray(item['edits'])) uris.push(requiredString(record(item['textDocument']), 'uri'));
      else throw invalid('edit.documentChanges may only create files and edit text');
    }
  }
  return uris;
}
