/**
 * Findings and file problems → LSP diagnostics. A conflict diagnostic covers the term's
 * occurrence, has the conflict type as `code`, the finding's message (term, deciding scope,
 * number of senses), the payload its code actions need in `data`, and points at the glossary
 * entries of the candidate senses in `relatedInformation`.
 */

import path from 'node:path';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver-types';
import { messageAsWritten, writtenTerms } from '../core/check/wording';
import type { Finding, OpenClarification, Range, Sense, SourceProblem } from '../core/types';
import { afterItsPath } from '../node/files';
import { isMarkdownFile } from '../node/markdownFiles';
import { DIAGNOSTIC_SOURCE, type PublishedFindingData, type SourceProblemData } from '../shared/protocol';
import { SERVER_CODES, severityFor } from './codes';
import { omittedDiagnostic, shownUnderLimit } from './problemLimit';
import { fileUri } from './paths';
import type { CheckedDocument, Settings, WorkspaceProblems } from './types';
import { shortTimestamp } from './wording';

/** What the diagnostics of a term's findings share besides their range. */
interface Shared {
  /** A finding it was made for (what it depends on: term, type, reason, severity, scope, replacement). */
  finding: Finding;
  open: OpenClarification | undefined;
  data: PublishedFindingData;
  related: DiagnosticRelatedInformation[];
}

/**
 * The diagnostics of one document's last publication, by the finding each was made for. The
 * incremental check hands the next report the very finding objects of occurrences an edit left
 * alone; when nothing else a diagnostic depends on changed either (the caller's `key`: the
 * folder's glossary and log, the settings, the missions' vocabularies), such a finding's
 * diagnostic is the one made before. On a 1 MB spec, making every diagnostic anew was a tenth of
 * a keystroke and a fifteenth of what it allocated.
 */
export class DiagnosticReuse {
  private key: string | undefined;
  private byFinding = new Map<Finding, Diagnostic>();

  /** The diagnostics to take (none when `key` is not the last one's), and the map to fill for the next time. */
  begin(key: string): { before: ReadonlyMap<Finding, Diagnostic>; after: Map<Finding, Diagnostic> } {
    const before = key === this.key ? this.byFinding : NONE;
    this.key = key;
    this.byFinding = new Map();
    return { before, after: this.byFinding };
  }
}

const NONE: ReadonlyMap<Finding, Diagnostic> = new Map();

/**
 * A diagnostic made before, unless one of its related entries is written in a spec (a sense of
 * the document's own vocabulary, or of its mission's spec): an edit above that entry moves it
 * while the finding stays the same. (Seed entries move only with their file: a new key.)
 */
function reusable(diagnostic: Diagnostic | undefined): Diagnostic | undefined {
  return diagnostic?.relatedInformation?.some((r) => isMarkdownFile(r.location.uri)) ? undefined : diagnostic;
}

/**
 * Everything published for a checked markdown document: front matter problems, then findings —
 * at most `settings.maxProblems` of them, the most severe first, plus one saying how many more
 * there are (problemLimit.ts). Diagnostics are made only for what is shown. `reuse`: the
 * document's last diagnostics and what they were made with (see `DiagnosticReuse`).
 */
