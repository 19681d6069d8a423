/**
 * The bad-input matrix through the CLI (in this process: `cli` of test/cli/support.ts): every
 * input gets a clear message naming the file and the place, nothing crashes (no stack trace, no
 * exit code other than 0/1/2), valid data next to the bad data still counts, nothing is written
 * outside `.kittify/`. Big inputs are generated at test time in a temp folder; the large glossary
 * has the promised 100,000 senses in the scale run (`npm run test:scale`, helpers/scale.ts),
 * 10,000 in `npm test`.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { atScale } from '../helpers/scale';
import { AMBIGUOUS_ZORBLAX, cli, readLog, tempWorkspace, where, writeBig, ZORBLAX_SEED, type TempWorkspace } from './helpers';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const SPEC = 'kitty-specs/041-demo/spec.md';
const TEAM = '.kittify/glossaries/team_domain.yaml';
const MISSION_SEED = '.kittify/glossaries/mission_local.yaml';
const ZORBLAX_SPEC = '# Demo\n\nThe zorblax is ready.\n';
const SENSES = atScale(100_000, 10_000);

function setup(files: Record<string, string | Buffer> = {}): TempWorkspace {
  ws = tempWorkspace({ 'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }) });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(ws.path(file)), { recursive: true });
    writeFileSync(ws.path(file), content);
  }
  return ws;
}

/** Nothing crashed: a known exit code and no stack trace anywhere. */
function sane(result: { status: number; stdout: string; stderr: string }): void {
  expect([0, 1, 2], result.stderr).toContain(result.status);
  expect(result.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  expect(result.stdout).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
}

const json = (stdout: string) => JSON.parse(stdout) as { documents: { path: string; findings: { term: string; conflict_type: string; range: unknown }[] }[] };

describe('bad input through the CLI', () => {
  test('malformed YAML in a seed: the gate refuses (exit 2) at its line and column, in every format; the other scopes still apply where nothing is decided', async () => {
    const broken = 'terms:\n  - surface: workspace\n    definition: [unclosed\n  - surface: other\n';
    setup({ [TEAM]: broken, [MISSION_SEED]: ZORBLAX_SEED, [SPEC]: ZORBLAX_SPEC });
    // The team's senses are missing: an ambiguity of theirs could pass, so no gate may.
    for (const format of ['text', 'json', 'sarif']) {
      const result = await cli(['check', '--format', format], ws.root);
      sane(result);
      expect(result.status, format).toBe(2);
      expect(result.stdout, format).toBe('');
      expect(result.stderr).toMatch(/^spec-glossary check: unusable glossary: \.kittify\/glossaries\/team_domain\.yaml:[34]:\d+: YAML syntax error: \S.*The senses of team_domain are missing, so no gate can pass on this glossary/m);
    }
    expect((await cli(['resolve', 'zorblax', '--mission', '041-demo', '--sense', '1'], ws.root)).stderr).toContain('unusable glossary: .kittify/glossaries/team_domain.yaml:');
    const uses = await cli(['uses', 'zorblax'], ws.root);
    expect(uses.status).toBe(0);
    expect(uses.stderr).toMatch(/^\.kittify\/glossaries\/team_domain\.yaml:[34]:\d+ error glossary\.parse-error YAML syntax error: \S/m);
    expect(uses.stdout).toContain(SPEC);
    const validate = await cli(['validate'], ws.root);
    sane(validate);
    expect(validate.status).toBe(1);
    expect(validate.stdout + validate.stderr).toMatch(/team_domain\.yaml:[34]:\d+ error glossary\.parse-error/);
  });

  test('wrong types in every seed field: one error per field, at its value; the valid entries still load', async () => {
    const seed = `terms:
  - surface: 123
    definition: number surface
  - surface: alpha
    definition: [a, list]
  - surface: beta
    definition: string confidence
    confidence: "high"
  - surface: gamma
    definition: boolean confidence
    confidence: true
  - surface: delta
    definition: confidence out of range
    confidence: 7
  - surface: epsilon
    definition: numeric status
    status: 5
  - surface: zeta
    definition: mapping synonyms
    synonyms_to_avoid: {a: b}
  - surface: eta
    definition: numeric see_also
    see_also: 5
  - surface: theta
    definition: list mission
    introduced_in_mission: [x]
  - surface: Iota
    definition: not normalized
  - definition: no surface at all
  - just a string
${ZORBLAX_SEED.replace('terms:\n', '')}`;
    setup({ [TEAM]: seed, [SPEC]: ZORBLAX_SPEC });
    const result = await cli(['check'], ws.root);
    sane(result);
    const expected: [string, string][] = [
      [where(seed, '123'), 'glossary.invalid-surface'],
      [where(seed, '[a, list]'), 'glossary.invalid-definition'],
      [where(seed, '"high"'), 'glossary.invalid-confidence'],
      [where(seed, 'true'), 'glossary.invalid-confidence'],
      [where(seed, '7'), 'glossary.invalid-confidence'],
      [where(seed, '5\n'), 'glossary.invalid-status'],
      [where(seed, '{a: b}'), 'glossary.invalid-synonyms-to-avoid'],
      [where(seed, '5\n', 2), 'glossary.invalid-see-also'],
      [where(seed, '[x]'), 'glossary.invalid-introduced-in-mission'],
      [where(seed, 'Iota'), 'glossary.surface-not-normalized'],
      [where(seed, 'definition: no surface'), 'glossary.missing-surface'],
      [where(seed, 'just a string'), 'glossary.invalid-entry'],
    ];
    for (const [at, code] of expected) expect(result.stderr).toMatch(new RegExp(`^${TEAM.replace(/\./g, '\\.')}:${at} error ${code.replace(/\./g, '\\.')} \\S`, 'm'));
    expect(result.stderr.trim().split('\n')).toHaveLength(expected.length);
    // The two valid zorblax entries loaded: the term is ambiguous between them.
    expect(result.stdout).toContain(`${AMBIGUOUS_ZORBLAX} team_domain`);
  });

  test('an extractor id in config.yaml that names no extractor: a warning at it (it disables nothing); the known one still disables', async () => {
    const config = 'glossary:\n  disabled_extractors: [acronymm, repeated_noun]\n';
    setup({ [TEAM]: ZORBLAX_SEED, '.kittify/config.yaml': config, [SPEC]: '# Demo\n\nThe QZXW rules and the frobnicator, the frobnicator, the frobnicator.\n' });
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(result.stderr).toContain(`.kittify/config.yaml:${where(config, 'acronymm')} warning config.unknown-extractor glossary.disabled_extractors: 'acronymm' is no extractor (known: glossary_match, metadata_hint, quoted_phrase, acronym, casing_pattern, repeated_noun); it disables nothing.`);
    expect(json(result.stdout).documents[0]!.findings.map((f) => f.term)).toEqual(['qzxw']);
    const validated = await cli(['validate'], ws.root);
    expect(validated.stdout + validated.stderr).toContain('config.unknown-extractor');
  });

  test('wrong types in config.yaml, front matter and meta.json: warnings at the value, defaults used, the document still checked', async () => {
    const config = 'glossary:\n  strictness: 5\n  check: [x]\n  disabled_extractors: acronym\n  ignore_words: [ok, {a: b}]\n';
    const spec = '---\nmission_id: [a]\nstep_id: {x: 1}\ncritical_step: "yes"\nglossary_watch_terms: 5\nglossary_aliases: [a]\nglossary_fields: 7\nglossary_check: 12\n---\n# Demo\n\nThe zorblax is ready.\n';
    setup({ [TEAM]: ZORBLAX_SEED, '.kittify/config.yaml': config, [SPEC]: spec, 'kitty-specs/041-demo/meta.json': '{"mission_id": {"nested": true}, "glossary": "max"}' });
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(result.status).toBe(0);
    for (const [at, code] of [
      [where(config, '5'), 'config.invalid-strictness'],
      [where(config, '[x]'), 'config.invalid-check'],
      [where(config, 'acronym'), 'config.invalid-list'],
      [where(config, '{a: b}'), 'config.invalid-list'],
    ]) {
      expect(result.stderr).toMatch(new RegExp(`^\\.kittify/config\\.yaml:${at} warning ${code!.replace(/\./g, '\\.')} glossary\\.`, 'm'));
    }
    for (const [needle, key] of [
      ['[a]', 'mission_id'],
      ['{x: 1}', 'step_id'],
      ['"yes"', 'critical_step'],
      ['5\n', 'glossary_watch_terms'],
      ['[a]\ngloss', 'glossary_aliases'],
      ['7', 'glossary_fields'],
      ['12', 'glossary_check'],
    ]) {
      expect(result.stderr, key).toMatch(new RegExp(`^${SPEC}:${where(spec, needle!)} warning frontmatter\\.invalid \`${key}\` must be`, 'm'));
    }
    expect(result.stderr).toContain('kitty-specs/041-demo/meta.json warning file mission_id must be a non-empty string (got {"nested":true}); it is ignored');
    const [doc] = json(result.stdout).documents;
    // Invalid values are ignored: mission from the folder name, step from the file name, not critical.
    expect(doc).toMatchObject({ mission_id: '041-demo', step_id: 'spec', strictness: 'medium', blocked: false });
    expect(doc!.findings.map((f) => f.term)).toEqual(['zorblax']);
  });

  test('duplicate keys: in an entry, at the top of a seed, in config.yaml and in front matter — each reported where it repeats', async () => {
    const seed = `terms:
  - surface: worktree
    surface: worktree
    definition: dup inside an entry
${ZORBLAX_SEED.replace('terms:\n', '')}terms:
  - surface: lost
    definition: second list
`;
    const config = 'glossary:\n  strictness: off\nglossary:\n  strictness: max\n';
    const spec = '---\ncritical_step: true\ncritical_step: false\n---\nThe zorblax is ready.\n';
    setup({ [TEAM]: seed, '.kittify/config.yaml': config, [SPEC]: spec });
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(result.stderr).toContain(`${TEAM}:${where(seed, 'surface: worktree', 2)} error glossary.duplicate-key Duplicate key \`surface\` in entry 1. Spec Kitty refuses the whole file; spec-glossary reads the rest (the entry is skipped).`);
    expect(result.stderr).toContain(`${TEAM}:${where(seed, 'terms:', 2)} error glossary.duplicate-key Duplicate top-level key \`terms\` (first at line 1). Spec Kitty refuses the whole file; spec-glossary reads the rest (only the first one is read).`);
    expect(result.stderr).toContain(`.kittify/config.yaml:${where(config, 'glossary:', 2)} warning config.duplicate-key Duplicate key \`glossary\` (first at line 1); only the first one is read.`);
    expect(result.stderr).toContain(`${SPEC}:${where(spec, 'critical_step', 2)} warning frontmatter.invalid Duplicate front matter key \`critical_step\` (first at line 2); only the first one is read.`);
    const [doc] = json(result.stdout).documents;
    // First wins everywhere: config strictness off, the step is critical, the entries of the first list load.
    expect(doc).toMatchObject({ strictness: 'off', blocked: false });
    expect(doc!.findings).toMatchObject([{ term: 'zorblax', conflict_type: 'ambiguous', severity: 'high' }]);
  });

  test('a 50 MB spec and a binary file are skipped with a clear message, the rest is checked; a 50 MB or binary seed is not read, and the gate refuses', async () => {
    setup({ [TEAM]: ZORBLAX_SEED, [SPEC]: ZORBLAX_SPEC, 'docs/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]) });
    const size = writeBig(ws.path('docs/huge.md'), 50 * 1024 * 1024, 'The zorblax is ready and the zorblax is set.\n');
    const started = Date.now();
    const result = await cli(['check'], ws.root);
    sane(result);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`skipped: docs/huge.md is ${(size / 1024 / 1024).toFixed(1)} MB, above the 5 MB limit\n`);
    expect(result.stdout).toContain('skipped: docs/binary.md looks binary (it contains NUL bytes)\n');
    expect(result.stdout).toContain(`${SPEC}:${where(ZORBLAX_SPEC, 'zorblax')} medium ambiguous`);
    expect(result.stdout).toMatch(/^1 document checked, 1 finding/m);
    // The limit is a setting, and glossary files are held to it too.
    const long = 'kitty-specs/041-demo/long.md';
    writeFileSync(ws.path(long), `The zorblax.\n${'x'.repeat(600)}\n`);
    const small = await cli(['check', long, '--max-file-size', '500'], ws.root);
    sane(small);
    expect(small.stdout).toContain(`skipped: ${long} is 614 bytes, above the 500 bytes limit\n`);
    rmSync(ws.path(long));
    const tiny = await cli(['check', SPEC, '--max-file-size', '1'], ws.root);
    expect(tiny.status).toBe(2);
    expect(tiny.stderr).toContain(`unusable glossary: ${TEAM} is ${Buffer.byteLength(ZORBLAX_SEED)} bytes, above the 1 byte limit; it was skipped.`);
    // JSON has no place for them: said on stderr, the object stays parseable on stdout; so does candidates.
    const asJson = await cli(['check', '--format', 'json'], ws.root);
    sane(asJson);
    expect(JSON.parse(asJson.stdout).summary).toMatchObject({ documents: 1 });
    expect(asJson.stderr).toContain(`skipped: docs/huge.md is ${(size / 1024 / 1024).toFixed(1)} MB, above the 5 MB limit\n`);
    expect(asJson.stderr).toContain('skipped: docs/binary.md looks binary (it contains NUL bytes)');

    // Glossary files that cannot be read: their scopes' senses would be missing, so no gate passes.
    writeBig(ws.path('.kittify/glossaries/audience_domain.yaml'), 50 * 1024 * 1024, '# padding\n');
    writeFileSync(ws.path(MISSION_SEED), Buffer.from([0, 1, 2, 3, 0xff, 0]));
    const refused = await cli(['check'], ws.root);
    sane(refused);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'spec-glossary check: unusable glossary: .kittify/glossaries/mission_local.yaml looks binary (it contains NUL bytes); it was skipped; .kittify/glossaries/audience_domain.yaml is 50 MB, above the 5 MB limit; it was skipped. The senses of mission_local, audience_domain are missing, so no gate can pass on this glossary: fix the files',
    );
    const candidates = await cli(['candidates', '--format', 'json'], ws.root);
    expect(candidates.status).toBe(0);
    expect(candidates.stderr).toContain('skipped: docs/binary.md looks binary (it contains NUL bytes)');
    expect(candidates.stderr).toContain(`.kittify/glossaries/audience_domain.yaml warning file is 50 MB, above the 5 MB limit; it was skipped`);
    expect(candidates.stderr).toContain(`.kittify/glossaries/mission_local.yaml warning file looks binary (it contains NUL bytes); it was skipped`);
  });

  test('invalid UTF-8: a warning with the line and column of the first bad byte; the file is still read', async () => {
    const spec = Buffer.concat([Buffer.from('# Demo\n\nCaf\u00e9 text: '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' then the zorblax.\n')]);
    const seed = Buffer.concat([Buffer.from(ZORBLAX_SEED), Buffer.from('  - surface: caf'), Buffer.from([0xe9]), Buffer.from('\n    definition: latin-1 bytes\n')]);
    setup({ [TEAM]: seed, [SPEC]: spec });
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(result.stderr).toContain(`${SPEC} warning file is not valid UTF-8 (first invalid byte at line 3, column 12); invalid bytes were replaced with U+FFFD`);
    expect(result.stderr).toContain(`${TEAM} warning file is not valid UTF-8 (first invalid byte at line 10, column 17); invalid bytes were replaced with U+FFFD`);
    const decoded = spec.toString('utf8');
    const [doc] = json(result.stdout).documents;
    expect(doc!.findings).toEqual([expect.objectContaining({ term: 'zorblax', range: { start: positionOfText(decoded, 'zorblax'), end: positionOfText(decoded, 'zorblax', 7) } })]);
    // An event log line with an invalid byte inside a string: kept (nothing lost), with a warning on its line.
    expect((await cli(['resolve', 'zorblax', '--mission', 'm-041', '--sense', '1'], ws.root)).status).toBe(0);
    const log = ws.path('.kittify/events/glossary/m-041.events.jsonl');
    const line = readFileSync(log);
    const at = line.indexOf('"actor_id": "user:') + '"actor_id": "user:'.length;
    writeFileSync(log, Buffer.concat([line.subarray(0, at), Buffer.from([0xff]), line.subarray(at)]));
    const after = await cli(['check'], ws.root);
    sane(after);
    expect(after.stderr).toContain('.kittify/events/glossary/m-041.events.jsonl:1:1 warning events.invalid-line the line is not valid UTF-8: invalid bytes were replaced with U+FFFD; the event is kept as read');
    expect(after.stdout).not.toContain('ambiguous'); // the pin still applies
  });

  test('CRLF line endings and a UTF-8 BOM everywhere: same findings at the same positions as LF files', async () => {
    const crlf = (text: string) => '\ufeff' + text.replace(/\n/g, '\r\n');
    const spec = '---\ncritical_step: true\n---\n# Demo\n\nThe zorblax is ready.\nAnd the zorblax again.\n';
    const files = { [TEAM]: ZORBLAX_SEED, '.kittify/config.yaml': 'glossary:\n  strictness: max\n', [SPEC]: spec, 'kitty-specs/041-demo/meta.json': '{"mission_id": "m-bom"}\n' };
    setup(files);
    const lf = await cli(['check', '--format', 'json'], ws.root);
    for (const [file, text] of Object.entries(files)) writeFileSync(ws.path(file), crlf(text));
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1); // critical step, max strictness (from the BOM+CRLF config)
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(lf.stdout));
    expect(json(result.stdout).documents[0]).toMatchObject({ mission_id: 'm-bom', strictness: 'max' });
    // An event log with a BOM and CRLF endings is read too; appends keep going after it.
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const log = ws.path('.kittify/events/glossary/m-bom.events.jsonl');
    const lines = readLog(log).wholeLines;
    writeFileSync(log, '\ufeff' + lines.join('\r\n') + '\r\n');
    const validate = await cli(['validate'], ws.root);
    sane(validate);
    expect(validate.status).toBe(0);
    expect(validate.stdout).toContain(`(${lines.length} valid events)`);
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const after = readLog(log);
    expect(after.problems).toEqual([]);
    expect(after.events.map((e) => e.lamport_clock)).toEqual(Array.from({ length: after.events.length }, (_, i) => i + 1));
  });

  test('a seed or event log symlinked outside the workspace is refused, read and write; the outside file is untouched', async () => {
    setup({ [SPEC]: '---\ncritical_step: true\n---\nThe zorblax is ready.\n' });
    const outside = path.join(path.dirname(ws.root), `${path.basename(ws.root)}-outside`);
    mkdirSync(outside, { recursive: true });
    try {
      writeFileSync(path.join(outside, 'team.yaml'), ZORBLAX_SEED);
      const outsideLog = path.join(outside, 'stolen.events.jsonl');
      writeFileSync(outsideLog, 'precious\n');
      mkdirSync(ws.path('.kittify/events/glossary'), { recursive: true });
      mkdirSync(ws.path('.kittify/glossaries'), { recursive: true });
      symlinkSync(path.join(outside, 'team.yaml'), ws.path(TEAM));
      symlinkSync(outsideLog, ws.path('.kittify/events/glossary/m-041.events.jsonl'));
      // The refused seed gives no sense: the gate refuses (uses still reads the rest).
      const result = await cli(['check'], ws.root);
      sane(result);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`unusable glossary: ${TEAM} resolves to ${path.join(outside, 'team.yaml')} through a symbolic link, outside the workspace folder ${ws.root}; refusing to use it.`);
      const uses = await cli(['uses', 'zorblax'], ws.root);
      expect(uses.stderr).toContain(`${TEAM} warning file resolves to ${path.join(outside, 'team.yaml')} through a symbolic link, outside the workspace folder ${ws.root}; refusing to use it`);
      expect(uses.stderr).toMatch(/\.kittify\/events\/glossary\/m-041\.events\.jsonl warning file (.*m-041\.events\.jsonl )?resolves to .*stolen\.events\.jsonl through a symbolic link, outside the workspace folder/);
      rmSync(ws.path(TEAM));
      // Writing through the link is refused too (exit 2), for check --emit-events and resolve.
      writeFileSync(ws.path(MISSION_SEED), ZORBLAX_SEED);
      const emit = await cli(['check', '--emit-events'], ws.root);
      sane(emit);
      expect(emit.status).toBe(2);
      expect(emit.stderr).toMatch(/^spec-glossary check: no events recorded: .*m-041\.events\.jsonl resolves to .*stolen\.events\.jsonl through a symbolic link, outside the workspace folder .*; refusing to use it$/m);
      const resolve = await cli(['resolve', 'zorblax', '--mission', 'm-041', '--sense', '1'], ws.root);
      sane(resolve);
      expect(resolve.status).toBe(2);
      expect(resolve.stderr).toMatch(/stolen\.events\.jsonl through a symbolic link, outside the workspace folder/);
      expect(readFileSync(outsideLog, 'utf8')).toBe('precious\n');
      expect(readdirSync(outside).sort()).toEqual(['stolen.events.jsonl', 'team.yaml']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('symbolic links to specs: not followed while walking, and said so; a named one leading out of the workspace is refused (exit 2)', async () => {
    setup({ [SPEC]: '---\ncritical_step: true\n---\nThe zorblax is ready.\n' });
    const outside = path.join(path.dirname(ws.root), `${path.basename(ws.root)}-outside-specs`);
    mkdirSync(outside, { recursive: true });
    try {
      writeFileSync(path.join(outside, 'elsewhere.md'), '# Elsewhere\n\nThe zorblax is ready.\n');
      mkdirSync(ws.path('docs/loop'), { recursive: true });
      symlinkSync(ws.path(SPEC), ws.path('docs/linked.md'));
      symlinkSync(outside, ws.path('docs/outside'));
      symlinkSync('..', ws.path('docs/loop/up'));
      const walked = await cli(['check', 'docs'], ws.root);
      sane(walked);
      expect(walked.status).toBe(0);
      expect(walked.stdout).toContain('0 documents checked');
      for (const link of ['docs/linked.md', 'docs/outside', 'docs/loop/up']) expect(walked.stderr).toContain(`${link} warning file is a symbolic link: not followed`);
      // Named: its target inside the workspace is checked; one outside is refused, nothing checked.
      expect((await cli(['check', 'docs/linked.md'], ws.root)).stdout).toContain('1 document checked');
      const named = await cli(['check', 'docs/outside'], ws.root);
      sane(named);
      expect(named.status).toBe(2);
      expect(named.stderr).toContain(`cannot read docs/outside: ${ws.path('docs/outside')} resolves to ${outside} through a symbolic link, outside the workspace folder ${ws.root}; refusing to use it. Nothing was checked`);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a mission id with '../' is sanitized into a file name inside the log folder", async () => {
    setup({ [TEAM]: ZORBLAX_SEED, [SPEC]: '---\nmission_id: ../../../escape\ncritical_step: true\n---\nThe zorblax is ready.\n' });
    const logDir = ws.path('.kittify/events/glossary');
    // Where an escaping name would land (the shared temporary folder, and its parent): none may appear.
    const escapes = ['escape.events.jsonl', 'x', 'y.events.jsonl'].flatMap((name) => [path.join(ws.root, '..', name), path.join(ws.root, '..', '..', name)]);
    const there = escapes.filter((file) => existsSync(file));
    const result = await cli(['check', '--emit-events'], ws.root);
    sane(result);
    expect(result.status).toBe(1);
    expect(readdirSync(logDir)).toEqual(['..-..-..-escape.events.jsonl']);
    const flag = await cli(['check', '--emit-events', '--mission', '../..\\x/y'], ws.root);
    sane(flag);
    const resolve = await cli(['resolve', 'zorblax', '--mission', '../../../escape', '--sense', '1'], ws.root);
    sane(resolve);
    expect(resolve.status).toBe(0);
    expect(readdirSync(logDir).sort()).toEqual(['..-..-..-escape.events.jsonl', '..-..-x-y.events.jsonl']);
    expect(readLog(path.join(logDir, '..-..-..-escape.events.jsonl')).events.at(-1)).toMatchObject({ event_type: 'GlossaryClarificationResolved', mission_id: '../../../escape' });
    expect(escapes.filter((file) => existsSync(file))).toEqual(there);
  });

  test('an event log line of 10 MB: reported with its line number; the lines after it count; appends continue after it', async () => {
    setup({ [TEAM]: ZORBLAX_SEED, [SPEC]: '---\ncritical_step: true\n---\nThe zorblax is ready.\n' });
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1); // defers the conflict: a Requested event
    const log = ws.path('.kittify/events/glossary/m-041.events.jsonl');
    const before = readLog(log);
    const garbage = '{"event_type": "GlossaryClarificationResolved", "term": "' + 'x'.repeat(10 * 1024 * 1024);
    writeFileSync(log, [before.wholeLines[0], garbage, ...before.wholeLines.slice(1)].join('\n') + '\n');
    // The clarification is closed by a resolve written after the huge line.
    const resolve = await cli(['resolve', 'zorblax', '--mission', 'm-041', '--sense', '2'], ws.root);
    sane(resolve);
    expect(resolve.status).toBe(0);
    const validate = await cli(['validate'], ws.root);
    sane(validate);
    expect(validate.stdout).toMatch(/m-041\.events\.jsonl:2:1 error events\.invalid-line not valid JSON \(Unterminated string in JSON at position \d+\); line skipped/);
    expect(validate.stdout.length).toBeLessThan(10_000); // the line is not echoed
    const replay = await cli(['replay', '--mission', 'm-041', '--json'], ws.root);
    sane(replay);
    const state = JSON.parse(replay.stdout);
    expect(state.pins).toMatchObject([{ term: 'zorblax', selected_sense: { definition: 'A queue of pending reviews' } }]);
    expect(state.open_clarifications).toEqual([]);
    const after = readLog(log);
    expect(after.problems).toMatchObject([{ line: 2 }]);
    expect(after.events.at(-1)!.lamport_clock).toBe(before.events.length + 1);
  });

  test('front matter that is not a mapping: a warning on the front matter; the document is still checked', async () => {
    const variants = {
      'a.md': '---\n- a\n- b\n---\nThe zorblax is ready.\n',
      'b.md': '---\njust a sentence\n---\nThe zorblax is ready.\n',
      'c.md': '---\nkey: [unclosed\n---\nThe zorblax is ready.\n',
    };
    setup({ [TEAM]: ZORBLAX_SEED, ...Object.fromEntries(Object.entries(variants).map(([f, t]) => [`docs/${f}`, t])) });
    const result = await cli(['check', 'docs', '--format', 'json'], ws.root);
    sane(result);
    expect(result.stderr).toContain('docs/a.md:1:1 warning frontmatter.invalid Front matter must be a mapping of keys to values; it was ignored.');
    expect(result.stderr).toContain('docs/b.md:1:1 warning frontmatter.invalid Front matter must be a mapping of keys to values; it was ignored.');
    expect(result.stderr).toMatch(/^docs\/c\.md:[23]:\d+ warning frontmatter\.invalid Front matter is not valid YAML: \S/m);
    expect(json(result.stdout).documents.map((d) => [d.path, d.findings.map((f) => f.term)])).toEqual([
      ['docs/a.md', ['zorblax']],
      ['docs/b.md', ['zorblax']],
      ['docs/c.md', ['zorblax']],
    ]);
  });

  test('a YAML alias bomb (seed, config, front matter) and a 1 MB front matter: refused at once with a message, the rest checked', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n') + '\n';
    const seed = `${bomb}terms:\n  - surface: zorblax\n    definition: *i\n${ZORBLAX_SEED.replace('terms:\n', '')}`;
    setup({
      [TEAM]: seed,
      '.kittify/config.yaml': `${bomb}glossary:\n  ignore_words: *i\n`,
      'docs/bomb.md': `---\n${bomb}---\nThe zorblax is ready.\n`,
      'docs/big-front.md': `---\n${'key: value\n'.repeat(100_000)}---\nThe zorblax is ready.\n`,
    });
    const started = Date.now();
    const result = await cli(['check', 'docs', '--format', 'json'], ws.root);
    sane(result);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.stderr).toContain(`${TEAM}:${where(seed, '*i\n')} error glossary.invalid-definition`);
    expect(result.stderr).toContain(`.kittify/config.yaml:${where(`${bomb}glossary:\n  ignore_words: *i\n`, '*i\n')} warning config.invalid-list glossary.ignore_words must be a list of strings`);
    expect(result.stderr).toContain('docs/bomb.md:1:1 warning frontmatter.invalid Front matter could not be read: Excessive alias count indicates a resource exhaustion attack');
    expect(result.stderr).toContain('docs/big-front.md:1:1 warning frontmatter.invalid Front matter is larger than 256 KiB and was not read.');
    expect(json(result.stdout).documents.map((d) => [d.path, d.findings.map((f) => f.term)])).toEqual([
      ['docs/big-front.md', ['zorblax']],
      ['docs/bomb.md', ['zorblax']],
    ]);
  });

  test(`a glossary with ${SENSES.toLocaleString('en')} senses loads and checks in seconds`, async () => {
    let seed = 'terms:\n';
    // Written as Spec Kitty writes a seed, one key per line. (The same entries in flow style, which
    // only the yaml library reads, are held to scale in test/property/seeds.property.test.ts.)
    for (let i = 0; i < SENSES; i++) seed += `  - surface: term${i}\n    definition: sense ${i}\n`;
    // term4242 is defined once; zorblax twice (ambiguous), defined at the very end of the file.
    seed += ZORBLAX_SEED.replace('terms:\n', '');
    setup({ [TEAM]: seed, [SPEC]: '# Demo\n\nThe term4242 and the zorblax are ready.\n' });
    expect(Buffer.byteLength(seed)).toBeLessThan(5 * 1024 * 1024);
    const started = Date.now();
    const result = await cli(['check', '--format', 'json'], ws.root);
    sane(result);
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(result.stderr).toBe('');
    expect(json(result.stdout).documents[0]!.findings.map((f) => [f.term, f.conflict_type])).toEqual([['zorblax', 'ambiguous']]);
  });
});

function positionOfText(text: string, needle: string, plus = 0): { line: number; character: number } {
  const at = text.indexOf(needle) + plus;
  const before = text.slice(0, at);
  return { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
}
