/**
 * A vitest reporter that ranks the test files by the time they took, to find what makes the suite
 * slow: `npx vitest run --reporter=default --reporter=./test/helpers/timingReporter.ts`.
 * Per file: CPU time (the worker's and the processes it started, recorded by cpuSetup.ts: it
 * barely depends on the machine's load), wall time of the tests and their hooks, and of importing
 * the file; then the same summed per folder, and the slowest single tests.
 */

import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type {} from './cpuSetup'; // its TaskMeta.cpuMs

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);

interface Row {
  name: string;
  cpu: number;
  run: number;
  collect: number;
}

const row = (r: Row) => `${seconds(r.cpu)}  ${seconds(r.run)}  ${seconds(r.collect)}  ${r.name}`;
const HEADER = '   cpu s  wall s  import s';

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = process.cwd();
    const files: Row[] = modules.map((m) => {
      const d = m.diagnostic();
      return { name: path.relative(root, m.moduleId), cpu: m.meta().cpuMs ?? 0, run: d.duration, collect: d.collectDuration + d.prepareDuration + d.setupDuration };
    });
    const byCost = (a: Row, b: Row) => b.cpu - a.cpu || b.run + b.collect - (a.run + a.collect);
    files.sort(byCost);
    const lines = ['', 'Test files by CPU time:', HEADER, ...files.map(row)];

    const folders = new Map<string, Row>();
    for (const f of files) {
      const name = path.dirname(f.name);
      const sum = folders.get(name) ?? { name, cpu: 0, run: 0, collect: 0 };
      sum.cpu += f.cpu;
      sum.run += f.run;
      sum.collect += f.collect;
      folders.set(name, sum);
    }
    const total = files.reduce((s, f) => ({ ...s, cpu: s.cpu + f.cpu, run: s.run + f.run, collect: s.collect + f.collect }), { name: 'in all (summed over the workers)', cpu: 0, run: 0, collect: 0 });
    lines.push('', 'Per folder:', HEADER, ...[...folders.values()].sort(byCost).map(row), row(total));

    const tests = modules.flatMap((m) => [...m.children.allTests()].map((t) => ({ name: `${path.relative(root, m.moduleId)} > ${t.fullName}`, ms: t.diagnostic()?.duration ?? 0 })));
    tests.sort((a, b) => b.ms - a.ms);
    lines.push('', 'Slowest tests (wall s):', ...tests.slice(0, 15).map((t) => `${seconds(t.ms)}  ${t.name.slice(0, 150)}`));
    process.stdout.write(lines.join('\n') + '\n');
  }
}
