/**
 * The facade of the core: one markdown document + the active glossary → findings, severity and
 * the gate's decision. Plain data in, plain data out; no I/O.
 */

import { EXTRACTORS } from '../extract/extractors';
import { readHeader, scanDocument, type DocumentScan } from '../extract/scan';
import { TokenBuffers } from '../extract/tokens';
import type { GlossaryIndex } from '../glossary';
import { normalizeSurface } from '../normalize';
import { mergeDecisions, Pipeline, type MergedDecision, type Unit } from '../pipeline';
import { maxSeverity, recommendedAction, resolveStrictness, type StrictnessSources } from '../policy';
import { WELL_KNOWN_TERMS, type CommonWords } from '../words';
import type { Finding, Pin, RecommendedAction, Severity, SourceProblem, Strictness, TermCandidate } from '../types';
import type { CheckContext, RareWord } from './context';
import { semanticCheck, strictnessGate } from './semantic';

export interface CheckOptions {
  glossary: GlossaryIndex;
  common: CommonWords;
  /** Pins of the document's mission, by normalized term. */
  pins?: ReadonlyMap<string, Pin>;
  /** Strictness from the runtime (CLI flag / editor setting), mission meta.json and config.yaml. */
  strictness?: Omit<StrictnessSources, 'step'>;
  /** `glossary.check` of .kittify/config.yaml; front matter `glossary_check` can also disable. */
  checkEnabled?: boolean;
  /** Extractor ids switched off by configuration. */
  disabledExtractors?: Iterable<string>;
  /** A pipeline with extra units; defaults to the standard one. */
  pipeline?: Pipeline<CheckContext>;
  /** Terms that need no glossary entry; defaults to the bundled well-known list. */
  knownTerms?: ReadonlySet<string>;
  /** Lines and front matter already read by the caller (to work out the mission). */
  header?: ReturnType<typeof readHeader>;
}

export interface DocumentReport {
  /** False when checking is disabled for this document (config or front matter). */
  checked: boolean;
  critical: boolean;
  strictness: Strictness;
  strictnessSource: string;
  frontMatter: Record<string, unknown> | undefined;
  candidates: TermCandidate[];
  /** Words needing a glossary that occur too rarely here to be reported (see CheckContext.rareWords). */
  rareWords: RareWord[];
  findings: Finding[];
  overallSeverity: Severity | undefined;
  recommendedAction: RecommendedAction;
  blocked: boolean;
  decision: MergedDecision;
  /** Problems in the document's own front matter. */
  problems: SourceProblem[];
}

export const STANDARD_UNITS: readonly Unit<CheckContext>[] = [...EXTRACTORS, semanticCheck, strictnessGate];
const STANDARD_PIPELINE = new Pipeline<CheckContext>(STANDARD_UNITS);

export function createPipeline(extraUnits: readonly Unit<CheckContext>[] = []): Pipeline<CheckContext> {
  return extraUnits.length === 0 ? STANDARD_PIPELINE : new Pipeline<CheckContext>([...STANDARD_UNITS, ...extraUnits]);
}

export function checkDocument(text: string, options: CheckOptions): DocumentReport {
  // Front matter decides which sections are read, so it is read before the full scan.
  const header = options.header ?? readHeader(text);
  // The standard units keep nothing of the scan past the check: its buffers can be lent.
  const lend = options.pipeline === undefined || options.pipeline === STANDARD_PIPELINE ? BUFFERS.take(text.length) : undefined;
  try {
    const scan = scanDocument(text, glossaryFields(header), header, undefined, lend);
    return runChecks(scan, options, undefined, lend?.marks[1]).report;
  } finally {
    if (lend) BUFFERS.give(lend);
  }
}

const BUFFERS = new TokenBuffers();

/** `glossary_fields` of the front matter: the only sections that are checked (none: all). */
export function glossaryFields(header: ReturnType<typeof readHeader>): string[] {
  return stringList(header.frontMatter?.data?.['glossary_fields']);
}

/** The check of a document already scanned (by `scanDocument` or the incremental checker). */
export function checkScanned(scan: DocumentScan, options: CheckOptions): DocumentReport {
  return runChecks(scan, options, undefined).report;
}

/**
 * `checkScanned`, also returning the pipeline's context; `previous` is the context of the check
 * of the scan `scan` was re-scanned from (see CheckContext.previous).
 */
export function runChecks(scan: DocumentScan, options: CheckOptions, previous: CheckContext | undefined, marks?: Uint8Array): { report: DocumentReport; context: CheckContext } {
  const front = scan.frontMatter?.data;
  const problems: SourceProblem[] = [...(scan.frontMatter?.problems ?? [])];
  const critical = front?.['critical_step'] === true;
  const resolved = resolveStrictness({ ...options.strictness, step: front?.['glossary_check_strictness'] });
  if (resolved.invalid !== undefined) {
    const where = scan.frontMatter ? scan.lines.rangeOf(scan.frontMatter.start, scan.frontMatter.end) : scan.lines.rangeOf(0, 0);
    problems.push({ code: 'config.invalid-strictness', message: `Strictness '${resolved.invalid}' (from ${resolved.source}) is not off, medium or max; using medium.`, severity: 'warning', range: where });
  }
  const disabledByDoc = front?.['glossary_check'] === 'disabled' || front?.['glossary_check'] === false;
  const checked = options.checkEnabled !== false && !disabledByDoc;

  const aliases = new Map<string, string>();
  for (const { alias, canonical } of scan.frontMatter?.aliases ?? []) aliases.set(alias.value.toLowerCase().trim(), normalizeSurface(canonical.value));

  const context: CheckContext = {
    scan,
    glossary: options.glossary,
    common: options.common,
    pins: options.pins ?? new Map(),
    knownTerms: options.knownTerms ?? WELL_KNOWN_TERMS,
    critical,
    strictness: resolved.strictness,
    excluded: new Set((scan.frontMatter?.excludeTerms ?? []).map(normalizeSurface)),
    aliases,
    proposals: new Map(),
    occurrences: new Map(),
    consumed: marks && marks.length >= scan.tokens.count ? marks.fill(0, 0, scan.tokens.count) : new Uint8Array(scan.tokens.count),
    candidates: [],
    rareWords: [],
    findings: [],
    decisions: [],
    memo: new Map(),
    ...(previous ? { previous } : {}),
  };
  if (checked) (options.pipeline ?? STANDARD_PIPELINE).run(context, new Set(options.disabledExtractors ?? []));

  const overallSeverity = maxSeverity(context.findings.map((f) => f.severity));
  const decision = mergeDecisions(context.decisions);
  const report: DocumentReport = {
    checked,
    critical,
    strictness: resolved.strictness,
    strictnessSource: resolved.source,
    frontMatter: front,
    candidates: context.candidates,
    rareWords: context.rareWords,
    findings: context.findings,
    overallSeverity,
    recommendedAction: recommendedAction(overallSeverity),
    blocked: decision.blocked,
    decision,
    problems,
  };
  return { report, context };
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}
