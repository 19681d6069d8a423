import { describe, expect, test } from 'vitest';
import { GlossaryIndex } from '../../server/src/core/glossary';
import { glossaryHealth, type HealthFinding } from '../../server/src/core/health';
import { parseSeedFile } from '../../server/src/core/seeds';
import { indexUsage } from '../../server/src/core/terms/indexUsage';
import { glossaryOccurrences, TermIndex } from '../../server/src/core/terms/termIndex';
import type { ScopeId, Sense } from '../../server/src/core/types';
import { common, engine } from '../helpers/core';

/** Senses of seed files given as YAML (file names `<scope>.yaml`). */
function seeds(files: Partial<Record<ScopeId, string>>): Sense[] {
  return Object.entries(files).flatMap(([scope, text]) => {
    const seed = parseSeedFile(text!, `${scope}.yaml`, scope as ScopeId);
    expect(seed.problems).toEqual([]);
    return seed.senses;
  });
}

/** A sense a mission added for itself (GlossarySenseUpdated, scope mission_local). */
function missionSense(surface: string, missionId: string): Sense {
  return {
    surface,
    scope: 'mission_local',
    definition: `What ${missionId} means by ${surface}`,
    confidence: 1,
    status: 'active',
    synonymsToAvoid: [],
    seeAlso: [],
    origin: { kind: 'event', eventId: 'e1', missionId, actorId: 'user:ann', timestamp: '2026-11-26T10:00:00+00:00', source: 'user_clarification' },
  };
}

/**
 * Checks each spec (path → [mission, text]) with the engine against the senses and reads the uses
 * from a term index, as the CLI and the server do; `writtenElsewhere` names the terms a spec writes
 * only outside prose (what the workspace indexer finds in its raw text).
 */
function usageOf(senses: readonly Sense[], specs: Record<string, [string, string]>, writtenElsewhere: readonly string[] = []) {
  const index = new TermIndex();
  for (const [path, [missionId, text]] of Object.entries(specs).sort()) {
    const own = senses.filter((s) => s.origin.kind !== 'event' || s.origin.missionId === missionId);
    const glossary = new GlossaryIndex(own);
    const report = engine.checkDocument(text, { glossary, common });
    index.set(path, glossaryOccurrences(report, glossary), { missionId, writtenElsewhere });
  }
  return indexUsage(index, (document) => document);
}

const entry = (surface: string, extra = '', status = 'active') => `  - surface: ${surface}\n    definition: The ${surface} of the product\n    status: ${status}\n${extra}`;
const yaml = (...entries: string[]) => `terms:\n${entries.join('')}`;
const line = (finding: HealthFinding) => finding.range.start.line + 1;
const summary = (findings: HealthFinding[]) => findings.map((f) => `${f.file}:${line(f)} ${f.severity} ${f.code} ${f.term}`);

describe('glossary health: unused terms', () => {
  const team = yaml(entry('work package'), entry('mission'), entry('quarkle'), entry('old name', '', 'deprecated'));
  const senses = seeds({ team_domain: team });

  test('a term no spec uses is Information on its surface; plural, capitalised and hyphenated forms are uses', () => {
    const usage = usageOf(senses, { 'specs/a.md': ['m1', '# Plan\n\nEach of the Work-Packages belongs to one of the MISSIONS.\n'] });
    const findings = glossaryHealth({ senses, usage });
    expect(summary(findings)).toEqual(['team_domain.yaml:8 information glossary.unused-term quarkle']);
    const [unused] = findings;
    // The range is the surface as written on the `surface:` line (line 8 = index 7, after "  - surface: ").
    expect(unused!.range).toEqual({ start: { line: 7, character: 13 }, end: { line: 7, character: 20 } });
    expect(unused!.message).toBe("No spec uses 'quarkle' (1 spec read): remove the entry or deprecate it if the term is no longer meant to be used.");
    expect(unused!.uses).toEqual({ specs: 0, occurrences: 0, examples: [] });
  });

  test('a word inside code is no use; with no spec read nothing is called unused; a deprecated term is meant to be unused', () => {
    const usage = usageOf(senses, { 'a.md': ['m1', 'Work packages of a mission.\n\n```\nquarkle\n```\n\nAnd `quarkle` inline.\n'] });
    expect(summary(glossaryHealth({ senses, usage }))).toEqual(['team_domain.yaml:8 information glossary.unused-term quarkle']);
    expect(glossaryHealth({ senses, usage: usageOf(senses, {}) })).toEqual([]);
    expect(glossaryHealth({ senses })).toEqual([]); // usage unknown: no usage rule
  });

  test("a front matter alias's uses are uses of its term", () => {
    const usage = usageOf(senses, { 'a.md': ['m1', '---\nglossary_aliases:\n  QK: quarkle\n---\n# A\n\nWork packages of a mission. Each QK waits.\n'] });
    expect(glossaryHealth({ senses, usage })).toEqual([]);
    expect(usage.usesOf('quarkle').map((u) => u.range.start.line)).toContain(6);
  });

  test('a term written only outside prose (in code) is in use, when the usage can tell', () => {
    const usage = usageOf(senses, { 'a.md': ['m1', 'Work packages of a mission.\n\nSet `quarkle`.\n'] }, ['quarkle']);
    expect(glossaryHealth({ senses, usage })).toEqual([]);
  });

  test("in the workspace's copy of the core glossary an unused term is only a hint", () => {
    const withCore = seeds({ spec_kitty_core: yaml(entry('charter')) });
    const usage = usageOf(withCore, { 'a.md': ['m1', 'Nothing here.\n'] });
    expect(summary(glossaryHealth({ senses: withCore, usage }))).toEqual(['spec_kitty_core.yaml:2 hint glossary.unused-term charter']);
  });

  test('entries of the bundled core glossary are never reported', () => {
    const bundled = parseSeedFile(yaml(entry('charter')), '/pkg/glossaries/spec_kitty_core.yaml', 'spec_kitty_core', 'bundled').senses;
    const usage = usageOf(bundled, { 'a.md': ['m1', 'Nothing here.\n'] });
    expect(glossaryHealth({ senses: bundled, usage })).toEqual([]);
  });
});

