/**
 * The server commands of a mission's own vocabulary (SPEC §3, §9):
 * - `defineInSpec`: an entry for the term in the Domain Language (or Key Entities, …) section of
 *   the mission's spec, written as the section's entries are (core/missionVocabulary/insertEntry.ts),
 *   through `workspace/applyEdit`; with a definition it is recorded as GlossarySenseUpdated (scope
 *   mission_local, closing the term's open clarifications), without one its placeholder
 *   definition is shown for the writer to replace;
 * - `promoteTerm`: the term, with the definition (and words to avoid) its mission's vocabulary
 *   gives it now, into team_domain.yaml as an active entry; saving the file records it
 *   (seedSaves.ts), as for any glossary-file edit.
 *
 * Arguments are untrusted, as for every command (commandTarget.ts): the document, its mission and
 * the term are checked against the state when the command runs; the spec to edit and the
 * definition to promote are worked out by the server, never taken from the arguments. A refused
 * or failed edit leaves nothing behind.
 */

import path from 'node:path';
import { MessageType, ShowMessageNotification, type WorkspaceEdit } from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import { logHoldsSense, resolvedEvent, senseCreatedEvent, SPEC_ENTRY_SOURCE, type DecisionContext } from '../core/events/decisions';
import { isoTimestamp } from '../core/events/timestamp';
import { writtenForm } from '../core/check/wording';
import { definedBeyondMissions } from '../core/missionVocabulary/candidates';
import { insertEntry } from '../core/missionVocabulary/insertEntry';
import { readVocabulary } from '../core/missionVocabulary/read';
import { entrySense } from '../core/missionVocabulary/senses';
import { normalizeSurface } from '../core/normalize';
import { isPlaceholderDefinition } from '../core/placeholder';
import { LineIndex } from '../core/text';
import type { SenseRef } from '../core/types';
import { eventLogPath } from '../node/eventStore';
import { namingFileAs, readWorkspaceText } from '../node/files';
import { assertInsideWorkspace } from '../node/fsSafety';
import type { SpecVocabularies } from '../node/specVocabularies';
import { seedPath } from '../node/workspace';
import { fileUri } from '../service/paths';
import { draftDefinition, findDraftEntry, insertDraftEntry } from '../service/seedEdit';
import { vocabularyActionTitles, vocabularyTarget } from '../service/vocabularyActions';
import { missionOf } from '../service/wording';
import type { CommandResult } from '../shared/protocol';
import type { CommandDeps } from './commands';
import { invalid, optionalString, requiredString } from './commandArgs';
import { CommandRefused, documentTarget, placeholderRefused, termTarget, writableRoot, type TargetDeps } from './commandTarget';
import { appendPlanned } from './decisionLog';
import { applySeedInsertion, showRange } from './draftEntry';

export class VocabularyCommands {
  constructor(
    private readonly deps: CommandDeps,
    private readonly vocabularies: SpecVocabularies,
  ) {}

