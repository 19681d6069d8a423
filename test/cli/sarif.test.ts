import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, test } from 'vitest';
import { REPO } from '../helpers/workspace';
import { blockedWorkspace, cli, MISSION, SPEC, type TempWorkspace } from './support';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

// A faithful subset of the official SARIF 2.1.0 schema; see test/fixtures/sarif/README.md.
const schema = JSON.parse(readFileSync(path.join(REPO, 'test/fixtures/sarif/sarif-2.1.0-subset.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

async function sarif(args: string[], cwd: string): Promise<{ status: number; log: any; stdout: string }> {
  const result = await cli(['check', '--format', 'sarif', ...args], cwd);
  return { status: result.status, stdout: result.stdout, log: JSON.parse(result.stdout) };
}

const SPEC_TEXT = '---\ncritical_step: true\n---\n# Demo\n\nThe workspace is ready; open the work dir.\nUse the "frobnicator" and the workspace.\n';

describe('check --format sarif', () => {
  test('validates against the SARIF 2.1.0 schema', async () => {
    ws = blockedWorkspace({ [SPEC]: SPEC_TEXT, '.kittify/glossaries/mission_local.yaml': 'terms:\n  - surface: Bad\n    definition: x\n' });
    const { status, log } = await sarif([], ws.root);
    expect(status).toBe(1); // same exit code as text output
    const ok = validateSarif(log);
    expect(validateSarif.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    // The schema has teeth: a misplaced property or a bad level fails.
    const broken = structuredClone(log);
    broken.runs[0].results[0].level = 'fatal';
    broken.runs[0].results[0].locations[0].physicalLocation.region.startColumn = 0;
    broken.runs[0].tool.driver.rule = [];
    expect(validateSarif(broken)).toBe(false);
    expect(validateSarif.errors!.map((e) => e.instancePath).sort()).toEqual(
      expect.arrayContaining(['/runs/0/results/0/level', '/runs/0/results/0/locations/0/physicalLocation/region/startColumn', '/runs/0/tool/driver']),
    );
  });

  test('rules per conflict type, results with levels, 1-based regions, relative URIs, fingerprints', async () => {
    ws = blockedWorkspace({ [SPEC]: SPEC_TEXT });
    const { log } = await sarif(['--strictness', 'max'], ws.root);
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    const driver = run.tool.driver;
    expect(driver.name).toBe('spec-glossary');
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(driver.rules.map((r: any) => [r.id, r.name, r.defaultConfiguration.level])).toEqual([
      ['ambiguous', 'AmbiguousTerm', 'warning'],
      ['unknown', 'UnknownTerm', 'note'],
      ['inconsistent', 'InconsistentTerm', 'note'],
      ['unresolved_critical', 'UnresolvedCriticalTerm', 'error'],
    ]);
    for (const rule of driver.rules) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(10);
      expect(rule.fullDescription.text.length).toBeGreaterThan(10);
      expect(rule.help.text.length).toBeGreaterThan(10);
    }
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/\/.*\/$/);

    const results = run.results as any[];
    expect(results.map((r) => [r.ruleId, r.ruleIndex, r.level, r.locations[0].physicalLocation.region.startLine, r.locations[0].physicalLocation.region.startColumn])).toEqual([
      ['ambiguous', 0, 'error', 6, 5],
      ['inconsistent', 2, 'note', 6, 34],
      ['unknown', 1, 'note', 7, 10],
      ['ambiguous', 0, 'error', 7, 31],
    ]);
    const first = results[0];
    expect(first.message.text).toBe("Ambiguous term 'workspace': 2 senses in team_domain; choose the one this mission means.");
    expect(first.locations[0].physicalLocation.artifactLocation).toEqual({ uri: SPEC, uriBaseId: '%SRCROOT%' });
    expect(first.locations[0].physicalLocation.region).toEqual({ startLine: 6, startColumn: 5, endLine: 6, endColumn: 14 });
    expect(first.properties).toMatchObject({ term: 'workspace', severity: 'high', mission_id: MISSION, step_id: 'spec' });
    // Fingerprints: present, distinct per occurrence, and stable across runs.
    const prints = results.map((r) => r.partialFingerprints['specGlossary/v1']);
    expect(new Set(prints).size).toBe(results.length);
    expect((await sarif(['--strictness', 'max'], ws.root)).log.runs[0].results.map((r: any) => r.partialFingerprints['specGlossary/v1'])).toEqual(prints);
    expect(validateSarif(log)).toBe(true);
  });

  test('what GitHub code scanning requires of an upload is there', async () => {
    ws = blockedWorkspace({ [SPEC]: SPEC_TEXT });
    const { log } = await sarif([], ws.root);
    for (const run of log.runs) {
      expect(typeof run.tool.driver.name).toBe('string');
      expect(Array.isArray(run.results)).toBe(true);
      for (const r of run.results) {
        expect(typeof r.ruleId).toBe('string');
        expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
        expect(typeof r.message.text).toBe('string');
        expect(r.locations.length).toBeGreaterThan(0);
        const loc = r.locations[0].physicalLocation;
        expect(loc.artifactLocation.uri).not.toMatch(/^\.\.?\//); // relative to the checkout, no ./ or ../
        expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
        expect(Object.keys(r.partialFingerprints).length).toBeGreaterThan(0);
      }
    }
  });

  test('a clean run is a valid log with no results; glossary problems become notifications', async () => {
    ws = blockedWorkspace({ [SPEC]: 'Each worktree is ready.\n', '.kittify/glossaries/mission_local.yaml': 'terms:\n  - surface: Bad\n    definition: x\n' });
    const { status, log } = await sarif([], ws.root);
    expect(status).toBe(0);
    expect(log.runs[0].results).toEqual([]);
    const notes = log.runs[0].invocations[0].toolConfigurationNotifications;
    expect(notes[0]).toMatchObject({ level: 'error', descriptor: { id: 'glossary.surface-not-normalized' }, locations: [{ physicalLocation: { artifactLocation: { uri: '.kittify/glossaries/mission_local.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 2 } } }] });
    expect(validateSarif(log)).toBe(true);
  });
});
