/**
 * The server commands behind the quick fixes (`workspace/executeCommand`). Decisions are appended
 * to the mission's event log through the EventStore (the only writer, inside `.kittify/`); a new
 * draft entry goes into the seed YAML as a WorkspaceEdit the editor applies. After a write the
 * folder is reloaded and every open document of it is checked again.
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ErrorCodes, MessageType, ResponseError, ShowMessageNotification, type Connection, type ExecuteCommandParams, type TextDocuments, type WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import { normalizeSurface } from '../core/normalize';
import { isScopeId, type SenseRef, type Severity } from '../core/types';
import { URI } from 'vscode-uri';
import type { Engine } from '../core/check/engine';
import type { EventStore } from '../node/eventStore';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import { workspaceCandidates } from '../node/workspaceCandidates';
import { readWorkspaceText } from '../node/files';
import { assertInsideWorkspace } from '../node/fsSafety';
import { seedPath } from '../node/workspace';
import { conflictIdsToClose, requestedEvent, resolvedEvent, senseCreatedEvent, type DecisionContext } from '../core/events/decisions';
import { fileUri } from '../service/paths';
import { insertDraftEntry } from '../service/seedEdit';
import { Commands, type CandidatesResult, type CommandResult, type DefineScope } from '../shared/protocol';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';
import type { Logger } from './logger';
import type { SettingsStore } from './settings';
import type { WorkspaceRegistry } from './workspaces';
import type { SpecVocabularies } from '../node/specVocabularies';
import { VocabularyCommands } from './vocabularyCommands';

export interface CommandDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  registry: WorkspaceRegistry;
  analyzer: DocumentAnalyzer;
  settings: SettingsStore;
  client: ClientFeatures;
  logger: Logger;
  /** `lsp-<uuid4>` of this process. */
  runId: string;
  actor: ActorIdentity;
  eventStore(root: string): EventStore;
  /** Where seed files are read (and created when the client cannot create files). */
  fs: WorkspaceFileSystem;
  /** Reload the folder and re-check its open documents. */
  glossaryWritten(root: string): Promise<void>;
  /** The server's engine (for checking the folder's files when listing glossary candidates). */
  engine(): Engine;
  /** Missions' specs as last read (their own vocabularies). */
  vocabularies: SpecVocabularies;
}

const SCOPE_LABEL: Record<DefineScope, string> = { mission_local: 'mission glossary', team_domain: 'team glossary' };

export class CommandHandlers {
  /** The commands of missions' own vocabularies (vocabularyCommands.ts). */
  private readonly vocabulary: VocabularyCommands;

  constructor(private readonly deps: CommandDeps) {
    this.vocabulary = new VocabularyCommands(deps, deps.vocabularies);
  }

