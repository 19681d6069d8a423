/**
 * Seeds agree with Spec Kitty's schema (SPEC §3, issue 14): each case below is a seed file with
 * Spec Kitty's verdict — `refuses` when its loader (ruamel.yaml) and pydantic schema
 * (`seed_schema.py`, `extra="forbid"`) refuse the file — and what spec-glossary reads from it.
 * What Spec Kitty refuses must be an error here (saying Spec Kitty refuses the whole file); what it
 * accepts must load without error. When python3 with ruamel.yaml and pydantic is available and the
 * shared reference folder is present, Spec Kitty's own code (imported in place) re-checks every
 * verdict of the table.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeedFile, SPEC_KITTY_REFUSES } from '../../server/src/core/seeds';

interface Case {
  name: string;
  yaml: string;
  refuses: boolean;
  /** Surfaces spec-glossary reads as senses (one bad entry never drops the rest). */
  senses: string[];
  /** Code of the problem expected (an error when `refuses`, else a warning); none when absent. */
  code?: string;
}

const ENTRY = '  - surface: workspace\n    definition: Git worktree directory\n';

const CASES: Case[] = [
  // --- what it accepts, and writes itself -----------------------------------------------------
  {
    name: 'save_seed_file with two senses of one surface: anchors and aliases on shared metadata, flow pairs, block scalars, header comments',
    yaml: `# Team glossary\n# second header line\nterms:\n- surface: workspace\n  definition: "Git worktree: one per WP"\n  confidence: 1.0\n  status: active\n  see_also: &id001 [term: worktree]\n  synonyms_to_avoid: &id002 [work dir]\n  introduced_in_mission: "041"\n- surface: workspace\n  definition: |-\n    VS Code's workspace file\n    second line\n  confidence: 0.7\n  status: active\n  see_also: *id001\n  synonyms_to_avoid: *id002\n  introduced_in_mission: "041"\n`,
    refuses: false,
    senses: ['workspace', 'workspace'],
  },
  { name: 'PyYAML dump of a list holding one dict twice (&id001 … *id001)', yaml: 'terms:\n- &id001\n  confidence: 1.0\n  definition: A\n  surface: workspace\n- *id001\n', refuses: false, senses: ['workspace', 'workspace'] },
  { name: 'a merge key inside terms', yaml: 'terms:\n- &b\n  surface: x\n  definition: y\n  status: active\n- <<: *b\n  definition: z\n', refuses: false, senses: ['x', 'x'] },
  { name: 'a bare `terms:`', yaml: 'terms:\n', refuses: false, senses: [] },
  { name: 'null optional fields, empty see_also mapping, empty synonym', yaml: `${ENTRY.replace('  - ', 'terms:\n  - ')}    see_also: [{}]\n    synonyms_to_avoid: ["", a]\n    introduced_in_mission:\n`, refuses: false, senses: ['workspace'] },
  { name: 'integer confidence and a `!!float` tag', yaml: 'terms:\n  - surface: x\n    definition: y\n    confidence: !!float 1\n  - surface: z\n    definition: w\n    confidence: 1\n', refuses: false, senses: ['x', 'z'] },
  { name: 'repeated inner spaces in a surface (read collapsed, with a warning)', yaml: 'terms:\n  - surface: "work  dir"\n    definition: y\n', refuses: false, senses: ['work dir'], code: 'glossary.surface-spacing' },
  { name: 'a surface ending in U+FEFF (Python keeps it when stripping; read without it, with a warning)', yaml: 'terms:\n  - surface: "work dir\\ufeff"\n    definition: y\n', refuses: false, senses: ['work dir'], code: 'glossary.surface-spacing' },
  { name: 'a TODO draft (accepted text, but a placeholder: it defines nothing)', yaml: 'terms:\n  - surface: pci\n    definition: "TODO: define pci"\n    status: draft\n', refuses: false, senses: [], code: 'glossary.placeholder-definition' },
  {
    name: 'a term whose own name begins with a marker word: a definition that begins with it names the term; the marker alone is still a placeholder',
    yaml: 'terms:\n  - surface: todo item\n    definition: Todo item — one entry of a checklist\n  - surface: tbd-2 test bench\n    definition: TBD-2 test bench, the rig of lab 2\n  - surface: todo list\n    definition: "TODO."\n  - surface: pci\n    definition: TODO item — to write\n',
    refuses: false,
    senses: ['todo item', 'tbd-2 test bench'],
    code: 'glossary.placeholder-definition',
  },
  { name: 'sexagesimal-looking text stays a string', yaml: 'terms:\n  - surface: x\n    definition: 12:30:00\n', refuses: false, senses: ['x'] },
  { name: 'a date with one-digit month and day stays a string', yaml: 'terms:\n  - surface: x\n    definition: 2024-1-1\n', refuses: false, senses: ['x'] },
  // --- what it refuses -------------------------------------------------------------------------
  { name: 'an empty file', yaml: '', refuses: true, senses: [], code: 'glossary.missing-terms' },
  { name: 'a file of comments only', yaml: '# nothing yet\n', refuses: true, senses: [], code: 'glossary.missing-terms' },
  { name: 'no `terms` key', yaml: 'glossary: []\n', refuses: true, senses: [], code: 'glossary.missing-terms' },
  { name: 'an unknown top-level key beside terms', yaml: `terms:\n${ENTRY}version: 2\n`, refuses: true, senses: ['workspace'], code: 'glossary.unknown-key' },
  { name: 'a top-level anchor holder for merge keys', yaml: 'base: &b\n  status: active\nterms:\n- <<: *b\n  surface: x\n  definition: y\n', refuses: true, senses: ['x'], code: 'glossary.unknown-key' },
  { name: 'an unknown key on an entry', yaml: `terms:\n${ENTRY}    aliases: [ws]\n`, refuses: true, senses: ['workspace'], code: 'glossary.unknown-key' },
  { name: 'a see_also item that is a plain string', yaml: `terms:\n${ENTRY}    see_also: [worktree]\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-see-also' },
  { name: 'a see_also value that is not a string', yaml: `terms:\n${ENTRY}    see_also: [{term: 5}]\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-see-also' },
  { name: 'see_also as a mapping instead of a list', yaml: `terms:\n${ENTRY}    see_also: {term: worktree}\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-see-also' },
  { name: 'synonyms_to_avoid as a string', yaml: `terms:\n${ENTRY}    synonyms_to_avoid: work dir\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-synonyms-to-avoid' },
  { name: 'a synonym that is a number', yaml: `terms:\n${ENTRY}    synonyms_to_avoid: [5]\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-synonyms-to-avoid' },
  { name: 'introduced_in_mission unquoted (a number)', yaml: `terms:\n${ENTRY}    introduced_in_mission: 041\n`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-introduced-in-mission' },
  { name: 'introduced_in_mission as a date', yaml: `terms:\n${ENTRY}    introduced_in_mission: 2024-01-01\n`, refuses: true, senses: ['workspace'], code: 'glossary.unquoted-value' },
  { name: 'a definition ruamel reads as a number (1_000)', yaml: 'terms:\n  - surface: x\n    definition: 1_000\n', refuses: true, senses: ['x'], code: 'glossary.unquoted-value' },
  { name: 'a definition ruamel reads as a binary integer (0b101)', yaml: 'terms:\n  - surface: x\n    definition: 0b101\n', refuses: true, senses: ['x'], code: 'glossary.unquoted-value' },
  { name: 'a definition with an explicit !!str tag', yaml: 'terms:\n  - surface: x\n    definition: !!str hello\n', refuses: true, senses: ['x'], code: 'glossary.tagged-string' },
  { name: 'a duplicate key in an entry', yaml: 'terms:\n  - surface: x\n    definition: y\n    definition: z\n', refuses: true, senses: [], code: 'glossary.duplicate-key' },
  { name: 'two YAML documents', yaml: 'terms: []\n---\nterms: []\n', refuses: true, senses: [], code: 'glossary.parse-error' },
  { name: 'a boolean confidence', yaml: 'terms:\n  - surface: x\n    definition: y\n    confidence: true\n', refuses: true, senses: [], code: 'glossary.invalid-confidence' },
  { name: 'a string confidence', yaml: 'terms:\n  - surface: x\n    definition: y\n    confidence: "0.9"\n', refuses: true, senses: [], code: 'glossary.invalid-confidence' },
  { name: 'a NaN confidence', yaml: 'terms:\n  - surface: x\n    definition: y\n    confidence: .nan\n', refuses: true, senses: [], code: 'glossary.invalid-confidence' },
  { name: 'an empty status', yaml: 'terms:\n  - surface: x\n    definition: y\n    status:\n', refuses: true, senses: [], code: 'glossary.invalid-status' },
  { name: 'a surface not in lowercase', yaml: 'terms:\n  - surface: Workspace\n    definition: y\n', refuses: true, senses: [], code: 'glossary.surface-not-normalized' },
  { name: 'a blank definition', yaml: 'terms:\n  - surface: x\n    definition: "   "\n', refuses: true, senses: [], code: 'glossary.invalid-definition' },
  { name: 'a number as definition', yaml: 'terms:\n  - surface: x\n    definition: 42\n', refuses: true, senses: [], code: 'glossary.invalid-definition' },
  { name: 'an entry that is not a mapping, before a good one', yaml: `terms:\n  - just a string\n${ENTRY}`, refuses: true, senses: ['workspace'], code: 'glossary.invalid-entry' },
  { name: '`terms` as a mapping', yaml: 'terms: {surface: x}\n', refuses: true, senses: [], code: 'glossary.invalid-terms' },
  { name: 'a list at the top level', yaml: '- surface: x\n  definition: y\n', refuses: true, senses: [], code: 'glossary.invalid-root' },
];

describe("spec-glossary's reading of seed files agrees with Spec Kitty's schema", () => {
  for (const c of CASES) {
    it(`${c.refuses ? 'refused' : 'accepted'}: ${c.name}`, () => {
      const seed = parseSeedFile(c.yaml, 'team_domain.yaml', 'team_domain');
      const errors = seed.problems.filter((p) => p.severity === 'error');
      if (c.refuses) {
        expect(errors.length).toBeGreaterThan(0);
        expect(errors.map((e) => e.code)).toContain(c.code);
        // A syntax error is reported as such; every schema error says Spec Kitty refuses the file.
        for (const e of errors) if (e.code !== 'glossary.parse-error') expect(e.message).toContain(SPEC_KITTY_REFUSES);
      } else {
        expect(errors).toEqual([]);
        if (c.code) expect(seed.problems.map((p) => [p.code, p.severity])).toContainEqual([c.code, 'warning']);
      }
      expect(seed.senses.map((s) => s.surface)).toEqual(c.senses);
    });
  }

  it('shared anchors give both senses the same metadata, and an alias entry the same sense', () => {
    const [saved, dumped] = CASES.slice(0, 2).map((c) => parseSeedFile(c.yaml, 'team_domain.yaml', 'team_domain'));
    expect(saved!.senses.map((s) => [s.definition, s.seeAlso, s.synonymsToAvoid, s.introducedInMission])).toEqual([
      ['Git worktree: one per WP', ['worktree'], ['work dir'], '041'],
      ["VS Code's workspace file\nsecond line", ['worktree'], ['work dir'], '041'],
    ]);
    expect(dumped!.senses.map((s) => [s.definition, s.confidence, s.status, s.origin.kind === 'seed' ? s.origin.range.start.line : -1])).toEqual([
      ['A', 1, 'draft', 2],
      ['A', 1, 'draft', 5],
    ]);
  });

  it('a mistake in an entry listed again by aliases is said once, at the entry; every alias is still read as that entry', () => {
    const yaml = 'terms:\n  - &w\n    surface: workspace\n    definition: A folder\n    confidence: "high"\n    colour: red\n  - *w\n  - *w\n  - surface: lane\n    definition: A column\n';
    const seed = parseSeedFile(yaml, 'team_domain.yaml', 'team_domain');
    expect(seed.problems.map((p) => [p.code, p.range.start.line, p.message.slice(0, 36)])).toEqual([
      ['glossary.unknown-key', 5, 'Unknown key `colour` in entry 1: an '],
      ['glossary.invalid-confidence', 4, '`confidence` must be a number betwee'],
    ]);
    expect(seed.senses.map((s) => s.surface)).toEqual(['lane']);
  });
});

const SPEC_KITTY_SRC = '/work/shared/reference/spec-kitty-glossary/src';
const VERDICT = path.join(__dirname, 'specKittySeedVerdict.py');
const probe = existsSync(SPEC_KITTY_SRC) ? spawnSync('python3', [VERDICT, SPEC_KITTY_SRC], { encoding: 'utf8' }) : undefined;
const live = probe !== undefined && probe.error === undefined && probe.status === 0;

describe.skipIf(!live)("Spec Kitty's own schema, run in place on every case (python3, ruamel.yaml, pydantic)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-seed-verdict-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the verdict the table says', () => {
    const files = CASES.map((c, i) => {
      const file = path.join(dir, `case-${i}.yaml`);
      writeFileSync(file, c.yaml);
      return file;
    });
    const run = spawnSync('python3', [VERDICT, SPEC_KITTY_SRC, ...files], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const verdicts = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; errors?: string[] });
    expect(verdicts.map((v, i) => [CASES[i]!.name, !v.ok])).toEqual(CASES.map((c) => [c.name, c.refuses]));
  });
});
