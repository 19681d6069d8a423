/**
 * Settings under `specGlossary`, read through `workspace/configuration` scoped to the document
 * (or folder), memoized per scope and cleared when the configuration changes. Clients without
 * `workspace/configuration` give them in `initializationOptions` or `didChangeConfiguration`.
 */

import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type SpecGlossarySettings } from '../shared/protocol';
import type { Logger } from './logger';

const CONFIGURATION_TIMEOUT_MS = 5_000;

export class SettingsStore {
  private readonly cache = new Map<string, Promise<SpecGlossarySettings>>();
  private readonly warned = new Set<string>();
  private pushed: unknown;
  /** Bumped on every configuration change; part of every analysis cache key. */
  version = 0;

  constructor(
    private readonly connection: Connection,
    private readonly useConfigurationRequest: boolean,
    private readonly logger: Logger,
    initial?: unknown,
  ) {
    this.pushed = sectionOf(initial);
  }

  /** Settings for a document or folder URI ('' = global). */
  get(scopeUri = ''): Promise<SpecGlossarySettings> {
    let settings = this.cache.get(scopeUri);
    if (!settings) {
      settings = this.fetch(scopeUri);
      this.cache.set(scopeUri, settings);
    }
    return settings;
  }

  /** A closed document's settings are not kept (an editor opens and closes hundreds). */
  forget(scopeUri: string): void {
    this.cache.delete(scopeUri);
  }

  /** `workspace/didChangeConfiguration`: forget everything; `payload` is its `settings`. */
  changed(payload: unknown): void {
    const section = sectionOf(payload);
    if (section !== undefined) this.pushed = section;
    this.cache.clear();
    this.version++;
  }

  private async fetch(scopeUri: string): Promise<SpecGlossarySettings> {
    let raw: unknown = this.pushed;
    if (this.useConfigurationRequest) {
      try {
        raw = await withTimeout(this.connection.workspace.getConfiguration(scopeUri ? { scopeUri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION }), CONFIGURATION_TIMEOUT_MS);
      } catch (error) {
        this.logger.warn(`workspace/configuration failed (${(error as Error).message}); using ${this.pushed === undefined ? 'default' : 'pushed'} settings`);
      }
    }
    if (raw === undefined || raw === null) return { ...DEFAULT_SETTINGS };
    const { settings, warnings } = normalizeSettings(raw);
    // (Settings that ask for no warnings are obeyed by their own read: the logger's level is set
    // from them only after it, so the first read's warnings would slip through.)
    if (settings.logLevel === 'off' || settings.logLevel === 'error') return settings;
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.logger.warn(warning);
    }
    return settings;
  }
}

/** `{specGlossary: {...}}` or `{settings: {specGlossary: {...}}}` → the section. */
function sectionOf(payload: unknown): unknown {
  if (!payload || typeof payload !== 'object') return undefined;
  const record = payload as Record<string, unknown>;
  if (SETTINGS_SECTION in record) return record[SETTINGS_SECTION];
  const nested = record['settings'];
  if (nested && typeof nested === 'object' && SETTINGS_SECTION in (nested as Record<string, unknown>)) return (nested as Record<string, unknown>)[SETTINGS_SECTION];
  return undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
