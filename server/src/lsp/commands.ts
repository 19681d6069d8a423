/**
 * The server commands behind the quick fixes (`workspace/executeCommand`). Decisions are appended
 * to the mission's event log through the EventStore (the only writer, inside `.kittify/`); a new
 * draft entry goes into the seed YAML as a WorkspaceEdit the editor applies. After a write the
 * folder is reloaded and every open document of it is checked again.
 *
 * Arguments are untrusted (commandTarget.ts): the document, mission, term and sense are checked
 * against the state when the command runs, and the conflicts a decision closes are the ones
 * open then, decided inside the writers' lock (decisionLog.ts) — never ids from the arguments.
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ErrorCodes, MessageType, ResponseError, ShowMessageNotification, type Connection, type ExecuteCommandParams, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { Engine } from '../core/check/engine';
import { conflictIdsToClose, logHoldsOwnSense, requestedEvent, resolvedEvent, senseCreatedEvent, type DecisionContext } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import type { ActorIdentity, GlossaryEventDraft } from '../core/events/types';
import { isPlaceholderDefinition } from '../core/placeholder';
import { isScopeId, SEVERITY_RANK, type ReplayState, type SenseRef, type Severity } from '../core/types';
import { eventLogPath } from '../node/eventStore';
import type { WorkspaceFileSystem } from '../node/fileSystem';
import { workspaceCandidates } from '../node/workspaceCandidates';
import { fileUri } from '../service/paths';
import { missionOf, shortTimestamp } from '../service/wording';
import { Commands, type CandidatesResult, type CommandResult, type DefineScope } from '../shared/protocol';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';
import type { CreatedSeedFiles } from './createdFiles';
import { invalid, optionalString, record, requiredString } from './commandArgs';
import { CommandRefused, placeholderRefused, termTarget, writableRoot, type TargetDeps, type TermTarget } from './commandTarget';
import { appendPlanned, type DecisionPlan, type EventAppender } from './decisionLog';
import { addDraftEntry } from './draftEntry';
import { applyQuickFixEdit } from './editCommand';
import type { Logger } from './logger';
import type { SettingsStore } from './settings';
import type { WorkspaceRegistry } from './workspaces';
import type { SpecVocabularies } from '../node/specVocabularies';
import type { SpecEntrySaves } from './specEntrySaves';
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
  eventStore(root: string): EventAppender;
  /** Where seed files are read (and created when the client cannot create files). */
  fs: WorkspaceFileSystem;
  /** The seed files made for draft entries, removed while still empty (createdFiles.ts). */
  createdFiles: CreatedSeedFiles;
  /** Reload the folder and re-check its open documents. */
  glossaryWritten(root: string): Promise<void>;
  /** The server's engine (for checking the folder's files when listing glossary candidates). */
  engine(): Engine;
  /** Missions' specs as last read (their own vocabularies). */
  vocabularies: SpecVocabularies;
  /** Define-here entries waiting for their definition (recorded when the spec is saved with it). */
  specEntries?: SpecEntrySaves;
  /** True once the client asked the server to shut down: nothing is written any more. */
  stopped(): boolean;
  /** Settles once the glossary-file changes seen in the folder so far are recorded (seedSaves.ts). */
  glossaryFilesRecorded(root: string): Promise<void>;
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
      case Commands.reopenTerm:
        return this.report(this.reopenTerm(record(arg)));
      case Commands.listCandidates:
        return this.report(this.listCandidates(arg === undefined || arg === null ? {} : record(arg)));
      case Commands.defineInSpec:
        return this.report(this.vocabulary.defineInSpec(record(arg)));
      case Commands.promoteTerm:
        return this.report(this.vocabulary.promoteTerm(record(arg)));
      case Commands.applyEdit:
        return this.report(applyQuickFixEdit(this.deps, record(arg)));
      case Commands.reload:
        await Promise.all(
          this.deps.registry.loadedRoots().map(async (root) => {
            // (Everything read again, the missions of the documents included.)
            this.deps.registry.missionsMayHaveMoved(root);
            await this.deps.glossaryWritten(root);
            await this.deps.glossaryFilesRecorded(root);
          }),
        );
        return { ok: true, message: 'Glossaries reloaded.' };
      default:
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${params.command}`);
    }
  }

  /** Pins a sense of the term for the mission, closing every clarification of it open now. */
  private async selectSense(args: Record<string, unknown>): Promise<CommandResult> {
    const target = await this.target(args);
    const { term, written, checked } = target;
    const asked = senseRef(args['sense']);
    // The sense as the glossary holds it now (the client's copy may be stale).
    const sense = checked.glossary.sensesOf(term).find((s) => s.status !== 'deprecated' && s.scope === asked.scope && s.definition === asked.definition);
    if (!sense) throw new CommandRefused(`'${written}' has no ${asked.scope} sense "${asked.definition}" now: ask for the quick fixes again. Nothing was written.`);
    const chosen: SenseRef = { surface: sense.surface, scope: sense.scope, definition: sense.definition, confidence: sense.confidence };
    const mission = missionOf(checked);
    const ctx = this.context(checked.missionId);
    const outcome = await this.decide(target, (state) => {
      const open = openOf(state, checked.missionId, term);
      const pinned = pinOf(state, checked.missionId, term);
      // (A pin whose event named no scope is of the sense with its definition: see WorkspaceSnapshot.pinsFor.)
      if (open.length === 0 && pinned && (sameSense(pinned.sense, chosen) || (pinned.scopeGuessed && pinned.sense.definition === chosen.definition))) {
        return { drafts: [], nothing: `'${written}' already means "${chosen.definition}" (${chosen.scope}) in mission ${mission}; nothing was recorded.` };
      }
      return { drafts: conflictIdsToClose(open, randomUUID).map((id) => resolvedEvent(ctx, id, term, chosen)) };
    });
    if ('nothing' in outcome) return outcome.nothing;
    return { ok: true, message: `'${written}' now means "${chosen.definition}" (${chosen.scope}) in mission ${mission}; recorded in ${this.logLabel(target)}.`, eventIds: outcome.eventIds };
  }

  private async defineTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const scope = args['scope'];
    if (scope !== 'mission_local' && scope !== 'team_domain') throw invalid('scope must be mission_local or team_domain');
    const definition = optionalString(args, 'definition')?.trim();
    if (definition === '') throw invalid('definition must not be blank');
    const target = await this.target(args);
    if (definition === undefined) {
      if (this.deps.stopped()) throw new CommandRefused('The server is shutting down; nothing was written.');
      const added = await addDraftEntry(this.deps, target, scope);
      return this.told(added.message, added.uri);
    }
    if (isPlaceholderDefinition(definition, target.term)) throw placeholderRefused(definition, target.written);

    const { term, written, checked } = target;
    const ctx = this.context(checked.missionId);
    const created = senseCreatedEvent(ctx, term, scope, definition);
    const sense: SenseRef = { surface: term, scope, definition, confidence: created.new_sense.confidence };
    const mission = missionOf(checked);
    const outcome = await this.decide(target, (state) => {
      const open = openOf(state, checked.missionId, term);
      const recorded = logHoldsOwnSense(state, checked.missionId, sense);
      if (recorded && open.length === 0 && sameSense(pinOf(state, checked.missionId, term)?.sense, sense)) {
        return { drafts: [], nothing: `'${written}' is already defined as "${definition}" in the ${SCOPE_LABEL[scope]} for mission ${mission}; nothing was recorded.` };
      }
      const drafts: GlossaryEventDraft[] = recorded ? [] : [created];
      return { drafts: [...drafts, ...conflictIdsToClose(open, randomUUID).map((id) => resolvedEvent(ctx, id, term, sense))] };
    });
    if ('nothing' in outcome) return outcome.nothing;
    return { ok: true, message: `Defined '${written}' in the ${SCOPE_LABEL[scope]} for mission ${mission}: "${definition}"; recorded in ${this.logLabel(target)}.`, eventIds: outcome.eventIds };
  }

  /** Opens a clarification for a term flagged in the document now (urgency: its severity now). */
  private async deferTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const target = await this.target(args);
    const { term, written, checked } = target;
    const findings = checked.report.findings.filter((f) => f.term === term);
    if (findings.length === 0) return this.nothing(`'${written}' is not flagged in this document now; nothing to defer.`);
    const urgency = findings.reduce<Severity>((max, f) => (SEVERITY_RANK[f.severity] > SEVERITY_RANK[max] ? f.severity : max), 'low');
    const options = findings[0]!.candidateSenses.map((s) => s.definition);
    const mission = missionOf(checked);
    const ctx = this.context(checked.missionId);
    const outcome = await this.decide(target, (state) => {
      const open = openOf(state, checked.missionId, term)[0];
      if (open) return { drafts: [], nothing: `'${written}' is already deferred in mission ${mission} since ${shortTimestamp(open.timestamp)}; nothing was recorded.` };
      const pin = pinOf(state, checked.missionId, term);
      if (pin) return { drafts: [], nothing: `'${written}' was decided in mission ${mission} meanwhile ("${pin.sense.definition}"); to ask again, use "Reopen '${written}' for clarification". Nothing was recorded.` };
      return { drafts: [requestedEvent(ctx, randomUUID(), term, checked.stepId, options, urgency)] };
    });
    if ('nothing' in outcome) return outcome.nothing;
    return { ok: true, message: `Deferred '${written}' in mission ${mission}: a clarification is open (recorded in ${this.logLabel(target)}).`, eventIds: outcome.eventIds };
  }

  /** Asks again about a pinned term: a clarification request marked as reopening it, which replay treats as unpinning it. */
  private async reopenTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const target = await this.target(args);
    const { term, written, checked } = target;
    const options = checked.glossary.sensesOf(term).filter((s) => s.status !== 'deprecated').map((s) => s.definition);
    const urgency: Severity = checked.report.critical ? 'high' : 'medium';
    const mission = missionOf(checked);
    const ctx = this.context(checked.missionId);
    const outcome = await this.decide(target, (state) => {
      if (!pinOf(state, checked.missionId, term)) return { drafts: [], nothing: `'${written}' is not decided in mission ${mission}; nothing to reopen.` };
      return { drafts: [requestedEvent(ctx, randomUUID(), term, checked.stepId, [...new Set(options)], urgency, true)] };
    });
    if ('nothing' in outcome) return outcome.nothing;
    return { ok: true, message: `Reopened '${written}' in mission ${mission}: it is no longer pinned until a sense is picked again (recorded in ${this.logLabel(target)}).`, eventIds: outcome.eventIds };
  }

  /**
   * The glossary candidates of the folder of `uri` (a document or folder), or of every folder:
   * each markdown file checked as on disk or as open in the editor (node/workspaceCandidates.ts).
   */
  private async listCandidates(args: Record<string, unknown>): Promise<CandidatesResult | CommandResult> {
    const uri = optionalString(args, 'uri');
    const minSpecs = args['minSpecs'];
    if (minSpecs !== undefined && (typeof minSpecs !== 'number' || !Number.isInteger(minSpecs) || minSpecs < 1)) throw invalid('minSpecs must be a whole number of at least 1');
    let roots: string[];
    if (uri) {
      const parsed = URI.parse(uri);
      if (parsed.scheme !== 'file') throw new CommandRefused(`${uri} is not a file or folder of the workspace.`);
      // A folder uri names the folder itself: its root is found from a path inside it.
      const inside = this.deps.fs.stat(parsed.fsPath)?.kind === 'directory' ? path.join(parsed.fsPath, '.folder') : parsed.fsPath;
      roots = [writableRoot(this.deps, inside, uri)];
    } else roots = [...this.deps.registry.getFolders()];
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

  /** The command's document, mission and term, checked against the state now. */
  private target(args: Record<string, unknown>): Promise<TermTarget> {
    const deps: TargetDeps = this.deps;
    return termTarget(deps, { uri: requiredString(args, 'uri'), missionId: requiredString(args, 'missionId'), term: requiredString(args, 'term'), written: optionalString(args, 'written') });
  }

  /** Appends the planned decision (its event ids), or answers why nothing was written. */
  private async decide(target: TermTarget, plan: (state: ReplayState) => DecisionPlan): Promise<{ eventIds: string[] } | { nothing: CommandResult }> {
    if (this.deps.stopped()) throw new CommandRefused('The server is shutting down; nothing was written.');
    const missionId = target.checked.missionId;
    const snapshot = await this.deps.registry.fresh(target.root);
    const { events, nothing } = await appendPlanned(this.deps.eventStore(target.root), missionId, snapshot.replay, plan);
    if (events.length === 0) return { nothing: this.nothing(nothing ?? 'Nothing to record.') };
    this.deps.logger.info(`appended ${events.map((e) => e.event_type).join(', ')} to the log of mission ${missionId}`);
    await this.deps.glossaryWritten(target.root);
    return { eventIds: events.map((e) => e.event_id) };
  }

  private logLabel(target: TermTarget): string {
    return path.relative(target.root, eventLogPath(target.root, target.checked.missionId));
  }

  private context(missionId: string): DecisionContext {
    return { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
  }

  /** A command that wrote nothing on purpose: said to the user, `ok` with no events. */
  private nothing(message: string): CommandResult {
    this.notify(MessageType.Info, message);
    return { ok: true, message, eventIds: [] };
  }

  /**
   * A success the user must act on (where the draft is), said to the user in any client: a draft
   * entry written (or one waiting already), a seed edit with no event recorded.
   */
  private told(message: string, editedUri: string): CommandResult {
    this.notify(MessageType.Info, message);
    return { ok: true, message, eventIds: [], editedUri };
  }

  private notify(type: MessageType, message: string): void {
    void this.deps.connection.sendNotification(ShowMessageNotification.type, { type, message }).catch(() => undefined);
  }

  /** Failures (refusals, I/O) are shown to the user and answered as `ok: false`. */
  private async report<T extends CommandResult>(work: Promise<T>): Promise<T | CommandResult> {
    try {
      const result = await work;
      if (!result.ok) this.notify(MessageType.Error, result.message);
      return result;
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      if (error instanceof CommandRefused) {
        this.notify(MessageType.Warning, error.message);
        return { ok: false, message: error.message };
      }
      const message = `spec-glossary: ${(error as Error).message}`;
      this.deps.logger.error('command failed', error);
      this.notify(MessageType.Error, message);
      return { ok: false, message };
    }
  }
}

function openOf(state: ReplayState, missionId: string, term: string) {
  return state.openClarifications.filter((c) => c.missionId === missionId && c.term === term);
}

function pinOf(state: ReplayState, missionId: string, term: string) {
  return state.pins.find((p) => p.missionId === missionId && p.term === term);
}

function sameSense(a: SenseRef | undefined, b: SenseRef): boolean {
  return a !== undefined && a.scope === b.scope && a.definition === b.definition;
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
