import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseSeedFile } from '../../server/src/core/seeds';
import { bundledSeed, precompileGlossary, precompiledGlossaryPath } from '../../server/src/node/bundledGlossary';
import { bundledCoreGlossaryPath } from '../../server/src/node/packageFiles';

describe('the bundled core glossary, precompiled by the build', () => {
  const text = readFileSync(bundledCoreGlossaryPath(), 'utf8');

  test('the build wrote the parse of the shipped YAML', () => {
    // What the build wrote (the one test of this file that needs it).
    if (!existsSync(precompiledGlossaryPath())) throw new Error(`${precompiledGlossaryPath()} is missing: run \`npm run build\` first`);
    const stored = JSON.parse(readFileSync(precompiledGlossaryPath(), 'utf8'));
    expect(stored).toEqual(JSON.parse(JSON.stringify(precompileGlossary(text))));
  });

  test('reading it gives exactly what parsing the YAML gives, at any path', () => {
    for (const file of [bundledCoreGlossaryPath(), '/elsewhere/glossaries/spec_kitty_core.yaml']) {
      expect(bundledSeed(text, file)).toEqual(parseSeedFile(text, file, 'spec_kitty_core', 'bundled'));
    }
  });

  test('YAML other than what was precompiled is parsed', () => {
    const edited = text.replace(/definition: /, 'definition: Edited. ');
    const seed = bundledSeed(edited, '/x/spec_kitty_core.yaml');
    expect(seed).toEqual(parseSeedFile(edited, '/x/spec_kitty_core.yaml', 'spec_kitty_core', 'bundled'));
    expect(seed.senses.some((s) => s.definition.startsWith('Edited. '))).toBe(true);
    const broken = bundledSeed('terms: [', '/x/spec_kitty_core.yaml');
    expect(broken.parsed).toBe(false);
  });
});