  async defineInSpec(args: Record<string, unknown>): Promise<CommandResult> {
    const given = optionalString(args, 'definition')?.replace(/\s+/g, ' ').trim();
    if (given === '') throw invalid('definition must not be blank');
    const specUri = optionalString(args, 'specUri');
    const targetDeps: TargetDeps = this.deps;
    const target = await termTarget(targetDeps, { uri: requiredString(args, 'uri'), missionId: requiredString(args, 'missionId'), term: requiredString(args, 'term'), written: optionalString(args, 'written') });
    const { term, written, checked } = target;
    if (given !== undefined && isPlaceholderDefinition(given, term)) throw placeholderRefused(given, written);
    const mission = missionOf(checked);
    const spec = vocabularyTarget(checked);
    if (spec === undefined) throw new CommandRefused(`Mission ${mission} has no spec with a Domain Language, Key Entities, Terminology, Glossary or Definitions section to add '${written}' to. Nothing was written.`);
    const asked = specUri !== undefined ? URI.parse(specUri) : undefined;
    if (asked && (asked.scheme !== 'file' || path.resolve(asked.fsPath) !== path.resolve(spec))) {
      throw new CommandRefused(`The spec of mission ${mission} is ${path.relative(target.root, spec)} now: ask for the quick fixes again. Nothing was written.`);
    }
    const root = writableRoot(this.deps, spec, fileUri(spec));
    assertInsideWorkspace(root, spec, this.deps.fs);
    const label = path.relative(root, spec);
    const text = await this.textOf(root, spec);
    if (text === undefined) throw new CommandRefused(`Cannot add '${written}' to ${label}: it cannot be read. Nothing was written.`);
    const vocabulary = readVocabulary(text);
    // (An entry still waiting for its definition is a problem, not an entry: it is pointed at too.)
    const already = vocabulary.entries.find((e) => e.surface === term || e.aliases.includes(term)) ?? vocabulary.problems.find((p) => p.surface === term);
    if (already) {
      const line = vocabulary.lines.positionAt(already.start).line + 1;
      await showRange(this.deps, fileUri(spec), vocabulary.lines.rangeOf(already.termStart ?? already.start, already.termEnd ?? already.end));
      return this.nothing(`${label}:${line} already has an entry for '${written}' (write its definition there if it has none); nothing was added.`);
    }
    const insertion = insertEntry(text, vocabulary, written, given ?? draftDefinition(written));
    if (!insertion) throw new CommandRefused(`${label} has no Domain Language, Key Entities, Terminology, Glossary or Definitions section to add '${written}' to. Nothing was written.`);
    const edited = text.slice(0, insertion.at) + insertion.text + text.slice(insertion.at);
    const after = new LineIndex(edited);
    // The definition as the spec reads it back, its markup gone: "**TODO**" is a placeholder too
    // (the spec reads such an entry as a problem, not an entry).
    const entries = given === undefined ? undefined : readVocabulary(edited, after);
    const readBack = entries && entrySense({ file: spec, missionId: checked.missionId, missionSlug: checked.missionId, vocabulary: entries }, term)?.definition;
    const placeholder = readBack !== undefined ? isPlaceholderDefinition(readBack, term) : (entries?.problems.some((p) => p.surface === term) ?? false);
    if (given !== undefined && placeholder) throw placeholderRefused(given, written);
    if (this.deps.stopped()) throw new CommandRefused('The server is shutting down; nothing was written.');

    const uri = fileUri(spec);
    const at = vocabulary.lines.positionAt(insertion.at);
    await this.apply(vocabularyActionTitles.defineInSpec(written), uri, { range: { start: at, end: at }, newText: insertion.text });
    this.vocabularies.invalidate(spec);
    const line = after.positionAt(insertion.definitionStart).line + 1;

    if (given === undefined) {
      const shown = await showRange(this.deps, uri, after.rangeOf(insertion.definitionStart, insertion.definitionEnd));
      this.deps.specEntries?.added(spec, target.root, checked.missionId, term);
      await this.deps.glossaryWritten(target.root);
      return this.told(
        `Added '${written}' to the ${sectionTitle(insertion.section)} section of ${label}:${line}: replace "${draftDefinition(written)}" with its definition and save the spec${shown ? '' : ` (open ${label} at line ${line})`}. Saving records it in the event log.`,
        uri,
      );
    }
    // The entry is the mission's sense from now on; the log records it as Spec Kitty would a
    // mission_local definition (the record of the spec's entry: SPEC_ENTRY_SOURCE), and closes the
    // term's clarifications open now (decided under the lock).
    const ctx: DecisionContext = { missionId: checked.missionId, runId: this.deps.runId, actor: this.deps.actor, timestamp: isoTimestamp() };
    // (Recorded as the spec reads it, as a definition written into a waiting entry is.)
    const created = senseCreatedEvent(ctx, term, 'mission_local', readBack ?? given, SPEC_ENTRY_SOURCE);
    const sense: SenseRef = { surface: term, scope: 'mission_local', definition: created.new_sense.definition, confidence: created.new_sense.confidence };
    const snapshot = await this.deps.registry.fresh(target.root);
    const { events } = await appendPlanned(this.deps.eventStore(target.root), checked.missionId, snapshot.replay, (state) => ({
      // (Only clarifications open then are closed: no pin of its own, so a definition changed in the spec later is the one that counts.)
      drafts: [...(logHoldsSense(state, checked.missionId, created.new_sense) ? [] : [created]), ...state.openClarifications.filter((c) => c.missionId === checked.missionId && c.term === term).map((c) => resolvedEvent(ctx, c.conflictId, term, sense))],
    }));
    this.deps.logger.info(`appended ${events.map((e) => e.event_type).join(', ')} to the log of mission ${checked.missionId}`);
    await this.deps.glossaryWritten(target.root);
    const log = path.relative(target.root, eventLogPath(target.root, checked.missionId));
    return { ok: true, message: `Defined '${written}' in the ${sectionTitle(insertion.section)} section of ${label}:${line} for mission ${mission}: "${given}"; recorded in ${log}.`, eventIds: events.map((e) => e.event_id), editedUri: uri };
  }

