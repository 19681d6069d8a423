/**
 * The requests over the term index: references, document highlight, rename (prepare and do) and
 * workspace symbols. Each waits for the folder's index to be current (the background build, and
 * the open specs edited since), then hands the index and the folder's glossary to the service.
 *
 * A rename writes nothing when it is answered: the client may discard its edit, apply it to
 * buffers it never saves, or fail to apply it (LSP gives the server no word of that). The answered
 * rename waits for the save that shows it (renameSaves.ts), which records it.
 */

import path from 'node:path';
import {
  DocumentHighlightKind,
  ErrorCodes,
  ResponseError,
  type CancellationToken,
  type DocumentHighlight,
  type DocumentHighlightParams,
  type Location,
  type PrepareRenameParams,
  type Range,
  type ReferenceParams,
  type RenameParams,
  type SymbolInformation,
  type TextDocuments,
  type TextEdit,
  type WorkspaceEdit,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Engine } from '../core/check/engine';
import { MASK, maskMarkdown } from '../core/markdown/mask';
import { LineIndex } from '../core/text';
import { glossaryOccurrences, TermIndex, type DocumentDetails } from '../core/terms/termIndex';
import { missionSensesOf } from '../core/terms/indexUsage';
import { LINE_BREAK_GAP } from '../core/check/wording';
import { normalizeSurface } from '../core/normalize';
import { SCOPE_ORDER, type Sense } from '../core/types';
import { eventLogPath } from '../node/eventStore';
import { isInside } from '../node/fsSafety';
import { seedPath, type WorkspaceSnapshot } from '../node/workspace';
import { fileUri } from '../service/paths';
import { contains } from '../service/termAt';
import type { CheckedDocument } from '../service/types';
import { termAtPosition, termHighlights, termReferences, termSymbols } from '../service/termNavigation';
import type { SeedSurface } from '../service/seedSurfaces';
import { SeedTexts, type GlossarySources } from '../service/termEntries';
import { planRename, renameTarget, type RenamePlan } from '../service/termRename';
import type { DocumentAnalyzer } from './analysis';
import type { ClientFeatures } from './capabilities';
import type { Logger } from './logger';
import { uriOf } from './openDocuments';
import { usesIn, type FileBefore, type RenameSaves } from './renameSaves';
import { throwIfCancelled, unlessCancelled } from './runSafe';
import type { TermIndexer } from './termIndexer';
import type { WorkspaceRegistry } from './workspaces';

export interface TermFeatureDeps {
  documents: TextDocuments<TextDocument>;
  analyzer: DocumentAnalyzer;
  registry: WorkspaceRegistry;
  indexer: TermIndexer;
  client: ClientFeatures;
  engine: () => Engine;
  logger: Logger;
  /** Where an answered rename waits for its save, to be recorded then. */
  renames: Pick<RenameSaves, 'answered'>;
  /** A workspace file as the editor has it (its open buffer) or on disk. */
  readText(root: string, file: string): Promise<string | undefined | null>;
}

/** Where a request points: the folder, its index and glossary, and the term there. */
interface Target {
  root: string;
  file: string;
  index: TermIndex;
  snapshot: WorkspaceSnapshot;
  /** The folder's glossary, with the senses the document's own check adds. */
  sources: GlossarySources;
  seedTexts: SeedTexts;
  isSeedFile: boolean;
  found: ReturnType<typeof termAtPosition>;
  /** The spec's mission (none for a glossary file). */
  missionId?: string;
}

/** How `target` finds a request's term. */
interface TargetOptions {
  /** An open spec is read from its own check (the one its diagnostics come from), not the index. */
  openDocumentOnly?: boolean;
  /**
   * The index once any re-index under way (after a glossary change) is done, not the one of the
   * glossary before; otherwise the current one, waited for only when it knows no term at the
   * position (a term the change just defined).
   */
  settled?: boolean;
  /** The term of this spec's own vocabulary entry at the position counts too (references and highlight from its definition). */
  entries?: boolean;
}

export class TermFeatures {
  /** The last parse of each seed file's surfaces (a large glossary takes milliseconds to parse). */
  private readonly seedMemo = new Map<string, { text: string; surfaces: SeedSurface[] }>();

  constructor(private readonly deps: TermFeatureDeps) {}

