/**
 * The server commands of a mission's own vocabulary (SPEC §9):
 * - `defineInSpec`: an entry for the term in the spec's Domain Language (or Key Entities, …)
 *   section, written as the section's entries are (core/missionVocabulary/insertEntry.ts), through
 *   `workspace/applyEdit`; with a definition it is recorded as GlossarySenseUpdated (scope
 *   mission_local), without one its placeholder definition is selected for the writer;
 * - `promoteTerm`: the term, with the definition its mission gives it, into team_domain.yaml.
 */

import path from 'node:path';
import { ErrorCodes, ResponseError, type WorkspaceEdit } from 'vscode-languageserver';
import type { TextEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { isoTimestamp } from '../core/events/timestamp';
import { resolvedEvent, senseCreatedEvent, type DecisionContext } from '../core/events/decisions';
import { insertEntry } from '../core/missionVocabulary/insertEntry';
import { readVocabulary } from '../core/missionVocabulary/read';
import { normalizeSurface } from '../core/normalize';
import { LineIndex } from '../core/text';
import type { Range } from '../core/types';
import { readWorkspaceText } from '../node/files';
import { assertInsideWorkspace } from '../node/fsSafety';
import type { SpecVocabularies } from '../node/specVocabularies';
import { seedPath } from '../node/workspace';
import { fileUri } from '../service/paths';
import { draftDefinition, insertDraftEntry } from '../service/seedEdit';
import type { CommandResult } from '../shared/protocol';
import type { CommandDeps } from './commands';

export class VocabularyCommands {
  constructor(
    private readonly deps: CommandDeps,
    private readonly vocabularies: SpecVocabularies,
  ) {}

  async defineInSpec(args: Record<string, unknown>): Promise<CommandResult> {
    const { registry, fs } = this.deps;
    const specPath = filePath(requiredString(args, 'specUri'));
    const missionId = requiredString(args, 'missionId');
    const written = requiredString(args, 'term').replace(/\s+/g, ' ').trim();
    const term = normalizeSurface(written);
    if (term === '') throw invalid('term must not be blank');
    const given = typeof args['definition'] === 'string' ? args['definition'].trim() : '';
    const mission = typeof args['missionSlug'] === 'string' && args['missionSlug'].trim() !== '' ? args['missionSlug'].trim() : missionId;
    const root = registry.rootFor(specPath);
    assertInsideWorkspace(root, specPath, fs);
    const text = await this.textOf(root, specPath);
    const label = path.relative(root, specPath);
    if (text === undefined) return { ok: false, message: `Cannot add '${written}' to ${label}: it cannot be read.` };
    const insertion = insertEntry(text, readVocabulary(text), written, given || draftDefinition(written));
    if (!insertion) return { ok: false, message: `${label} has no Domain Language, Key Entities, Terminology, Glossary or Definitions section to add '${written}' to.` };

    const uri = fileUri(specPath);
    const lines = new LineIndex(text);
    const at = lines.positionAt(insertion.at);
    const applied = await this.apply(`Define '${written}' in this spec's Domain Language`, uri, [{ range: { start: at, end: at }, newText: insertion.text }]);
    if (!applied.ok) return applied;
    this.vocabularies.invalidate(specPath);

    if (given) {
      const ctx: DecisionContext = { missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
      const snapshot = await registry.fresh(root);
      const open = snapshot.replay.openClarifications.filter((c) => c.missionId === missionId && c.term === term);
      const created = senseCreatedEvent(ctx, term, 'mission_local', given);
      const sense = { surface: term, scope: 'mission_local' as const, definition: given, confidence: created.new_sense.confidence };
      const events = await this.deps.eventStore(root).append(missionId, [created, ...open.map((c) => resolvedEvent(ctx, c.conflictId, term, sense))]);
      this.deps.logger.info(`appended ${events.map((e) => e.event_type).join(', ')} to the log of mission ${missionId}`);
      await this.deps.glossaryWritten(root);
      return { ok: true, message: `Defined '${written}' in the ${insertion.section} section of ${label} for mission ${mission}.`, eventIds: events.map((e) => e.event_id), editedUri: uri };
    }
    const after = new LineIndex(text.slice(0, insertion.at) + insertion.text + text.slice(insertion.at));
    await this.show(uri, after.rangeOf(insertion.definitionStart, insertion.definitionEnd));
    await this.deps.glossaryWritten(root);
    return { ok: true, message: `Added '${written}' to the ${insertion.section} section of ${label}; write its definition there.`, editedUri: uri };
  }

  async promoteTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const { registry, fs } = this.deps;
    const documentPath = filePath(requiredString(args, 'uri'));
    const term = normalizeSurface(requiredString(args, 'term'));
    const definition = requiredString(args, 'definition').replace(/\s+/g, ' ').trim();
    const avoid = Array.isArray(args['synonymsToAvoid']) ? args['synonymsToAvoid'].filter((w): w is string => typeof w === 'string' && w.trim() !== '').map(normalizeSurface) : [];
    const root = registry.rootFor(documentPath);
    const file = seedPath(root, 'team_domain');
    const label = path.relative(root, file);
    assertInsideWorkspace(root, file, fs);
    const existing = await this.textOf(root, file);
    const insertion = insertDraftEntry(existing, 'team_domain', term, definition, { status: 'active', synonymsToAvoid: avoid });
    if (!insertion.ok) return { ok: false, message: `Cannot add '${term}' to ${label}: ${insertion.message}` };
    const uri = fileUri(file);
    if (insertion.create && !this.deps.client.createFile) {
      // The client cannot create files: create the empty seed file (inside .kittify/) ourselves.
      fs.createDirectory(path.dirname(file));
      assertInsideWorkspace(root, file, fs);
      fs.writeFile(file, '', { exclusive: true });
    }
    const applied = await this.apply(`Promote '${term}' to the team glossary`, uri, insertion.edits, insertion.create && this.deps.client.createFile);
    if (!applied.ok) return applied;
    await this.show(uri, insertion.selection);
    await this.deps.glossaryWritten(root);
    return { ok: true, message: `Added '${term}' to the team glossary (${label}) with its mission's definition.`, editedUri: uri };
  }

  /** The text of a file: the editor's buffer when it is open, else the disk's; undefined when missing. */
  private async textOf(root: string, file: string): Promise<string | undefined> {
    const open = this.deps.documents.get(fileUri(file));
    if (open) return open.getText();
    const outcome = readWorkspaceText(root, file, (await this.deps.settings.get(fileUri(root))).maxFileSize, this.deps.fs);
    return outcome.ok ? outcome.text : undefined;
  }

  /** Applies text edits to one file through the client (creating it first when `create`). */
  private async apply(label: string, uri: string, edits: TextEdit[], create = false): Promise<CommandResult> {
    const { connection, client, documents } = this.deps;
    const version = documents.get(uri)?.version ?? null;
    const edit: WorkspaceEdit = create
      ? { documentChanges: [{ kind: 'create', uri, options: { ignoreIfExists: true } }, { textDocument: { uri, version: null }, edits }] }
      : client.documentChanges
        ? { documentChanges: [{ textDocument: { uri, version }, edits }] }
        : { changes: { [uri]: edits } };
    try {
      const applied = await connection.workspace.applyEdit({ label, edit });
      if (!applied.applied) return { ok: false, message: `The editor did not apply the edit to ${URI.parse(uri).fsPath}${applied.failureReason ? `: ${applied.failureReason}` : ''}.` };
    } catch (error) {
      return { ok: false, message: `The editor cannot apply workspace edits (${(error as Error).message}).` };
    }
    return { ok: true, message: '' };
  }

  private async show(uri: string, selection: Range): Promise<void> {
    if (!this.deps.client.showDocument) return;
    await this.deps.connection.window.showDocument({ uri, takeFocus: true, selection }).catch((error: unknown) => this.deps.logger.debug(`showDocument: ${(error as Error).message}`));
  }
}

function filePath(uri: string): string {
  const parsed = URI.parse(uri);
  if (parsed.scheme !== 'file') throw invalid(`not a file: ${uri}`);
  return parsed.fsPath;
}

function requiredString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${key} must be a non-empty string`);
  return value;
}

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}
