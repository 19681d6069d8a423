/**
 * Deterministic generators of benchmark inputs (issue 7): realistic spec markdown, glossaries of
 * any size, a workspace of many specs and an event log. Every generator takes a seed, so a run is
 * reproducible and the same inputs can be fed to spec-glossary and to cspell.
 *
 * Glossaries grow by extension: the first 1,000 senses of the 100,000-sense glossary are the
 * 1,000-sense glossary. Specs draw their glossary terms from the first few hundred surfaces, so
 * the same spec has the same term density against every glossary size and only the glossary's
 * size changes between the runs of the scaling table.
 */

import type { ScopeId, Sense, SenseStatus } from '../server/src/core/types';

/** Small, fast, seedable PRNG (mulberry32). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Zipf-like pick: early items are much more frequent, as words are in real prose. */
  zipf<T>(items: readonly T[]): T {
    const u = this.next();
    return items[Math.min(items.length - 1, Math.floor(items.length * u * u * u))]!;
  }
}

// Words of real specs (the frequent ones first). Mostly ordinary written English, plus the
// technical words every spec uses; all of them are in the common-English list or well known.
const PROSE = `the a to of and in is for that be with as on by this it or are from an not must when each
  if all only any can should will into its which than then also both before after without every
  between during within through while because so such same other new existing current first
  single two three one no more most least per via where whether until unless once already still
  mission command file files test tests path state event events change changes review merge status
  check checks project user users team teams server client service services request response
  value values field fields record records entry entries section sections document documents
  version versions release releases branch branches commit commits error errors warning warnings
  rule rules policy policies option options setting settings default defaults output input report
  reports result results step steps task tasks plan plans phase phases stage goal goals scope
  owner owners reviewer reviewers operator maintainer developer developers agent agents tool tools
  run runs build builds deploy migration migrations schema schemas contract contracts interface
  module modules package packages library function functions method methods type types class
  object objects list lists table tables key keys name names identifier label labels message
  format line lines block blocks text content body header title description summary note notes
  order sequence count number size limit time date period window timeout retry failure success
  support behavior behaviour feature features requirement requirements scenario scenarios case
  cases example examples evidence acceptance criteria decision decisions reason reasons context
  source target origin destination local remote global shared public private internal external
  read write create update delete remove add keep move copy rename replace emit record store load
  parse validate verify confirm reject accept approve block allow deny skip retry fail pass raise
  return call handle process track detect resolve refresh sync publish fetch import export
  install configure enable disable start stop open close lock unlock append rewrite report
  clear explicit implicit exact correct valid invalid stale fresh clean dirty safe stable
  required optional mandatory deterministic idempotent atomic concurrent parallel sequential
  silently explicitly automatically manually currently previously already eventually
  boundary ownership authority surface artifact artifacts registry inventory baseline coverage
  regression fixture fixtures helper helpers template templates checklist dependency
  dependencies lifecycle metadata payload envelope snapshot transaction directory repository
  workflow pipeline runtime backend frontend endpoint timestamp configuration documentation
  implementation specification integration validation verification resolution migration`
  .split(/\s+/)
  .filter(Boolean);

// A little real jargon, rare, as in real specs (these are what repeated_noun should report).
const JARGON = 'worktree frontmatter allowlist denylist tranche cutover backfill dedup reconcile monorepo sidecar shim codemod preflight'.split(' ');

