/**
 * SPEC §10: "cost grows linearly with document size and stays flat as the glossary grows". The
 * one section that calls the engine directly (no process, no protocol): a whole check of real
 * specs joined to 1, 2 and 4 MB against the real core glossary, and of the 1 MB text against
 * generated glossaries of 1,000, 10,000 and 100,000 senses.
 */

import { createEngine } from '../../server/src/core/check/engine';
import { GlossaryIndex } from '../../server/src/core/glossary';
import { parseSeedFile } from '../../server/src/core/seeds';
import { loadCommonWords } from '../../server/src/node/packageFiles';
import { MB, specsJoined, type Corpus } from '../corpus';
import { generateGlossary } from '../generate';
import type { Report } from '../report';
import { mb, measure, ms } from '../stats';

export function scalingSection(corpus: Corpus, report: Report, options: { quick: boolean }): void {
  report.section('Scaling: a whole check by document size (real specs, real core glossary) and by glossary size (1 MB)');
  const engine = createEngine({ commonWords: loadCommonWords() });
  const core = new GlossaryIndex(parseSeedFile(corpus.coreGlossary, 'spec_kitty_core.yaml', 'spec_kitty_core').senses);
  const iterations = options.quick ? 2 : 15;
  const warmup = options.quick ? 1 : 3;
  const rows: { what: string; bytes: number; senses: number; median: number }[] = [];
  const run = (what: string, text: string, glossary: GlossaryIndex) => {
    const samples = measure(() => engine.checkDocument(text, { glossary }), { warmup, iterations });
    rows.push({ what, bytes: text.length, senses: glossary.senses.length, median: samples.median });
    const perMb = samples.median / (text.length / MB);
    report.line(`  ${what.padEnd(24)} ${mb(text.length).padStart(8)}  ${glossary.senses.length.toLocaleString('en').padStart(7)} senses  ${ms(samples.median).padStart(9)} median  ${ms(perMb).padStart(9)} per MB`);
  };
  const size = options.quick ? MB / 16 : MB;
  for (const factor of options.quick ? [1, 2] : [1, 2, 4]) run(`document ${factor}×`, specsJoined(corpus, factor * size), core);
  const largest = generateGlossary(options.quick ? 10_000 : 100_000);
  const text = specsJoined(corpus, size);
  for (const senses of options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]) run(`glossary ${senses.toLocaleString('en')}`, text, new GlossaryIndex(largest.senses.slice(0, senses)));
  report.record('scaling', rows);
}
