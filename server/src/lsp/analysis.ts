/**
 * Analyses of open documents, cached by uri + document version + what the document's mission is
 * checked against in its folder's glossary state (`WorkspaceSnapshot.viewOf`) + its mission and
 * step + settings version + what its mission's specs define (`SpecVocabularies.versionFor`).
 * Markdown documents are checked by the core (through the Node analyzer); glossary, config and
 * log files get the problems of their folder's snapshot.
 *
 * What is kept per document is bounded, because an editor may have hundreds of documents open:
 * an incremental checker and the last analysis only for the few documents being edited (a
 * checker holds token arrays of a few bytes per character of its document), and the analyses of
 * the last documents the language features asked about (hover, code actions and code lenses ask
 * about the same document one after another). Any other document is checked again when asked,
 * which takes about a millisecond for a spec. (Keeping the analysis of every document published
 * cost far more than its size: each lived just long enough to be promoted to the collector's old
 * generation, where it then piled up as garbage while many documents opened.)
 */

import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { Engine, IncrementalChecker } from '../core/check/engine';
import { missionName } from '../core/check/wording';
import { analyzeDocument, identifyDocument, identityOf, type AnalyzedDocument } from '../node/analyzer';
import { identityFields, type DocumentIdentity } from '../node/identity';
import { formatBytes } from '../node/files';
import type { WorkspaceSnapshot } from '../node/workspace';
import { SPEC_FILE_NAME, type SpecVocabularies } from '../node/specVocabularies';
import { entryLocator } from '../service/vocabularyLocations';
import { SERVER_CODES } from '../service/codes';
import { DiagnosticReuse, documentDiagnostics, skippedDiagnostics } from '../service/diagnostics';
import type { CheckedDocument } from '../service/types';
import { SETTINGS_SECTION, type SpecGlossarySettings } from '../shared/protocol';
import { takeEdit } from './documents';
import { classifyFile, isGlossaryFile, type FileKind } from './fileKinds';
import { throwIfCancelled } from './runSafe';
import { RecentMap } from './recentMap';
import type { SettingsStore } from './settings';
import { folderFileDiagnostics, type FileDiagnosticsSource } from './diagnostics';
import type { WorkspaceRegistry } from './workspaces';
import type { CancellationToken } from 'vscode-languageserver';

/**
 * The folder an untitled buffer belongs to when no workspace folder is open: one that does not
 * exist (never made), so that only the bundled core glossary applies and nothing is watched.
 */
const NO_FOLDER = path.join(tmpdir(), `spec-glossary-no-folder-${process.pid}`);

export type Analysis =
  | { kind: 'markdown'; key: string; checked: CheckedDocument; diagnostics: Diagnostic[] }
  | { kind: 'skipped' | 'glossaryFile' | 'none'; key: string; diagnostics: Diagnostic[] };

export interface Located {
  /** File path, or a path made up inside the folder for an unsaved (untitled) document. */
  fsPath: string;
  root: string;
  kind: FileKind;
}

/** Analyses kept (of the documents edited or asked about last). */
const KEPT_ANALYSES = 4;
/** Documents being edited that keep an incremental checker (the most recently edited). */
const KEPT_CHECKERS = 4;
/** A NUL character among this many first characters: the document is binary, not checked. */
const NUL_WINDOW = 8192;

export class DocumentAnalyzer {
  private readonly cache = new RecentMap<string, Analysis>(KEPT_ANALYSES);
  /** Incremental checkers of the documents being edited: a keystroke re-checks only what it changed. */
  private readonly checkers = new RecentMap<string, IncrementalChecker>(KEPT_CHECKERS);
  /** The last diagnostics of those documents, for the next publication to take what did not change. */
  private readonly published = new RecentMap<string, DiagnosticReuse>(KEPT_CHECKERS);
  /**
   * Per open markdown document: the fields of its front matter its mission and step are read
   * from, at the version analyzed last (what its key is worked out from without a check).
   */
  private readonly fronts = new Map<string, { version: number; data: Record<string, string> | undefined }>();
  /**
   * A number per document object the client opened: a key begins with it and the version, because
   * versions start again when a document is closed and opened again, maybe with other text (a
   * pulled result id must not say "unchanged" of it).
   */
  private readonly opened = new WeakMap<TextDocument, number>();
  private openedCount = 0;