const ACRONYMS = ['API', 'CLI', 'CI', 'WP', 'JSON', 'YAML', 'URL', 'SDK', 'LSP', 'ADR', 'SLA', 'MVP', 'QA', 'UUID', 'ULID', 'PR', 'PRs', 'APIs'];
const IDENTIFIERS = ['missionRunner', 'GlossaryStore', 'work_package', 'lane_status', 'eventLog', 'ReviewGate', 'merge_driver', 'specifyCommand', 'StatusBoard', 'retry_budget'];
const HEADINGS = ['Overview', 'Problem Statement', 'User Scenarios', 'Requirements', 'Functional Requirements', 'Non-Functional Requirements', 'Success Criteria', 'Key Entities', 'Assumptions', 'Out of Scope', 'Edge Cases', 'Acceptance Tests', 'Risks', 'Dependencies', 'Open Questions', 'Migration Plan', 'Rollout', 'Design Notes'];
const LANGUAGES = ['python', 'yaml', 'bash', 'json', 'typescript', ''];
const CODE_LINES = [
  'def resolve(term: str) -> Sense:',
  '    return registry.lookup(term, scope="team_domain")',
  'spec-kitty agent tasks move-task WP03 --to for_review',
  'mission_id: 01KQEJZK9ZX5Q7B2M3N4P5R6S7',
  '{"event_type": "StepCheckpointed", "lamport_clock": 12}',
  'const lane = board.laneFor(workPackage);',
  'git worktree add ../wp03 -b feature/wp03',
  'status: approved  # reviewer sign-off',
  'for entry in log.entries(): emit(entry)',
  'export function checkGate(ctx: Context): Decision {',
];

/** Real-looking terms of a spec-driven project, used as the first surfaces of every glossary. */
const CORE_TERMS = `mission|work package|worktree|lane|charter|spec|plan|task|review gate|merge gate|status board
  |mission id|step|checkpoint|clarification|glossary|scope|sense|surface|event log|lamport clock
  |doctrine|directive|tactic|paradigm|agent profile|slash command|acceptance gate|verdict|seam
  |kanban lane|for review|done lane|claim|dependency graph|feature branch|target branch|merge driver
  |status event|sync daemon|coordination server|auth token|refresh token|canvas|contract test
  |boundary contract|topology|authority|registry|census|ratchet|residue|husk|drift|arbiter|sweep
  |retrospective|research phase|implementation phase|specify step|planning step|tasks step
  |mission local|team domain|audience domain|core glossary|seed file|watch term|alias|exclusion
  |gate decision|block decision|warn decision|quick fix|code action|diagnostic|hover card|code lens
  |replay|projection|snapshot|run id|actor|provenance|confidence|deprecation|synonym|see also`
  .split('|')
  .map((t) => t.trim())
  .filter(Boolean);

const SYLLABLES = 'ar bel cor dax el fen gor hal ix jor kel lum mor nax ost pra quel ren sol tav ul vex wen xor yal zen bri cro dru fla gri'.split(' ');
const NOUNS = 'ledger queue lane gate store board index cache policy engine profile channel registry journal sweep bridge vault relay beacon matrix'.split(' ');
const SCOPE_WEIGHTS: [ScopeId, number][] = [
  ['mission_local', 0.1],
  ['team_domain', 0.3],
  ['audience_domain', 0.2],
  ['spec_kitty_core', 0.4],
];

/** The i-th generated glossary surface: real-looking terms first, then made-up jargon. */
export function surfaceAt(i: number): string {
  if (i < CORE_TERMS.length) return CORE_TERMS[i]!;
  const r = new Random(0x9e3779b9 ^ i);
  const word = () => r.pick(SYLLABLES) + r.pick(SYLLABLES) + (r.chance(0.5) ? r.pick(SYLLABLES) : '');
  const shape = r.next();
  // Unique by construction: the index is folded into the made-up word.
  const unique = word() + SYLLABLES[i % SYLLABLES.length]! + (i >> 5).toString(36).replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
  if (shape < 0.4) return unique;
  if (shape < 0.8) return `${unique} ${r.pick(NOUNS)}`;
  if (shape < 0.95) return `${r.pick(NOUNS)} ${unique}`;
  return `${word()} ${unique} ${r.pick(NOUNS)}`;
}

export interface GeneratedGlossary {
  senses: Sense[];
  /** Seed files as Spec Kitty writes them, by scope. */
  yaml: Record<ScopeId, string>;
}

/**
 * `count` senses over the four scopes: ~5% are second senses of a surface in the same scope
 * (ambiguous), ~15% drafts, ~4% deprecated, ~3% list a synonym to avoid.
 */
