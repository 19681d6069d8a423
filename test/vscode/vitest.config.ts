import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `npm run test:vscode`: the session in a real VS Code (code-server driven in Chromium). */
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'),
  test: {
    include: ['test/vscode/**/*.test.ts'],
    // One browser and one code-server for the whole file; its steps run in order.
    fileParallelism: false,
    testTimeout: 60_000,
    // Starting the session builds the .vsix and starts code-server (the install happens before).
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
