/**
 * Glossary health in the editor (core/health.ts): diagnostics on a folder's seed files — unused
 * terms, shadowed surfaces, deprecated terms still used (with where), synonyms to avoid that are
 * terms, `see_also` to nothing — computed in the background after the folder's glossary reloads
 * or one of its specs changes (after `debounceMs`), then published with the files' other
 * diagnostics (DiagnosticsPublisher / DocumentAnalyzer ask `diagnostics(root)`).
 *
 * Where terms are used comes from a `UsageProvider`: in the server, `IndexedUsage` reads the
 * workspace's term index (termIndexer.ts), so the specs are read and checked once for both.
 */

import path from 'node:path';
import { DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import { glossaryHealth, HEALTH_CODES, type HealthFinding, type TermUsage } from '../core/health';
import { indexUsage } from '../core/terms/indexUsage';
import type { TermIndex } from '../core/terms/termIndex';
import { usageKnowable } from '../node/writtenTerms';
import type { WorkspaceSnapshot } from '../node/workspace';
import { severityFor } from '../service/codes';
import { fileUri } from '../service/paths';
import type { Settings } from '../service/types';
import { DIAGNOSTIC_SOURCE, type SourceProblemData } from '../shared/protocol';
import type { Logger } from './logger';

/** Where a folder's specs use its terms. */
export interface UsageProvider {
  /** The usage as of `snapshot` (undefined when it cannot be known); `isCancelled`: a newer run superseded this one. */
  usage(root: string, snapshot: WorkspaceSnapshot, isCancelled: () => boolean): Promise<TermUsage | undefined>;
  /** A spec of the folder changed: in the editor, on disk, opened or closed. */
  specChanged(root: string, file: string): void;
  /** The folder is no longer a workspace folder. */
  forget(root: string): void;
}

/** What IndexedUsage reads: the server's term index (termIndexer.ts). */
export interface IndexSource {
  /** The folder's index once built and with every edit indexed (undefined: the folder is not indexed). */
  settled(root: string): Promise<TermIndex | undefined>;
}

/**
 * Where terms are used, read from the workspace's term index: its build is the one pass over
 * the folder's specs, and records with each document what health needs besides its uses (its
 * mission, the seed terms it writes outside prose, the senses its mission defines). The index
 * follows edits, files on disk and glossary changes itself; a health run waits for it to settle.
 */
export class IndexedUsage implements UsageProvider {
  constructor(private readonly index: IndexSource) {}

  async usage(root: string, snapshot: WorkspaceSnapshot, isCancelled: () => boolean): Promise<TermUsage | undefined> {
    if (!usageKnowable(snapshot)) return undefined;
    const index = await this.index.settled(root);
    if (index === undefined || isCancelled()) return undefined;
    return indexUsage(index, (file) => path.relative(root, file).split(path.sep).join('/'));
  }

  specChanged(): void {
    // (The index hears of every change itself.)
  }

  forget(): void {
    // (Nothing kept per folder.)
  }
}

export interface GlossaryHealthHost {
  /** The folder's current snapshot (loading it if needed). */
  snapshot(root: string): Promise<WorkspaceSnapshot>;
  settings(root: string): Promise<Settings>;
  provider: UsageProvider;
  logger: Logger;
  /** The folder's health diagnostics changed: publish its glossary files' diagnostics again. */
  changed(root: string, snapshot: WorkspaceSnapshot): void;
}

/**
 * Health diagnostics shown per file at most: a generated glossary of thousands of terms no spec
 * uses yet would otherwise flood the editor (the most severe are kept; `validate` lists all).
 */
export const MAX_HEALTH_DIAGNOSTICS_PER_FILE = 500;
export const HEALTH_MORE_CODE = 'glossary.health-more';

const RANK = { warning: 0, information: 1, hint: 2 } as const;

interface FolderHealth {
  /** Bumped with every new result (part of a pulled report's result id). */
  version: number;
  /** At most MAX_HEALTH_DIAGNOSTICS_PER_FILE per file. */
  findings: readonly HealthFinding[];
  /** Findings left out, by file. */
  more: ReadonlyMap<string, number>;
  timer?: NodeJS.Timeout;
  /** The run under way, cancelled by a newer request. */
  run?: { cancelled: boolean };
}

export class GlossaryHealth {
  private readonly folders = new Map<string, FolderHealth>();
  private disposed = false;

  constructor(private readonly host: GlossaryHealthHost) {}

  /** The folder's glossary was (re)loaded: every spec is matched again. */
  glossaryReloaded(root: string): void {
    this.schedule(root, 0);
  }

  /** A spec of the folder changed; its health is computed again after `delayMs`. */
  specChanged(root: string, file: string, delayMs: number): void {
    this.host.provider.specChanged(root, file);
    if (this.folders.has(root)) this.schedule(root, delayMs);
  }

  /** The last computed diagnostics of the folder's seed files, by absolute path. */
  diagnostics(root: string, settings: Settings): Map<string, Diagnostic[]> {
    const out = new Map<string, Diagnostic[]>();
    const add = (file: string, diagnostic: Diagnostic | undefined) => {
      if (!diagnostic) return;
      const list = out.get(path.resolve(file));
      if (list) list.push(diagnostic);
      else out.set(path.resolve(file), [diagnostic]);
    };
    const folder = this.folders.get(root);
    for (const finding of folder?.findings ?? []) add(finding.file, toDiagnostic(root, finding, settings));
    for (const [file, count] of folder?.more ?? []) add(file, moreDiagnostic(file, count, settings));
    return out;
  }

  version(root: string): number {
    return this.folders.get(root)?.version ?? 0;
  }

  forget(root: string): void {
    const folder = this.folders.get(root);
    if (folder) {
      clearTimeout(folder.timer);
      if (folder.run) folder.run.cancelled = true;
    }
    this.folders.delete(root);
    this.host.provider.forget(root);
  }

  dispose(): void {
    this.disposed = true;
    for (const root of [...this.folders.keys()]) this.forget(root);
  }

  private schedule(root: string, delayMs: number): void {
    if (this.disposed) return;
    let folder = this.folders.get(root);
    if (!folder) this.folders.set(root, (folder = { version: 0, findings: [], more: new Map() }));
    clearTimeout(folder.timer);
    if (folder.run) folder.run.cancelled = true;
    const state = folder;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.compute(root, state).catch((error: unknown) => this.host.logger.error(`glossary health of ${root} failed`, error));
    }, delayMs);
  }

  private async compute(root: string, folder: FolderHealth): Promise<void> {
    const run = { cancelled: false };
    folder.run = run;
    const isCancelled = () => run.cancelled || this.disposed || this.folders.get(root) !== folder;
    const snapshot = await this.host.snapshot(root);
    if (isCancelled()) return;
    // Only the workspace's own seed files are judged: without any, no spec needs to be read.
    const judged = snapshot.seeds.some((s) => !s.bundled);
    const usage = judged ? await this.host.provider.usage(root, snapshot, isCancelled) : undefined;
    if (isCancelled()) return;
    // A seed file that no longer parses keeps its last good senses, whose places are out of date.
    const stale = new Set(snapshot.seeds.filter((s) => s.stale).map((s) => s.path));
    const senses = [...snapshot.seeds.flatMap((s) => s.seed.senses), ...snapshot.eventSenses, ...(usage?.missionSenses ?? [])];
    const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
    const findings = glossaryHealth({ senses, ...(usage ? { usage } : {}), fileLabel: relative }).filter((f) => !stale.has(f.file));
    const { kept, more } = capPerFile(findings);
    folder.findings = kept;
    folder.more = more;
    folder.version++;
    if (folder.run === run) folder.run = undefined;
    this.host.changed(root, snapshot);
  }
}

