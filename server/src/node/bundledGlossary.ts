/**
 * The bundled core glossary, read without parsing YAML when possible. Parsing its YAML in a fresh
 * process took ~60 ms (the YAML library's code is cold), most of the CLI's start-up; the build
 * writes the parsed result next to it (`dist/data/spec_kitty_core.json`, with the hash of the YAML
 * it came from), and a process whose YAML still has that hash reads the JSON instead.
 */

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSeedFile, type SeedFile } from '../core/seeds';
import type { Sense } from '../core/types';
import { packageRoot } from './packageFiles';

/** Stands for the bundled file's path in the precompiled result (the package can live anywhere). */
const PLACEHOLDER = '<bundled>';

export interface PrecompiledGlossary {
  /** sha256 of the YAML text it was parsed from. */
  sha256: string;
  seed: SeedFile;
}

export function precompiledGlossaryPath(): string {
  return join(packageRoot(), 'dist', 'data', 'spec_kitty_core.json');
}

/** What the build writes: the parsed bundled glossary, its path left as a placeholder. */
export function precompileGlossary(text: string): PrecompiledGlossary {
  return { sha256: sha256(text), seed: parseSeedFile(text, PLACEHOLDER, 'spec_kitty_core', 'bundled') };
}

/** `parseSeedFile(text, file, 'spec_kitty_core', 'bundled')` of the bundled glossary's YAML. */
export function bundledSeed(text: string, file: string): SeedFile {
  return fromPrecompiled(text, file) ?? parseSeedFile(text, file, 'spec_kitty_core', 'bundled');
}

function fromPrecompiled(text: string, file: string): SeedFile | undefined {
  try {
    const path = precompiledGlossaryPath();
    if (!existsSync(path)) return undefined;
    const stored = JSON.parse(readFileSync(path, 'utf8')) as PrecompiledGlossary;
    // Only a clean result of exactly this text is used (a problem message could name the path).
    if (stored.sha256 !== sha256(text) || !stored.seed.parsed || stored.seed.problems.length > 0) return undefined;
    const senses: Sense[] = stored.seed.senses.map((sense) => (sense.origin.kind === 'event' ? sense : { ...sense, origin: { ...sense.origin, file } }));
    return { ...stored.seed, file, senses };
  } catch {
    return undefined; // unreadable or not ours: parse the YAML
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