describe('glossary health: shadowed surfaces', () => {
  test('a team term the mission glossary also defines is shadowed; the finding points at the deciding entry', () => {
    const senses = seeds({ mission_local: yaml(entry('lane')), team_domain: yaml(entry('mission'), entry('lane')) });
    const findings = glossaryHealth({ senses });
    expect(summary(findings)).toEqual(['team_domain.yaml:5 information glossary.shadowed lane']);
    expect(findings[0]!.message).toBe("'lane' is shadowed: mission_local defines it too (mission_local.yaml:2), and that scope decides first, so this team_domain sense is never used.");
    expect(findings[0]!.related).toEqual([{ file: 'mission_local.yaml', range: { start: { line: 1, character: 13 }, end: { line: 1, character: 17 } }, message: 'the mission_local sense that decides: The lane of the product' }]);
  });

  test("a core term the team redefines is a hint on the workspace's core file", () => {
    const senses = seeds({ team_domain: yaml(entry('workspace')), spec_kitty_core: yaml(entry('workspace')) });
    expect(summary(glossaryHealth({ senses }))).toEqual(['spec_kitty_core.yaml:2 hint glossary.shadowed workspace']);
  });

  test('a surface shadowed only in another mission is not shadowed; a deprecated higher sense shadows nothing', () => {
    const senses = [...seeds({ team_domain: yaml(entry('lane')), spec_kitty_core: yaml(entry('mission')), audience_domain: yaml(entry('mission', '', 'deprecated')) }), missionSense('lane', 'm1')];
    expect(glossaryHealth({ senses })).toEqual([]);
  });
});

describe('glossary health: deprecated terms still used', () => {
  const team = yaml(entry('work dir', '', 'deprecated'), entry('workspace', '    synonyms_to_avoid: [folder]\n'));
  const specs: Record<string, [string, string]> = {
    'specs/b.md': ['m2', '# B\n\nThe work dir is cleaned.\n'],
    'specs/a.md': ['m1', '# A\n\nSome text.\n\nOpen the work dir, then the Work Dirs of others.\n'],
    'specs/c.md': ['m3', 'Only the workspace here.\n'],
  };

  test('a Warning on the deprecated entry saying where it is used: specs, times, first line of each', () => {
    const senses = seeds({ team_domain: team });
    const findings = glossaryHealth({ senses, usage: usageOf(senses, specs) });
    expect(summary(findings)).toEqual(['team_domain.yaml:2 warning glossary.deprecated-in-use work dir']);
    expect(findings[0]!.message).toBe("'work dir' is deprecated in team_domain but still used in 2 specs (3 times), e.g. specs/a.md:5, specs/b.md:3; each use is reported as inconsistent.");
    expect(findings[0]!.uses).toEqual({ specs: 2, occurrences: 3, examples: [{ path: 'specs/a.md', line: 5 }, { path: 'specs/b.md', line: 3 }] });
  });

  test('when a lower scope still defines the word, the uses resolve there and the finding says so', () => {
    const senses = seeds({ team_domain: team, spec_kitty_core: yaml(entry('work dir')) });
    const findings = glossaryHealth({ senses, usage: usageOf(senses, specs) }).filter((f) => f.code === 'glossary.deprecated-in-use');
    expect(findings.map((f) => f.message)).toEqual(["'work dir' is deprecated in team_domain but still used in 2 specs (3 times), e.g. specs/a.md:5, specs/b.md:3; those uses resolve to the spec_kitty_core sense."]);
    expect(findings[0]!.related?.[0]).toMatchObject({ file: 'spec_kitty_core.yaml' });
  });

  test('not retired: another live sense in the same scope, or a higher scope defining it; a mission with its own sense uses that', () => {
    const sameScope = seeds({ team_domain: team + entry('work dir') });
    expect(glossaryHealth({ senses: sameScope, usage: usageOf(sameScope, specs) }).filter((f) => f.code === 'glossary.deprecated-in-use')).toEqual([]);
    const higher = seeds({ team_domain: team, mission_local: yaml(entry('work dir')) });
    expect(glossaryHealth({ senses: higher, usage: usageOf(higher, specs) }).filter((f) => f.code === 'glossary.deprecated-in-use')).toEqual([]);
    const ownSense = [...seeds({ team_domain: team }), missionSense('work dir', 'm1')];
    const findings = glossaryHealth({ senses: ownSense, usage: usageOf(ownSense, specs) });
    expect(findings.map((f) => f.message)).toEqual(["'work dir' is deprecated in team_domain but still used in 1 spec, e.g. specs/b.md:3; each use is reported as inconsistent."]);
  });
});

