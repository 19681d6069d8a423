/**
 * Build step: writes the parsed bundled core glossary to dist/data/spec_kitty_core.json, so a
 * process can read it without parsing YAML (see node/bundledGlossary.ts).
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { precompileGlossary, precompiledGlossaryPath } from '../node/bundledGlossary';
import { bundledCoreGlossaryPath } from '../node/packageFiles';

const result = precompileGlossary(readFileSync(bundledCoreGlossaryPath(), 'utf8'));
if (!result.seed.parsed || result.seed.problems.length > 0) {
  // Still written: the server then parses the YAML itself and reports the problems.
  process.stderr.write(`precompileGlossary: the bundled glossary has ${result.seed.problems.length} problem(s); it will be parsed at run time\n`);
}
writeFileSync(precompiledGlossaryPath(), JSON.stringify(result));