export function generateGlossary(count: number, seed = 7): GeneratedGlossary {
  const senses: Sense[] = [];
  const lines: Record<ScopeId, string[]> = { mission_local: ['terms:'], team_domain: ['terms:'], audience_domain: ['terms:'], spec_kitty_core: ['terms:'] };
  let surfaceIndex = 0;
  for (let i = 0; i < count; i++) {
    const r = new Random(seed * 1_000_003 + i);
    const second = i > 50 && r.chance(0.05) && senses.length > 0;
    const previous = second ? senses[r.int(Math.min(senses.length, 400))]! : undefined;
    const surface = previous ? previous.surface : surfaceAt(surfaceIndex++);
    const scope = previous ? previous.scope : pickScope(r);
    const status: SenseStatus = r.chance(0.04) ? 'deprecated' : r.chance(0.16) ? 'draft' : 'active';
    const confidence = Math.round((0.5 + r.next() * 0.5) * 100) / 100;
    const definition = `${capitalise(r.pick(PROSE))} ${Array.from({ length: r.range(6, 16) }, () => r.zipf(PROSE)).join(' ')} for the ${surface}.`;
    const synonymsToAvoid = i > 20 && r.chance(0.03) ? [`${r.pick(SYLLABLES)}${r.pick(SYLLABLES)}${i.toString(36).replace(/[0-9]/g, (d) => 'klmnopqrst'[Number(d)]!)}`] : [];
    senses.push({ surface, scope, definition, confidence, status, synonymsToAvoid, seeAlso: [], origin: { kind: 'bundled', file: `${scope}.yaml`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, index: i } });
    lines[scope].push(`  - surface: ${surface}`, `    definition: ${definition}`, `    confidence: ${confidence}`, `    status: ${status}`);
    if (synonymsToAvoid.length > 0) lines[scope].push(`    synonyms_to_avoid: [${synonymsToAvoid.join(', ')}]`);
  }
  const yaml = Object.fromEntries(Object.entries(lines).map(([scope, l]) => [scope, l.length > 1 ? l.join('\n') + '\n' : 'terms: []\n'])) as Record<ScopeId, string>;
  return { senses, yaml };
}