  async references(params: ReferenceParams, token: CancellationToken): Promise<Location[]> {
    const target = await this.target(params.textDocument.uri, params.position, token, { entries: true });
    if (!target?.found) return [];
    // Where a mission's own spec defines the word, its uses there are that mission's term: asked
    // from one of its documents, those are the references; asked elsewhere, they are left out (as
    // a rename of the team's term leaves them).
    const term = target.found.term;
    const defining = missionDefinedTerms(target.index).get(term) ?? [];
    const missionOf = (document: string) => target.index.detailsOf(document)?.missionId ?? '';
    const inScope =
      defining.length === 0 ? undefined : target.missionId !== undefined && defining.includes(target.missionId) ? (document: string) => missionOf(document) === target.missionId : (document: string) => !defining.includes(missionOf(document));
    return termReferences(target.index, target.sources, target.seedTexts, term, params.context.includeDeclaration, inScope);
  }

  async highlight(params: DocumentHighlightParams, token: CancellationToken): Promise<DocumentHighlight[]> {
    // (Asked as the cursor moves, typing included: an open spec is read from its own analysis,
    // the one its diagnostics use, instead of settling the index, which would check the whole
    // edited document again at every keystroke.)
    const target = await this.target(params.textDocument.uri, params.position, token, { openDocumentOnly: true, entries: true });
    if (!target?.found) return [];
    const highlights = termHighlights(target.index, target.file, target.found.term, target.seedTexts, target.isSeedFile, target.sources);
    // The term's own definition in this spec (its Domain Language entry): a Write.
    for (const sense of target.sources.eventSenses) {
      const origin = sense.origin;
      if (sense.surface === target.found.term && origin.kind === 'spec' && path.resolve(origin.file) === target.file) highlights.push({ range: origin.range, kind: DocumentHighlightKind.Write });
    }
    return highlights;
  }

  async prepareRename(params: PrepareRenameParams, token: CancellationToken): Promise<{ range: Range; placeholder: string }> {
    const target = await this.target(params.textDocument.uri, params.position, token, { settled: true });
    if (!target) throw refused(this.notRenamable(params.textDocument.uri));
    if (!target.found) throw refused(await this.nothingHere(params.textDocument.uri, params.position, target.file, target.isSeedFile));
    const checked = renameTarget(target.sources, target.seedTexts, target.found.term, target.found.use);
    if (!checked.ok) throw refused(checked.message);
    const range = target.found.use?.range ?? target.seedTexts.surfaces(target.file).find((s) => s.surface === target.found!.term)!.range;
    // The term as written there (the spec's buffer, else the file).
    const document = this.deps.documents.get(params.textDocument.uri);
    const text = document ? document.getText() : await this.deps.readText(target.root, target.file);
    const placeholder = target.found.use && typeof text === 'string' ? text.slice(...offsetsOf(new LineIndex(text), range)) : target.found.term;
    return { range, placeholder };
  }

