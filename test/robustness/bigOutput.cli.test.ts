/**
 * Issue 19, item 3: a check whose report is longer than V8's longest string (about 512 MiB)
 * used to die in `JSON.stringify` with `RangeError: Invalid string length` and a stack trace.
 * The report is now written piece by piece; these runs make a report above that limit, cheaply:
 * a glossary whose two senses of `zorblax` have definitions of 300,000 characters, so each
 * finding carries 600 KB of candidate senses and 1,000 findings print more than the limit. That
 * is the scale run (`npm run test:scale`, helpers/scale.ts); `npm test` makes the same report with
 * definitions of 3,000 characters (6 MB).
 *
 * To check the whole output without holding it (the test process has the same limit), each run
 * of the definitions' filler character is collapsed to its length on the fly; what remains must
 * equal, byte for byte, the output of the same check with one- and two-character definitions.
 * (The half-million-finding run of the issue is a benchmark row: `npm run bench -- --only
 * findings`.) These runs are the CLI in process (`main` writing to a stream of the test); the
 * built bin as a process is for what only a process shows: a pipe whose reader quits, a full disk.
 */

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { constants } from 'node:buffer';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { main } from '../../server/src/cli/main';
import { atScale, PROMISED_SCALE } from '../helpers/scale';
import { CLI } from '../helpers/workspace';
import { tempWorkspace, type TempWorkspace } from './helpers';

/** A character no other part of the output contains (checked below on the small output). */
const FILLER = '~';
const LONG = atScale(300_000, 3_000);
const FINDINGS = 1_000;

/** Two senses of `zorblax` whose definitions end in a run of `length` and `length + 1` fillers. */
function seed(length: number): string {
  const sense = (definition: string, confidence: number) => `  - surface: zorblax\n    definition: "${definition}"\n    confidence: ${confidence}\n    status: active\n`;
  return `terms:\n${sense(`A flux capacitor ${FILLER.repeat(length)}`, 0.9)}${sense(`A queue of reviews ${FILLER.repeat(length + 1)}`, 0.6)}`;
}

/** Ten documents, 100 findings each. */
function workspace(definitionLength: number): TempWorkspace {
  const files: Record<string, string> = {
    '.kittify/glossaries/team_domain.yaml': seed(definitionLength),
  };
  for (let i = 0; i < 10; i++) files[`docs/spec-${i}.md`] = `# Spec ${i}\n\n${'The zorblax is ready.\n'.repeat(FINDINGS / 10)}`;
  return tempWorkspace(files);
}

interface Collapsed {
  status: number;
  /** Characters written to stdout (UTF-16 code units, as V8 counts a string's length). */
  chars: number;
  /** The output with every run of FILLER replaced by `<n>` (its length). */
  text: string;
  stderr: string;
}

/** Standard output that collapses each run of FILLER to `<n>` as the chunks come. */
class CollapsingOutput extends Writable {
  chars = 0;
  private readonly parts: string[] = [];
  private run = 0;
  private readonly notFiller = new RegExp(`[^${FILLER}]`, 'g');

  constructor() {
    super({ decodeStrings: false });
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.chars += chunk.length;
    for (let i = 0; i < chunk.length; ) {
      if (chunk[i] === FILLER) {
        this.notFiller.lastIndex = i;
        const end = this.notFiller.exec(chunk)?.index ?? chunk.length;
        this.run += end - i;
        i = end;
      } else {
        const end = chunk.indexOf(FILLER, i);
        const stop = end === -1 ? chunk.length : end;
        this.flushRun();
        this.parts.push(chunk.slice(i, stop));
        i = stop;
      }
    }
    done();
  }

  text(): string {
    this.flushRun();
    return this.parts.join('');
  }

  private flushRun(): void {
    if (this.run > 0) this.parts.push(`<${this.run}>`);
    this.run = 0;
  }
}

/** Runs the CLI in this process, its stdout collapsed as it comes. */
async function runCollapsed(args: string[], cwd: string): Promise<Collapsed> {
  const stdout = new CollapsingOutput();
  let stderr = '';
  const stderrStream = new Writable({ write: (chunk: Buffer, _encoding, done) => ((stderr += chunk.toString()), done()) });
  const status = await main(args, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdin: Readable.from([]), stdout, stderr: stderrStream });
  return { status, chars: stdout.chars, text: stdout.text(), stderr };
}

describe(PROMISED_SCALE ? 'a report longer than the longest string V8 can hold' : 'a long report (npm run test:scale: longer than the longest string V8 can hold)', () => {
  let big: TempWorkspace | undefined;
  let small: TempWorkspace | undefined;
  afterEach(() => {
    big?.remove();
    small?.remove();
  });

  for (const format of ['json', 'sarif'] as const) {
    test(`check --format ${format} prints all of it, exactly as a small report of the same findings`, async () => {
      big = workspace(LONG);
      small = workspace(1);
      const expected = await runCollapsed(['check', '--format', format], small.root);
      expect(expected.status).toBe(0);
      // Valid JSON with every finding, and the filler only inside the definitions.
      const parsed = JSON.parse(expected.text) as { summary?: { findings: number }; runs?: { results: { properties: { candidate_senses: { definition: string }[] } }[] }[] };
      expect(format === 'json' ? parsed.summary!.findings : parsed.runs![0]!.results.length).toBe(FINDINGS);
      expect(expected.text.match(/<\d+>/g)).toHaveLength(2 * FINDINGS);

      const result = await runCollapsed(['check', '--format', format], big.root);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.chars).toBeGreaterThan(PROMISED_SCALE ? constants.MAX_STRING_LENGTH : 2 * LONG * FINDINGS);
      // The temp folder's name shows in SARIF (originalUriBaseIds), not in JSON (relative paths).
      const normalize = (text: string, root: string) => text.split(root).join('<root>');
      const lengthened = expected.text.replace(/<(\d+)>/g, (_all, n: string) => `<${Number(n) === 1 ? LONG : LONG + 1}>`);
      expect(normalize(result.text, big.root)).toBe(normalize(lengthened, small.root));
    });
  }
});

describe('standard output that goes away or fills up', () => {
  let ws: TempWorkspace | undefined;
  afterEach(() => ws?.remove());

  test('a reader that stops early (`check | head`): the output stops quietly, no stack trace, the exit code stays the check\'s', async () => {
    ws = workspace(1_000); // about 2 MB of JSON: far more than a pipe holds
    const result = await new Promise<{ status: number; stderr: string; received: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'check', '--format', 'json'], { cwd: ws!.root, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let received = 0;
      child.stdout.once('data', (data: Buffer) => {
        received = data.length;
        child.stdout.destroy(); // what `head -c` does after its first bytes
      });
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ status: code ?? -1, stderr, received }));
    });
    expect(result.received).toBeGreaterThan(0);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test('a full disk (/dev/full): exit 2 and one line on stderr saying the output could not be written', (ctx) => {
    if (!existsSync('/dev/full')) {
      console.warn('skipped: this system has no /dev/full (Linux has it for every user)');
      ctx.skip();
    }
    ws = workspace(1);
    const out = openSync('/dev/full', 'w');
    try {
      const result = spawnSync(process.execPath, [CLI, 'check', '--format', 'sarif'], { cwd: ws.root, stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
      expect(result.stderr).toBe('spec-glossary: cannot write the output: no space left on device (ENOSPC)\n');
      expect(result.status).toBe(2);
    } finally {
      closeSync(out);
    }
  });
});
