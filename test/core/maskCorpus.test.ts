/**
 * Masking on the calibration corpora (real Spec Kitty specs and documentation, read in place):
 * it agrees with markdown-it's reading of every file (see test/helpers/maskOracle.ts), and the
 * SPEC §5 exclusions of prose (paths, URLs, ids) only add to CommonMark's masking.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { MASK, maskMarkdown } from '../../server/src/core/markdown/mask';
import { disagreements } from '../helpers/maskOracle';

const CORPUS = '/work/shared/corpus';
const SPECS = path.join(CORPUS, 'spec-kitty', 'kitty-specs');
const DOCS = path.join(CORPUS, 'spec-kitty-docs');

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...markdownFiles(full));
    else if (entry.endsWith('.md')) out.push(full);
  }
  return out;
}

const files = [
  ...(existsSync(SPECS) ? readdirSync(SPECS).map((mission) => path.join(SPECS, mission, 'spec.md')).filter((file) => existsSync(file)) : []),
  ...(existsSync(DOCS) ? markdownFiles(DOCS) : []),
];

const ABSENT = `the calibration corpora are not at ${CORPUS}`;

describe('masking on the calibration corpora', () => {
  test('agrees with markdown-it on every file', (context) => {
    context.skip(files.length === 0, ABSENT);
    const disagreeing: string[] = [];
    for (const file of files) {
      const found = disagreements(readFileSync(file, 'utf8'), 3);
      if (found.length > 0) disagreeing.push(`${path.relative(CORPUS, file)}: ${found.map((d) => `${d.reading} ${d.masked ? 'masked' : 'not masked'} at ${JSON.stringify(d.context)}`).join('; ')}`);
    }
    expect(disagreeing).toEqual([]);
    expect(files.length).toBeGreaterThan(300);
  });

  test('the exclusions of SPEC §5 only add to what CommonMark masks', (context) => {
    context.skip(files.length === 0, ABSENT);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const commonMark = maskMarkdown(text, { proseExclusions: false }).masked;
      const full = maskMarkdown(text).masked;
      for (let i = 0; i < text.length; i++) if (commonMark[i] === MASK && full[i] !== MASK) expect.fail(`${file}: offset ${i} masked by CommonMark alone`);
    }
  });
});
