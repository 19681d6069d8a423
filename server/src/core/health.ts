/**
 * Glossary health (SPEC §9, issue 21): what a team should look at in its own glossary files, found
 * by setting the glossary's entries against where the workspace's specs use them.
 *
 * - `glossary.unused-term`: an entry whose term no spec uses (not even in code);
 * - `glossary.shadowed`: an entry that never decides because a higher scope defines the same
 *   surface for every mission (a sense one mission adds for itself shadows nothing elsewhere);
 * - `glossary.deprecated-in-use`: a deprecated term that specs still use, with where;
 * - `glossary.synonym-is-term`: a synonym to avoid that is itself a defined term (it then resolves
 *   as that term, so nobody is ever told to avoid it);
 * - `glossary.see-also-missing`: a `see_also` naming a term no glossary defines.
 *
 * Pure: senses and a usage oracle in, findings out. Only entries of the workspace's own seed files
 * are reported (the bundled core glossary is not the user's to fix); where to show each finding is
 * the entry's `surface:` value, or the list item at fault. How "used" is known is the caller's
 * business (`TermUsage`): the CLI checks every spec, the language server may ask its index.
 */

import { normalizeSurface } from './normalize';
import { SCOPE_ORDER, type Range, type ScopeId, type Sense } from './types';

export const HEALTH_CODES = {
  unused: 'glossary.unused-term',
  shadowed: 'glossary.shadowed',
  deprecatedInUse: 'glossary.deprecated-in-use',
  synonymIsTerm: 'glossary.synonym-is-term',
  seeAlsoMissing: 'glossary.see-also-missing',
} as const;
export type HealthCode = (typeof HEALTH_CODES)[keyof typeof HEALTH_CODES];

const CODES: ReadonlySet<string> = new Set(Object.values(HEALTH_CODES));

export function isHealthCode(code: string): code is HealthCode {
  return CODES.has(code);
}

/**
 * `hint` is for what the team rarely acts on: the unused and shadowed entries of its copy of the
 * core glossary (Spec Kitty's vocabulary, kept whole whether or not a spec uses each word).
 */
export type HealthSeverity = 'warning' | 'information' | 'hint';

/** One use of a term in a spec. */
export interface TermUse {
  /** The document as the caller shows it (relative to the current directory or the workspace). */
  path: string;
  missionId: string;
  /** The occurrence (zero-based LSP positions). */
  range: Range;
}

/** Where the workspace's specs use each term: the part the CLI and the language server supply. */
export interface TermUsage {
  /** Specs read; 0 means nothing can be said about terms being unused. */
  readonly documents: number;
  /** Every use of a normalized surface in the specs' prose, documents in path order. */
  usesOf(term: string): readonly TermUse[];
  /** Whether `usesOf(term)` is not empty, when the usage can tell without listing every use. */
  hasUses?(term: string): boolean;
  /**
   * Whether a spec writes the term anywhere, code included (`mission_id` in backticks): a term
   * with no use in prose but written in code is not unused. Asked only of terms with no use.
   */
  writtenOutsideProse?(term: string): boolean;
  /**
   * The senses missions define for themselves in their specs (SPEC §3: Domain Language, Key
   * Entities, …), met while reading the specs. Add them to `HealthInput.senses`: a word a mission
   * defines is not missing, and its uses there are not uses of a deprecated entry.
   */
  readonly missionSenses?: readonly Sense[];
}

/** How much a term is used, for messages and JSON. */
export interface UseSummary {
  specs: number;
  occurrences: number;
  /** The first use in each of the first few specs, line 1-based. */
  examples: { path: string; line: number }[];
}

export interface HealthFinding {
  code: HealthCode;
  severity: HealthSeverity;
  /** The seed file the finding is shown on. */
  file: string;
  /** The entry's `surface:` value, or the `synonyms_to_avoid` / `see_also` item at fault. */
  range: Range;
  /** The entry's surface as the file writes it. */
  term: string;
  scope: ScopeId;
  message: string;
  uses?: UseSummary;
  /** The other entry involved (the shadowing one, the defined term): relatedInformation. */
  related?: { file: string; range: Range; message: string }[];
}

export interface HealthInput {
  /** Every sense of the workspace: seed files, the bundled core, senses added by events. */
  senses: readonly Sense[];
  /** Where specs use terms; without it the usage rules (unused, deprecated in use) are skipped. */
  usage?: TermUsage;
  /** Specs named per finding (default 3). */
  maxExamples?: number;
  /** How a seed file is named in messages (default: as given). */
  fileLabel?: (file: string) => string;
}

type SeedOrigin = Extract<Sense['origin'], { kind: 'seed' }>;
type SeedSense = Sense & { origin: SeedOrigin };

export function glossaryHealth(input: HealthInput): HealthFinding[] {
  return new HealthCheck(input).run();
}

