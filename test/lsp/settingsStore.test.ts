/**
 * Where the settings come from when the client answers `workspace/configuration` badly or not at
 * all (the store alone, with a stand-in for the connection; through the protocol: modes.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS } from '../../server/src/shared/protocol';
import { Logger, logMessages } from '../../server/src/lsp/logger';
import { SettingsStore } from '../../server/src/lsp/settings';

afterEach(() => {
  vi.useRealTimers();
});

/** A store over a client that answers each workspace/configuration request with `answer()`. */
function store(answer: () => Promise<unknown>, pushed?: unknown) {
  const warnings: string[] = [];
  let asked = 0;
  const connection = {
    workspace: {
      getConfiguration: () => {
        asked++;
        return answer();
      },
    },
  } as unknown as Connection;
  const logger = new Logger(logMessages(async (params) => void warnings.push(params.message)), 'info');
  const settings = new SettingsStore(connection, true, logger, pushed);
  return { settings, warnings, asked: () => asked };
}

describe('settings from a client that answers workspace/configuration badly', () => {
  it('an answer nested in its section is read as the section', async () => {
    const { settings } = store(async () => ({ specGlossary: { debounceMs: 0 } }));
    expect((await settings.get()).debounceMs).toBe(0);
  });

  it('an answer that is no object: the settings the client sent, with a warning that says so', async () => {
    const { settings, warnings } = store(async () => 'abc', { specGlossary: { debounceMs: 7 } });
    expect((await settings.get()).debounceMs).toBe(7);
    expect(warnings).toEqual(['workspace/configuration answered "abc" for specGlossary, not an object of settings; using the settings the client sent']);
  });

  it('no answer within 5 s: the settings the client sent, and no more waiting for 30 s or until the client says the configuration changed', async () => {
    vi.useFakeTimers();
    let answer: () => Promise<unknown> = () => new Promise(() => undefined);
    const { settings, warnings, asked } = store(() => answer(), { debounceMs: 7 });
    const first = settings.get('file:///w/a.md');
    await vi.advanceTimersByTimeAsync(5000);
    expect((await first).debounceMs).toBe(7);
    expect(warnings).toEqual(['workspace/configuration failed (no answer within 5000 ms); using the settings the client sent, and not asking for 30 s unless the client says the configuration changed']);
    // Another document: not asked, answered at once.
    expect((await settings.get('file:///w/b.md')).debounceMs).toBe(7);
    expect(asked()).toBe(1);
    // A change: asked again.
    settings.changed({ settings: null });
    const again = settings.get('file:///w/b.md');
    await vi.advanceTimersByTimeAsync(5000);
    expect((await again).debounceMs).toBe(7);
    expect(asked()).toBe(2);
    // The client answers again after the pause: what it answers now counts, for a document read
    // during the pause too (its stand-in settings were not kept).
    answer = async () => ({ debounceMs: 3 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await settings.get('file:///w/b.md')).debounceMs).toBe(3);
    expect(asked()).toBe(3);
  });

  it('a request that times out after a configuration change does not pause the asking', async () => {
    vi.useFakeTimers();
    const { settings, asked } = store(() => new Promise(() => undefined));
    const before = settings.get('file:///w/a.md');
    settings.changed(undefined);
    await vi.advanceTimersByTimeAsync(5000);
    await before;
    void settings.get('file:///w/b.md');
    expect(asked()).toBe(2);
  });

  it('an empty list (an empty Lua table, as Neovim sends it) is no settings, and no warning', async () => {
    const { settings, warnings } = store(async () => [], { specGlossary: { debounceMs: 9 } });
    expect((await settings.get()).debounceMs).toBe(9);
    const empty = store(async () => null, { specGlossary: [] });
    expect((await empty.settings.get()).debounceMs).toBe(DEFAULT_SETTINGS.debounceMs);
    expect([...warnings, ...empty.warnings]).toEqual([]);
  });

  it('the log level the client sent is known at once, before any answer (the session sets it before the first folder loads)', () => {
    expect(store(async () => null, { specGlossary: { logLevel: 'DEBUG' } }).settings.pushedLogLevel()).toBe('debug');
    expect(store(async () => null, { logLevel: 'error' }).settings.pushedLogLevel()).toBe('error');
    expect(store(async () => null, { specGlossary: { debounceMs: 0 } }).settings.pushedLogLevel()).toBeUndefined();
    expect(store(async () => null).settings.pushedLogLevel()).toBeUndefined();
  });

  it('a wrong setting is said again after a change that keeps it (once per document read before)', async () => {
    let answer: unknown = { debounceMs: -5 };
    const { settings, warnings } = store(async () => answer);
    expect((await settings.get('file:///w/a.md')).debounceMs).toBe(DEFAULT_SETTINGS.debounceMs);
    await settings.get('file:///w/b.md');
    answer = { debounceMs: 100 };
    settings.changed(undefined);
    expect((await settings.get('file:///w/a.md')).debounceMs).toBe(100);
    answer = { debounceMs: -5 };
    settings.changed(undefined);
    await settings.get('file:///w/a.md');
    const said = 'specGlossary.debounceMs: expected a number of milliseconds ≥ 0, got -5; using the default';
    expect(warnings).toEqual([said, said]);
  });
});
