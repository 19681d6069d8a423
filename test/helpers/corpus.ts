/**
 * Where the calibration corpora are (the folder holding `spec-kitty/` and `spec-kitty-docs/`):
 * `SPEC_GLOSSARY_CORPUS` when set, else the shared folder of this workplace. Tests that need real
 * text skip with this reason when it is absent, and hand the folder on to the benchmark, whose own
 * search (beside the package) misses it when the clone lives elsewhere (a CI's temporary folder).
 */

import { existsSync } from 'node:fs';
import path from 'node:path';

export const CORPUS = process.env['SPEC_GLOSSARY_CORPUS'] ?? '/work/shared/corpus';
export const CORPUS_PRESENT = existsSync(path.join(CORPUS, 'spec-kitty')) && existsSync(path.join(CORPUS, 'spec-kitty-docs'));
export const CORPUS_ABSENT = `the calibration corpora are not at ${CORPUS} (set SPEC_GLOSSARY_CORPUS)`;
