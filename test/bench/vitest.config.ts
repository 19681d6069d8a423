import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:bench`: the benchmark's smoke run (`npm run bench -- --quick`), on its own like the
 * VS Code session: it tests the benchmark tool, not the product, and its whole processes (servers,
 * CLIs, cspell) cost about as much CPU as an eighth of `npm test`. CI runs it (.ci/run).
 */
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'),
  test: {
    include: ['test/bench/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