  async rename(params: RenameParams, token: CancellationToken): Promise<WorkspaceEdit> {
    // (A rename is built from the index once any re-index under way is done: it edits files.)
    const target = await this.target(params.textDocument.uri, params.position, token, { settled: true });
    if (!target) throw refused(this.notRenamable(params.textDocument.uri));
    if (!target.found) throw refused(await this.nothingHere(params.textDocument.uri, params.position, target.file, target.isSeedFile));
    const term = target.found.term;
    // A term its mission decides (mission_local) is renamed in that mission's documents only.
    const decided = renameTarget(target.sources, target.seedTexts, term, target.found.use);
    const missionTerms = missionDefinedTerms(target.index);
    // A team or core term is renamed where it means that sense: not in a mission whose own spec
    // defines the same word (there it is the mission's term, which this rename leaves alone).
    const own = missionTerms.get(term) ?? [];
    const usesNow = () =>
      decided.ok && decided.scope === 'mission_local'
        ? target.index.usesOf(term).filter((u) => target.index.detailsOf(u.document)?.missionId === target.missionId)
        : target.index.usesOf(term).filter((u) => !own.includes(target.index.detailsOf(u.document)?.missionId ?? ''));
    let uses = usesNow();
    // A closed spec another program changed, made or removed since it was indexed, unseen by a
    // client that watches no files: indexed again now, so that no edit lands on text that moved
    // and no new use is left with the old name.
    if (await this.deps.indexer.refreshChanged(target.root)) uses = usesNow();
    const plan = planRename(this.deps.engine(), target.sources, target.seedTexts, term, target.found.use, params.newName, uses, missionTerms);
    if (!plan.ok) throw refused(plan.message);
    throwIfCancelled(token);

    const byFile = new Map<string, TextEdit[]>();
    const texts = new Map<string, LineIndex | undefined>();
    for (const edit of plan.edits) {
      const list = byFile.get(edit.file);
      let newText = edit.newText;
      if (edit.range.start.line !== edit.range.end.line && newText.includes(' ')) {
        if (!texts.has(edit.file)) {
          const text = await this.textOf(target.root, edit.file);
          texts.set(edit.file, text === undefined ? undefined : new LineIndex(text));
        }
        const lines = texts.get(edit.file);
        if (lines) newText = withLineBreakOf(lines.text.slice(...offsetsOf(lines, edit.range)), newText);
      }
      const textEdit = { range: edit.range, newText };
      if (list) list.push(textEdit);
      else byFile.set(edit.file, [textEdit]);
    }
    await this.waitForSave(target, plan, byFile);
    this.deps.logger.info(`answered the rename of '${term}' to '${plan.newSurface}' (${plan.scope}): ${plan.edits.length} edits in ${byFile.size} files (${plan.seeAlso} see_also); recorded once saved`);
    if (this.deps.client.documentChanges) {
      return {
        documentChanges: [...byFile].map(([file, edits]) => {
          const open = this.deps.documents.get(fileUri(file));
          return { textDocument: { uri: open?.uri ?? fileUri(file), version: open?.version ?? null }, edits };
        }),
      };
    }
    return { changes: Object.fromEntries([...byFile].map(([file, edits]) => [uriOf(this.deps.documents, fileUri(file)), edits])) };
  }

  async symbols(params: WorkspaceSymbolParams, token: CancellationToken): Promise<SymbolInformation[]> {
    const folders: { sources: WorkspaceSnapshot; seedTexts: SeedTexts; missionSenses: Sense[] }[] = [];
    for (const folder of this.deps.registry.getFolders()) {
      const root = this.deps.registry.rootFor(path.join(folder, '_'));
      if (folders.some((f) => f.sources.root === root)) continue;
      const snapshot = await this.deps.registry.snapshot(root);
      throwIfCancelled(token);
      // The terms missions define in their specs, as the index has read them so far (the first
      // build is not waited for: the glossaries' terms are listed at once).
      const index = this.deps.indexer.asBuilt(root);
      folders.push({ sources: snapshot, seedTexts: await this.seedTexts(root), missionSenses: index ? missionSensesOf(index) : [] });
    }
    return termSymbols(folders, params.query, eventLogPath);
  }

  /** Why nothing in this document can be renamed. */
  private notRenamable(uri: string): string {
    const document = this.deps.documents.get(uri);
    const located = this.deps.analyzer.locate(document ?? { uri, languageId: uri.endsWith('.yaml') ? 'yaml' : 'markdown' });
    // (A markdown file in no workspace folder and no Spec Kitty workspace: there are no specs to rename in.)
    if (located?.kind.kind === 'markdown' && uri.startsWith('file:') && !this.deps.registry.getFolders().some((folder) => isInside(folder, located.fsPath))) {
      return `${path.basename(located.fsPath)} is in no workspace folder and no Spec Kitty workspace (a folder holding .kittify/): open its project folder to rename a term across its specs.`;
    }
    return 'Only glossary terms in specs and the surfaces of glossary files can be renamed.';
  }