  constructor(
    private readonly registry: WorkspaceRegistry,
    private readonly settings: SettingsStore,
    private readonly engine: () => Engine,
    /** Whether a document is still open: an analysis that finishes after its close is not kept. */
    private readonly isOpen: (uri: string) => boolean = () => true,
    /** Missions' specs (their Domain Language defines words for every document of the mission). */
    private readonly vocabularies?: SpecVocabularies,
    /** Glossary health: more diagnostics on the glossary files. */
    private readonly extra?: FileDiagnosticsSource,
  ) {}

  /** Where a document belongs; undefined for documents the server has nothing to say about. */
  locate(document: Pick<TextDocument, 'uri' | 'languageId'>): Located | undefined {
    const uri = URI.parse(document.uri);
    if (uri.scheme === 'file') {
      const root = this.registry.rootFor(uri.fsPath);
      return { fsPath: uri.fsPath, root, kind: classifyFile(root, uri.fsPath, document.languageId) };
    }
    // An untitled markdown buffer is checked against the first workspace folder; with none open,
    // against the glossary every document has (the bundled core), as a loose file is.
    if (document.languageId !== 'markdown') return undefined;
    const folder = this.registry.getFolders()[0] ?? NO_FOLDER;
    return { fsPath: path.join(folder, path.basename(uri.path) || 'untitled.md'), root: folder, kind: { kind: 'markdown' } };
  }

  cached(uri: string): Analysis | undefined {
    return this.cache.get(uri);
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.checkers.delete(uri);
    this.published.delete(uri);
    this.fronts.delete(uri);
  }

  /**
   * A markdown document changed: it is being edited, so it keeps an incremental checker (the
   * first check after this scans it in full, the next ones only what each edit changed).
   */
  edited(uri: string): void {
    if (!this.checkers.get(uri) && this.isOpen(uri)) this.checkers.set(uri, this.engine().createIncrementalChecker());
  }

  /**
   * The result id a pulled report of `document` would have now, when that is known without
   * checking it (a markdown document of a loaded folder, analyzed at this version before): a
   * pull whose previous result id matches it is answered "unchanged" without any work, and a
   * publication that would repeat what the client has is not made.
   */
  currentResultId(document: TextDocument): string | undefined {
    const located = this.locate(document);
    const snapshot = located?.kind.kind === 'markdown' ? this.registry.current(located.root) : undefined;
    return located && snapshot ? this.knownKey(document, located, snapshot) : undefined;
  }

  /** The key of `document`'s analysis with `snapshot`, when its front matter at this version is known. */
  private knownKey(document: TextDocument, located: Located, snapshot: WorkspaceSnapshot): string | undefined {
    const front = this.fronts.get(document.uri);
    if (front?.version !== document.version) return undefined;
    const identity = identityOf(snapshot, located.fsPath, front.data, this.registry.metaCache(located.root));
    return this.keyOf(document, snapshot, identity, this.settings.version);
  }

  /** Which text of `document` this is: the document object's number (`opened`) and its version. */
  private textId(document: TextDocument): string {
    let serial = this.opened.get(document);
    if (serial === undefined) this.opened.set(document, (serial = ++this.openedCount));
    return `${serial}.${document.version}`;
  }

