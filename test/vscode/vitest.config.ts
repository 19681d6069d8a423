import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `npm run test:vscode`: the session in a real VS Code (code-server driven in Chromium). */
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'),
  test: {
    include: ['test/vscode/**/*.test.ts'],
    // The .vsix, built once from a clean copy for both files (the package's checks, the session).
    globalSetup: ['test/vscode/globalSetup.ts'],
    // One browser and one code-server for the whole file; its steps run in order.
    fileParallelism: false,
    testTimeout: 60_000,
    // Starting the session starts code-server (the install happens before) with the .vsix.
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