  /** The folder, index, glossary and term of a request's document and position. */
  private async target(uri: string, position: { line: number; character: number }, token: CancellationToken, options: TargetOptions = {}): Promise<Target | undefined> {
    const { openDocumentOnly = false, settled = false, entries = false } = options;
    const document = this.deps.documents.get(uri);
    const located = this.deps.analyzer.locate(document ?? { uri, languageId: uri.endsWith('.yaml') ? 'yaml' : 'markdown' });
    if (!located || (located.kind.kind !== 'markdown' && located.kind.kind !== 'seed')) return undefined;
    const file = path.resolve(located.fsPath);
    const isSeedFile = located.kind.kind === 'seed';
    const fromOpenDocument = openDocumentOnly && document !== undefined && !isSeedFile;
    // (An open spec's highlight reads the check its diagnostics come from, kept per version.)
    const openChecked = fromOpenDocument ? await this.checkedSpec(document) : undefined;
    // (The first build may take seconds: a cancelled request is answered at once, not after it.)
    let index = fromOpenDocument ? openChecked && indexOfOne(file, openChecked) : await unlessCancelled(settled ? this.deps.indexer.settled(located.root) : this.deps.indexer.current(located.root), token);
    throwIfCancelled(token);
    if (!index) return undefined;
    const snapshot = await this.deps.registry.fresh(located.root);
    // (A highlight in a spec needs no glossary file's text: none is read as the cursor moves.)
    const seedTexts = fromOpenDocument ? new SeedTexts(new Map()) : await this.seedTexts(located.root);
    throwIfCancelled(token);
    let found = termAtPosition(index, file, position, seedTexts, isSeedFile);
    if (!found && !fromOpenDocument && !settled && this.deps.indexer.building(located.root)) {
      index = (await unlessCancelled(this.deps.indexer.settled(located.root), token)) ?? index;
      throwIfCancelled(token);
      found = termAtPosition(index, file, position, seedTexts, isSeedFile);
    }
    // The spec's own check: its mission, and the senses it knows beyond the folder's files and log
    // (a mission's own vocabulary, read from its spec), whose entries count too.
    let checked = isSeedFile || (!found && !entries) ? undefined : (openChecked ?? (await this.checkedSpec(document ?? (await this.fromDisk(uri, located.root, file)))));
    if (!found && checked) {
      const entry = entryAt(checked, file, position);
      if (entry) found = { term: entry.surface };
      else checked = undefined;
    }
    if (found && !isSeedFile && !checked) return undefined; // the spec cannot be read now
    const own = checked && found ? checked.glossary.sensesOf(found.term).filter((s) => s.origin.kind !== 'seed' && s.origin.kind !== 'bundled' && s.origin.kind !== 'event') : [];
    // The senses a mission added for itself in its log count in that mission only: from a spec,
    // those of its own mission; from a glossary file (every mission's), none.
    const missionId = checked?.missionId;
    const logged = snapshot.eventSenses.filter((s) => s.scope !== 'mission_local' || s.origin.kind !== 'event' || s.origin.missionId === missionId);
    const sources = own.length === 0 && logged.length === snapshot.eventSenses.length ? snapshot : { root: snapshot.root, seeds: snapshot.seeds, eventSenses: [...logged, ...own] };
    return { root: located.root, file, index, snapshot, sources, seedTexts, isSeedFile, found, ...(missionId !== undefined ? { missionId } : {}) };
  }

  /** A file's text as the editor has it (its open buffer) or on disk; undefined when it cannot be read. */
  private async textOf(root: string, file: string): Promise<string | undefined> {
    const text = this.deps.documents.get(fileUri(file))?.getText() ?? (await this.deps.readText(root, file));
    return typeof text === 'string' ? text : undefined;
  }

  /** A spec's check (kept for an open document: the next request about it reads the same analysis). */
  private async checkedSpec(document: TextDocument | undefined): Promise<CheckedDocument | undefined> {
    if (!document) return undefined;
    const analysis = await this.deps.analyzer.analyze(document, undefined, true);
    return analysis.kind === 'markdown' ? analysis.checked : undefined;
  }

  /** A spec not open in the editor, as a document to check (undefined when it cannot be read). */
  private async fromDisk(uri: string, root: string, file: string): Promise<TextDocument | undefined> {
    const text = await this.deps.readText(root, file);
    return typeof text === 'string' ? TextDocument.create(uri, 'markdown', 0, text) : undefined;
  }

  private async seedTexts(root: string): Promise<SeedTexts> {
    const texts = new Map<string, string>();
    for (const scope of SCOPE_ORDER) {
      const file = seedPath(root, scope);
      const text = await this.deps.readText(root, file);
      if (typeof text === 'string') texts.set(file, text);
    }
    return new SeedTexts(texts, this.seedMemo);
  }

