/**
 * Checks one document of a workspace: works out its mission and step, merges the settings that
 * apply (runtime > front matter > mission > workspace config) and runs the core check with the
 * caller's engine. Used by both adapters, the CLI and the language server.
 */

import type { Engine, IncrementalChecker } from '../core/check/engine';
import { missionName } from '../core/check/wording';
import type { CheckOptions, DocumentReport } from '../core/check/check';
import { readHeader, type Header } from '../core/extract/scan';
import { documentIdentity, type DocumentIdentity, type MetaCache } from './identity';
import type { SpecVocabularies } from './specVocabularies';
import type { WorkspaceSnapshot } from './workspace';

export interface RuntimeSettings {
  /** `--strictness` or the editor setting; validated by the caller. */
  strictness?: string;
  disabledExtractors?: readonly string[];
  /** `--mission`: every document is taken to belong to this mission. */
  mission?: string;
}

export interface AnalyzedDocument {
  path: string;
  identity: DocumentIdentity;
  report: DocumentReport;
}

export interface DocumentToAnalyze {
  /** Absolute path (or one made up inside the workspace for an unsaved buffer). */
  path: string;
  text: string;
  settings?: RuntimeSettings;
  /** meta.json files read so far (a run or a snapshot reads each once). */
  metaCache?: MetaCache;
  /** The language server keeps one per open document so a keystroke re-checks only what changed. */
  checker?: IncrementalChecker | undefined;
  /** Missions' specs read so far (their Domain Language defines words for the mission's documents). */
  vocabularies?: SpecVocabularies;
  /** The check's units (the standard ones by default; the term index's: OCCURRENCE_PIPELINE). */
  pipeline?: CheckOptions['pipeline'];
  /** Its header and identity, when the caller read them already (`identifyDocument`). */
  identified?: IdentifiedDocument;
}

export interface IdentifiedDocument {
  header: Header;
  identity: DocumentIdentity;
}

/** A document's lines and front matter, and its mission and step (what its check is set up from). */
export function identifyDocument(snapshot: WorkspaceSnapshot, document: Omit<DocumentToAnalyze, 'identified'>): IdentifiedDocument {
  const { text, checker, settings = {} } = document;
  // Mission and step come from the front matter, which the check then reuses.
  const header = checker ? checker.readHeader(text) : readHeader(text);
  return { header, identity: identityOf(snapshot, document.path, header.frontMatter?.data, document.metaCache ?? new Map(), settings) };
}

/** A document's mission and step, from its front matter and the meta.json files above it. */
export function identityOf(snapshot: WorkspaceSnapshot, file: string, frontMatter: Record<string, unknown> | undefined, metaCache: MetaCache, settings: RuntimeSettings = {}): DocumentIdentity {
  const found = documentIdentity(snapshot.root, file, frontMatter, metaCache, snapshot.fs);
  // (A mission given on the command line is not the folder's: its slug is not shown for it.)
  return settings.mission ? { ...found, missionId: settings.mission, missionSlug: undefined } : found;
}

export function analyzeDocument(engine: Engine, snapshot: WorkspaceSnapshot, document: DocumentToAnalyze): AnalyzedDocument {
  const { text, checker, settings = {} } = document;
  const metaCache = document.metaCache ?? new Map();
  const { header, identity } = document.identified ?? identifyDocument(snapshot, { ...document, metaCache });
  const missionVocabulary = document.vocabularies?.forDocument(snapshot.root, document.path, identity.missionId, metaCache, settings.mission) ?? [];
  // (The same vocabulary object for the same ignore list: the caches keyed by it keep working.)
  const { common, knownTerms } = engine.vocabulary(snapshot.config.ignoreWords);
  const options = {
    glossary: snapshot.glossaryFor(identity.missionId),
    common,
    knownTerms,
    pins: snapshot.pinsFor(identity.missionId),
    strictness: { runtime: settings.strictness, mission: identity.missionStrictness, workspace: snapshot.config.strictness },
    checkEnabled: snapshot.config.check,
    disabledExtractors: [...snapshot.config.disabledExtractors, ...(settings.disabledExtractors ?? [])],
    header,
    documentOrigin: { file: document.path, missionId: identity.missionId, missionSlug: missionName(identity.missionId, identity.missionSlug) },
    missionVocabulary,
    ...(document.pipeline ? { pipeline: document.pipeline } : {}),
  };
  const report = checker ? checker.check(text, options) : engine.checkDocument(text, options);
  return { path: document.path, identity, report };
}