describe('glossary health: synonyms to avoid that are terms', () => {
  test('on the synonym item of the entry that lists it, naming the defining entry', () => {
    const senses = seeds({ team_domain: yaml(entry('workspace', '    synonyms_to_avoid:\n      - work dir\n      - worktree\n')), spec_kitty_core: yaml(entry('worktree')) });
    const findings = glossaryHealth({ senses });
    expect(summary(findings)).toEqual(['team_domain.yaml:7 warning glossary.synonym-is-term workspace']);
    expect(findings[0]!.range).toEqual({ start: { line: 6, character: 8 }, end: { line: 6, character: 16 } });
    expect(findings[0]!.message).toBe(
      "'worktree' is listed as a synonym to avoid for 'workspace' (team_domain), but it is itself a term of spec_kitty_core (spec_kitty_core.yaml:2), so specs that use it resolve to that term and are never told to use 'workspace'.",
    );
  });

  test('a deprecated term as synonym is consistent; a deprecated entry lists nothing', () => {
    const senses = seeds({ team_domain: yaml(entry('workspace', '    synonyms_to_avoid: [worktree]\n'), entry('worktree', '', 'deprecated'), entry('lane', '    synonyms_to_avoid: [workspace]\n', 'deprecated')) });
    expect(glossaryHealth({ senses })).toEqual([]);
  });

  test('listed by the bundled core glossary: shown on the workspace entry that defines the word', () => {
    const bundled = parseSeedFile(yaml(entry('workspace', '    synonyms_to_avoid: [worktree]\n')), '/pkg/spec_kitty_core.yaml', 'spec_kitty_core', 'bundled').senses;
    const senses = [...bundled, ...seeds({ team_domain: yaml(entry('worktree')) })];
    const findings = glossaryHealth({ senses, fileLabel: (f) => f.replace('/pkg/', '') });
    expect(summary(findings)).toEqual(['team_domain.yaml:2 warning glossary.synonym-is-term worktree']);
    expect(findings[0]!.message).toBe(
      "'worktree' is a term here, but 'worktree' is listed as a synonym to avoid for 'workspace' (spec_kitty_core) (spec_kitty_core.yaml:2), so specs that use it resolve to that term and are never told to use 'workspace'.",
    );
  });
});

describe('glossary health: see_also to a missing term', () => {
  test('a Warning on the see_also item; a target written in another form of a defined term is found', () => {
    const senses = seeds({ team_domain: yaml(entry('workspace', '    see_also:\n      - term: Worktrees\n      - term: ghost town\n'), entry('worktree')) });
    const findings = glossaryHealth({ senses });
    expect(summary(findings)).toEqual(['team_domain.yaml:7 warning glossary.see-also-missing workspace']);
    expect(findings[0]!.range).toEqual({ start: { line: 6, character: 14 }, end: { line: 6, character: 24 } });
    expect(findings[0]!.message).toBe("'workspace' has see_also 'ghost town', which no glossary defines.");
  });

  test('a term defined only as deprecated, or only by one mission, is not missing', () => {
    const senses = [...seeds({ team_domain: yaml(entry('workspace', '    see_also: [{term: old}, {term: lane}]\n'), entry('old', '', 'deprecated')) }), missionSense('lane', 'm1')];
    expect(glossaryHealth({ senses })).toEqual([]);
  });
});
