/**
 * What the language server and its clients agree on: command ids, the settings section and its
 * shape (with defaults and normalization), and the payload carried in `Diagnostic.data`.
 * The VS Code client imports this module, so it holds plain data and types only (no Node, no LSP
 * connection); the domain's types (scopes, conflict types, senses) are the core's, imported as
 * types only (nothing of the core ends up in the client).
 */

import type { WorkspaceEdit } from 'vscode-languageserver-types';
import type { ConflictType, Finding, ScopeId, SenseRef, Severity, Strictness } from '../core/types';
import { EXTRACTOR_IDS } from '../core/extract/extractorIds';

export const SETTINGS_SECTION = 'specGlossary';
export const DIAGNOSTIC_SOURCE = 'spec-glossary';

/** Server commands (`workspace/executeCommand`). Arguments: one object, see the `*Args` types. */
export const Commands = {
  /** Pin one candidate sense for the mission: appends GlossaryClarificationResolved. */
  selectSense: 'specGlossary.selectSense',
  /**
   * Define a term in the mission (`mission_local`) or team (`team_domain`) glossary. Without a
   * definition: a draft entry is inserted into the seed YAML through `workspace/applyEdit`. With
   * one: GlossarySenseUpdated + GlossaryClarificationResolved are appended.
   */
  defineTerm: 'specGlossary.defineTerm',
  /** Defer a conflict: appends GlossaryClarificationRequested. */
  deferTerm: 'specGlossary.deferTerm',
  /**
   * Reopen the question of a pinned term: appends GlossaryClarificationRequested, which replay
   * treats as unpinning the term until it is answered again.
   */
  reopenTerm: 'specGlossary.reopenTerm',
  /** Reload every workspace folder's glossaries and event logs, then re-check open documents. */
  reload: 'specGlossary.reload',
  /**
   * The glossary candidates (SPEC §6) of the folder of `uri`, or of every workspace folder:
   * answers a `CandidatesResult`.
   */
  listCandidates: 'specGlossary.listCandidates',
  /**
   * Add an entry for a term to the Domain Language (or Key Entities, …) section of the mission's
   * spec, in the section's own form, through `workspace/applyEdit`. With a definition it is
   * recorded as GlossarySenseUpdated (scope mission_local); without, the entry's definition is a
   * placeholder for the writer to fill in (shown with `window/showDocument`).
   */
  defineInSpec: 'specGlossary.defineInSpec',
  /** Insert a term a mission defines into the team glossary (team_domain.yaml), with that definition. */
  promoteTerm: 'specGlossary.promoteTerm',
  /**
   * Apply a quick fix that is a plain edit (Replace, Ignore …) for a client that takes Commands
   * only, not CodeAction objects: the server asks the editor to apply it (`workspace/applyEdit`).
   */
  applyEdit: 'specGlossary.applyEdit',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];
export const ALL_COMMANDS: readonly CommandId[] = Object.values(Commands);

/** Where a define command puts the new sense. */
export type DefineScope = Extract<ScopeId, 'mission_local' | 'team_domain'>;

/**
 * What the code actions of a conflict diagnostic read: its published `data`
 * (`PublishedFindingData`) completed by the server with what the diagnostic and its document
 * already say (`service/findingData.ts`).
 */
export interface FindingData {
  kind: 'finding';
  /** The document's mission and step. */
  missionId: string;
  stepId: string;
  /** Normalized term. */
  term: string;
  /** The diagnostic's `code`. */
  conflictType: ConflictType;
  severity: Severity;
  /** Deciding scope, null for unknown terms. */
  scope: ScopeId | null;
  /** Candidate senses in the one order every surface uses (confidence descending, then file order). */
  candidates: SenseRef[];
  /** For a synonym to avoid: the surface to write instead. */
  replacement?: string;
  reason?: Finding['reason'];
  /** conflict_id of an open GlossaryClarificationRequested for this term and mission, if any. */
  openConflictId?: string;
  /** When that clarification was requested (the term is deferred since then), ISO 8601. */
  deferredSince?: string;
}

/**
 * `Diagnostic.data` of a conflict diagnostic as published: only what neither the diagnostic
 * (`code`: the conflict type) nor its document (named by the code action request: its mission
 * and step) says, and candidates only when there are some. Every diagnostic of a publication
 * carries its own copy of `data`, which the server serializes and the client parses at every
 * keystroke: with URIs, mission and step it was most of a publication's bytes.
 */
