/**
 * Full check of a 1 MB spec against a 10,000-sense glossary, against cspell-lib on the same text
 * in the same run (interleaved, so both see the same machine load), and the scaling table.
 */

import type { CSpellProcess } from '../cspell';
import { MB, type Inputs } from '../inputs';
import type { Report } from '../report';
import { mb, measure, ms, summarize, type Samples } from '../stats';

export interface CheckSectionOptions {
  quick: boolean;
  cspell: CSpellProcess | undefined;
}

interface Comparison {
  label: string;
  bytes: number;
  ours: Samples;
  /** With a fresh lexicon each time. */
  cold: Samples;
  findings: number;
  cspell?: Samples;
  cspellValidator?: Samples;
}

export async function fullCheckSection(inputs: Inputs, report: Report, options: CheckSectionOptions): Promise<void> {
  const senses = 10_000;
  const glossary = inputs.glossary(senses);
  report.section(`Full check of a 1 MB spec, ${senses.toLocaleString('en')}-sense glossary (SPEC §10: ≤ 25 ms median; issue 7: ≥ 10× faster than cspell-lib)`);
  const size = options.quick ? MB / 16 : MB;
  const texts: { label: string; key: string; text: string }[] = [{ label: 'generated spec', key: 'generated', text: inputs.spec(size) }];
  const corpus = inputs.corpus(size);
  if (corpus) texts.push({ label: `real specs (${corpus.files} corpus specs repeated)`, key: 'corpus', text: corpus.text });
  else report.note('no corpus of real specs found (set SPEC_GLOSSARY_CORPUS); only the generated spec is measured');

  const rounds = options.quick ? 1 : 8;
  const perRound = options.quick ? 2 : 5;
  for (const { label, key, text } of texts) {
    const check = () => inputs.engine.checkDocument(text, { glossary, common: inputs.common });
    const findings = check().findings.length;
    measure(check, { warmup: options.quick ? 1 : 5, iterations: 0 });
    const ours: number[] = [];
    const theirs: number[] = [];
    const validator: number[] = [];
    if (options.cspell) {
      await options.cspell.load(key, text);
      await options.cspell.check(key);
      await options.cspell.recheck(key);
    }
    // Interleaved rounds, so both see the same machine load: a few of ours, then one of each
    // cspell variant (in its own process, so neither heap slows the other down).
    for (let round = 0; round < rounds; round++) {
      ours.push(...measure(check, { warmup: 0, iterations: perRound }).times);
      if (options.cspell) {
        theirs.push(await options.cspell.check(key));
        validator.push(await options.cspell.recheck(key));
      }
    }
    // The same check with the shared lexicon emptied first: a document none of whose words the
    // process has seen (the per-word facts are worked out again).
    const cold = measure(
      () => {
        inputs.engine.resetLexicon();
        check();
      },
      { warmup: 1, iterations: options.quick ? 2 : 10 },
    );
    const result: Comparison = { label, bytes: text.length, ours: summarize(ours), cold, findings };
    if (theirs.length > 0) {
      result.cspell = summarize(theirs);
      result.cspellValidator = summarize(validator);
    }
    printComparison(report, result);
    report.record(`fullCheck.${key}`, result);
    if (options.quick) continue;
    if (key === 'generated') report.target('full check, 1 MB generated spec + 10,000 senses (median)', result.ours.median, 25, 'ms');
    if (result.cspell) report.target(`full check ${key === 'generated' ? 'generated spec' : 'real specs'}: speed-up over cspell-lib spellCheckDocument`, result.cspell.median / result.ours.median, 10, '×');
  }
}

/** Each real spec on its own (a few to 35 KB each): what a check of one document costs. */
export async function realSpecsSection(inputs: Inputs, report: Report, options: CheckSectionOptions): Promise<void> {
  const specs = inputs.specs();
  if (specs.length === 0) return;
  const glossary = inputs.glossary(10_000);
  report.section(`Real specs one at a time (${specs.length} specs of the corpus, ${mb(specs.reduce((n, s) => n + s.text.length, 0))}), 10,000-sense glossary`);
  let ours = 0;
  let theirs = 0;
  for (const [index, { text }] of specs.entries()) {
    const check = () => inputs.engine.checkDocument(text, { glossary, common: inputs.common });
    const mine = measure(check, { warmup: options.quick ? 1 : 5, iterations: options.quick ? 2 : 25 }).median;
    ours += mine;
    if (options.cspell) {
      const key = `spec-${index}`;
      await options.cspell.load(key, text);
      const times: number[] = [];
      for (let i = 0; i < (options.quick ? 1 : 3); i++) times.push(await options.cspell.check(key));
      theirs += summarize(times).median;
    }
  }
  report.line(`  spec-glossary: ${ms(ours)} for all ${specs.length} (sum of each spec's median), ${ms(ours / specs.length)} per spec`);
  if (options.cspell) report.line(`  cspell-lib spellCheckDocument: ${ms(theirs)} (sum of medians) → ${(theirs / ours).toFixed(1)}× faster`);
  report.record('realSpecs', { specs: specs.length, ours, cspell: options.cspell ? theirs : null });
  if (options.cspell && !options.quick) report.target('real specs one at a time: speed-up over cspell-lib spellCheckDocument', theirs / ours, 10, '×');
}

function printComparison(report: Report, c: Comparison): void {
  report.line(`  ${c.label}, ${mb(c.bytes)}: spec-glossary ${ms(c.ours.median)} median (min ${ms(c.ours.min)}, p90 ${ms(c.ours.p90)}, ${c.ours.times.length} runs, ${c.findings} findings)`);
  report.line(`    the same with an empty lexicon each time (no word seen before): ${ms(c.cold.median)} median`);
  if (c.cspell && c.cspellValidator) {
    report.line(`    cspell-lib spellCheckDocument ${ms(c.cspell.median)} median (${c.cspell.times.length} runs) → ${(c.cspell.median / c.ours.median).toFixed(1)}× faster`);
    report.line(`    cspell-lib DocumentValidator, prepared once, re-checked ${ms(c.cspellValidator.median)} median → ${(c.cspellValidator.median / c.ours.median).toFixed(1)}× faster`);
  }
}

export function scalingSection(inputs: Inputs, report: Report, options: { quick: boolean }): void {
  report.section('Scaling: document size (10,000-sense glossary) and glossary size (1 MB spec)');
  const iterations = options.quick ? 2 : 15;
  const warmup = options.quick ? 1 : 3;
  const rows: { what: string; bytes: number; senses: number; median: number }[] = [];
  const run = (what: string, text: string, senses: number) => {
    const glossary = inputs.glossary(senses);
    const samples = measure(() => inputs.engine.checkDocument(text, { glossary, common: inputs.common }), { warmup, iterations });
    rows.push({ what, bytes: text.length, senses, median: samples.median });
    const perMb = samples.median / (text.length / MB);
    report.line(`  ${what.padEnd(28)} ${mb(text.length).padStart(8)}  ${senses.toLocaleString('en').padStart(7)} senses  ${ms(samples.median).padStart(9)} median  ${ms(perMb).padStart(9)} per MB`);
  };
  const size = options.quick ? MB / 16 : MB;
  for (const factor of options.quick ? [1, 2] : [1, 2, 4]) run(`document ${factor}×`, inputs.spec(factor * size), 10_000);
  for (const senses of options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]) run(`glossary ${senses.toLocaleString('en')}`, inputs.spec(size), senses);
  report.record('scaling', rows);
}
