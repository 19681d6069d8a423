/**
 * `check --format sarif`: a SARIF 2.1.0 log that GitHub code scanning accepts.
 * - one run; `tool.driver.rules` holds one rule per conflict type, always all four in a fixed
 *   order, so `ruleIndex` is stable;
 * - one result per finding (per occurrence, like the JSON output), level from the finding's
 *   severity (high → error, medium → warning, low → note);
 * - locations relative to the current directory under `uriBaseId` `%SRCROOT%` (declared in
 *   `originalUriBaseIds`); regions are 1-based, columns in UTF-16 code units (SARIF's default
 *   `columnKind`), `endColumn` is the column just after the term;
 * - `partialFingerprints["specGlossary/v1"]`: sha256 of path, term, conflict type, line and the
 *   occurrence's index among that term's occurrences on the line, so alerts track across runs;
 * - problems in glossary, config and log files become `toolConfigurationNotifications`.
 */

import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { messageAsWritten, writtenTerms } from '../../core/check/wording';
import type { ConflictType, Finding, Severity } from '../../core/types';
import type { FileProblem, ReportedRun } from '../runCheck';
import { relativePath } from './json';
import { jsonPieces, streamArray, streamObject, type StreamedObject } from './jsonStream';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const SARIF_VERSION = '2.1.0';
export const FINGERPRINT_KEY = 'specGlossary/v1';
const INFORMATION_URI = 'https://www.npmjs.com/package/spec-glossary';

type Level = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, Level> = { high: 'error', medium: 'warning', low: 'note' };

interface RuleText {
  name: string;
  short: string;
  full: string;
  help: string;
  level: Level;
}

/** Rule order = ruleIndex. Default levels are the usual severity of each type (SPEC §6). */
const RULES: ReadonlyArray<readonly [ConflictType, RuleText]> = [
  [
    'ambiguous',
    {
      name: 'AmbiguousTerm',
      short: 'A term has two or more active senses in its deciding glossary scope.',
      full: 'The first glossary scope (mission_local, team_domain, audience_domain, spec_kitty_core) that defines the term holds two or more active senses, and the mission has not pinned one. Severity is high on a critical step, otherwise medium.',
      help: "Pick the sense this mission means: `spec-glossary resolve <term> --mission <id> --sense N`, the editor's quick fix, or `spec-glossary check --interactive`. Or define a new sense with `--custom \"definition\"`.",
      level: 'warning',
    },
  ],
  [
    'unknown',
    {
      name: 'UnknownTerm',
      short: 'A term that looks like jargon is not defined in any glossary scope.',
      full: 'An extracted term (acronym, quoted phrase, casing pattern, repeated noun or watched term) has no sense in any glossary scope. Severity depends on how confidently it was extracted: low at 0.8 or more, medium at 0.5 or more.',
      help: 'Define the term in a seed glossary (.kittify/glossaries/<scope>.yaml), add it with `spec-glossary resolve <term> --mission <id> --custom "definition"`, or list it in glossary.ignore_words of .kittify/config.yaml.',
      level: 'note',
    },
  ],
  [
    'inconsistent',
    {
      name: 'InconsistentTerm',
      short: 'A synonym to avoid, a term whose only senses are deprecated, or a sentence that contradicts the definition.',
      full: "The text uses a word the glossary lists under synonyms_to_avoid, a term whose senses are all deprecated, or a sentence such as \"X is not a ...\" or \"unlike X\" that contradicts the term's definition.",
      help: 'Use the preferred term, a term with an active sense, or reword the sentence so it agrees with the glossary definition.',
      level: 'note',
    },
  ],
  [
    'unresolved_critical',
    {
      name: 'UnresolvedCriticalTerm',
      short: 'An unknown term extracted with low confidence on a critical step.',
      full: 'On a step marked critical_step: true, a term with no sense in any scope was extracted with confidence below 0.5. It blocks generation at medium strictness.',
      help: 'Define the term in a glossary scope, or resolve it with `spec-glossary resolve <term> --mission <id> --custom "definition"`.',
      level: 'error',
    },
  ],
];

const RULE_INDEX = new Map<ConflictType, number>(RULES.map(([id], i) => [id, i]));

declare const SPEC_GLOSSARY_VERSION: string | undefined;
const VERSION = typeof SPEC_GLOSSARY_VERSION === 'string' ? SPEC_GLOSSARY_VERSION : '0.0.0-dev';

/**
 * The SARIF log, with its results and notifications made one at a time as they are written
 * (output/jsonStream.ts), so any number of findings prints.
 */