  async promoteTerm(args: Record<string, unknown>): Promise<CommandResult> {
    const target = await documentTarget(this.deps, requiredString(args, 'uri'));
    const { checked, root } = target;
    const term = normalizeSurface(requiredString(args, 'term'));
    const givenWritten = writtenForm(optionalString(args, 'written') ?? '');
    const written = givenWritten !== '' && normalizeSurface(givenWritten) === term ? givenWritten : term;
    const mission = missionOf(checked);
    // The definition is the one the mission's vocabulary gives the term now (not the arguments').
    const sense = checked.glossary.sensesOf(term).find((s) => s.origin.kind === 'spec' && s.status !== 'deprecated' && s.seeAlso.length === 0);
    if (!sense) throw new CommandRefused(`'${written}' is not defined by the own vocabulary of mission ${mission} now: ask for the quick fixes again. Nothing was written.`);
    if (definedBeyondMissions(checked.glossary, term)) return this.nothing(`'${written}' is already in the team or core glossary; nothing was added.`);

    const file = seedPath(root, 'team_domain');
    const label = path.relative(root, file);
    writableRoot(this.deps, file, label);
    assertInsideWorkspace(root, file, this.deps.fs);
    const uri = fileUri(file);
    const open = this.deps.documents.get(uri);
    let existing: string | undefined = open?.getText();
    if (existing === undefined) {
      const outcome = readWorkspaceText(root, file, (await this.deps.settings.get(fileUri(root))).maxFileSize, this.deps.fs);
      if (outcome.ok) existing = outcome.text;
      else if (!outcome.missing) throw new CommandRefused(`Cannot add '${written}' to ${label}: ${namingFileAs(outcome.reason, file, 'the file')}. Nothing was written.`);
    }
    // (A draft of the term waiting there is pointed at, not doubled: its definition is the writer's to fill.)
    const waiting = existing === undefined ? undefined : findDraftEntry(existing, term);
    if (waiting) {
      const shown = await showRange(this.deps, uri, waiting);
      return this.nothing(`${label}:${waiting.start.line + 1} already has a draft entry for '${written}': write its definition there (mission ${mission}'s: "${sense.definition}") and save the file${shown ? '' : ` (open ${label})`}; nothing was added.`);
    }
    const insertion = insertDraftEntry(existing, 'team_domain', term, sense.definition, { status: 'active', synonymsToAvoid: sense.synonymsToAvoid });
    if (!insertion.ok) throw new CommandRefused(`Cannot add '${written}' to ${label}: ${insertion.message}. Nothing was written.`);
    const shown = await applySeedInsertion(this.deps, { root, file, version: open?.version ?? null, insertion, label: vocabularyActionTitles.promote(written) });
    const line = insertion.selection.start.line + 1;
    return this.told(
      `Added '${written}' to the team glossary (${label}:${line}) with mission ${sense.origin.kind === 'spec' ? sense.origin.missionSlug : mission}'s definition: save the file to record it in the event log${shown ? '' : ` (open ${label} at line ${line})`}.`,
      uri,
    );
  }

  /** The text of a file: the editor's buffer when it is open, else the disk's; undefined when missing or unreadable. */
  private async textOf(root: string, file: string): Promise<string | undefined> {
    const open = this.deps.documents.get(fileUri(file));
    if (open) return open.getText();
    const outcome = readWorkspaceText(root, file, (await this.deps.settings.get(fileUri(root))).maxFileSize, this.deps.fs);
    return outcome.ok ? outcome.text : undefined;
  }

  /** Applies one text edit to a spec through the client; a refusal leaves the spec as it was and says so. */
  private async apply(label: string, uri: string, edit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }): Promise<void> {
    const { connection, client, documents } = this.deps;
    // (Named as the client opened it, when it did: its buffer, at its version.)
    const open = documents.get(uri);
    const named = open?.uri ?? uri;
    const change: WorkspaceEdit = client.documentChanges ? { documentChanges: [{ textDocument: { uri: named, version: open?.version ?? null }, edits: [edit] }] } : { changes: { [named]: [edit] } };
    let applied: { applied: boolean; failureReason?: string };
    try {
      applied = await connection.workspace.applyEdit({ label, edit: change });
    } catch (error) {
      throw new CommandRefused(`The editor did not apply the edit (${(error as Error).message}); write the entry in the spec yourself. Nothing was written.`);
    }
    if (!applied.applied) throw new CommandRefused(`The editor did not apply the edit to ${URI.parse(uri).fsPath}${applied.failureReason ? `: ${applied.failureReason}` : ''}. Nothing was written.`);
  }

  /** Wrote nothing on purpose: said to the user, `ok` with no events. */
  private nothing(message: string): CommandResult {
    this.notify(message);
    return { ok: true, message, eventIds: [] };
  }

  /** A success the user must act on (where the entry is): said in any client. */
  private told(message: string, editedUri: string): CommandResult {
    this.notify(message);
    return { ok: true, message, editedUri };
  }

  private notify(message: string): void {
    void this.deps.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message }).catch(() => undefined);
  }
}

function sectionTitle(name: string): string {
  return name.replace(/\b\w/g, (c) => c.toUpperCase());
}
