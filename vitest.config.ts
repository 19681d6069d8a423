import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // What scripts/build.mjs defines in the bundles: the CLI run in process prints the same version.
  define: { SPEC_GLOSSARY_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // The real VS Code session runs on its own: npm run test:vscode (test/vscode/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/vscode/**'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
