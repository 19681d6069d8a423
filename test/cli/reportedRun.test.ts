/**
 * `check` keeps of each document only what it prints (runCheck.ts `runReportedCheck`), unless the
 * run records decisions: every format prints the same bytes from such a run as from the whole
 * one, the terms named as the documents write them included.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { collectMarkdownFiles } from '../../server/src/cli/files';
import { jsonOutput } from '../../server/src/cli/output/json';
import { sarifOutput } from '../../server/src/cli/output/sarif';
import { PLAIN, textOutput } from '../../server/src/cli/output/text';
import { reported, runCheck, runReportedCheck, type CheckRun, type ReportedRun } from '../../server/src/cli/runCheck';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { cli } from './support';

const SEED = `terms:
  - surface: pci scope
    definition: The systems that store, process or transmit card data
    confidence: 0.9
    status: active
  - surface: pci scope
    definition: The audit's list of systems under review
    confidence: 0.6
    status: active
  - surface: lane
    definition: A column of the kanban board
    confidence: 0.9
    status: active
`;

describe('a check keeps what it prints of each document', () => {
  let ws: TempWorkspace;
  let whole: CheckRun;
  let kept: ReportedRun;

  beforeAll(async () => {
    ws = tempWorkspace({
      '.kittify/glossaries/team_domain.yaml': SEED,
      'kitty-specs/001-cards/spec.md': '# Cards\n\nThe PCI Scope is reviewed. The pci scope grows.\nEvery lane moves, and the "zorblax" is new.\n',
      'kitty-specs/002-quiet/spec.md': '# Quiet\n\nNothing to see in this lane.\n',
      'kitty-specs/003-critical/spec.md': '---\ncritical_step: true\nglossary_check_strictness: max\n---\n# Critical\n\nThe PCI scope, again; PCI-Scope too.\n',
    });
    const files = collectMarkdownFiles(['.'], ws.root);
    whole = await runCheck(files, {});
    kept = await runReportedCheck(files, {});
  });
  afterAll(() => ws.remove());

  test('the findings and the verdicts, and the candidates of the terms with findings only', () => {
    expect(kept.documents.map((d) => d.absolutePath)).toEqual(whole.documents.map((d) => d.absolutePath));
    expect(whole.documents.some((d) => d.report.findings.length > 0)).toBe(true);
    expect(whole.documents.some((d) => d.report.blocked)).toBe(true);
    for (const [k, doc] of kept.documents.entries()) {
      const full = whole.documents[k]!;
      expect(Object.keys(doc).sort()).toEqual(['absolutePath', 'identity', 'report']);
      expect(Object.keys(doc.report).sort()).toEqual(['blocked', 'candidates', 'findings', 'overallSeverity', 'recommendedAction', 'strictness']);
      expect(doc.report.findings).toEqual(full.report.findings);
      expect(doc.identity).toEqual(full.identity);
      const terms = new Set(full.report.findings.map((f) => f.term));
      expect(doc.report.candidates.map((c) => c.surface)).toEqual(full.report.candidates.filter((c) => terms.has(c.surface)).map((c) => c.surface));
    }
    // A document without findings keeps no candidate.
    expect(kept.documents.find((d) => d.absolutePath.includes('002-quiet'))!.report.candidates).toEqual([]);
  });

  test('every format prints the same from either run', () => {
    const print = (run: ReportedRun) => ({
      text: [...textOutput(run, ws.root, PLAIN)].join(''),
      json: [...jsonOutput(run, ws.root)].join(''),
      sarif: [...sarifOutput(run, ws.root)].join(''),
    });
    const fromKept = print(kept);
    expect(fromKept).toEqual(print(whole));
    // The term as the document writes it at each finding.
    expect(fromKept.text).toMatch(/'PCI Scope'/);
  });

  test('reported() of a document is what runReportedCheck keeps', () => {
    const again = whole.documents.map(reported);
    expect(again.map((d) => d.report.findings)).toEqual(kept.documents.map((d) => d.report.findings));
    expect(again.map((d) => d.report.candidates.map((c) => [c.surface, c.occurrences, c.texts]))).toEqual(kept.documents.map((d) => d.report.candidates.map((c) => [c.surface, c.occurrences, c.texts])));
  });

  test('the CLI prints the same whether or not it records the decisions (--emit-events keeps the documents whole)', async () => {
    const plain = await cli(['check', '.', '--format', 'json'], ws.root);
    const recording = await cli(['check', '.', '--format', 'json', '--emit-events'], ws.root);
    expect(plain.status).toBe(recording.status);
    expect(JSON.parse(plain.stdout)).toEqual(JSON.parse(recording.stdout));
  });
});
