/**
 * Where a workspace folder's specs use the glossary's terms (a `TermUsage` for glossary health):
 * every markdown file under the folder — the files `check .` and the candidates read — is checked
 * against its mission's glossary and its glossary matches are collected (`SpecUses`). An open
 * editor's text wins over the file. Files are read through the snapshot's file system (the disk,
 * or memory in tests). Yields to the event loop between batches of files, so a large workspace
 * does not stall a language server's other requests.
 */

import path from 'node:path';
import type { Engine } from '../core/check/engine';
import { normalizeSurface, singularize } from '../core/normalize';
import { CollectedUsage, type SpecUses } from '../core/termUsage';
import { analyzeDocument } from './analyzer';
import { readWorkspaceText, DEFAULT_MAX_FILE_BYTES } from './files';
import type { WorkspaceFileSystem } from './fileSystem';
import type { MetaCache } from './identity';
import { SpecVocabularies } from './specVocabularies';
import { isMarkdownFile } from './markdownFiles';
import type { WorkspaceSnapshot } from './workspace';

export interface WorkspaceUsageOptions {
  engine: Engine;
  maxFileBytes?: number;
  /** The text of a file open in the editor, if it is. */
  openText?: (file: string) => string | undefined;
  /** How a spec is named in messages (default: relative to the folder, `/`-separated). */
  pathOf?: (file: string) => string;
  /** A spec or folder that could not be read (it is not counted). */
  onSkipped?: (file: string, reason: string) => void;
  /** Files checked between two yields to the event loop (default 25; 0 never yields). */
  batch?: number;
  /** Stops early (the result is then not used). */
  isCancelled?: () => boolean;
  /** Missions' spec vocabularies read so far (a new reader by default). */
  vocabularies?: SpecVocabularies;
}

/** Whether term use can be known in this folder: not when its config switches the glossary matcher off. */
export function usageKnowable(snapshot: WorkspaceSnapshot): boolean {
  return !snapshot.config.disabledExtractors.includes('glossary_match');
}

/** The usage of the folder's terms; undefined when it cannot be known (`usageKnowable`). */
export async function workspaceUsage(snapshot: WorkspaceSnapshot, options: WorkspaceUsageOptions): Promise<CollectedUsage | undefined> {
  if (!usageKnowable(snapshot)) return undefined;
  const metaCache: MetaCache = new Map();
  const vocabularies = options.vocabularies ?? new SpecVocabularies({ fs: snapshot.fs, ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}) });
  const specs: SpecUses[] = [];
  const read: string[] = [];
  let checked = 0;
  for (const file of markdownFilesIn(snapshot.fs, snapshot.root, options.onSkipped)) {
    if (options.isCancelled?.()) break;
    const text = specText(snapshot, file, options);
    if (text !== undefined) {
      const uses = specUses(options.engine, snapshot, file, text, metaCache, vocabularies, options.pathOf);
      if (uses) {
        specs.push(uses);
        read.push(file);
      }
    }
    if (options.batch !== 0 && ++checked % (options.batch ?? 25) === 0) await yieldToEventLoop();
  }
  const usage = new CollectedUsage(specs);
  await findOutsideProse(snapshot, usage, read, options);
  return usage;
}

/** A spec's glossary matches (undefined when checking is switched off for it). */
export function specUses(engine: Engine, snapshot: WorkspaceSnapshot, file: string, text: string, metaCache: MetaCache, vocabularies: SpecVocabularies, pathOf?: (file: string) => string): SpecUses | undefined {
  // The usage of a term is a fact of the text: no runtime settings (strictness does not matter).
  // With the missions' vocabularies, as `check` reads a spec: a Domain Language entry is no use.
  const analyzed = analyzeDocument(engine, snapshot, { path: file, text, metaCache, vocabularies });
  if (!analyzed.report.checked) return undefined;
  const shown = pathOf ? pathOf(file) : path.relative(snapshot.root, file).split(path.sep).join('/');
  const glossary = analyzed.report.glossary;
  const uses = CollectedUsage.specUses(shown, analyzed.identity.missionId, analyzed.report.candidates, (surface) => glossary.has(surface));
  // The senses the mission defines in its spec(s), which the check used.
  const missionSenses = glossary.senses.filter((s) => s.scope === 'mission_local' && s.origin.kind === 'spec');
  return missionSenses.length > 0 ? { ...uses, missionSenses } : uses;
}

