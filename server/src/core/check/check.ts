/**
 * One markdown document + the active glossary → findings, severity and the gate's decision, with
 * the caches and buffers of an engine (engine.ts is the facade callers use). Plain data in, plain
 * data out; no I/O.
 */

import { countSpelledOut, EXTRACTORS } from '../extract/extractors';
import { readHeader, scanDocument, type DocumentScan } from '../extract/scan';
import type { GlossaryIndex } from '../glossary';
import { normalizeSurface } from '../normalize';
import { mergeDecisions, Pipeline, type MergedDecision, type Unit } from '../pipeline';
import { maxSeverity, recommendedAction, resolveStrictness, type StrictnessSources } from '../policy';
import { WELL_KNOWN_TERMS, type CommonWords } from '../words';
import type { Finding, Pin, RecommendedAction, Severity, SourceProblem, Strictness, TermCandidate } from '../types';
import type { CheckContext, RareWord, SpelledOutWord } from './context';
import type { EngineState } from './engineState';
import { semanticCheck, strictnessGate } from './semantic';
import { dropFindingsInSections, readDocumentVocabulary, vocabularyProblems } from './vocabulary';
import type { DocumentVocabulary, VocabularyOrigin, VocabularySource } from '../missionVocabulary/types';

export interface CheckOptions {
  glossary: GlossaryIndex;
  /**
   * Ordinary English; defaults to the engine's list. A workspace's (with its `ignore_words`)
   * comes from `engine.vocabulary(ignoreWords)`, which gives the same object every time, so the
   * per-word caches keyed by it carry over from one check to the next.
   */
  common?: CommonWords;
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
  /** Terms that need no glossary entry; defaults to the bundled well-known list (see `common`). */
  knownTerms?: ReadonlySet<string>;
  /** Lines and front matter already read by the caller (to work out the mission). */
  header?: ReturnType<typeof readHeader>;
  /**
   * The document's file and mission: its own vocabulary sections (SPEC §3) then define words for
   * it, with this provenance. Without, they are still read (nothing is reported inside them).
   */
  documentOrigin?: VocabularyOrigin;
  /** The vocabularies of the other documents of its mission that define words for it (its spec's). */
  missionVocabulary?: readonly VocabularySource[];
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
  /**
   * Abbreviations the document spells out and no glossary defines, with their uses: reported
   * nowhere (the document says what they mean), counted by the glossary candidates (the team's
   * glossary still lacks them).
   */
  spelledOut: SpelledOutWord[];
  findings: Finding[];
  overallSeverity: Severity | undefined;
  recommendedAction: RecommendedAction;
  blocked: boolean;
  decision: MergedDecision;
  /** Problems in the document's own front matter and vocabulary sections. */
  problems: SourceProblem[];
  /** The glossary the document was checked against (the given one, with the mission's own vocabulary). */
  glossary: GlossaryIndex;
  /** The document's own vocabulary sections (undefined when it was not checked). */
  vocabulary: DocumentVocabulary | undefined;
  /** The other vocabularies the check was given (`CheckOptions.missionVocabulary`). */
  missionVocabulary: readonly VocabularySource[];
}

export const STANDARD_UNITS: readonly Unit<CheckContext>[] = [readDocumentVocabulary, ...EXTRACTORS, semanticCheck, dropFindingsInSections, strictnessGate];
const STANDARD_PIPELINE = new Pipeline<CheckContext>(STANDARD_UNITS);
/**
 * The standard units that find where terms occur, and nothing after them: no findings, no gate
 * (a report with none). What the term index reads of a check (node/indexDocument.ts); the
 * semantic check was ~6% of indexing a spec.
 */
export const OCCURRENCE_PIPELINE = new Pipeline<CheckContext>([readDocumentVocabulary, ...EXTRACTORS]);

export function createPipeline(extraUnits: readonly Unit<CheckContext>[] = []): Pipeline<CheckContext> {
  return extraUnits.length === 0 ? STANDARD_PIPELINE : new Pipeline<CheckContext>([...STANDARD_UNITS, ...extraUnits]);
}