  /**
   * What a markdown document's analysis is the same for: its version, what its mission is checked
   * against in the folder's glossary state (not the state's version: a decision in one mission
   * leaves the others' documents alone), its mission and step, the settings and what its
   * mission's specs define (likewise: an edit of one mission's Domain Language, the others').
   */
  private keyOf(document: TextDocument, snapshot: WorkspaceSnapshot, identity: DocumentIdentity, settingsVersion: number): string {
    const { missionId, stepId, missionStrictness, missionSlug } = identity;
    const who = JSON.stringify([snapshot.root, missionId, stepId, missionStrictness ?? null, missionSlug ?? null]);
    return `${this.textId(document)}|${snapshot.viewOf(missionId)}|${who}|${settingsVersion}|${this.vocabularies?.versionFor(missionId) ?? ''}`;
  }

  /**
   * The analysis of `document` as it is now. `keep`: keep it for the next request about the same
   * version (the language features); the analyses of documents being edited are kept anyway.
   */
  async analyze(document: TextDocument, token?: CancellationToken, keep = false): Promise<Analysis> {
    const located = this.locate(document);
    if (!located || (located.kind.kind !== 'markdown' && !isGlossaryFile(located.kind))) return { kind: 'none', key: '', diagnostics: [] };
    const settingsVersion = this.settings.version;
    const settings = await this.settings.get(document.uri);
    throwIfCancelled(token);

    if (isGlossaryFile(located.kind)) {
      const snapshot = await this.registry.fresh(located.root);
      throwIfCancelled(token);
      const diagnostics = folderFileDiagnostics(snapshot, located.root, settings, this.extra).get(path.resolve(located.fsPath)) ?? [];
      const extraVersion = this.extra ? `|${this.extra.version(located.root)}` : '';
      return { kind: 'glossaryFile', key: `${this.textId(document)}|${this.registry.version(located.root)}|${settingsVersion}${extraVersion}`, diagnostics };
    }

    const snapshot = await this.registry.snapshot(located.root);
    throwIfCancelled(token);
    // (The text is read after the last wait, with the version the key gets: an edit that came
    // meanwhile, while the folder loaded, is in both.)
    const text = document.getText();
    if (text.length > settings.maxFileSize / 3 && Buffer.byteLength(text, 'utf8') > settings.maxFileSize) {
      const bytes = Buffer.byteLength(text, 'utf8');
      const message = `spec-glossary did not check this document: it is ${formatBytes(bytes)}, above the ${formatBytes(settings.maxFileSize)} limit (setting ${SETTINGS_SECTION}.maxFileSize).`;
      return this.keep(document.uri, { kind: 'skipped', key: `${this.textId(document)}|${settingsVersion}`, diagnostics: skippedDiagnostics(message, settings) }, keep);
    }
    // As the CLI does with files: NUL characters near the start mean this is not text. (Only
    // the start is searched: on a 1 MB spec, a search of the whole text is a tenth of a keystroke.)
    const nul = text.length > NUL_WINDOW ? text.slice(0, NUL_WINDOW).indexOf('\u0000') : text.indexOf('\u0000');
    if (nul !== -1) {
      const at = document.positionAt(nul);
      const message = `spec-glossary did not check this document: it looks binary (a NUL character at line ${at.line + 1}, column ${at.character + 1}).`;
      return this.keep(document.uri, { kind: 'skipped', key: `${this.textId(document)}|${settingsVersion}`, diagnostics: skippedDiagnostics(message, settings, SERVER_CODES.fileUnreadable) }, keep);
    }

    const cached = this.cache.get(document.uri);
    if (cached?.kind === 'markdown' && cached.key === this.knownKey(document, located, snapshot)) return cached;

    const checker = this.checkers.get(document.uri);
    // What the editor changed since the last check: the checker need not look for it.
    const change = takeEdit(document);
    if (checker && change) checker.expectEdit(change);
    const metaCache = this.registry.metaCache(located.root);
    const toAnalyze = { path: located.fsPath, text, settings: runtimeSettings(settings), metaCache, checker, ...(this.vocabularies ? { vocabularies: this.vocabularies } : {}) };
    const identified = identifyDocument(snapshot, toAnalyze);
    if (this.isOpen(document.uri)) this.fronts.set(document.uri, { version: document.version, data: identityFields(identified.header.frontMatter?.data) });
    // (The settings as they were asked for above: a change meanwhile makes another key.)
    const key = this.keyOf(document, snapshot, identified.identity, settingsVersion);
    const analyzed = analyzeDocument(this.engine(), snapshot, { ...toAnalyze, identified });
    const checked = checkedDocumentOf(document.uri, located.root, snapshot, analyzed, this.vocabularies);
    // An open spec gives its (unsaved) vocabulary to the other documents of its mission; its own
    // analysis is then current under the new version.
    const ownChange = this.keepSpecVocabulary(document, located, analyzed, identified.header.frontMatter?.data);
    // A document being edited: its diagnostics of findings an edit left alone are the last ones,
    // when they were made with the same glossary, log, settings and vocabularies (the key but
    // for the document's version).
    const reuse = checker ? { memo: this.reuseOf(document.uri), key: key.slice(key.indexOf('|') + 1) } : undefined;
    return this.keep(document.uri, { kind: 'markdown', key: ownChange ? this.keyOf(document, snapshot, identified.identity, settingsVersion) : key, checked, diagnostics: documentDiagnostics(checked, settings, reuse) }, keep);
  }

