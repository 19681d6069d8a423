/**
 * A vitest reporter that ranks the test files by the time they took, to find what makes the suite
 * slow: `npx vitest run --reporter=default --reporter=./test/helpers/timingReporter.ts`.
 * Per file: the tests and their hooks (`beforeAll` included), and importing the file (`collect`);
 * then the same summed per folder, and the slowest single tests.
 */

import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = process.cwd();
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return { file: path.relative(root, m.moduleId), run: d.duration, collect: d.collectDuration + d.prepareDuration + d.setupDuration };
    });
    files.sort((a, b) => b.run + b.collect - (a.run + a.collect));
    const lines = ['', 'Time per test file (tests and hooks, import):'];
    for (const f of files) lines.push(`${seconds(f.run + f.collect)} s  (${seconds(f.run)} + ${seconds(f.collect)})  ${f.file}`);

    const folders = new Map<string, { run: number; collect: number }>();
    for (const f of files) {
      const folder = path.dirname(f.file);
      const sum = folders.get(folder) ?? { run: 0, collect: 0 };
      sum.run += f.run;
      sum.collect += f.collect;
      folders.set(folder, sum);
    }
    lines.push('', 'Per folder:');
    for (const [folder, sum] of [...folders].sort((a, b) => b[1].run + b[1].collect - (a[1].run + a[1].collect))) {
      lines.push(`${seconds(sum.run + sum.collect)} s  (${seconds(sum.run)} + ${seconds(sum.collect)})  ${folder}`);
    }
    const total = files.reduce((s, f) => s + f.run + f.collect, 0);
    lines.push(`${seconds(total)} s  in all (summed over the workers)`);

    const tests = modules.flatMap((m) => [...m.children.allTests()].map((t) => ({ name: `${path.relative(root, m.moduleId)} > ${t.fullName}`, ms: t.diagnostic()?.duration ?? 0 })));
    tests.sort((a, b) => b.ms - a.ms);
    lines.push('', 'Slowest tests:');
    for (const t of tests.slice(0, 15)) lines.push(`${seconds(t.ms)} s  ${t.name.slice(0, 150)}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
}