export function documentDiagnostics(doc: CheckedDocument, settings: Settings, reuse?: { memo: DiagnosticReuse; key: string }): Diagnostic[] {
  const { problems, findings } = doc.report;
  // A term with an open clarification is deferred (its first one in replay order says since when).
  const openByTerm = new Map<string, OpenClarification>();
  for (const c of doc.openClarifications) if (!openByTerm.has(c.term)) openByTerm.set(c.term, c);
  const openOf = (finding: Finding) => (openByTerm.size > 0 ? openByTerm.get(finding.term) : undefined);
  const severities = new Uint8Array(problems.length + findings.length);
  problems.forEach((problem, i) => (severities[i] = severityFor(problem.code, { problem: problem.severity }, settings.severityOverrides) ?? 0));
  findings.forEach((finding, i) => (severities[problems.length + i] = findingSeverity(finding, settings, openOf(finding)) ?? 0));
  const shown = shownUnderLimit(severities, settings.maxProblems);
  const omitted = new Map<string, number>();
  const isShown = (i: number, code: string) => {
    if (severities[i] === 0) return false;
    if (shown === undefined || shown[i] === 1) return true;
    omitted.set(code, (omitted.get(code) ?? 0) + 1);
    return false;
  };

  const out: Diagnostic[] = [];
  problems.forEach((problem, i) => {
    if (!isShown(i, problem.code)) return;
    const diagnostic = problemDiagnostic(problem, doc.uri, settings);
    if (diagnostic) out.push(diagnostic);
  });
  const written = findings.length > 0 ? writtenTerms(doc.report) : undefined;
  // The diagnostics of a term's findings share their `data` and related entries (one object
  // each, not one per occurrence), by the findings' candidate senses (one array per resolution).
  const shared = new Map<Finding['candidateSenses'], Shared>();
  const { before, after } = reuse ? reuse.memo.begin(reuse.key) : { before: NONE, after: undefined };
  findings.forEach((finding, i) => {
    if (!isShown(problems.length + i, finding.conflictType)) return;
    const diagnostic = reusable(before.get(finding)) ?? makeDiagnostic(doc, finding, settings, shared, openOf(finding), written!(finding));
    if (!diagnostic) return;
    out.push(diagnostic);
    after?.set(finding, diagnostic);
  });
  if (omitted.size > 0) {
    const note = omittedDiagnostic(omitted, settings);
    if (note) out.push(note);
  }
  return out;
}

/**
 * The diagnostic of a finding (undefined when its conflict type is switched off). Its message
 * names the term as written at the occurrence. A deferred term (a clarification of it is open
 * for the mission) is shown at most as Information and says since when; the gate still counts
 * it as the core scored it (the code lens and `check` agree).
 */
function makeDiagnostic(
  doc: CheckedDocument,
  finding: Finding,
  settings: Settings,
  sharedBySenses: Map<Finding['candidateSenses'], Shared>,
  open: OpenClarification | undefined,
  written: string | undefined,
): Diagnostic | undefined {
  const severity = findingSeverity(finding, settings, open);
  if (severity === undefined) return undefined;
  let shared = sharedBySenses.get(finding.candidateSenses);
  if (shared === undefined || shared.open !== open || !madeAlike(shared.finding, finding)) {
    shared = { finding, open, data: findingData(finding, open), related: relatedEntries(doc, finding) };
    sharedBySenses.set(finding.candidateSenses, shared);
  }
  const message = messageAsWritten(finding.message, finding.term, written);
  return {
    range: finding.range,
    severity,
    code: finding.conflictType,
    source: DIAGNOSTIC_SOURCE,
    message: open === undefined ? message : `${message} Deferred since ${shortTimestamp(open.timestamp)}: a clarification is open for this mission.`,
    data: shared.data,
    ...(shared.related.length > 0 ? { relatedInformation: shared.related } : {}),
    ...(finding.reason === 'deprecated_only' ? { tags: [DiagnosticTag.Deprecated] } : {}),
  };
}

/** A finding's severity as shown (undefined: switched off); a deferred term's at most Information. */
function findingSeverity(finding: Finding, settings: Settings, open: OpenClarification | undefined): DiagnosticSeverity | undefined {
  const severity = severityFor(finding.conflictType, { conflict: finding.severity }, settings.severityOverrides);
  if (severity === undefined) return undefined;
  return open !== undefined && severity < DiagnosticSeverity.Information ? DiagnosticSeverity.Information : severity;
}

/** Whether the two findings (of the same candidate senses) give the same `data` and related entries. */
function madeAlike(a: Finding, b: Finding): boolean {
  return a.term === b.term && a.conflictType === b.conflictType && a.reason === b.reason && a.severity === b.severity && a.scope === b.scope && a.replacement === b.replacement;
}

/**
 * The published `data` of a finding's diagnostics (see `PublishedFindingData`). `open`: the
 * document's first open clarification of the finding's term, if any (the term is deferred).
 */
export function findingData(finding: Finding, open: OpenClarification | undefined): PublishedFindingData {
  return {
    kind: 'finding',
    term: finding.term,
    severity: finding.severity,
    scope: finding.scope,
    ...(finding.candidateSenses.length > 0 ? { candidates: finding.candidateSenses.map((s) => ({ surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence })) } : {}),
    ...(finding.replacement !== undefined ? { replacement: finding.replacement } : {}),
    ...(finding.reason !== undefined ? { reason: finding.reason } : {}),
    ...(open !== undefined ? { openConflictId: open.conflictId, deferredSince: open.timestamp } : {}),
  };
}

