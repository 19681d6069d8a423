/**
 * One keystroke in a 1 MB spec → diagnostics ready, measured on the server's side of the LSP
 * path without the debounce: the per-document incremental checker (core/check/incremental.ts)
 * re-checks the edited text, and the service turns the report into LSP diagnostics.
 */

import { maskMarkdown } from '../../server/src/core/markdown/mask';
import { serializeMessage } from '../../server/src/node/messageEncoder';
import { documentDiagnostics } from '../../server/src/service/diagnostics';
import type { CheckedDocument } from '../../server/src/service/types';
import { DEFAULT_SETTINGS } from '../../server/src/shared/protocol';
import { Random } from '../generate';
import { MB, type Inputs } from '../inputs';
import type { Report } from '../report';
import { mb, ms, summarize } from '../stats';

type Kind = 'insert' | 'backspace' | 'enter';

/** Keystrokes as a writer makes them: words typed into prose lines, a backspace, a new line. */
function keystrokes(text: string, places: number, seed: number): { at: number; kind: Kind; char: string }[][] {
  const masked = maskMarkdown(text).masked;
  const r = new Random(seed);
  const bursts: { at: number; kind: Kind; char: string }[][] = [];
  while (bursts.length < places) {
    // A space in prose (not masked) on a line that starts with a letter.
    const at = text.indexOf(' ', r.int(text.length));
    if (at < 0 || masked[at] !== ' ') continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    if (!/[A-Za-z]/.test(text[lineStart] ?? '')) continue;
    const burst: { at: number; kind: Kind; char: string }[] = [];
    let p = at + 1;
    for (const char of 'lane ') burst.push({ at: p++, kind: 'insert', char });
    burst.push({ at: p--, kind: 'backspace', char: '' });
    if (bursts.length % 4 === 3) burst.push({ at: p, kind: 'enter', char: '\n' });
    bursts.push(burst);
  }
  // Last place first, so a burst's edits never move the places still to come.
  return bursts.sort((a, b) => b[0]!.at - a[0]!.at);
}

export function keystrokeSection(inputs: Inputs, report: Report, options: { quick: boolean }): void {
  const senses = 10_000;
  const glossary = inputs.glossary(senses);
  let text = inputs.spec(options.quick ? MB / 16 : MB);
  report.section('One keystroke in the 1 MB spec → diagnostics ready (SPEC §10: ≤ 5 ms median; server work, debounce excluded)');
  const checker = inputs.engine.createIncrementalChecker();
  const analyze = (current: string) => {
    const header = checker.readHeader(current);
    const result = checker.check(current, { glossary, common: inputs.common, header });
    const checked: CheckedDocument = { uri: 'file:///bench/spec.md', root: '/bench', missionId: 'bench', stepId: 'spec', report: result, glossary, pins: new Map(), openClarifications: [] };
    return documentDiagnostics(checked, DEFAULT_SETTINGS);
  };
  const opened = performance.now();
  const first = analyze(text);
  const openMs = performance.now() - opened;

  const bursts = keystrokes(text, options.quick ? 2 : 24, 3);
  const total: number[] = [];
  const checkOnly: number[] = [];
  // Not part of the target: encoding the publishDiagnostics message the server then writes.
  const encoding: number[] = [];
  let bytes = 0;
  const byKind: Record<Kind, number[]> = { insert: [], backspace: [], enter: [] };
  let diagnostics = first.length;
  for (const [index, burst] of bursts.entries()) {
    for (const key of burst) {
      const at = key.at;
      text = key.kind === 'backspace' ? text.slice(0, at - 1) + text.slice(at) : text.slice(0, at) + key.char + text.slice(at);
      const start = performance.now();
      const header = checker.readHeader(text);
      const result = checker.check(text, { glossary, common: inputs.common, header });
      const checked = performance.now();
      const published = documentDiagnostics({ uri: 'file:///bench/spec.md', root: '/bench', missionId: 'bench', stepId: 'spec', report: result, glossary, pins: new Map(), openClarifications: [] }, DEFAULT_SETTINGS);
      const end = performance.now();
      diagnostics = published.length;
      const json = serializeMessage({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///bench/spec.md', version: index, diagnostics: published } } as Parameters<typeof serializeMessage>[0]);
      encoding.push(performance.now() - end);
      bytes = Buffer.byteLength(json);
      if (index > 0 || options.quick) {
        // (The first burst warms the code up.)
        total.push(end - start);
        checkOnly.push(checked - start);
        byKind[key.kind].push(end - start);
      }
    }
  }
  // The incremental result must be the full check's.
  const same = JSON.stringify(checker.check(text, { glossary, common: inputs.common }).findings) === JSON.stringify(inputs.engine.checkDocument(text, { glossary, common: inputs.common }).findings);
  const all = summarize(total);
  const core = summarize(checkOnly);
  report.line(`  open (full check + ${first.length} diagnostics): ${ms(openMs)}`);
  report.line(`  keystroke → diagnostics: ${ms(all.median)} median (min ${ms(all.min)}, p90 ${ms(all.p90)}, ${all.times.length} keystrokes, ${diagnostics} diagnostics each)`);
  report.line(`    of which the incremental check: ${ms(core.median)} median; turning findings into LSP diagnostics: ${ms(all.median - core.median)}`);
  report.line(`    then (not in the target) encoding the publishDiagnostics message, ${mb(bytes)} of JSON: ${ms(summarize(encoding).median)} median (each unchanged diagnostic's JSON is reused)`);
  for (const kind of ['insert', 'backspace', 'enter'] as const) {
    if (byKind[kind].length > 0) report.line(`    ${kind.padEnd(9)} ${ms(summarize(byKind[kind]).median)} median (${byKind[kind].length})`);
  }
  report.line(`  incremental result equals a fresh full check: ${same ? 'yes' : 'NO'}`);
  report.record('keystroke', { total: all, check: core, diagnostics, publishBytes: bytes, encoding: summarize(encoding), sameAsFullCheck: same, byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, v.length ? summarize(v).median : null])) });
  if (!options.quick) report.target('keystroke → diagnostics, 1 MB spec (median)', all.median, 5, 'ms');
}
