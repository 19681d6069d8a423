import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config';
import { SCALE_ENV } from '../helpers/scale';

/**
 * `npm run test:scale`: the tests whose inputs the reliability promises size (docs/reliability.md),
 * at those sizes (test/helpers/scale.ts): a glossary of 100,000 senses, a report longer than V8's
 * longest string, a 50 MB document, 80 MB of documents through a server under a 64 MB heap cap.
 * `npm test` runs the same files on smaller inputs. CI runs both (.ci/run).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The test files that size their inputs with helpers/scale.ts (so none is left out of this run). */
function scaledTestFiles(): string[] {
  const names = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.test.ts'));
  return names
    .filter((name) => /from '(\.\.\/)+helpers\/scale'/.test(readFileSync(path.join(root, 'test', name), 'utf8')))
    .map((name) => path.join('test', name))
    .sort();
}

export default defineConfig({
  ...base,
  root,
  test: {
    ...base.test,
    include: scaledTestFiles(),
    env: { [SCALE_ENV]: 'promised' },
  },
});