/** The check of a whole document (`Engine.checkDocument`). */
export function checkDocument(engine: EngineState, text: string, options: CheckOptions): DocumentReport {
  // Front matter decides which sections are read, so it is read before the full scan.
  const header = options.header ?? readHeader(text);
  // The standard units (and the occurrence units, a part of them) keep nothing of the scan past the check: the engine's buffers can be lent.
  const buffers = engine.tokenBuffers;
  const lend = options.pipeline === undefined || options.pipeline === STANDARD_PIPELINE || options.pipeline === OCCURRENCE_PIPELINE ? buffers.take(text.length) : undefined;
  try {
    const scan = scanDocument(text, engine.lexicon(), glossaryFields(header), header, lend);
    return runChecks(engine, scan, options, undefined, lend?.marks[1]).report;
  } finally {
    if (lend) buffers.give(lend);
  }
}

/** `glossary_fields` of the front matter: the only sections that are checked (none: all). */
export function glossaryFields(header: ReturnType<typeof readHeader>): string[] {
  return stringList(header.frontMatter?.data?.['glossary_fields']);
}

/**
 * The check of a document already scanned (by `scanDocument` or the incremental checker), and the
 * pipeline's context; `previous` is the context of the check of the scan `scan` was re-scanned
 * from (see CheckContext.previous). `marks` lends an array for the glossary-match marks.
 */
export function runChecks(engine: EngineState, scan: DocumentScan, options: CheckOptions, previous: CheckContext | undefined, marks?: Uint8Array): { report: DocumentReport; context: CheckContext } {
  const front = scan.frontMatter?.data;
  const problems: SourceProblem[] = [...(scan.frontMatter?.problems ?? [])];
  const critical = front?.['critical_step'] === true;
  const resolved = resolveStrictness({ ...options.strictness, step: front?.['glossary_check_strictness'] });
  // (An invalid workspace value is said once, at its line of .kittify/config.yaml (core/config.ts),
  // not once more in every document: a CI log of 400 specs would hold 400 copies at line 1.)
  if (resolved.invalid !== undefined && resolved.source !== 'workspace') {
    const where = scan.frontMatter ? scan.lines.rangeOf(scan.frontMatter.start, scan.frontMatter.end) : scan.lines.rangeOf(0, 0);
    problems.push({ code: 'config.invalid-strictness', message: `Strictness '${resolved.invalid}' (from ${resolved.source}) is not off, medium or max; using medium.`, severity: 'warning', range: where });
  }
  const disabledByDoc = front?.['glossary_check'] === 'disabled' || front?.['glossary_check'] === false;
  const checked = options.checkEnabled !== false && !disabledByDoc;

  const aliases = new Map<string, string>();
  for (const { alias, canonical } of scan.frontMatter?.aliases ?? []) aliases.set(alias.value.toLowerCase().trim(), normalizeSurface(canonical.value));

  const context: CheckContext = {
    engine,
    scan,
    glossary: options.glossary,
    documentOrigin: options.documentOrigin,
    missionVocabulary: options.missionVocabulary ?? [],
    common: options.common ?? engine.commonWords,
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
    spelledOut: new Map(),
    rareWords: [],
    findings: [],
    decisions: [],
    memo: new Map(),
    ...(previous ? { previous } : {}),
  };
  if (checked) (options.pipeline ?? STANDARD_PIPELINE).run(context, new Set(options.disabledExtractors ?? []));

  problems.push(...vocabularyProblems(context.vocabulary));
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
    spelledOut: context.spelledOut.size === 0 ? [] : countSpelledOut(context),
    findings: context.findings,
    overallSeverity,
    recommendedAction: recommendedAction(overallSeverity),
    blocked: decision.blocked,
    decision,
    problems,
    glossary: context.glossary,
    vocabulary: context.vocabulary,
    missionVocabulary: context.missionVocabulary,
  };
  return { report, context };
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}