/** The most severe findings of each file (then in file order), at most MAX_HEALTH_DIAGNOSTICS_PER_FILE. */
function capPerFile(findings: readonly HealthFinding[]): { kept: HealthFinding[]; more: Map<string, number> } {
  const byFile = new Map<string, HealthFinding[]>();
  for (const finding of findings) {
    const list = byFile.get(finding.file);
    if (list) list.push(finding);
    else byFile.set(finding.file, [finding]);
  }
  const kept: HealthFinding[] = [];
  const more = new Map<string, number>();
  for (const [file, list] of byFile) {
    if (list.length <= MAX_HEALTH_DIAGNOSTICS_PER_FILE) {
      kept.push(...list);
      continue;
    }
    const order = list.map((finding, index) => ({ finding, index })).sort((a, b) => RANK[a.finding.severity] - RANK[b.finding.severity] || a.index - b.index);
    kept.push(...order.slice(0, MAX_HEALTH_DIAGNOSTICS_PER_FILE).map((o) => o.finding));
    more.set(file, list.length - MAX_HEALTH_DIAGNOSTICS_PER_FILE);
  }
  return { kept, more };
}

/** One Information diagnostic at the top of a file saying how many health findings are not shown. */
function moreDiagnostic(file: string, count: number, settings: Settings): Diagnostic | undefined {
  const severity = severityFor(HEALTH_MORE_CODE, { problem: 'information' }, settings.severityOverrides);
  if (severity === undefined) return undefined;
  const at = { line: 0, character: 0 };
  const data: SourceProblemData = { kind: 'source', file };
  const message = `Glossary health: ${count} more finding${count === 1 ? '' : 's'} in this file ${count === 1 ? 'is' : 'are'} not shown (at most ${MAX_HEALTH_DIAGNOSTICS_PER_FILE} per file, the most severe first); \`spec-glossary validate --format json\` lists them all.`;
  return { range: { start: at, end: at }, severity, code: HEALTH_MORE_CODE, source: DIAGNOSTIC_SOURCE, message, data };
}

const NATURAL = { warning: 'warning', information: 'information', hint: 'hint' } as const;

/** A finding as a diagnostic on its seed file (severity overridable per code). */
function toDiagnostic(root: string, finding: HealthFinding, settings: Settings): Diagnostic | undefined {
  const severity = severityFor(finding.code, { problem: NATURAL[finding.severity] }, settings.severityOverrides);
  if (severity === undefined) return undefined;
  const data: SourceProblemData = { kind: 'source', file: finding.file };
  const related = [
    ...(finding.related ?? []).map((r) => ({ location: { uri: fileUri(r.file), range: r.range }, message: r.message })),
    // Where a deprecated term is still used: the first use in each of the first specs.
    ...(finding.code === HEALTH_CODES.deprecatedInUse
      ? (finding.uses?.examples ?? []).map((e) => ({ location: { uri: fileUri(path.join(root, e.path)), range: { start: { line: e.line - 1, character: 0 }, end: { line: e.line - 1, character: 0 } } }, message: `'${finding.term}' used here` }))
      : []),
  ];
  const tags = finding.code === HEALTH_CODES.unused ? [DiagnosticTag.Unnecessary] : finding.code === HEALTH_CODES.deprecatedInUse ? [DiagnosticTag.Deprecated] : [];
  return {
    range: finding.range,
    severity,
    code: finding.code,
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
    data,
    ...(related.length > 0 ? { relatedInformation: related } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
}
