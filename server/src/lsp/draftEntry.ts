/**
 * "Define '<term>' in the … glossary" without a definition: a draft entry for the term goes into
 * the scope's seed YAML as a WorkspaceEdit the editor applies (service/seedEdit.ts keeps the
 * file's layout), the file is shown where the client can, and the answer says which file and
 * line, so a client that shows no documents still tells the user where to write. A draft already
 * waiting for the term is pointed at instead of adding another. When the editor refuses the edit
 * nothing stays behind: the empty file (and folders) made for a client that cannot create files
 * are removed.
 */

import path from 'node:path';
import type { Connection, Range, TextDocuments, WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import { namingFileAs, readWorkspaceText } from '../node/files';
import { assertInsideWorkspace } from '../node/fsSafety';
import { seedPath } from '../node/workspace';
import { fileUri } from '../service/paths';
import { draftDefinition, findDraftEntry, insertDraftEntry, type SeedInsertion } from '../service/seedEdit';
import type { DefineScope } from '../shared/protocol';
import type { ClientFeatures } from './capabilities';
import type { CreatedSeedFiles } from './createdFiles';
import { CommandRefused, type TermTarget } from './commandTarget';
import { uriOf } from './openDocuments';
import type { Logger } from './logger';
import type { SettingsStore } from './settings';

export interface DraftDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  client: ClientFeatures;
  settings: SettingsStore;
  logger: Logger;
  fs: WorkspaceFileSystem;
  stopped(): boolean;
  /** The seed files made for draft entries, removed while still empty (createdFiles.ts). */
  createdFiles: CreatedSeedFiles;
  /** Reload the folder and re-check its open documents. */
  glossaryWritten(root: string): Promise<void>;
}

const SCOPE_LABEL: Record<DefineScope, string> = { mission_local: 'mission glossary', team_domain: 'team glossary' };

/**
 * Inserts a draft entry into the scope's seed YAML through `workspace/applyEdit`, shows it when
 * the client can, and says where it went. A draft already waiting for this term is shown
 * instead of adding a second one. When the editor refuses the edit nothing stays behind.
 */
export async function addDraftEntry(deps: DraftDeps, target: TermTarget, scope: DefineScope): Promise<{ message: string; uri: string }> {
  const { documents, fs } = deps;
  const { root, term, written } = target;
  const file = seedPath(root, scope);
  const label = path.relative(root, file);
  assertInsideWorkspace(root, file, fs);
  const uri = fileUri(file);
  const open = documents.get(uri);
  let existing: string | undefined = open?.getText();
  if (existing === undefined) {
    const outcome = readWorkspaceText(root, file, (await deps.settings.get(fileUri(root))).maxFileSize, fs);
    if (outcome.ok) existing = outcome.text;
    else if (!outcome.missing) throw new CommandRefused(`Cannot add '${written}' to ${label}: ${namingFileAs(outcome.reason, file, 'the file')}. Nothing was written.`);
  }
  const waiting = existing === undefined ? undefined : findDraftEntry(existing, term);
  if (waiting) {
    const shown = await showRange(deps, uri, waiting);
    return { message: `${label}:${waiting.start.line + 1} already has a draft entry for '${written}': write its definition there and save the file${shown ? '' : ` (open ${label})`}.`, uri };
  }
  const insertion = insertDraftEntry(existing, scope, term, draftDefinition(written));
  if (!insertion.ok) throw new CommandRefused(`Cannot add '${written}' to ${label}: ${insertion.message}`);
  const shown = await applySeedInsertion(deps, { root, file, version: open?.version ?? null, insertion, label: `Define '${written}' in the ${SCOPE_LABEL[scope]}`, otherwise: `add its entry to ${label} yourself and save the file (saving records it)` });
  const line = insertion.selection.start.line + 1;
  return {
    message: `Added a draft entry for '${written}' to ${label}:${line}: replace "${draftDefinition(written)}" with its definition and save the file${shown ? '' : ` (open ${label} at line ${line})`}. Saving records it in the event log.`,
    uri,
  };
}

