/**
 * Settings under `specGlossary`, read through `workspace/configuration` scoped to the document
 * (or folder), memoized per scope and cleared when the configuration changes. Clients without
 * `workspace/configuration` give them in `initializationOptions` or `didChangeConfiguration`.
 */

import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type LogLevel, type SpecGlossarySettings } from '../shared/protocol';
import type { Logger } from './logger';

const CONFIGURATION_TIMEOUT_MS = 5_000;

export class SettingsStore {
  private readonly cache = new Map<string, Promise<SpecGlossarySettings>>();
  private readonly warned = new Set<string>();
  private pushed: unknown;
  /** The client let a workspace/configuration request time out: not asked again until it says the configuration changed. */
  private unanswered = false;
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

  /**
   * The log level the client sent with `initialize` or since, read at once: the first folder's
   * load is logged before any answer to workspace/configuration could come.
   */
  pushedLogLevel(): LogLevel | undefined {
    if (!isRecord(this.pushed) || this.pushed['logLevel'] === undefined) return undefined;
    return normalizeSettings({ logLevel: this.pushed['logLevel'] }).settings.logLevel;
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
    // (A setting still wrong after the change is said again: the user may not have seen it.)
    this.warned.clear();
    this.unanswered = false;
    this.version++;
  }

  private async fetch(scopeUri: string): Promise<SpecGlossarySettings> {
    let raw: unknown = this.pushed;
    const notes: string[] = [];
    if (this.useConfigurationRequest && !this.unanswered) {
      try {
        let answered: unknown = await withTimeout(this.connection.workspace.getConfiguration(scopeUri ? { scopeUri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION }), CONFIGURATION_TIMEOUT_MS);
        // (Settings answered inside their section, {specGlossary: {…}}, as some clients nest them.)
        if (isRecord(answered) && isRecord(answered[SETTINGS_SECTION]) && Object.keys(answered).length === 1) answered = answered[SETTINGS_SECTION];
        // A client that has no settings of ours answers null or {} (Neovim and Emacs do, for a
        // section they were not given): what it sent in initializationOptions or
        // didChangeConfiguration still counts then, under the keys it answers.
        if (isRecord(answered)) raw = isRecord(this.pushed) ? { ...this.pushed, ...answered } : answered;
        else if (answered !== null && answered !== undefined) notes.push(`workspace/configuration answered ${JSON.stringify(answered)} for ${SETTINGS_SECTION}, not an object of settings; using ${this.pushed === undefined ? 'the defaults' : 'the settings the client sent'}`);
      } catch (error) {
        if (error instanceof ConfigurationTimeout) this.unanswered = true;
        this.logger.warn(`workspace/configuration failed (${(error as Error).message}); using ${this.pushed === undefined ? 'the defaults' : 'the settings the client sent'}${error instanceof ConfigurationTimeout ? ', and not asking again until the client says the configuration changed' : ''}`);
      }
    }
    if (raw === undefined || raw === null) {
      this.warnOnce(notes);
      return { ...DEFAULT_SETTINGS };
    }
    const { settings, warnings } = normalizeSettings(raw);
    warnings.unshift(...notes);
    // (Settings that ask for no warnings are obeyed by their own read: the logger's level is set
    // from them only after it, so the first read's warnings would slip through.)
    if (settings.logLevel === 'off' || settings.logLevel === 'error') return settings;
    this.warnOnce(warnings);
    return settings;
  }

  /** Each warning once until the configuration changes (every document's read would repeat it). */
  private warnOnce(warnings: readonly string[]): void {
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.logger.warn(warning);
    }
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

class ConfigurationTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ConfigurationTimeout(`no answer within ${ms} ms`)), ms);
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