  async execute(params: ExecuteCommandParams): Promise<CommandResult> {
    const arg = params.arguments?.[0];
    switch (params.command) {
      case Commands.selectSense:
        return this.report(this.selectSense(record(arg)));
      case Commands.defineTerm:
        return this.report(this.defineTerm(record(arg)));
      case Commands.deferTerm:
        return this.report(this.deferTerm(record(arg)));
      case Commands.listCandidates:
        return this.report(this.listCandidates(arg === undefined || arg === null ? {} : record(arg)));
      case Commands.defineInSpec:
        return this.report(this.vocabulary.defineInSpec(record(arg)));
      case Commands.promoteTerm:
        return this.report(this.vocabulary.promoteTerm(record(arg)));
      case Commands.reload:
        await Promise.all(this.deps.registry.loadedRoots().map((root) => this.deps.glossaryWritten(root)));
        return { ok: true, message: 'Glossaries reloaded.' };
      default:
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${params.command}`);
    }
  }

  private async selectSense(args: Record<string, unknown>): Promise<CommandResult> {
    const { root, missionId, term } = this.target(args);
    const sense = senseRef(args['sense']);
    const ctx = this.context(missionId);
    const conflictIds = await this.conflictIds(root, missionId, term, optionalString(args, 'conflictId'));
    const ids = await this.append(root, missionId, conflictIds.map((id) => resolvedEvent(ctx, id, term, sense)));
    return { ok: true, message: `'${term}' now means "${sense.definition}" (${sense.scope}) in mission ${missionId}.`, eventIds: ids };
  }

  private async defineTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const { root, missionId, term } = this.target(args);
    const scope = args['scope'];
    if (scope !== 'mission_local' && scope !== 'team_domain') throw invalid('scope must be mission_local or team_domain');
    const definition = optionalString(args, 'definition')?.trim();
    if (definition === undefined) return this.insertDraftEntry(root, scope, term);
    if (definition === '') throw invalid('definition must not be blank');
    const ctx = this.context(missionId);
    const conflictIds = await this.conflictIds(root, missionId, term, optionalString(args, 'conflictId'));
    const created = senseCreatedEvent(ctx, term, scope, definition);
    const sense: SenseRef = { surface: term, scope, definition, confidence: created.new_sense.confidence };
    const ids = await this.append(root, missionId, [created, ...conflictIds.map((id) => resolvedEvent(ctx, id, term, sense))]);
    return { ok: true, message: `Defined '${term}' in the ${SCOPE_LABEL[scope]} for mission ${missionId}.`, eventIds: ids };
  }

  private async deferTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const { root, missionId, term } = this.target(args);
    const stepId = requiredString(args, 'stepId');
    const severity = args['severity'];
    if (severity !== 'low' && severity !== 'medium' && severity !== 'high') throw invalid('severity must be low, medium or high');
    const options = Array.isArray(args['options']) ? args['options'].filter((o): o is string => typeof o === 'string') : [];
    const ids = await this.append(root, missionId, [requestedEvent(this.context(missionId), randomUUID(), term, stepId, options, severity as Severity)]);
    return { ok: true, message: `Deferred '${term}': a clarification is requested for mission ${missionId}.`, eventIds: ids };
  }

  /**
   * The glossary candidates of the folder of `uri` (a document or folder), or of every folder:
   * each markdown file checked as on disk or as open in the editor (node/workspaceCandidates.ts).
   */
  private async listCandidates(args: Record<string, unknown>): Promise<CandidatesResult> {
    const uri = optionalString(args, 'uri');
    const minSpecs = args['minSpecs'];
    if (minSpecs !== undefined && (typeof minSpecs !== 'number' || !Number.isInteger(minSpecs) || minSpecs < 1)) throw invalid('minSpecs must be a whole number of at least 1');
    const roots = uri ? [this.deps.registry.rootFor(URI.parse(uri).fsPath)] : [...this.deps.registry.getFolders()];
    const open = new Map<string, string>();
    for (const document of this.deps.documents.all()) {
      const parsed = URI.parse(document.uri);
      if (parsed.scheme === 'file') open.set(parsed.fsPath, document.getText());
    }
    const workspaces: CandidatesResult['workspaces'] = [];
    for (const root of roots) {
      const snapshot = await this.deps.registry.fresh(root);
      const settings = await this.deps.settings.get(fileUri(root));
      const found = await workspaceCandidates(snapshot, {
        engine: this.deps.engine(),
        settings: { disabledExtractors: settings.disabledExtractors },
        maxFileBytes: settings.maxFileSize,
        ...(typeof minSpecs === 'number' ? { minSpecs } : {}),
        openText: (file) => open.get(file),
        vocabularies: this.deps.vocabularies,
      });
      const candidates = found.candidates.map((c) => ({
        ...c,
        examples: c.examples.map((e) => {
          const file = found.files.get(e.path)!;
          return { ...e, uri: fileUri(file.file), missionId: file.missionId };
        }),
      }));
      workspaces.push({ workspaceUri: fileUri(root), documents: found.documents, candidates });
    }
    const count = workspaces.reduce((n, w) => n + w.candidates.length, 0);
    const documents = workspaces.reduce((n, w) => n + w.documents, 0);
    return { ok: true, message: `${count} glossary candidate${count === 1 ? '' : 's'} in ${documents} document${documents === 1 ? '' : 's'}.`, workspaces };
  }

  /** Inserts a draft entry into the scope's seed YAML through `workspace/applyEdit`. */
  private async insertDraftEntry(root: string, scope: DefineScope, term: string): Promise<CommandResult> {
    const { connection, client, documents, fs } = this.deps;
    const file = seedPath(root, scope);
    const label = path.relative(root, file);
    assertInsideWorkspace(root, file, fs);
    const uri = fileUri(file);
    const open = documents.get(uri);
    let existing: string | undefined = open?.getText();
    if (existing === undefined) {
      const outcome = readWorkspaceText(root, file, (await this.deps.settings.get(fileUri(root))).maxFileSize, fs);
      if (outcome.ok) existing = outcome.text;
      else if (!outcome.missing) return { ok: false, message: `Cannot add '${term}' to ${label}: ${outcome.reason}` };
    }
    const insertion = insertDraftEntry(existing, scope, term);
    if (!insertion.ok) return { ok: false, message: `Cannot add '${term}' to ${label}: ${insertion.message}` };

    let edit: WorkspaceEdit;
    if (insertion.create && client.createFile) {
      edit = { documentChanges: [{ kind: 'create', uri, options: { ignoreIfExists: true } }, { textDocument: { uri, version: null }, edits: insertion.edits }] };
    } else {
      if (insertion.create) {
        // The client cannot create files: create the empty seed file (inside .kittify/) ourselves.
        fs.createDirectory(path.dirname(file));
        assertInsideWorkspace(root, file, fs);
        fs.writeFile(file, '', { exclusive: true });
      }
      edit = client.documentChanges ? { documentChanges: [{ textDocument: { uri, version: open?.version ?? null }, edits: insertion.edits }] } : { changes: { [uri]: insertion.edits } };
    }
    // Tried even when the client did not declare `workspace.applyEdit`: an error answer is reported.
    let applied: { applied: boolean; failureReason?: string };
    try {
      applied = await connection.workspace.applyEdit({ label: `Define '${term}' in the ${SCOPE_LABEL[scope]}`, edit });
    } catch (error) {
      return { ok: false, message: `The editor cannot apply workspace edits (${(error as Error).message}); define '${term}' with a definition argument instead.` };
    }
    if (!applied.applied) return { ok: false, message: `The editor did not apply the edit to ${label}${applied.failureReason ? `: ${applied.failureReason}` : ''}.` };
    if (client.showDocument) {
      await connection.window.showDocument({ uri, takeFocus: true, selection: insertion.selection }).catch((error: unknown) => this.deps.logger.debug(`showDocument: ${(error as Error).message}`));
    }
    await this.deps.glossaryWritten(root);
    return { ok: true, message: `Added a draft entry for '${term}' to ${label}; write its definition there.`, editedUri: uri };
  }

  /** Workspace folder, mission and term of a command; the folder comes from the document URI. */
  private target(args: Record<string, unknown>): { root: string; missionId: string; term: string } {
    const uri = requiredString(args, 'uri');
    const located = this.deps.analyzer.locate({ uri, languageId: 'markdown' });
    if (!located) throw invalid(`no workspace folder for ${uri}`);
    const term = normalizeSurface(requiredString(args, 'term'));
    if (term === '') throw invalid('term must not be blank');
    return { root: located.root, missionId: requiredString(args, 'missionId'), term };
  }

  /** Every clarification still open for (mission, term) is closed by the decision; else a new conflict. */
  private async conflictIds(root: string, missionId: string, term: string, given: string | undefined): Promise<string[]> {
    const snapshot = await this.deps.registry.fresh(root);
    const open = snapshot.replay.openClarifications.filter((c) => c.missionId === missionId && c.term === term);
    return conflictIdsToClose(open, () => given ?? randomUUID());
  }

  private context(missionId: string): DecisionContext {
    return { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
  }

  private async append(root: string, missionId: string, drafts: GlossaryEventDraft[]): Promise<string[]> {
    const events = await this.deps.eventStore(root).append(missionId, drafts);
    this.deps.logger.info(`appended ${events.map((e) => e.event_type).join(', ')} to the log of mission ${missionId}`);
    await this.deps.glossaryWritten(root);
    return events.map((e) => e.event_id);
  }

  private showError(message: string): void {
    void this.deps.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
  }

  /** Failures (I/O, refused writes) are shown to the user and answered as `ok: false`. */
  private async report<T extends CommandResult>(work: Promise<T>): Promise<T | CommandResult> {
    try {
      const result = await work;
      if (!result.ok) this.showError(result.message);
      return result;
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      const message = `spec-glossary: ${(error as Error).message}`;
      this.deps.logger.error('command failed', error);
      this.showError(message);
      return { ok: false, message };
    }
  }
}

function record(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('expected one object argument');
  return value as Record<string, unknown>;
}

function requiredString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${key} must be a non-empty string`);
  return value;
}

function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' ? value : undefined;
}

function senseRef(value: unknown): SenseRef {
  const v = (value ?? {}) as Record<string, unknown>;
  const ok =
    typeof v['surface'] === 'string' && v['surface'].trim() !== '' &&
    isScopeId(v['scope']) &&
    typeof v['definition'] === 'string' && v['definition'].trim() !== '' &&
    typeof v['confidence'] === 'number' && v['confidence'] >= 0 && v['confidence'] <= 1;
  if (!ok) throw invalid('sense must be {surface, scope, definition, confidence}');
  return { surface: v['surface'] as string, scope: v['scope'] as SenseRef['scope'], definition: v['definition'] as string, confidence: v['confidence'] as number };
}

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}
