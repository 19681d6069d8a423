/**
 * What the editor should show, taken from the CLI (`spec-glossary check --format json`) run on
 * the same copy of examples/ at test time: the server's rules change, the test follows them, but
 * the editor and the CLI must agree.
 */

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/workspace';

interface Position {
  line: number;
  character: number;
}

export interface CliFinding {
  term: string;
  conflict_type: string;
  severity: 'high' | 'medium' | 'low';
  range: { start: Position; end: Position };
  candidate_senses: Array<{ surface: string; scope: string; definition: string; confidence: number }>;
  message: string;
}

export interface CliDocument {
  path: string;
  mission_id: string;
  blocked: boolean;
  findings: CliFinding[];
}

/** A finding as the editor shows it: 1-based line and column, and the text it covers. */
export interface Flag {
  finding: CliFinding;
  line: number;
  column: number;
  text: string;
  squiggle: 'error' | 'warning' | 'info';
}

/** Default severity → squiggle (SPEC: high errors, medium warnings, low information). */
const SQUIGGLE = { high: 'error', medium: 'warning', low: 'info' } as const;

export function checkWorkspace(root: string): CliDocument[] {
  const run = spawnSync(process.execPath, [CLI, 'check', '.', '--format', 'json'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`spec-glossary check failed (${run.status}):\n${run.stderr}`);
  return (JSON.parse(run.stdout) as { documents: CliDocument[] }).documents;
}

export function flagsOf(root: string, document: CliDocument): Flag[] {
  const lines = readFileSync(path.join(root, document.path), 'utf8').split('\n');
  return document.findings.map((finding) => {
    const { start, end } = finding.range;
    if (start.line !== end.line) throw new Error(`a finding over several lines: ${JSON.stringify(finding)}`);
    return {
      finding,
      line: start.line + 1,
      column: start.character + 1,
      text: lines[start.line]!.slice(start.character, end.character),
      squiggle: SQUIGGLE[finding.severity],
    };
  });
}

export function severityCounts(document: CliDocument): Record<'high' | 'medium' | 'low', number> {
  const counts = { high: 0, medium: 0, low: 0 };
  for (const finding of document.findings) counts[finding.severity]++;
  return counts;
}

export type GlossaryEvent = Record<string, any> & { event_type: string; mission_id: string; term_surface?: string };

/** Every event of the workspace's glossary event logs, with the file each came from. */
export function readEvents(root: string): Array<{ file: string; event: GlossaryEvent }> {
  const dir = path.join(root, '.kittify', 'events', 'glossary');
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.events.jsonl'));
  } catch {
    return [];
  }
  const out: Array<{ file: string; event: GlossaryEvent }> = [];
  for (const file of files) {
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.pop(); // after the last newline: empty, or a line still being written
    for (const line of lines) out.push({ file, event: JSON.parse(line) as GlossaryEvent });
  }
  return out;
}
