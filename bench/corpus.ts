/**
 * Real spec text for the benchmark, read from the shared corpora at run time and copied into
 * temporary workspaces (never committed): the real specs of Spec Kitty missions
 * (`spec-kitty/kitty-specs/<mission>/spec.md`), the pages of its documentation
 * (`spec-kitty-docs/**.md`) and its real core glossary.
 *
 * Where they are: `SPEC_GLOSSARY_CORPUS` (the folder holding `spec-kitty/` and
 * `spec-kitty-docs/`), else `../shared/corpus` beside the package (or `../../shared/corpus`).
 */

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../server/src/node/packageFiles';

export const KB = 1024;
export const MB = 1024 * 1024;

/** What a team typically lists under `glossary.ignore_words`: jargon it does not want flagged. */
export const IGNORE_WORDS = ['worktree', 'frontmatter', 'allowlist', 'tranche', 'cutover', 'backfill', 'docstring', 'charter', 'doctrine', 'dossier', 'mypy', 'sonar'];

export interface Corpus {
  dir: string;
  /** The real specs (spec.md of each mission), sorted by path. */
  specs: { file: string; text: string }[];
  /** The documentation pages, sorted by path. */
  pages: { file: string; text: string }[];
  /** The real core glossary (YAML). */
  coreGlossary: string;
}

export function corpusDir(): string | undefined {
  // (A git worktree under wt/ sits one level deeper than the main checkout.)
  for (const dir of [process.env['SPEC_GLOSSARY_CORPUS'], path.join(packageRoot(), '..', 'shared', 'corpus'), path.join(packageRoot(), '..', '..', 'shared', 'corpus')]) {
    if (dir && existsSync(path.join(dir, 'spec-kitty', 'kitty-specs'))) return dir;
  }
  return undefined;
}

export function loadCorpus(): Corpus | undefined {
  const dir = corpusDir();
  if (!dir) return undefined;
  const read = (file: string) => ({ file, text: readFileSync(file, 'utf8') });
  const specs = markdownFiles(path.join(dir, 'spec-kitty', 'kitty-specs'))
    .filter((f) => path.basename(f) === 'spec.md')
    .map(read);
  const docs = path.join(dir, 'spec-kitty-docs');
  const pages = existsSync(docs) ? markdownFiles(docs).map(read) : [];
  const coreGlossary = readFileSync(path.join(dir, 'spec-kitty', '.kittify', 'glossaries', 'spec_kitty_core.yaml'), 'utf8');
  return { dir, specs, pages, coreGlossary };
}

/** Every .md file under `dir`, sorted by path. */
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

/** The real spec closest to `size` characters. */
export function specNear(corpus: Corpus, size: number): { file: string; text: string } {
  return [...corpus.specs].sort((a, b) => Math.abs(a.text.length - size) - Math.abs(b.text.length - size))[0]!;
}

/** The real specs one after another (repeated as needed) to at least `size` characters. */
export function specsJoined(corpus: Corpus, size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const text = corpus.specs[i % corpus.specs.length]!.text;
    parts.push(text);
    length += text.length + 2;
  }
  return parts.join('\n\n');
}

/**
 * `count` spec texts of `totalBytes` in all, each made of whole real documents (the specs, then
 * the documentation pages, in turn) joined until it reaches its share: real prose at the sizes
 * of SPEC §10's workspace (400 specs, 9 MB).
 */
export function workspaceSpecs(corpus: Corpus, count: number, totalBytes: number): string[] {
  const sources = [...corpus.specs, ...corpus.pages].map((d) => d.text);
  const out: string[] = [];
  let next = 0;
  let written = 0;
  for (let i = 0; i < count; i++) {
    // Whole documents until the running total reaches this spec's share of the whole.
    const parts: string[] = [];
    do {
      const text = sources[next++ % sources.length]!;
      parts.push(text);
      written += Buffer.byteLength(text) + 2;
    } while (written < ((i + 1) * totalBytes) / count);
    out.push(parts.join('\n\n'));
  }
  return out;
}

export interface BenchWorkspace {
  root: string;
  /** Absolute paths of the specs written, in order. */
  files: string[];
  bytes: number;
  remove(): void;
}

/**
 * A Spec Kitty workspace in a fresh temporary folder: the real core glossary in
 * `.kittify/glossaries/`, `.kittify/config.yaml` with `ignore_words` when given, and each text as
 * `kitty-specs/<NNN-mission>/spec.md`.
 */
export function writeWorkspace(corpus: Corpus, name: string, texts: readonly string[], ignoreWords?: readonly string[]): BenchWorkspace {
  const root = mkdtempSync(path.join(tmpdir(), `spec-glossary-bench-${name}-`));
  mkdirSync(path.join(root, '.kittify', 'glossaries'), { recursive: true });
  writeFileSync(path.join(root, '.kittify', 'glossaries', 'spec_kitty_core.yaml'), corpus.coreGlossary);
  if (ignoreWords) writeFileSync(path.join(root, '.kittify', 'config.yaml'), `glossary:\n  ignore_words:\n${ignoreWords.map((w) => `    - ${w}\n`).join('')}`);
  const files: string[] = [];
  let bytes = 0;
  texts.forEach((text, i) => {
    const folder = path.join(root, 'kitty-specs', `${String(i + 1).padStart(3, '0')}-${name}-mission`);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'spec.md');
    writeFileSync(file, text);
    files.push(file);
    bytes += Buffer.byteLength(text);
  });
  return { root, files, bytes, remove: () => rmSync(root, { recursive: true, force: true }) };
}