export type PublishedFindingData = Omit<FindingData, 'missionId' | 'stepId' | 'conflictType' | 'candidates'> & { candidates?: SenseRef[] };

/** `Diagnostic.data` of a diagnostic on a glossary, config or event-log file. */
export interface SourceProblemData {
  kind: 'source';
  file: string;
}

export type DiagnosticData = PublishedFindingData | SourceProblemData;

/** Complete finding data (see `FindingData`). */
export function isFindingData(value: unknown): value is FindingData {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<FindingData>;
  return v.kind === 'finding' && typeof v.term === 'string' && typeof v.missionId === 'string' && typeof v.stepId === 'string' && typeof v.conflictType === 'string' && Array.isArray(v.candidates);
}

/** Finding data as published, or complete. */
export function isPublishedFindingData(value: unknown): value is PublishedFindingData {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<PublishedFindingData>;
  return v.kind === 'finding' && typeof v.term === 'string' && (v.candidates === undefined || Array.isArray(v.candidates));
}

/**
 * Arguments of the commands. Every one is checked against the server's own state when the
 * command runs: `uri` must be a document inside a workspace folder, `missionId` its mission now,
 * `term` a term the document uses, `sense` one of the term's senses now. The workspace folder,
 * step, severity and the conflict ids to close are worked out by the server, never taken from
 * the arguments (a quick fix applied twice must not reuse a conflict its first run closed).
 */
interface TermArgs {
  uri: string;
  missionId: string;
  stepId?: string;
  /** Normalized term. */
  term: string;
  /** The term as the document writes it (PCI), for messages; the term itself when absent. */
  written?: string;
}

export interface SelectSenseArgs extends TermArgs {
  sense: SenseRef;
  /** Ignored (older clients sent it): the clarifications still open when the command runs are closed. */
  conflictId?: string;
}

export interface DefineTermArgs extends TermArgs {
  scope: DefineScope;
  /** With a definition, events are appended instead of editing the seed YAML. */
  definition?: string;
  /** Ignored, as for selectSense. */
  conflictId?: string;
}

export interface DeferTermArgs extends TermArgs {
  stepId: string;
  /** Ignored: the urgency is the finding's severity and the options its candidate senses, as they are now. */
  severity?: Severity;
  options?: string[];
}

export type ReopenTermArgs = TermArgs;

/**
 * "Define 'Term' in this spec's Domain Language": an entry for the term in the vocabulary section
 * of the mission's spec (the server works the spec out from the document's mission now).
 */
export interface DefineInSpecArgs extends TermArgs {
  /** The spec the quick fix offered to edit: refused when the mission's spec is another one now. */
  specUri?: string;
  /** How the client names the mission while asking for a definition (its slug); not used by the server. */
  missionSlug?: string;
  /** Without: a placeholder the writer replaces. */
  definition?: string;
}

/** A quick fix's edit, for a client that takes Commands only (`Commands.applyEdit`). */
export interface ApplyEditArgs {
  /** The quick fix's title: the label of the edit in the editor. */
  label: string;
  /** The edit, as the quick fix holds it: `changes` or `documentChanges` of text edits, inside the workspace. */
  edit: WorkspaceEdit;
}

/** "Promote 'Term' to the team glossary": the definition a mission's own vocabulary gives the term, into team_domain.yaml. */
export interface PromoteTermArgs {
  /** A document of the mission whose vocabulary defines the term (an entry of its spec, or a use of the term). */
  uri: string;
  /** Normalized surface. */
  term: string;
  /** The term as the document writes it, for messages. */
  written?: string;
  /** Ignored: the definition and words to avoid are the ones the mission's vocabulary gives the term now. */
  definition?: string;
  synonymsToAvoid?: string[];
}

export interface ListCandidatesArgs {
  /** A document or folder of the workspace folder to list; every folder when absent. */
  uri?: string;
  /** Only terms used in at least this many documents (default 1). */
  minSpecs?: number;
}

/** One glossary candidate (the JSON of `spec-glossary candidates`, with URIs and missions added). */
export interface CandidateData {
  term: string;
  specs: number;
  occurrences: number;
  /** `path` relative to the folder; `line` 1-based. */
  examples: { path: string; line: number; uri: string; missionId: string }[];
  definitions: { mission: string; path: string; line: number; definition: string }[];
}

