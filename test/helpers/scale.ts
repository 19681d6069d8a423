/**
 * The size of the robustness tests' inputs. The reliability promises (docs/reliability.md) name
 * sizes — a glossary of 100,000 senses, a report longer than V8's longest string, a 50 MB
 * document, 80 MB of documents through a server under a 64 MB heap cap — and each of those tests
 * runs at the promised size in `npm run test:scale` (CI runs it, .ci/run). `npm test` runs the
 * same tests, the same steps and checks, on inputs about a tenth as large: the same code paths, at
 * about a third of their CPU time (docs/testing.md). A check that only the promised size can make (a
 * report above the string limit, more text than the heap cap) is made in the scale run only.
 *
 *   SPEC_GLOSSARY_TEST_SCALE=promised npx vitest run test/robustness   # what npm run test:scale sets
 */

export const SCALE_ENV = 'SPEC_GLOSSARY_TEST_SCALE';

function promisedScale(): boolean {
  const raw = process.env[SCALE_ENV];
  if (raw === undefined || raw.trim() === '' || raw === 'everyday') return false;
  if (raw === 'promised') return true;
  throw new Error(`${SCALE_ENV} must be 'promised' or 'everyday' (got '${raw}')`);
}

/** Whether this run is at the sizes the reliability promises name (`npm run test:scale`). */
export const PROMISED_SCALE = promisedScale();

/** `promised` in the scale run, `everyday` in `npm test`. */
export function atScale<T>(promised: T, everyday: T): T {
  return PROMISED_SCALE ? promised : everyday;
}
