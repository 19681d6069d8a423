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
        const answered: unknown = await withTimeout(this.connection.workspace.getConfiguration(scopeUri ? { scopeUri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION }), CONFIGURATION_TIMEOUT_MS);
        // A client that has no settings of ours answers null or {} (Neovim and Emacs do, for a
        // section they were not given): what it sent in initializationOptions or
        // didChangeConfiguration still counts then, under the keys it answers.
        if (isRecord(answered)) raw = isRecord(this.pushed) ? { ...this.pushed, ...answered } : answered;
        else if (answered !== null && answered !== undefined) raw = answered;
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

/**
 * `{specGlossary: {...}}` or `{settings: {specGlossary: {...}}}` → the section; the section's own
 * keys given without it (`{debounceMs: 0}`, as `init_options` are often written) are the section
 * too. Anything else is no setting of ours.
 */
function sectionOf(payload: unknown): unknown {
  if (!isRecord(payload)) return undefined;
  if (SETTINGS_SECTION in payload) return payload[SETTINGS_SECTION];
  const nested = payload['settings'];
  if (isRecord(nested)) return sectionOf(nested);
  return Object.keys(payload).some((key) => Object.hasOwn(DEFAULT_SETTINGS, key)) ? payload : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