/** What `listCandidates` answers: per workspace folder, the most-used candidates first. */
export interface CandidatesResult extends CommandResult {
  workspaces: { workspaceUri: string; documents: number; candidates: CandidateData[] }[];
}

export function isCandidatesResult(value: unknown): value is CandidatesResult {
  return !!value && typeof value === 'object' && Array.isArray((value as CandidatesResult).workspaces);
}

/** What every command answers. */
export interface CommandResult {
  ok: boolean;
  message: string;
  /** event_id of every appended event, in order. */
  eventIds?: string[];
  /** Seed file edited through `workspace/applyEdit`, as a URI. */
  editedUri?: string;
}

// ---------------------------------------------------------------------------------------------
// Settings

export type SeverityOverride = 'error' | 'warning' | 'information' | 'hint' | 'off';
export const SEVERITY_OVERRIDES: readonly SeverityOverride[] = ['error', 'warning', 'information', 'hint', 'off'];
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];
export type TraceLevel = 'off' | 'messages' | 'verbose';

export interface SpecGlossarySettings {
  /** Runtime strictness override; '' keeps the document's own (front matter > mission > config). */
  strictness: '' | Strictness;
  /** Extractor ids to switch off (glossary_match, metadata_hint, quoted_phrase, acronym, casing_pattern, repeated_noun). */
  disabledExtractors: string[];
  /** Diagnostic code → severity; 'off' hides diagnostics with that code. */
  severityOverrides: Record<string, SeverityOverride>;
  /** Documents and glossary files larger than this many bytes are skipped. */
  maxFileSize: number;
  /** Delay between the last keystroke and the check of a document, in milliseconds. */
  debounceMs: number;
  /**
   * At most this many diagnostics are published for one markdown document (the most severe
   * first), plus one that says how many more there are; the gate status still counts them all.
   */
  maxProblems: number;
  logLevel: LogLevel;
  /** Read by the client library (protocol tracing); kept here so the shape is complete. */
  trace: { server: TraceLevel };
}

export const DEFAULT_SETTINGS: Readonly<SpecGlossarySettings> = Object.freeze<SpecGlossarySettings>({
  strictness: '',
  disabledExtractors: [],
  severityOverrides: {},
  maxFileSize: 5 * 1024 * 1024,
  // (A check of a 33 KB spec takes ~2 ms: a longer wait would be most of what a push client's
  // user waits for. Long enough to take a burst of edits, a paste or fast typing, at once.)
  debounceMs: 50,
  maxProblems: 1000,
  logLevel: 'info',
  trace: { server: 'off' },
});

const MAX_DEBOUNCE_MS = 10_000;
/**
 * The most `maxProblems` may be: a publication of this many diagnostics is a few tens of MB of
 * JSON, which the server and an editor still handle; half a million would not (issue 19).
 */
const MAX_PROBLEMS = 100_000;

/**
 * Settings as the client sent them (anything) → a complete typed object. Invalid values fall
 * back to the default and are described in `warnings`.
 */
