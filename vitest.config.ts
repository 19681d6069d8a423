import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // What scripts/build.mjs defines in the bundles: the CLI run in process prints the same version.
  define: { SPEC_GLOSSARY_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Run on their own (and by CI): the real VS Code session, npm run test:vscode
    // (test/vscode/vitest.config.ts); the benchmark's smoke run, npm run test:bench (test/bench/).
    exclude: [...configDefaults.exclude, 'test/vscode/**', 'test/bench/**'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    // Each file's CPU time, for the timing reporter (test/helpers/timingReporter.ts).
    setupFiles: ['test/helpers/cpuSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Almost every test runs in this process (the CLI, the language server, the core), so the
    // run is bound by CPU: one worker per core (vitest leaves one core idle by default, half the
    // machine on two cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The test files of a worker share its modules instead of importing them again per file
    // (about a quarter of the suite's CPU time). The code under test keeps no module-level state (STYLE.md,
    // issue 17); a test that changes something process-wide (an environment variable, a global)
    // puts it back when it ends.
    isolate: false,
  },
});