/** The text of a spec as the editor has it or as the file holds it; undefined when unreadable. */
export function specText(snapshot: WorkspaceSnapshot, file: string, options: Pick<WorkspaceUsageOptions, 'openText' | 'maxFileBytes' | 'onSkipped'>): string | undefined {
  const open = options.openText?.(file);
  if (open !== undefined) return open;
  const outcome = readWorkspaceText(snapshot.root, file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, snapshot.fs);
  if (outcome.ok) return outcome.text;
  options.onSkipped?.(file, outcome.reason);
  return undefined;
}

// Dependency and VCS folders never hold specs; other hidden folders are skipped too (as `check .`).
const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Whether `check .` in `root` reads `file`: a markdown file under it, in no hidden or dependency folder. */
export function isWalkedSpec(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || !isMarkdownFile(file)) return false;
  return relative.split(path.sep).slice(0, -1).every((dir) => !SKIP_DIRS.has(dir) && !dir.startsWith('.'));
}

/** Every markdown file under `root`, sorted, as `check .` walks a folder (node/markdownFiles.ts). */
export function markdownFilesIn(fs: WorkspaceFileSystem, root: string, onSkipped?: (file: string, reason: string) => void): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = fs.readDirectory(dir);
    if (entries === undefined) {
      if (dir !== root) onSkipped?.(dir, 'the folder cannot be listed');
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if (entry.kind === 'file' && isMarkdownFile(entry.name)) {
        out.push(full);
      }
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The terms no prose uses are looked for once more in the raw text of the specs read (code spans
 * and blocks, link targets, front matter): `mission_id` written in backticks is a term in use.
 * One pattern of all of them, so each spec is scanned once; usually few terms are left.
 */
export async function findOutsideProse(snapshot: WorkspaceSnapshot, usage: CollectedUsage, files: readonly string[], options: WorkspaceUsageOptions): Promise<void> {
  const search = outsideProseSearch(snapshot, usage);
  if (search === undefined) return;
  let scanned = 0;
  for (const file of files) {
    if (options.isCancelled?.()) break;
    const text = specText(snapshot, file, { ...options, onSkipped: undefined });
    if (text !== undefined) for (const term of search.termsIn(text)) usage.markWrittenOutsideProse(term);
    if (options.batch !== 0 && ++scanned % (options.batch ?? 25) === 0) await yieldToEventLoop();
  }
}

/** The seed terms a usage finds in no prose, and how to find them in a spec's raw text. */
export interface OutsideProseSearch {
  /** The terms looked for, sorted and joined: the same key, the same search. */
  key: string;
  termsIn(text: string): string[];
}

/** Undefined when every seed term is used in prose. */
export function outsideProseSearch(snapshot: WorkspaceSnapshot, usage: CollectedUsage): OutsideProseSearch | undefined {
  return writtenTermsSearch(usage.termsWithoutUse(seedTerms(snapshot)));
}

/** The normalized surfaces of the folder's seed files' senses (the terms health judges, and the bundled core's). */
export function seedTerms(snapshot: WorkspaceSnapshot): Set<string> {
  return new Set(snapshot.seeds.flatMap((s) => s.seed.senses).map((s) => normalizeSurface(s.surface)));
}

/** How to find `terms` written anywhere in a text (code included); undefined for no terms. */
export function writtenTermsSearch(terms: Iterable<string>): OutsideProseSearch | undefined {
  const left = [...terms].filter((t) => t !== '').sort();
  if (left.length === 0) return undefined;
  // A term by its words: `mission_id`, `mission-id` and `mission id` are written alike in code.
  const byWords = new Map<string, string[]>();
  const firstWords = new Set<string>();
  let longest = 1;
  for (const term of left) {
    const words = term.split(WORD_JOINERS);
    longest = Math.max(longest, words.length);
    firstWords.add(words[0]!);
    const key = words.join(' ');
    const same = byWords.get(key);
    if (same) same.push(term);
    else byWords.set(key, [term]);
  }
  // Where a run may start: any first word, found by one pattern over the lowercased text (one
  // native scan, however many terms; a pass over every word of the text cost ~10× more).
  const firstPattern = new RegExp([...firstWords].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  return { key: left.join('\n'), termsIn: (text) => termsWrittenIn(text, { byWords, firstWords, longest, firstPattern }) };
}

interface WordIndex {
  /** Terms by their words joined with one space. */
  byWords: ReadonlyMap<string, readonly string[]>;
  /** The first word of every term (a one-word term's singular form): where a run may start. */
  firstWords: ReadonlySet<string>;
  longest: number;
  /** Matches any first word (in lowercase text). */
  firstPattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const WORD_JOINERS = /[\s_-]+/;
const WORD = /[\p{L}\p{N}]+/gu;
const JOINER_GAP = /^[\s_-]+$/;

/**
 * The terms (`index`) a text writes anywhere: runs of up to `longest` words joined by spaces, `_`
 * or `-`, any case, the last word also as its singular; a run does not start or end inside an
 * identifier (`mission` is not written in `mission_id`). A run is read only where a word some
 * term starts with begins, found by one pattern of every first word over the lowercased text.
 */
function termsWrittenIn(text: string, index: WordIndex): string[] {
  const found = new Set<string>();
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    const pattern = index.firstPattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
      const at = match.index;
      // The longest first word matching here was taken: a word that goes on past it (but for a
      // plural s) is no term's first word — most hits ("missionary", "specification") end here.
      const after = at + match[0].length;
      const goesOn = LETTER_OR_DIGIT.test(lower[after] ?? ' ') && !(lower[after] === 's' && !LETTER_OR_DIGIT.test(lower[after + 1] ?? ' '));
      if (!goesOn && !WORD_CHAR.test(text[at - 1] ?? ' ')) readRun(text, at, index, found);
      pattern.lastIndex = at + 1; // (another first word may start inside this one, after a '/' or '.')
    }
  } else {
    // (Lowercasing changed the length — a few letters outside ASCII do: offsets would not agree.)
    WORD.lastIndex = 0;
    for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
      const first = match[0].toLowerCase();
      if (index.firstWords.has(first) || (first.endsWith('s') && index.firstWords.has(singularize(first)))) readRun(text, match.index, index, found);
    }
  }
  return [...found];
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The terms a run of words starting at `start` writes, into `found`. */
function readRun(text: string, start: number, index: WordIndex, found: Set<string>): void {
  if (text[start - 1] === '_') return;
  RUN.lastIndex = start;
  let key = '';
  let end = start;
  for (let k = 0; k < index.longest; k++) {
    const next = RUN.exec(text);
    if (next === null || (k === 0 && next.index !== start) || (k > 0 && !JOINER_GAP.test(text.slice(end, next.index)))) return;
    const word = next[0].toLowerCase();
    const stem = key;
    key = k === 0 ? word : `${key} ${word}`;
    end = next.index + next[0].length;
    if (text[end] === '_') continue; // the run goes on inside an identifier
    for (const term of index.byWords.get(key) ?? []) found.add(term);
    if (word.endsWith('s')) for (const term of index.byWords.get(k === 0 ? singularize(word) : `${stem} ${singularize(word)}`) ?? []) found.add(term);
  }
}

const RUN = /[\p{L}\p{N}]+/gu;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
