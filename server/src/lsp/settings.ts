/**
 * Settings under `specGlossary`, read through `workspace/configuration` scoped to the document
 * (or folder), memoized per scope and cleared when the configuration changes. Clients without
 * `workspace/configuration` give them in `initializationOptions` or `didChangeConfiguration`.
 */

import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type LogLevel, type SpecGlossarySettings } from '../shared/protocol';
import { isPlainObject } from '../core/events/check';
import type { Logger } from './logger';

const CONFIGURATION_TIMEOUT_MS = 5_000;
/** After a request went unanswered: how long the client is not asked (each read would wait 5 s). */
const UNANSWERED_PAUSE_MS = 30_000;

export class SettingsStore {
  private readonly cache = new Map<string, Promise<SpecGlossarySettings>>();
  private readonly warned = new Set<string>();
  private pushed: unknown;
  /**
   * Until when the client is not asked (it let a workspace/configuration request time out): its
   * pushed settings or the defaults are used, and not kept, so a read after the pause asks again.
   */
  private unansweredUntil = 0;
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
    if (!isPlainObject(this.pushed) || this.pushed['logLevel'] === undefined) return undefined;
    return normalizeSettings({ logLevel: this.pushed['logLevel'] }).settings.logLevel;
  }

  /** Settings for a document or folder URI ('' = global). */
  get(scopeUri = ''): Promise<SpecGlossarySettings> {
    let settings = this.cache.get(scopeUri);
    if (!settings) {
      const fetched = this.fetch(scopeUri);
      settings = fetched.then((read) => read.settings);
      this.cache.set(scopeUri, settings);
      const cached = settings;
      // (Settings read while the client does not answer stand in for its own: asked again later.)
      void fetched.then((read) => {
        if (!read.answered && this.cache.get(scopeUri) === cached) this.cache.delete(scopeUri);
      });
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
    this.unansweredUntil = 0;
    this.version++;
  }

  /** The settings for a scope; `answered`: false when the client was not asked, or did not answer in time. */
  private async fetch(scopeUri: string): Promise<{ settings: SpecGlossarySettings; answered: boolean }> {
    let raw: unknown = this.pushed;
    const notes: string[] = [];
    const fallback = this.pushed === undefined ? 'the defaults' : 'the settings the client sent';
    let answered = true;
    if (this.useConfigurationRequest && Date.now() < this.unansweredUntil) answered = false;
    else if (this.useConfigurationRequest) {
      const version = this.version;
      try {
        let answer: unknown = await withTimeout(this.connection.workspace.getConfiguration(scopeUri ? { scopeUri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION }), CONFIGURATION_TIMEOUT_MS);
        // (Settings answered inside their section, {specGlossary: {…}}, as some clients nest them.)
        if (isPlainObject(answer) && isPlainObject(answer[SETTINGS_SECTION]) && Object.keys(answer).length === 1) answer = answer[SETTINGS_SECTION];
        // A client that has no settings of ours answers null or {} (Neovim and Emacs do, for a
        // section they were not given): what it sent in initializationOptions or
        // didChangeConfiguration still counts then, under the keys it answers.
        // (An empty list is how Neovim encodes an empty Lua table: nothing, as null is.)
        if (isPlainObject(answer)) raw = isPlainObject(this.pushed) ? { ...this.pushed, ...answer } : answer;
        else if (answer !== null && answer !== undefined && !isEmptyList(answer)) notes.push(`workspace/configuration answered ${JSON.stringify(answer)} for ${SETTINGS_SECTION}, not an object of settings; using ${fallback}`);
      } catch (error) {
        const timedOut = error instanceof ConfigurationTimeout;
        answered = !timedOut;
        // (A request sent before a configuration change does not pause the asking after it.)
        if (timedOut && version === this.version) this.unansweredUntil = Date.now() + UNANSWERED_PAUSE_MS;
        this.logger.warn(`workspace/configuration failed (${(error as Error).message}); using ${fallback}${timedOut ? `, and not asking for ${UNANSWERED_PAUSE_MS / 1000} s unless the client says the configuration changed` : ''}`);
      }
    }
    if (raw === undefined || raw === null) {
      this.warnOnce(notes);
      return { settings: { ...DEFAULT_SETTINGS }, answered };
    }
    const { settings, warnings } = normalizeSettings(raw);
    warnings.unshift(...notes);
    // (Settings that ask for no warnings are obeyed by their own read: the logger's level is set
    // from them only after it, so the first read's warnings would slip through.)
    if (settings.logLevel !== 'off' && settings.logLevel !== 'error') this.warnOnce(warnings);
    return { settings, answered };
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
  if (!isPlainObject(payload)) return undefined;
  if (SETTINGS_SECTION in payload) return payload[SETTINGS_SECTION];
  const nested = payload['settings'];
  if (isPlainObject(nested)) return sectionOf(nested);
  return Object.keys(payload).some((key) => Object.hasOwn(DEFAULT_SETTINGS, key)) ? payload : undefined;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
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
