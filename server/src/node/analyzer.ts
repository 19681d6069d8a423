/**
 * Checks one document of a workspace: works out its mission and step, merges the settings that
 * apply (runtime > front matter > mission > workspace config) and runs the core check.
 * Used by both adapters, the CLI and the language server.
 */

import { checkDocument, type DocumentReport } from '../core/check/check';
import { readHeader } from '../core/extract/scan';
import type { IncrementalChecker } from '../core/check/incremental';
import { WELL_KNOWN_TERMS, type CommonWords } from '../core/words';
import { documentIdentity, type DocumentIdentity, type MetaCache } from './identity';
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

export function analyzeDocument(
  snapshot: WorkspaceSnapshot,
  documentPath: string,
  text: string,
  common: CommonWords,
  settings: RuntimeSettings = {},
  metaCache: MetaCache = new Map(),
  /** The language server keeps one per open document so a keystroke re-checks only what changed. */
  checker?: IncrementalChecker,
): AnalyzedDocument {
  // Mission and step come from the front matter, which the check then reuses.
  const header = checker ? checker.readHeader(text) : readHeader(text);
  const found = documentIdentity(snapshot.root, documentPath, header.frontMatter?.data, metaCache);
  const identity = settings.mission ? { ...found, missionId: settings.mission } : found;
  const check = checker ? checker.check.bind(checker) : checkDocument;
  const report = check(text, {
    glossary: snapshot.glossaryFor(identity.missionId),
    common: withIgnoredWords(common, snapshot.config.ignoreWords),
    knownTerms: snapshot.config.ignoreWords.length > 0 ? new Set([...WELL_KNOWN_TERMS, ...snapshot.config.ignoreWords]) : WELL_KNOWN_TERMS,
    pins: snapshot.pinsFor(identity.missionId),
    strictness: { runtime: settings.strictness, mission: identity.missionStrictness, workspace: snapshot.config.strictness },
    checkEnabled: snapshot.config.check,
    disabledExtractors: [...snapshot.config.disabledExtractors, ...(settings.disabledExtractors ?? [])],
    header,
  });
  return { path: documentPath, identity, report };
}

function withIgnoredWords(common: CommonWords, ignored: readonly string[]): CommonWords {
  if (ignored.length === 0) return common;
  const extra = new Set(ignored);
  return { has: (word) => extra.has(word) || common.has(word) };
}
