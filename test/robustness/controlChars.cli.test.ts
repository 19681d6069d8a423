/**
 * Issue 19, item 5: terminal control characters in file names, seeds, front matter, event logs and
 * arguments reached the terminal raw (`resolve`, `replay`), and a newline in a mission id forged
 * an output line of `check`. Every human-readable output now shows such characters as escapes
 * (server/src/cli/output/terminal.ts): these runs put ESC sequences, newlines, carriage returns,
 * a bell and bidirectional overrides everywhere a user's files or arguments reach the output, and
 * check that no such character is printed and that each output has exactly its expected lines.
 */

import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { renderConflict } from '../../server/src/cli/events/prompt';
import { cli, tempWorkspace, type TempWorkspace } from './helpers';

/** Everything output/terminal.ts escapes, except the newline (checked by counting lines). */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const ESC = '\u001b';
/** A clear screen, a window title (OSC … BEL), a carriage return and a right-to-left override. */
const HOSTILE = `${ESC}[2J${ESC}]0;pwned\u0007\r\u202e`;
/** A newline followed by text that reads like a finding of `check`. */
const FORGED = '\nsrc/forged.md:1:1 high ambiguous Forged finding';

/** The same for a file or folder name (no `/`). */
const FORGED_NAME = '\nforged.md:1:1 high ambiguous Forged finding';

const MISSION = `m1${FORGED}${HOSTILE}`;
const SPEC_NAME = `evil${ESC}[31m${FORGED_NAME}.md`;

function yamlString(text: string): string {
  return JSON.stringify(text); // a JSON string is a YAML double-quoted scalar
}

function hostileWorkspace(): TempWorkspace {
  return tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': `terms:
  - surface: zorblax
    definition: ${yamlString(`A flux capacitor${HOSTILE}${FORGED}`)}
    confidence: 0.9
    status: active
  - surface: zorblax
    definition: A queue of pending reviews
    confidence: 0.6
    status: active
    ${yamlString(`unknown${HOSTILE}${FORGED}`)}: 1
`,
    [`docs/${SPEC_NAME}`]: `---\ncritical_step: true\nmission_id: ${yamlString(MISSION)}\nstep_id: ${yamlString(`spec${HOSTILE}`)}\n---\n# Demo\n\nThe zorblax is ready.\n`,
    [`docs/binary${HOSTILE}.md`]: 'a\u0000b',
    [`kitty-specs/041${HOSTILE}${FORGED_NAME}/meta.json`]: '{ not json',
  });
}

/** Lines of an output, after checking it holds no raw control character. */
function cleanLines(output: string, what: string): string[] {
  const raw = RAW_CONTROL.exec(output);
  expect(raw, `${what} printed U+${raw?.[0].charCodeAt(0).toString(16).padStart(4, '0')} raw: ${JSON.stringify(output)}`).toBeNull();
  return output.endsWith('\n') ? output.slice(0, -1).split('\n') : output.split('\n');
}

