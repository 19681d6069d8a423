/**
 * How many cases a property test tries. Each property names its default, sized so that its file
 * takes a second or two in `npm test`; `SPEC_GLOSSARY_PROPERTY_RUNS=N` makes every property try
 * N cases instead, for a deep run:
 *
 *   SPEC_GLOSSARY_PROPERTY_RUNS=20000 npx vitest run test/property
 *
 * Properties with a fixed `seed` try the same cases on every default run (a failure there is
 * reproducible as is); the others draw new cases on each run, and fast-check prints the seed and
 * path of a failure to replay it.
 */

export const PROPERTY_RUNS_ENV = 'SPEC_GLOSSARY_PROPERTY_RUNS';

export function propertyRuns(defaultRuns: number): number {
  const raw = process.env[PROPERTY_RUNS_ENV];
  if (raw === undefined || raw.trim() === '') return defaultRuns;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`${PROPERTY_RUNS_ENV} must be a whole number of runs, 1 or more (got '${raw}')`);
  return runs;
}