/** The mission a sense belongs to alone, if any (a mission's own senses live in `mission_local`). */
function missionOf(sense: Sense): string | undefined {
  if (sense.scope !== 'mission_local') return undefined;
  const origin = sense.origin as { missionId?: unknown };
  return typeof origin.missionId === 'string' ? origin.missionId : undefined;
}

function isWorkspaceSeed(sense: Sense): sense is SeedSense {
  return sense.origin.kind === 'seed';
}

/** Where an entry written in a file names its term: its `surface:` value when known, else the entry. */
function entryRange(origin: Exclude<Sense['origin'], { kind: 'event' }>): Range {
  return ('fields' in origin ? origin.fields?.surface : undefined) ?? origin.range;
}

const live = (sense: Sense) => sense.status !== 'deprecated';

class HealthCheck {
  /** Senses by normalized surface, in scope order. */
  private readonly bySurface = new Map<string, Sense[]>();
  private readonly findings: HealthFinding[] = [];
  private readonly maxExamples: number;
  private readonly label: (file: string) => string;

  constructor(private readonly input: HealthInput) {
    this.maxExamples = input.maxExamples ?? 3;
    this.label = input.fileLabel ?? ((file) => file);
    const ordered = input.senses
      .map((sense, index) => ({ sense, index }))
      .sort((a, b) => SCOPE_ORDER.indexOf(a.sense.scope) - SCOPE_ORDER.indexOf(b.sense.scope) || a.index - b.index);
    for (const { sense } of ordered) {
      const key = normalizeSurface(sense.surface);
      if (key === '') continue;
      const list = this.bySurface.get(key);
      if (list) list.push(sense);
      else this.bySurface.set(key, [sense]);
    }
  }

