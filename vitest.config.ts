import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real VS Code session runs on its own: npm run test:vscode (test/vscode/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/vscode/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