export function normalizeSettings(raw: unknown): { settings: SpecGlossarySettings; warnings: string[] } {
  const warnings: string[] = [];
  const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
  const input = isObject ? (raw as Record<string, unknown>) : {};
  const warn = (key: string, value: unknown, expected: string) => warnings.push(`${SETTINGS_SECTION}.${key}: expected ${expected}, got ${JSON.stringify(value)}; using the default`);
  // (An empty list is how Neovim encodes an empty Lua table: no settings, as null is.)
  const none = raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0);
  if (!isObject && !none) warnings.push(`${SETTINGS_SECTION}: expected an object of settings, got ${JSON.stringify(raw)}; using the defaults`);
  warnings.push(...unknownKeys(input));
  // (Words are matched in any case, as severities always were: "MAX", "Warn".)
  const word = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

  let strictness: SpecGlossarySettings['strictness'] = DEFAULT_SETTINGS.strictness;
  const s = word(input['strictness']);
  if (s === 'off' || s === 'medium' || s === 'max' || s === '') strictness = s;
  else if (s !== undefined && s !== null) warn('strictness', input['strictness'], '"", "off", "medium" or "max"');

  let disabledExtractors: string[] = [];
  const d = input['disabledExtractors'];
  if (Array.isArray(d)) {
    disabledExtractors = d.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().toLowerCase());
    const unknown = d.filter((x) => typeof x !== 'string' || !(EXTRACTOR_IDS as readonly string[]).includes(x.trim().toLowerCase()));
    if (unknown.length > 0) warnings.push(`${SETTINGS_SECTION}.disabledExtractors: ${unknown.map((x) => JSON.stringify(x)).join(', ')} ${unknown.length === 1 ? 'is no extractor' : 'are no extractors'} (${EXTRACTOR_IDS.join(', ')}); ignored`);
  } else if (d !== undefined && d !== null) warn('disabledExtractors', d, 'a list of extractor ids');

  const severityOverrides: Record<string, SeverityOverride> = {};
  const o = input['severityOverrides'];
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const [code, value] of Object.entries(o as Record<string, unknown>)) {
      const v = word(value);
      const mapped = v === 'info' ? 'information' : v === 'warn' ? 'warning' : v;
      if ((SEVERITY_OVERRIDES as readonly unknown[]).includes(mapped)) severityOverrides[code] = mapped as SeverityOverride;
      else warn(`severityOverrides.${code}`, value, 'error, warning, information, hint or off');
    }
  } else if (o !== undefined && o !== null) warn('severityOverrides', o, 'an object of code → severity');

  let maxFileSize = DEFAULT_SETTINGS.maxFileSize;
  const m = input['maxFileSize'];
  if (m !== undefined && m !== null) {
    const bytes = parseByteSize(m);
    if (bytes === undefined) warn('maxFileSize', m, 'a positive number of bytes (or a size such as "5MB")');
    else maxFileSize = bytes;
  }

  let debounceMs = DEFAULT_SETTINGS.debounceMs;
  const b = input['debounceMs'];
  if (typeof b === 'number' && Number.isFinite(b) && b >= 0) debounceMs = Math.min(Math.round(b), MAX_DEBOUNCE_MS);
  else if (b !== undefined && b !== null) warn('debounceMs', b, 'a number of milliseconds ≥ 0');

  let maxProblems = DEFAULT_SETTINGS.maxProblems;
  const p = input['maxProblems'];
  if (typeof p === 'number' && Number.isFinite(p) && p >= 1) maxProblems = Math.min(Math.floor(p), MAX_PROBLEMS);
  else if (p !== undefined && p !== null) warn('maxProblems', p, 'a number of diagnostics ≥ 1');

  let logLevel = DEFAULT_SETTINGS.logLevel;
  const l = word(input['logLevel']);
  if ((LOG_LEVELS as readonly unknown[]).includes(l)) logLevel = l as LogLevel;
  else if (l !== undefined && l !== null) warn('logLevel', input['logLevel'], LOG_LEVELS.join(', '));

  let trace: TraceLevel = 'off';
  const t = (input['trace'] as Record<string, unknown> | undefined)?.['server'];
  if (t === 'messages' || t === 'verbose' || t === 'off') trace = t;

  return { settings: { strictness, disabledExtractors, severityOverrides, maxFileSize, debounceMs, maxProblems, logLevel, trace: { server: trace } }, warnings };
}

/** A warning for each key that is no setting (a misspelling, most often: said with the setting meant). */
function unknownKeys(input: Record<string, unknown>): string[] {
  const keys = Object.keys(DEFAULT_SETTINGS);
  // (The VS Code client's own settings, in the same section: VS Code answers with them too.)
  const clientKeys = ['enable', 'server'];
  // (The same word in another case, or with or without a final s.)
  const stem = (key: string) => key.toLowerCase().replace(/s$/, '');
  return Object.keys(input)
    .filter((key) => !keys.includes(key) && !clientKeys.includes(key))
    .map((key) => {
      const meant = keys.find((known) => stem(known) === stem(key));
      return `${SETTINGS_SECTION}.${key} is not a setting${meant ? ` (did you mean ${meant}?)` : ''}; ignored`;
    });
}

/** 5242880, "5242880", "5MB", "512 KB", "1.5mb" → bytes; anything else → undefined. */
export function parseByteSize(value: unknown): number | undefined {
  // (Whole bytes: a fraction below 1 is no size, not a limit of 0 that would skip every file.)
  if (typeof value === 'number') return Number.isFinite(value) && Math.floor(value) > 0 ? Math.floor(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : unit === 'g' ? 1024 * 1024 * 1024 : 1;
  const bytes = Math.floor(Number(match[1]) * factor);
  return bytes > 0 ? bytes : undefined;
}