function pickScope(r: Random): ScopeId {
  let u = r.next();
  for (const [scope, weight] of SCOPE_WEIGHTS) {
    if (u < weight) return scope;
    u -= weight;
  }
  return 'spec_kitty_core';
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export interface SpecOptions {
  /** Approximate size in UTF-16 code units (≈ bytes: the text is ASCII but for a few symbols). */
  size: number;
  seed?: number;
  /** Glossary surfaces the spec talks about (defaults to the first 300 generated ones). */
  terms?: readonly string[];
  /** Fraction of prose words that are glossary terms (default 3%, as in the real corpus). */
  termDensity?: number;
  missionId?: string;
}

/**
 * A spec as Spec Kitty missions write them: front matter, headings, prose paragraphs, bullet and
 * numbered lists, tables, code fences, block quotes, links, inline code, requirement ids, file
 * paths, acronyms, camelCase identifiers, quoted phrases, and glossary terms at a realistic
 * density.
 */
export function generateSpec(options: SpecOptions): string {
  const r = new Random(options.seed ?? 1);
  const terms = options.terms ?? Array.from({ length: 300 }, (_, i) => surfaceAt(i));
  const density = options.termDensity ?? 0.03;
  const out: string[] = [];
  let size = 0;
  const push = (block: string) => {
    out.push(block);
    size += block.length + 2;
  };
  const missionId = options.missionId ?? `0${r.range(10, 99)}-generated-mission`;
  push(`---\ntitle: ${capitalise(r.pick(PROSE))} ${r.pick(PROSE)} ${r.pick(PROSE)}\nmission_id: ${missionId}\nstep_id: spec\nstatus: draft\n---`);
  push(`# Feature Specification: ${capitalise(r.zipf(terms))} ${r.pick(PROSE)}`);
  let requirement = 1;

  const word = (): string => {
    const u = r.next();
    if (u < density) return r.zipf(terms);
    if (u < density + 0.004) return r.pick(ACRONYMS);
    if (u < density + 0.006) return r.pick(JARGON);
    if (u < density + 0.007) return r.pick(IDENTIFIERS);
    return r.zipf(PROSE);
  };
  // What writers put in quotes: mostly terms, some jargon, some short phrases.
  const quoted = (): string => {
    const u = r.next();
    if (u < 0.6) return r.zipf(terms);
    if (u < 0.75) return r.pick(r.chance(0.5) ? JARGON : IDENTIFIERS);
    return Array.from({ length: r.range(2, 3) }, () => r.zipf(PROSE)).join(' ');
  };
  const sentence = (): string => {
    const words: string[] = [];
    const length = r.range(7, 22);
    for (let i = 0; i < length; i++) {
      const u = r.next();
      if (u < 0.012) words.push(`\`${r.pick(IDENTIFIERS)}\``);
      else if (u < 0.018) words.push(`[${r.zipf(PROSE)} ${r.zipf(PROSE)}](https://example.com/${r.zipf(PROSE)}/${r.int(999)})`);
      else if (u < 0.024) words.push(`\`src/${r.zipf(PROSE)}/${r.zipf(PROSE)}.py\``);
      else if (u < 0.03) words.push(`FR-${String(r.range(1, 120)).padStart(3, '0')}`);
      else if (u < 0.034) words.push(`"${quoted()}"`);
      else if (u < 0.04) words.push(String(r.range(2, 500)));
      else if (u < 0.045) words.push(`**${word()}**`);
      else words.push(word());
    }
    words[0] = capitalise(words[0]!);
    return words.join(' ') + r.pick(['.', '.', '.', '.', '.', '?', '!']);
  };
  const paragraph = () => Array.from({ length: r.range(2, 6) }, sentence).join(r.chance(0.3) ? '\n' : ' ');

  while (size < options.size) {
    if (r.chance(0.12)) push(`${'#'.repeat(r.range(2, 3))} ${r.pick(HEADINGS)}`);
    const kind = r.next();
    if (kind < 0.45) push(paragraph());
    else if (kind < 0.65) {
      const numbered = r.chance(0.3);
      push(Array.from({ length: r.range(3, 7) }, (_, i) => `${numbered ? `${i + 1}.` : '-'} ${r.chance(0.4) ? `**FR-${String(requirement++).padStart(3, '0')}**: ` : ''}${sentence()}`).join('\n'));
    } else if (kind < 0.75) {
      const columns = r.range(2, 4);
      const rows = [`| ${Array.from({ length: columns }, () => capitalise(r.pick(PROSE))).join(' | ')} |`, `|${' --- |'.repeat(columns)}`];
      for (let i = r.range(3, 8); i > 0; i--) rows.push(`| ${Array.from({ length: columns }, () => Array.from({ length: r.range(1, 6) }, word).join(' ')).join(' | ')} |`);
      push(rows.join('\n'));
    } else if (kind < 0.84) {
      push(['```' + r.pick(LANGUAGES), ...Array.from({ length: r.range(3, 14) }, () => r.pick(CODE_LINES)), '```'].join('\n'));
    } else if (kind < 0.9) {
      push(`> **${r.pick(['Note', 'Warning', 'Decision'])}**: ${sentence()} ${sentence()}`);
    } else if (kind < 0.93) {
      push(`<!-- ${sentence()} -->`);
    } else if (kind < 0.97) {
      push(`- [ ] ${sentence()}\n- [x] ${sentence()}`);
    } else {
      push(`**${capitalise(r.zipf(terms))}**: ${sentence()} See \`docs/${r.zipf(PROSE)}.md\` and <https://example.com/${r.int(99)}>.`);
    }
  }
  return out.join('\n\n') + '\n';
}

/** Prose words, for tests and benchmarks that need ordinary text. */
export const PROSE_WORDS: readonly string[] = PROSE;
