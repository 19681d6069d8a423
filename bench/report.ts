/** What a benchmark run found: printed as it goes, and collected for `--json`. */

import { ms } from './stats';

export interface Target {
  name: string;
  /** Measured value and the limit, in the unit of `unit`. */
  value: number;
  limit: number;
  unit: 'ms' | 'MB' | '×';
  /** For '×' the value must be at least the limit; otherwise at most. */
  pass: boolean;
}

export class Report {
  readonly results: Record<string, unknown> = {};
  readonly targets: Target[] = [];
  readonly notes: string[] = [];

  constructor(private readonly write: (line: string) => void = (line) => process.stdout.write(line + '\n')) {}

  section(title: string): void {
    this.write('');
    this.write(title);
    this.write('-'.repeat(Math.min(100, title.length)));
  }

  line(text: string): void {
    this.write(text);
  }

  record(key: string, value: unknown): void {
    this.results[key] = value;
  }

  note(text: string): void {
    this.notes.push(text);
    this.write(`  note: ${text}`);
  }

  /** A SPEC §10 target: at most `limit`, or at least for '×'. */
  target(name: string, value: number, limit: number, unit: Target['unit']): void {
    const pass = unit === '×' ? value >= limit : value <= limit;
    this.targets.push({ name, value, limit, unit, pass });
  }

  printTargets(): void {
    this.section('Targets (SPEC §10)');
    const show = (t: Target) => (t.unit === 'ms' ? ms(t.value) : t.unit === 'MB' ? `${t.value.toFixed(0)} MB` : `${t.value.toFixed(1)}×`);
    const limit = (t: Target) => (t.unit === 'ms' ? `≤ ${ms(t.limit)}` : t.unit === 'MB' ? `≤ ${t.limit} MB` : `≥ ${t.limit}×`);
    for (const t of this.targets) this.write(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${show(t)} (target ${limit(t)})`);
  }

  json(): string {
    return JSON.stringify({ results: this.results, targets: this.targets, notes: this.notes }, null, 2);
  }
}