  /** Why nothing can be renamed at a position: code, the spec's own entry of a term, or no term. */
  private async nothingHere(uri: string, position: { line: number; character: number }, file: string, isSeedFile: boolean): Promise<string> {
    if (isSeedFile) return 'Place the cursor on the value of a `surface:` to rename that term.';
    const document = this.deps.documents.get(uri);
    if (document) {
      const offset = document.offsetAt(position);
      const masked = maskMarkdown(document.getText()).masked;
      if (masked[offset] === MASK || (offset > 0 && masked[offset - 1] === MASK && !/\w/.test(masked[offset] ?? ''))) {
        return 'This is code (a code span or block, HTML, a link destination, a URL or a path): terms are renamed only in prose, and code is never changed.';
      }
      // The term of an entry of this spec's vocabulary section (no use of a term: nothing in that
      // section is checked). Said as a rename of that term from one of its uses would be.
      const checked = await this.checkedSpec(document);
      const entry = checked && entryAt(checked, file, position);
      if (entry?.origin.kind === 'spec') {
        return `'${entry.surface}' is this spec's own term (mission ${entry.origin.missionSlug}, its vocabulary section): edit its entry and its uses here. Renaming a mission's own term across the workspace is not supported.`;
      }
    }
    return 'No glossary term here: place the cursor on a term the glossary defines.';
  }

  /**
   * The rename waits for its save to be recorded (renameSaves.ts): the save of the glossary file
   * whose entries it renames, or (a term only the log defines) of a spec it changes — for which
   * it notes how each spec reads now.
   */
  private async waitForSave(target: Target, plan: Extract<RenamePlan, { ok: true }>, byFile: ReadonlyMap<string, readonly TextEdit[]>): Promise<void> {
    const missionId = target.missionId ?? 'default';
    const base = { root: target.root, term: plan.term, newSurface: plan.newSurface, scope: plan.scope, missionId, senses: plan.senses };
    const seedFile = plan.senses.find((s) => s.origin.kind === 'seed')?.origin as { file: string } | undefined;
    if (seedFile) {
      this.deps.renames.answered({ ...base, seedFile: seedFile.file });
      return;
    }
    const seedFiles = new Set(SCOPE_ORDER.map((scope) => seedPath(target.root, scope)));
    const files = new Map<string, FileBefore>();
    for (const [file, edits] of byFile) {
      const text = await this.deps.readText(target.root, file);
      if (typeof text !== 'string') continue;
      // (In a glossary file, the edit changes `see_also` references: no sense is renamed there.)
      const kind = seedFiles.has(file) ? 'seeAlso' : 'spec';
      files.set(path.resolve(file), { kind, edits: edits.length, ...usesIn(this.deps.engine(), kind, text, plan.term, plan.newSurface) });
    }
    if (files.size > 0) this.deps.renames.answered({ ...base, files });
  }
}

/**
 * `newText` in place of `written`, a use written across a line break: the break (a hard break's
 * `\` or spaces, the next line's indent or `>` markers) kept between the new name's first words.
 */
function withLineBreakOf(written: string, newText: string): string {
  const gap = LINE_BREAK_GAP.exec(written)?.[0];
  return gap === undefined ? newText : newText.replace(' ', gap);
}

/** The sense an entry of this spec's own vocabulary section gives, if the position is on its term. */
function entryAt(checked: CheckedDocument, file: string, position: { line: number; character: number }): Sense | undefined {
  return checked.glossary.senses.find((s) => s.origin.kind === 'spec' && path.resolve(s.origin.file) === file && contains(s.origin.range, position));
}

function offsetsOf(lines: LineIndex, range: Range): [number, number] {
  return [lines.offsetAt(range.start), lines.offsetAt(range.end)];
}

function refused(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidRequest, message);
}

/** One spec's uses of glossary terms, from its check, as an index of that document alone. */
function indexOfOne(file: string, checked: CheckedDocument): TermIndex {
  const index = new TermIndex();
  index.set(file, glossaryOccurrences(checked.report, checked.glossary));
  return index;
}

/** Every term a mission defines in its own spec (Domain Language, Key Entities, …), with those missions. */
function missionDefinedTerms(index: { allDetails(): IterableIterator<DocumentDetails> }): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const details of index.allDetails()) {
    for (const sense of details.missionSenses ?? []) {
      const surface = normalizeSurface(sense.surface);
      const missions = out.get(surface);
      if (!missions) out.set(surface, [details.missionId]);
      else if (!missions.includes(details.missionId)) missions.push(details.missionId);
    }
  }
  return out;
}