export function sarifLog(run: ReportedRun, cwd: string): StreamedObject {
  const notificationCount = run.problems.length + run.skipped.length;
  return streamObject({
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: streamArray([
      streamObject({
        tool: {
          driver: {
            name: 'spec-glossary',
            version: VERSION,
            semanticVersion: /^\d+\.\d+\.\d+/.test(VERSION) ? VERSION : '0.0.0',
            informationUri: INFORMATION_URI,
            rules: RULES.map(([id, rule]) => ({
              id,
              name: rule.name,
              shortDescription: { text: rule.short },
              fullDescription: { text: rule.full },
              defaultConfiguration: { level: rule.level },
              help: { text: rule.help, markdown: rule.help },
              properties: { tags: ['glossary', 'terminology', 'documentation'], precision: 'high' },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: directoryUri(cwd) } },
        invocations: streamArray([
          streamObject({ executionSuccessful: true, ...(notificationCount > 0 ? { toolConfigurationNotifications: streamArray(notifications(run, cwd)) } : {}) }),
        ]),
        columnKind: 'utf16CodeUnits',
        results: streamArray(results(run, cwd)),
      }),
    ]),
  });
}

/** `check --format sarif`: the log's JSON in pieces, ending with a newline. */
export function* sarifOutput(run: ReportedRun, cwd: string): Generator<string, void, undefined> {
  yield* jsonPieces(sarifLog(run, cwd));
  yield '\n';
}

/** One result per finding, document by document. */
function* results(run: ReportedRun, cwd: string): Generator<object, void, undefined> {
  for (const doc of run.documents) {
    const artifact = artifactLocation(cwd, doc.absolutePath);
    const perLine = new Map<string, number>();
    const written = doc.report.findings.length > 0 ? writtenTerms(doc.report) : () => undefined;
    for (const finding of doc.report.findings) {
      const lineKey = `${finding.term}\u0000${finding.conflictType}\u0000${finding.range.start.line}`;
      const nth = perLine.get(lineKey) ?? 0;
      perLine.set(lineKey, nth + 1);
      yield result(finding, artifact, nth, { mission_id: doc.identity.missionId, step_id: doc.identity.stepId }, written(finding));
    }
  }
}

/** Problems in glossary, config and log files, then the skipped files. */
function* notifications(run: ReportedRun, cwd: string): Generator<object, void, undefined> {
  for (const p of run.problems) yield notification(p, cwd);
  for (const skip of run.skipped) yield { level: 'warning', message: { text: skip.reason }, locations: [{ physicalLocation: { artifactLocation: artifactLocation(cwd, skip.absolutePath) } }] };
}

function result(finding: Finding, artifact: ArtifactLocation, nth: number, ids: { mission_id: string; step_id: string }, written: string | undefined): object {
  const { start, end } = finding.range;
  return {
    ruleId: finding.conflictType,
    ruleIndex: RULE_INDEX.get(finding.conflictType)!,
    level: LEVEL[finding.severity],
    message: { text: messageAsWritten(finding.message, finding.term, written) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifact,
          region: { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 },
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(artifact.uri, finding, nth) },
    properties: {
      term: finding.term,
      severity: finding.severity,
      confidence: finding.confidence,
      extraction_method: finding.extractionMethod,
      scope: finding.scope,
      candidate_senses: finding.candidateSenses.map((s) => ({ surface: s.surface, scope: s.scope, definition: s.definition, confidence: s.confidence })),
      ...ids,
    },
  };
}

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

/** Relative to the current directory under %SRCROOT%; outside it, an absolute file: URI. */
function artifactLocation(cwd: string, file: string): ArtifactLocation {
  const rel = path.relative(cwd, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { uri: pathToFileURL(file).href };
  return { uri: encodeUriPath(relativePath(cwd, file)), uriBaseId: '%SRCROOT%' };
}

function encodeUriPath(rel: string): string {
  return rel.split('/').map(encodeURIComponent).join('/');
}

function directoryUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : href + '/';
}

function fingerprint(uri: string, finding: Finding, nth: number): string {
  return createHash('sha256').update(`${uri}\u0000${finding.term}\u0000${finding.conflictType}\u0000${finding.range.start.line + 1}\u0000${nth}`).digest('hex').slice(0, 32);
}

function notification(p: FileProblem, cwd: string): object {
  const physicalLocation: Record<string, unknown> = { artifactLocation: artifactLocation(cwd, p.file) };
  if (p.problem) {
    const { start, end } = p.problem.range;
    physicalLocation['region'] = { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
  }
  return {
    level: p.severity === 'error' ? 'error' : 'warning',
    message: { text: p.message },
    ...(p.problem ? { descriptor: { id: p.problem.code } } : {}),
    locations: [{ physicalLocation }],
  };
}