/** The seed entries behind a finding's candidate senses (for a synonym: the preferred term's). */
function relatedEntries(doc: CheckedDocument, finding: Finding): DiagnosticRelatedInformation[] {
  const surface = finding.reason === 'synonym_to_avoid' && finding.replacement ? finding.replacement : finding.term;
  const senses = doc.glossary.sensesOf(surface);
  const out: DiagnosticRelatedInformation[] = [];
  finding.candidateSenses.forEach((candidate, i) => {
    const sense = senses.find((s) => s.scope === candidate.scope && s.definition === candidate.definition);
    const location = sense && (doc.locateEntry?.(sense) ?? senseLocation(sense));
    if (!location) return;
    const label = finding.candidateSenses.length > 1 ? `${candidate.scope} sense ${i + 1} of ${finding.candidateSenses.length}` : `${candidate.scope} sense`;
    out.push({ location, message: `${label} of '${candidate.surface}' (confidence ${candidate.confidence}): ${candidate.definition}` });
  });
  return out;
}

/** Where a sense is written: its list item in a seed file (or the bundled core glossary). */
export function senseLocation(sense: Sense): { uri: string; range: Range } | undefined {
  const origin = sense.origin;
  return origin.kind === 'event' ? undefined : { uri: fileUri(origin.file), range: origin.range };
}

export function problemDiagnostic(problem: SourceProblem, file: string, settings: Settings): Diagnostic | undefined {
  const severity = severityFor(problem.code, { problem: problem.severity }, settings.severityOverrides);
  if (severity === undefined) return undefined;
  const data: SourceProblemData = { kind: 'source', file };
  return { range: problem.range, severity, code: problem.code, source: DIAGNOSTIC_SOURCE, message: problem.message, data };
}

/** The one diagnostic of a document that was not checked (too large, or binary: `file.unreadable`). */
export function skippedDiagnostics(message: string, settings: Settings, code: string = SERVER_CODES.fileTooLarge): Diagnostic[] {
  const severity = severityFor(code, { problem: 'information' }, settings.severityOverrides);
  if (severity === undefined) return [];
  const start = { line: 0, character: 0 };
  return [{ range: { start, end: start }, severity, code, source: DIAGNOSTIC_SOURCE, message }];
}

/**
 * Diagnostics of a workspace folder's own files, by absolute path: seed problems on the seed YAML
 * (the bundled core glossary is not the user's to fix), config problems on `.kittify/config.yaml`,
 * torn or invalid log lines on their line, unreadable files at their start.
 */
export function workspaceFileDiagnostics(problems: WorkspaceProblems, configFile: string, settings: Settings): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  const add = (file: string, diagnostic: Diagnostic | undefined) => {
    if (!diagnostic) return;
    const list = out.get(file);
    if (list) list.push(diagnostic);
    else out.set(file, [diagnostic]);
  };
  for (const seed of problems.seeds) {
    if (seed.bundled) continue;
    for (const problem of seed.seed.problems) add(seed.path, problemDiagnostic(problem, seed.path, settings));
  }
  for (const problem of problems.configProblems) add(configFile, problemDiagnostic(problem, configFile, settings));
  for (const problem of problems.eventProblems) {
    const line = Math.max(0, problem.line - 1);
    const range = problem.line > 0 ? { start: { line, character: 0 }, end: { line: line + 1, character: 0 } } : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    add(problem.file, problemDiagnostic({ code: SERVER_CODES.eventLine, message: problem.message, severity: 'warning', range }, problem.file, settings));
  }
  for (const problem of problems.fileProblems) {
    const at = { line: 0, character: 0 };
    // (Shown on the file itself: named by its name, not its absolute path.)
    const rest = afterItsPath(problem.message, problem.file);
    const message = rest === problem.message ? rest : `${path.basename(problem.file)} ${rest}`;
    add(problem.file, problemDiagnostic({ code: problem.code ?? SERVER_CODES.fileUnreadable, message, severity: 'warning', range: { start: at, end: at } }, problem.file, settings));
  }
  return out;
}