  private reuseOf(uri: string): DiagnosticReuse {
    let memo = this.published.get(uri);
    if (!memo) this.published.set(uri, (memo = new DiagnosticReuse()));
    return memo;
  }

  /** When `document` is an open spec: keep what its check read of its vocabulary; true when that changed it. */
  private keepSpecVocabulary(document: TextDocument, located: Located, analyzed: AnalyzedDocument, frontMatter: Record<string, unknown> | undefined): boolean {
    const vocabulary = analyzed.report.vocabulary;
    if (!this.vocabularies || !vocabulary || path.basename(located.fsPath) !== SPEC_FILE_NAME || URI.parse(document.uri).scheme !== 'file') return false;
    const { missionId, missionSlug } = analyzed.identity;
    // (A change is told to the session by the vocabularies themselves: the other documents of the folder are checked again.)
    return this.vocabularies.update({ file: located.fsPath, missionId, missionSlug: missionName(missionId, missionSlug), vocabulary }, document.version, frontMatter);
  }

  /** Caches the analysis of an open document (one closed meanwhile is not kept: no leak). */
  private keep(uri: string, analysis: Analysis, asked: boolean): Analysis {
    if (this.isOpen(uri) && (asked || this.checkers.has(uri))) this.cache.set(uri, analysis);
    else this.cache.delete(uri);
    return analysis;
  }
}

/** The service's view of one analyzed document: the report plus the glossary state of its mission. */
export function checkedDocumentOf(uri: string, root: string, snapshot: WorkspaceSnapshot, analyzed: AnalyzedDocument, vocabularies?: SpecVocabularies): CheckedDocument {
  const missionId = analyzed.identity.missionId;
  return {
    uri,
    root,
    missionId,
    ...(analyzed.identity.missionSlug !== undefined ? { missionSlug: analyzed.identity.missionSlug } : {}),
    stepId: analyzed.identity.stepId,
    report: analyzed.report,
    // (With the senses of the mission's own vocabulary: what the document was checked against.)
    glossary: analyzed.report.glossary,
    pins: snapshot.pinsFor(missionId),
    openClarifications: snapshot.openClarificationsFor(missionId),
    path: analyzed.path,
    locateEntry: entryLocator(analyzed.path, analyzed.report, vocabularies ? (file) => vocabularies.current(file) : undefined),
  };
}

export function runtimeSettings(settings: SpecGlossarySettings): { strictness?: string; disabledExtractors: string[] } {
  return { ...(settings.strictness ? { strictness: settings.strictness } : {}), disabledExtractors: settings.disabledExtractors };
}
