import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, normalizeSettings, parseByteSize } from '../../server/src/shared/protocol';

describe('settings normalization', () => {
  it('fills every default from nothing', () => {
    expect(normalizeSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
    expect(DEFAULT_SETTINGS).toEqual({ strictness: '', disabledExtractors: [], severityOverrides: {}, maxFileSize: 5 * 1024 * 1024, debounceMs: 50, maxProblems: 1000, logLevel: 'info', trace: { server: 'off' } });
  });

  it('keeps valid values and normalizes severity names and sizes', () => {
    const { settings, warnings } = normalizeSettings({
      strictness: 'max',
      disabledExtractors: ['repeated_noun', ' acronym '],
      severityOverrides: { unknown: 'Info', ambiguous: 'off', 'glossary.unknown-key': 'hint', inconsistent: 'Warn' },
      maxFileSize: '2MB',
      debounceMs: 50,
      maxProblems: 250.5,
      logLevel: 'debug',
      trace: { server: 'verbose' },
    });
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      strictness: 'max',
      disabledExtractors: ['repeated_noun', 'acronym'],
      severityOverrides: { unknown: 'information', ambiguous: 'off', 'glossary.unknown-key': 'hint', inconsistent: 'warning' },
      maxFileSize: 2 * 1024 * 1024,
      debounceMs: 50,
      maxProblems: 250,
      logLevel: 'debug',
      trace: { server: 'verbose' },
    });
  });

  it('falls back to the default for each invalid value and says why', () => {
    const { settings, warnings } = normalizeSettings({ strictness: 'extreme', severityOverrides: { unknown: 'loud' }, maxFileSize: -1, debounceMs: 'soon', maxProblems: 0, logLevel: 'chatty' });
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(warnings).toEqual([
      'specGlossary.strictness: expected "", "off", "medium" or "max", got "extreme"; using the default',
      'specGlossary.severityOverrides.unknown: expected error, warning, information, hint or off, got "loud"; using the default',
      'specGlossary.maxFileSize: expected a positive number of bytes (or a size such as "5MB"), got -1; using the default',
      'specGlossary.debounceMs: expected a number of milliseconds ≥ 0, got "soon"; using the default',
      'specGlossary.maxProblems: expected a number of diagnostics ≥ 1, got 0; using the default',
      'specGlossary.logLevel: expected off, error, warn, info, debug, got "chatty"; using the default',
    ]);
  });

  it('takes words in any case: strictness, log level and severities', () => {
    const { settings, warnings } = normalizeSettings({ strictness: 'MAX', logLevel: 'Warn', severityOverrides: { unknown: 'HINT' }, disabledExtractors: ['Acronym'] });
    expect(warnings).toEqual([]);
    expect([settings.strictness, settings.logLevel, settings.severityOverrides, settings.disabledExtractors]).toEqual(['max', 'warn', { unknown: 'hint' }, ['acronym']]);
    // (An empty list, as Neovim encodes an empty Lua table, is no settings: no warning.)
    expect(normalizeSettings([])).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
  });

  it('says which keys are no setting (with the one meant), which extractor ids are none, and when the settings are no object', () => {
    expect(normalizeSettings({ debounceMS: 0, severityOverride: {}, colour: 'red', disabledExtractors: ['acronym', 'acronyms', 3] }).warnings).toEqual([
      'specGlossary.debounceMS is not a setting (did you mean debounceMs?); ignored',
      'specGlossary.severityOverride is not a setting (did you mean severityOverrides?); ignored',
      'specGlossary.colour is not a setting; ignored',
      'specGlossary.disabledExtractors: "acronyms", 3 are no extractors (glossary_match, metadata_hint, quoted_phrase, acronym, casing_pattern, repeated_noun); ignored',
    ]);
    // What VS Code answers: every setting of the section, the client's own (enable, server.path) too.
    const fromVsCode = normalizeSettings({ enable: true, ...DEFAULT_SETTINGS, server: { path: '' } });
    expect(fromVsCode).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
    expect(normalizeSettings('max')).toEqual({ settings: DEFAULT_SETTINGS, warnings: ['specGlossary: expected an object of settings, got "max"; using the defaults'] });
    expect(normalizeSettings(null).warnings).toEqual([]);
  });

  it('caps maxProblems at 100,000: a publication must stay bounded', () => {
    expect(normalizeSettings({ maxProblems: 1e9 }).settings.maxProblems).toBe(100_000);
  });

  it('parses byte sizes', () => {
    expect([parseByteSize(1024), parseByteSize('512 KB'), parseByteSize('1.5mb'), parseByteSize('10'), parseByteSize('big'), parseByteSize(0), parseByteSize(0.5)]).toEqual([1024, 512 * 1024, 1.5 * 1024 * 1024, 10, undefined, undefined, undefined]);
    // (A fraction below one byte is no size: a limit of 0 would skip every file.)
    expect(normalizeSettings({ maxFileSize: 0.5 }).settings.maxFileSize).toBe(DEFAULT_SETTINGS.maxFileSize);
  });
});