/** An entry to add to a seed file of the folder `root`. */
export interface SeedEntryEdit {
  root: string;
  /** The seed file (inside `.kittify/`). */
  file: string;
  /** The version of its open buffer the insertion was made against; null when it is not open. */
  version: number | null;
  insertion: SeedInsertion;
  /** The edit's label in the editor. */
  label: string;
  /** What the user can do instead when the editor cannot apply workspace edits (a clause). */
  otherwise?: string;
}

/**
 * Applies an entry to a seed file through `workspace/applyEdit` (creating the file first when
 * needed), shows it where the client can (true when shown) and reloads the folder. When the
 * editor refuses the edit nothing stays behind and a CommandRefused says why.
 */
export async function applySeedInsertion(deps: DraftDeps, entry: SeedEntryEdit): Promise<boolean> {
  const { connection, client, fs } = deps;
  const { root, file, insertion } = entry;
  const label = path.relative(root, file);
  // (Named as the client opened it, when it did.)
  const uri = uriOf(deps.documents, fileUri(file));
  if (deps.stopped()) throw new CommandRefused('The server is shutting down; nothing was written.');

  let edit: WorkspaceEdit;
  // (The folders a new file needs, made by the editor or here: taken back with it.)
  const folders = insertion.create ? deps.createdFiles.missingFolders(file) : [];
  const created: string[] = [];
  if (insertion.create && client.createFile) {
    edit = { documentChanges: [{ kind: 'create', uri, options: { ignoreIfExists: true } }, { textDocument: { uri, version: null }, edits: insertion.edits }] };
  } else {
    if (insertion.create) {
      // The client cannot create files: create the empty seed file (inside .kittify/) ourselves,
      // and remove it again (with the folders made for it) if the edit is not applied.
      fs.createDirectory(path.dirname(file));
      assertInsideWorkspace(root, file, fs);
      fs.writeFile(file, '', { exclusive: true });
      created.push(...folders, file);
    }
    edit = client.documentChanges ? { documentChanges: [{ textDocument: { uri, version: entry.version }, edits: insertion.edits }] } : { changes: { [uri]: insertion.edits } };
  }
  // Tried even when the client did not declare `workspace.applyEdit`: an error answer is reported.
  let applied: { applied: boolean; failureReason?: string };
  try {
    applied = await connection.workspace.applyEdit({ label: entry.label, edit });
  } catch (error) {
    deps.createdFiles.takeBack(created);
    // (An editor that asks the user answers a refusal as an error: eglot's "User cancelled server edit".)
    throw new CommandRefused(`The editor did not apply the edit (${(error as Error).message})${entry.otherwise ? `; ${entry.otherwise}` : ''}. Nothing was written.`);
  }
  if (!applied.applied) {
    deps.createdFiles.takeBack(created);
    throw new CommandRefused(`The editor did not apply the edit to ${label}${applied.failureReason ? `: ${applied.failureReason}` : ''}${entry.otherwise ? `; ${entry.otherwise}` : ''}. Nothing was written.`);
  }
  // The entry is in the editor's buffer, unsaved: the file stays empty on disk until it is saved.
  if (insertion.create) deps.createdFiles.made(file, folders);
  const shown = await showRange(deps, uri, insertion.selection);
  await deps.glossaryWritten(root);
  return shown;
}

/** `window/showDocument` on a range, when the client supports it; false when it cannot or it failed. */
export async function showRange(deps: Pick<DraftDeps, 'client' | 'connection' | 'logger'>, uri: string, selection: Range): Promise<boolean> {
  if (!deps.client.showDocument) return false;
  try {
    const result = await deps.connection.window.showDocument({ uri, takeFocus: true, selection });
    return result.success;
  } catch (error) {
    deps.logger.debug(`showDocument: ${(error as Error).message}`);
    return false;
  }
}

