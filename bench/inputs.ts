/** Inputs shared by the benchmark sections, built once per run. */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, type Engine } from '../server/src/core/check/engine';
import { GlossaryIndex } from '../server/src/core/glossary';
import type { CommonWords } from '../server/src/core/words';
import { loadCommonWords, packageRoot } from '../server/src/node/packageFiles';
import { generateGlossary, generateSpec } from './generate';

export const MB = 1024 * 1024;

export interface Inputs {
  common: CommonWords;
  engine: Engine;
  /** Glossary index by number of senses. */
  glossary(senses: number): GlossaryIndex;
  /** A generated spec of about `size` characters (cached per size and seed). */
  spec(size: number, seed?: number): string;
  /** Real specs (the calibration corpus) concatenated to about `size` characters, if present. */
  corpus(size: number): { text: string; files: number } | undefined;
  /** The real specs one by one (none when there is no corpus). */
  specs(): { file: string; text: string }[];
}

/** Where the real specs are: SPEC_GLOSSARY_CORPUS, else ../shared/corpus/spec-kitty beside the package. */
export function corpusDir(): string | undefined {
  const candidates = [process.env['SPEC_GLOSSARY_CORPUS'], path.join(packageRoot(), '..', 'shared', 'corpus', 'spec-kitty')];
  for (const dir of candidates) {
    if (dir && existsSync(path.join(dir, 'kitty-specs'))) return path.join(dir, 'kitty-specs');
    if (dir && existsSync(dir) && !dir.endsWith('spec-kitty')) return dir;
  }
  return undefined;
}

/** Every spec.md (or other .md) under `dir`, sorted by path. */
export function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) out.push(full);
    }
  };
  walk(dir);
  return out;
}

export function createInputs(): Inputs {
  const common = loadCommonWords();
  const glossaries = new Map<number, GlossaryIndex>();
  const specs = new Map<string, string>();
  let largest: ReturnType<typeof generateGlossary> | undefined;
  return {
    common,
    engine: createEngine({ commonWords: common }),
    glossary(senses) {
      let index = glossaries.get(senses);
      if (!index) {
        // Smaller glossaries are prefixes of larger ones: generate the largest asked for once.
        if (!largest || largest.senses.length < senses) largest = generateGlossary(senses);
        glossaries.set(senses, (index = new GlossaryIndex(largest.senses.slice(0, senses))));
      }
      return index;
    },
    spec(size, seed = 1) {
      const key = `${size}:${seed}`;
      let text = specs.get(key);
      if (text === undefined) specs.set(key, (text = generateSpec({ size, seed })));
      return text;
    },
    specs() {
      const dir = corpusDir();
      if (!dir) return [];
      return markdownFiles(dir)
        .filter((f) => path.basename(f) === 'spec.md')
        .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    },
    corpus(size) {
      const dir = corpusDir();
      if (!dir) return undefined;
      const files = markdownFiles(dir).filter((f) => path.basename(f) === 'spec.md');
      if (files.length === 0) return undefined;
      const texts = files.map((f) => readFileSync(f, 'utf8'));
      const parts: string[] = [];
      let length = 0;
      for (let i = 0; length < size; i++) {
        const text = texts[i % texts.length]!;
        parts.push(text);
        length += text.length + 2;
      }
      return { text: parts.join('\n\n'), files: files.length };
    },
  };
}