describe('control characters from files and arguments are shown escaped', () => {
  let ws: TempWorkspace | undefined;
  afterEach(() => ws?.remove());

  test('check (text): file names, mission and step ids, seed problems; one line per finding, no forged line', async () => {
    ws = hostileWorkspace();
    expect(readdirSync(ws.path('docs'))).toContain(SPEC_NAME); // the hostile name is really on disk
    const result = await cli(['check'], ws.root);
    expect(result.status).toBe(1);
    const out = cleanLines(result.stdout, 'check stdout');
    // The finding, a blank line, `blocked:`, `skipped:` and the summary: nothing else.
    expect(out).toHaveLength(5);
    expect(out[0]).toMatch(/^docs\/evil\\u001b\[31m\\nforged\.md:1:1 high ambiguous Forged finding\.md:8:5 high ambiguous Ambiguous term 'zorblax'/);
    expect(out[2]).toContain('(mission m1\\nsrc/forged.md:1:1 high ambiguous Forged finding\\u001b[2J\\u001b]0;pwned\\u0007\\r\\u202e, step spec\\u001b[2J');
    expect(out[3]).toMatch(/^skipped: docs\/binary\\u001b\[2J/);
    expect(out[4]).toBe('1 document checked, 1 finding (1 high, 0 medium, 0 low), 1 blocked.');
    expect(out.filter((l) => l.startsWith('src/forged.md') || l.startsWith('forged.md'))).toEqual([]);
    // stderr: the seed's unknown key (its name quoted in the message), one line.
    const err = cleanLines(result.stderr, 'check stderr');
    expect(err).toHaveLength(1);
    expect(err[0]).toContain('unknown\\u001b[2J');
  });

  test('check --emit-events and resolve: the notes and the decision summary; replay: pins, open clarifications, senses', async () => {
    ws = hostileWorkspace();
    const emitted = await cli(['check', '--emit-events'], ws.root);
    expect(emitted.status).toBe(1);
    cleanLines(emitted.stdout, 'check --emit-events stdout');
    // `recorded N events in <log>` and `<spec> is blocked; resume with: …`.
    expect(cleanLines(emitted.stderr, 'check --emit-events stderr').filter((l) => !l.includes('unknown'))).toHaveLength(2);

    const listed = await cli(['resolve', 'zorblax', '--mission', MISSION], ws.root);
    expect(listed.status).toBe(2);
    const choices = cleanLines(listed.stderr, 'resolve (no --sense) stderr');
    // The message, then the numbered candidates: the title and two senses.
    expect(choices).toHaveLength(4);
    expect(choices[2]).toContain('1. [team_domain] A flux capacitor\\u001b[2J');

    const custom = `Custom${HOSTILE}${FORGED}`;
    const resolved = await cli(['resolve', 'zorblax', '--mission', MISSION, '--custom', custom], ws.root);
    expect(resolved.stderr).toBe('');
    expect(resolved.status).toBe(0);
    // Summary, closed clarification, recorded events.
    const lines = cleanLines(resolved.stdout, 'resolve stdout');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('now means "Custom\\u001b[2J');

    const replay = await cli(['replay'], ws.root);
    expect(replay.status).toBe(0);
    const shown = cleanLines(replay.stdout, 'replay stdout');
    expect(shown).toEqual([
      'All missions',
      '',
      'Pins (1):',
      expect.stringMatching(/^ {2}zorblax = "Custom\\u001b\[2J.*\\nsrc\/forged\.md:1:1 high ambiguous Forged finding" \(team_domain, confidence 1\) \[mission m1\\nsrc/),
      expect.stringMatching(/^ {4}by user:/),
      '',
      'Open clarifications (0):',
      '  none',
      '',
      'Senses added by events (1):',
      expect.stringMatching(/^ {2}\[team_domain\] zorblax = "Custom\\u001b\[2J/),
    ]);
    expect(replay.stdout).toContain('\\u202e');
    expect(replay.stderr).toBe('');
  });

  test('replay: an open clarification whose question and options carry control characters', async () => {
    ws = hostileWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const replay = await cli(['replay', '--mission', MISSION], ws.root);
    expect(replay.status).toBe(0);
    const shown = cleanLines(replay.stdout, 'replay stdout');
    const start = shown.indexOf('Open clarifications (1):');
    expect(start).toBeGreaterThan(0);
    expect(shown[0]).toBe('Mission m1\\nsrc/forged.md:1:1 high ambiguous Forged finding\\u001b[2J\\u001b]0;pwned\\u0007\\r\\u202e');
    // The question, two numbered options, the conflict line.
    expect(shown.slice(start + 1, start + 5)).toEqual([
      expect.stringMatching(/^ {2}zorblax: What does 'zorblax' mean in this context\? \(step spec\\u001b\[2J/),
      expect.stringMatching(/^ {4}1\. A flux capacitor\\u001b\[2J\\u001b\]0;pwned\\u0007\\r\\u202e\\nsrc\/forged\.md:1:1 high ambiguous Forged finding$/),
      '    2. A queue of pending reviews',
      expect.stringMatching(/^ {4}conflict [0-9a-f-]{36}, requested at /),
    ]);
  });

  test('validate: a mission folder name with control characters', async () => {
    ws = hostileWorkspace();
    const result = await cli(['validate'], ws.root);
    expect(result.status).toBe(1);
    const lines = cleanLines(result.stdout, 'validate stdout');
    const meta = lines.filter((l) => l.includes('meta.parse-error'));
    expect(meta).toHaveLength(1);
    expect(meta[0]).toMatch(/^kitty-specs\/041\\u001b\[2J.*\\nforged\.md:1:1 high ambiguous Forged finding\/meta\.json error meta\.parse-error/);
    // The binary spec that glossary health could not read, its path escaped too.
    expect(lines.filter((l) => l.includes('file.unreadable'))).toEqual([expect.stringMatching(/^docs\/binary\\u001b\[2J.* warning file\.unreadable not read for glossary health: /)]);
    // The seed's unknown key, the meta.json, the binary spec, a blank line and the two summaries.
    expect(lines).toHaveLength(6);
  });

  test('candidates: the paths of the examples', async () => {
    ws = hostileWorkspace();
    ws.write(`notes/${SPEC_NAME}`, '# Notes\n\nThe QZX rule applies. The QZX rule again.\n');
    const result = await cli(['candidates', 'notes'], ws.root);
    expect(result.status).toBe(0);
    const lines = cleanLines(result.stdout, 'candidates stdout');
    // One candidate and the summary.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/qzx +notes\/evil\\u001b\[31m\\nforged\.md:1:1 high ambiguous Forged finding\.md:3$/);
  });

  test('errors: a path or mission id named on the command line is one escaped line', async () => {
    ws = hostileWorkspace();
    const missing = await cli(['check', `docs/missing${HOSTILE}${FORGED}.md`], ws.root);
    expect(missing.status).toBe(2);
    expect(cleanLines(missing.stderr, 'check error')).toEqual([`spec-glossary check: docs/missing\\u001b[2J\\u001b]0;pwned\\u0007\\r\\u202e\\nsrc/forged.md:1:1 high ambiguous Forged finding.md: no such file or directory`]);
    const unknown = await cli([`chec${ESC}[2Jk`], ws.root);
    expect(unknown.status).toBe(2);
    expect(cleanLines(unknown.stderr, 'unknown command')[0]).toBe("spec-glossary: unknown command 'chec\\u001b[2Jk'");
  });

  test('the interactive prompt shows the term, the line and the senses escaped', async () => {
    const text = renderConflict(
      {
        term: `zorblax${ESC}[2J`,
        conflictType: 'ambiguous',
        severity: 'high',
        where: `docs/${SPEC_NAME}:7:5`,
        line: `The zorblax is ${ESC}]0;pwned\u0007 ready.\r`,
        scope: 'team_domain',
        senseCount: 2,
        candidates: [
          { surface: 'zorblax', scope: 'team_domain', definition: `A flux capacitor${HOSTILE}${FORGED}`, confidence: 0.9 },
          { surface: 'zorblax', scope: 'team_domain', definition: 'A queue of pending reviews', confidence: 0.6 },
        ],
        customScope: 'team_domain',
      },
      1,
      1,
    );
    const lines = cleanLines(text, 'prompt');
    expect(lines).toEqual([
      '',
      '[1/1] High-severity conflict: "zorblax\\u001b[2J" (ambiguous)',
      '',
      'Term: zorblax\\u001b[2J',
      `Context: docs/evil\\u001b[31m\\nforged.md:1:1 high ambiguous Forged finding.md:7:5  "The zorblax is \\u001b]0;pwned\\u0007 ready.\\r"`,
      'Scope: team_domain (2 senses)',
      '',
      'Candidate senses:',
      '  1. [team_domain] A flux capacitor\\u001b[2J\\u001b]0;pwned\\u0007\\r\\u202e\\nsrc/forged.md:1:1 high ambiguous Forged finding (confidence: 0.9)',
      '  2. [team_domain] A queue of pending reviews (confidence: 0.6)',
      '',
    ]);
  });

});