  run(): HealthFinding[] {
    for (const sense of this.input.senses) {
      if (isWorkspaceSeed(sense)) {
        const key = normalizeSurface(sense.surface);
        if (key === '') continue;
        this.shadowed(sense, key);
        this.unused(sense, key);
        this.deprecatedInUse(sense, key);
        this.seeAlsoMissing(sense);
      }
      this.synonymsThatAreTerms(sense);
    }
    return this.findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)));
  }

  /** Live senses of a surface that apply to every mission, in scope order. */
  private workspaceWide(key: string): Sense[] {
    return (this.bySurface.get(key) ?? []).filter((s) => live(s) && missionOf(s) === undefined);
  }

  private shadowed(sense: SeedSense, key: string): void {
    if (!live(sense)) return; // a deprecated sense never decides anyway
    const rank = SCOPE_ORDER.indexOf(sense.scope);
    const higher = this.workspaceWide(key).find((s) => SCOPE_ORDER.indexOf(s.scope) < rank);
    if (higher === undefined) return;
    this.add(sense, HEALTH_CODES.shadowed, this.lowered(sense, 'information'), sense.origin.fields?.surface, {
      message: `'${sense.surface}' is shadowed: ${higher.scope} defines it too${this.where(higher)}, and that scope decides first, so this ${sense.scope} sense is never used.`,
      related: this.relatedOf(higher, `the ${higher.scope} sense that decides: ${higher.definition}`),
    });
  }

  private unused(sense: SeedSense, key: string): void {
    const usage = this.input.usage;
    if (usage === undefined || usage.documents === 0 || !live(sense)) return; // a deprecated term is meant to be unused
    if ((usage.hasUses ? usage.hasUses(key) : usage.usesOf(key).length > 0) || usage.writtenOutsideProse?.(key)) return;
    const specs = `${usage.documents} spec${usage.documents === 1 ? '' : 's'} read`;
    this.add(sense, HEALTH_CODES.unused, this.lowered(sense, 'information'), sense.origin.fields?.surface, {
      message: `No spec uses '${sense.surface}' (${specs}): remove the entry or deprecate it if the term is no longer meant to be used.`,
      uses: { specs: 0, occurrences: 0, examples: [] },
    });
  }

  private deprecatedInUse(sense: SeedSense, key: string): void {
    const usage = this.input.usage;
    if (usage === undefined || live(sense)) return;
    const senses = this.bySurface.get(key) ?? [];
    const rank = SCOPE_ORDER.indexOf(sense.scope);
    // The scope keeps another meaning of the word, or a higher scope defines it: the word is not retired.
    if (senses.some((s) => live(s) && missionOf(s) === undefined && SCOPE_ORDER.indexOf(s.scope) <= rank)) return;
    // A mission that defines the word for itself uses its own sense, not the deprecated one.
    const ownMissions = new Set(senses.filter(live).map(missionOf).filter((m): m is string => m !== undefined));
    const uses = usage.usesOf(key).filter((u) => !ownMissions.has(u.missionId));
    if (uses.length === 0) return;
    const summary = this.summarize(uses);
    const lower = senses.find((s) => live(s) && missionOf(s) === undefined);
    const outcome = lower ? `; those uses resolve to the ${lower.scope} sense` : '; each use is reported as inconsistent';
    this.add(sense, HEALTH_CODES.deprecatedInUse, 'warning', sense.origin.fields?.surface, {
      message: `'${sense.surface}' is deprecated in ${sense.scope} but still used in ${this.usedIn(summary)}${outcome}.`,
      uses: summary,
      ...(lower ? { related: this.relatedOf(lower, `the ${lower.scope} sense the uses resolve to: ${lower.definition}`) } : {}),
    });
  }

  private seeAlsoMissing(sense: SeedSense): void {
    sense.seeAlso.forEach((target, i) => {
      if (target === '' || this.bySurface.has(target)) return;
      this.add(sense, HEALTH_CODES.seeAlsoMissing, 'warning', sense.origin.fields?.seeAlso[i], {
        message: `'${sense.surface}' has see_also '${target}', which no glossary defines.`,
      });
    });
  }

  /**
   * A synonym to avoid that is itself a live term: shown on the list item of the entry that names
   * it, or, when that entry is not the user's (the bundled core), on the defining entry.
   */
  private synonymsThatAreTerms(sense: Sense): void {
    if (!live(sense) || missionOf(sense) !== undefined) return;
    sense.synonymsToAvoid.forEach((synonym, i) => {
      const defined = this.workspaceWide(synonym)[0];
      if (defined === undefined) return;
      const lists = `'${synonym}' is listed as a synonym to avoid for '${sense.surface}' (${sense.scope})`;
      const effect = `so specs that use it resolve to that term and are never told to use '${sense.surface}'`;
      if (isWorkspaceSeed(sense)) {
        this.add(sense, HEALTH_CODES.synonymIsTerm, 'warning', sense.origin.fields?.synonymsToAvoid[i], {
          message: `${lists}, but it is itself a term of ${defined.scope}${this.where(defined)}, ${effect}.`,
          related: this.relatedOf(defined, `'${defined.surface}' as ${defined.scope} defines it: ${defined.definition}`),
        });
      } else if (isWorkspaceSeed(defined)) {
        this.add(defined, HEALTH_CODES.synonymIsTerm, 'warning', defined.origin.fields?.surface, {
          message: `'${defined.surface}' is a term here, but ${lists}${this.where(sense)}, ${effect}.`,
          related: this.relatedOf(sense, `the ${sense.scope} entry that lists it: '${sense.surface}'`),
        });
      }
    });
  }

  /** The core glossary's copy is kept whole by Spec Kitty: what is only informative there is a hint. */
  private lowered(sense: Sense, severity: HealthSeverity): HealthSeverity {
    return sense.scope === 'spec_kitty_core' ? 'hint' : severity;
  }

  private add(sense: SeedSense, code: HealthCode, severity: HealthSeverity, range: Range | undefined, rest: Pick<HealthFinding, 'message' | 'uses' | 'related'>): void {
    this.findings.push({
      code,
      severity,
      file: sense.origin.file,
      range: range ?? sense.origin.range,
      term: sense.surface,
      scope: sense.scope,
      message: rest.message,
      ...(rest.uses ? { uses: rest.uses } : {}),
      ...(rest.related && rest.related.length > 0 ? { related: rest.related } : {}),
    });
  }

  /** " (team_domain.yaml:4)" for a sense written in a file; "" for one added by an event. */
  private where(sense: Sense): string {
    const origin = sense.origin;
    if (origin.kind === 'event') return ' (recorded by an event)';
    const line = entryRange(origin).start.line + 1;
    return ` (${this.label(origin.file)}:${line})`;
  }

  private relatedOf(sense: Sense, message: string): HealthFinding['related'] {
    const origin = sense.origin;
    if (origin.kind === 'event') return [];
    return [{ file: origin.file, range: entryRange(origin), message }];
  }

  private summarize(uses: readonly TermUse[]): UseSummary {
    const firstLine = new Map<string, number>();
    for (const use of uses) if (!firstLine.has(use.path)) firstLine.set(use.path, use.range.start.line + 1);
    const examples = [...firstLine].slice(0, this.maxExamples).map(([path, line]) => ({ path, line }));
    return { specs: firstLine.size, occurrences: uses.length, examples };
  }

  /** "3 specs (5 times), e.g. a.md:4, b.md:9". */
  private usedIn(summary: UseSummary): string {
    const specs = `${summary.specs} spec${summary.specs === 1 ? '' : 's'}`;
    const times = summary.occurrences > summary.specs ? ` (${summary.occurrences} times)` : '';
    const examples = summary.examples.map((e) => `${e.path}:${e.line}`).join(', ');
    return `${specs}${times}, e.g. ${examples}`;
  }
}
