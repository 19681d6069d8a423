/**
 * Spec Kitty interop through the CLI (issue 14), as a user meets it: the log Spec Kitty's code
 * wrote (read in place from the shared reference folder, never copied into the repo), and logs
 * where its lines and ours interleave. `validate` reports no error for its lines, `replay --json`
 * applies its pins and senses, `check` honours them and `--emit-events` does not ask again; our
 * appends after its lines keep working and are pure ASCII, readable in any locale.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { blockedWorkspace, cli, logPath, MISSION, type TempWorkspace } from '../cli/support';
import { skLine, skRequested, skResolvedByCli, skSenseByPipeline, skTime } from '../fixtures/events/specKitty';
import { tempWorkspace } from '../helpers/workspace';

const SAMPLE = '/work/shared/reference/spec-kitty-glossary/sample-log/workspace';
const SAMPLE_MISSION = '01JQ4A2M9P7S3G5H8K1N6RZTWV';
const hasSample = existsSync(path.join(SAMPLE, '.kittify/events/glossary', `${SAMPLE_MISSION}.events.jsonl`));

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** Appends lines to a log, creating its folder first (Spec Kitty does the same). */
function appendLines(file: string, text: string[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, text.join('\n') + '\n');
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
const events = (file: string) => lines(file).map((l) => JSON.parse(l) as Record<string, any>);
const replayJson = async (root: string, mission: string) => {
  const result = await cli(['replay', '--root', root, '--mission', mission, '--json'], root);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as { pins: any[]; open_clarifications: any[]; senses: Record<string, any[]>; problems: any[] };
};

describe.skipIf(!hasSample)(`the log Spec Kitty wrote (${SAMPLE}, read in place)`, () => {
  it('validate: every one of its 78 lines is a valid event, no error, no warning', async () => {
    const result = await cli(['validate', SAMPLE], '/');
    expect(result.stdout).toContain('3 glossary files, 1 event log (78 valid events): 0 errors, 0 warnings.');
    expect(result.status).toBe(0);
  });

  it('replay --json: its CLI decisions are pinned (non-ASCII text decoded), the conflicts they resolved are closed, its custom senses added', async () => {
    const json = await replayJson(SAMPLE, SAMPLE_MISSION);
    const pin = (term: string) => json.pins.find((p) => p.term === term);
    expect(pin('delivery')).toMatchObject({ conflict_id: 'dd2f415f-cc90-4ec6-bbb8-943acbf439e5', event_id: null, actor_id: 'user:cli', selected_sense: { scope: 'team_domain', definition: 'Delivery: the moment the confirmation email reaches the customer inbox (Spec Kitty CLI)' } });
    expect(pin('support')).toMatchObject({ conflict_id: '2248befd-70f6-4e32-bfc5-e3a13f8127bd', selected_sense: { definition: 'Support: the help-desk team (équipe d’assistance)' } });
    // Its pipeline's custom answers pin their sense too (the request just before each is closed).
    expect(pin('customer')).toMatchObject({ selected_sense: { definition: 'Custom sense of customer written by Spec Kitty' }, conflict_id: '598c793f-699d-499e-b457-a857117b6767' });
    const open = json.open_clarifications.map((o) => o.conflict_id);
    expect(open).not.toContain('dd2f415f-cc90-4ec6-bbb8-943acbf439e5');
    expect(open).not.toContain('2248befd-70f6-4e32-bfc5-e3a13f8127bd');
    expect(open).not.toContain('598c793f-699d-499e-b457-a857117b6767');
    // Only the defer run's requests that nothing answered stay open.
    expect(json.open_clarifications.map((o) => o.term)).toEqual(['confirmation', 'customer', 'date', 'message', 'order']);
    expect(json.senses['team_domain']!.map((s) => s.definition)).toContain('Support: the help-desk team (équipe d’assistance)');
    expect(json.problems).toEqual([]);
    // The text says why a pinned term still has an open request (Spec Kitty lists it as unresolved too).
    const text = (await cli(['replay', '--root', SAMPLE, '--mission', SAMPLE_MISSION], SAMPLE)).stdout.split('\n');
    const customer = text.findIndex((l) => l.startsWith('  customer: What does'));
    expect(text.slice(customer, customer + 4).join('\n')).toMatch(/conflict 08e6ff34-736b-4396-8982-94e004b5be7f, requested at .*\n {4}the term is pinned by a later answer \(conflict 598c793f-699d-499e-b457-a857117b6767\); this request was never answered itself/);
  });

  it('check and check --emit-events: nothing blocks on what Spec Kitty resolved, nothing is asked again, and our appends continue its log', async () => {
    const inPlace = await cli(['check', 'kitty-specs/002-clean-mission/spec.md', '--format', 'json'], SAMPLE);
    expect(inPlace.status).toBe(0);
    expect(JSON.parse(inPlace.stdout).documents[0]).toMatchObject({ blocked: false });
    // Writing needs a copy (outside the repo): the shared folder stays untouched.
    ws = tempWorkspace();
    cpSync(SAMPLE, ws.root, { recursive: true });
    const log = path.join(ws.root, '.kittify/events/glossary', `${SAMPLE_MISSION}.events.jsonl`);
    const before = lines(log);
    const emitted = await cli(['check', '--emit-events', 'kitty-specs/002-clean-mission/spec.md'], ws.root);
    expect(emitted.status).toBe(0);
    const after = lines(log);
    expect(after.slice(0, before.length)).toEqual(before); // its lines untouched
    const ours = after.slice(before.length).map((l) => JSON.parse(l) as Record<string, any>);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.map((e) => e.lamport_clock)).toEqual(ours.map((_, i) => i + 1)); // no clock before: ours start at 1
    expect(ours.filter((e) => e.event_type === 'GlossaryClarificationRequested')).toEqual([]);
    expect((await cli(['validate'], ws.root)).stdout).toMatch(/\(\d+ valid events\): 0 errors, 0 warnings\.$/m);
    // Our lines change none of Spec Kitty's decisions.
    const pins = async (root: string) => (await replayJson(root, SAMPLE_MISSION)).pins.map((p) => [p.term, p.selected_sense.definition]);
    expect(await pins(ws.root)).toEqual(await pins(SAMPLE));
  });
});

describe('a log where Spec Kitty and spec-glossary both write', () => {
  /** Our check --emit-events defers the ambiguous `workspace`; returns its conflict id. */
  async function deferred(): Promise<string> {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const requests = events(logPath(ws)).filter((e) => e.event_type === 'GlossaryClarificationRequested');
    expect(requests).toHaveLength(1);
    return requests[0]!.conflict_id as string;
  }

  it("Spec Kitty's CLI resolves our clarification: check passes, --emit-events asks nothing, our next decision continues the clock", async () => {
    const conflict = await deferred();
    const vscode = { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 };
    appendFileSync(logPath(ws!), skLine(skResolvedByCli({ t: skTime(30), conflict, term: 'workspace', sense: vscode })) + '\n');
    const checked = await cli(['check', '--format', 'json'], ws!.root);
    expect(checked.status).toBe(0);
    expect(JSON.parse(checked.stdout).documents[0].findings.filter((f: { term: string }) => f.term === 'workspace')).toEqual([]);
    const count = lines(logPath(ws!)).length;
    expect((await cli(['check', '--emit-events'], ws!.root)).status).toBe(0);
    const appended = events(logPath(ws!)).slice(count);
    expect(appended.filter((e) => e.event_type === 'GlossaryClarificationRequested')).toEqual([]);
    const json = await replayJson(ws!.root, MISSION);
    expect(json.open_clarifications).toEqual([]);
    expect(json.pins).toMatchObject([{ term: 'workspace', conflict_id: conflict, event_id: null, selected_sense: vscode }]);
    // Our resolve after its line: a clock above every clock in the file, and it wins (file order).
    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '1'], ws!.root)).status).toBe(0);
    const all = events(logPath(ws!));
    const clocks = all.map((e) => e.lamport_clock as number | undefined).filter((c): c is number => c !== undefined);
    expect(all.at(-1)!.lamport_clock).toBe(Math.max(...clocks));
    expect(new Set(clocks).size).toBe(clocks.length);
    expect((await replayJson(ws!.root, MISSION)).pins.map((p) => p.selected_sense.definition)).toEqual(['Git worktree directory for a work package']);
    expect((await cli(['validate'], ws!.root)).stdout).toMatch(/0 errors, 0 warnings\.$/m);
  });

  it("Spec Kitty's pipeline answers with a custom definition (SenseUpdated, no Resolved): the term is pinned to it and not asked again", async () => {
    ws = blockedWorkspace();
    appendLines(
      logPath(ws),
      [
        skRequested({ mission: MISSION, run: 'sk-custom', id: 1, t: skTime(1), conflict: 'sk-c1', term: 'workspace', options: ['Git worktree directory for a work package', 'VS Code workspace configuration file'], urgency: 'high' }),
        skSenseByPipeline({ id: 2, t: skTime(2), term: 'workspace', definition: 'The folder a work package is built in' }),
      ].map(skLine),
    );
    expect((await cli(['check'], ws.root)).status).toBe(0);
    const count = lines(logPath(ws)).length;
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(0);
    expect(events(logPath(ws)).slice(count).filter((e) => e.event_type === 'GlossaryClarificationRequested')).toEqual([]);
    expect(await replayJson(ws.root, MISSION)).toMatchObject({ open_clarifications: [], pins: [{ term: 'workspace', conflict_id: 'sk-c1', selected_sense: { definition: 'The folder a work package is built in', scope: 'team_domain' } }] });
  });

  it("a clarification Spec Kitty deferred is already open: --emit-events does not request it a second time", async () => {
    ws = blockedWorkspace();
    appendLines(logPath(ws), [skLine(skRequested({ mission: MISSION, run: 'sk-defer', id: 1, t: skTime(1), conflict: 'sk-open', term: 'workspace', urgency: 'high' }))]);
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const requests = events(logPath(ws)).filter((e) => e.event_type === 'GlossaryClarificationRequested');
    expect(requests.map((r) => r.conflict_id)).toEqual(['sk-open']);
  });
});

describe('our lines, read back in any locale', () => {
  const definition = 'Répertoire de travail — 作業ディレクトリ 😀';

  it('are pure ASCII (\\uXXXX escapes, as json.dumps writes), so a reader decoding them as ASCII or Latin-1 gets the same events', async () => {
    ws = blockedWorkspace();
    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--custom', definition], ws.root, { env: { LC_ALL: 'C', LANG: 'C' } })).status).toBe(0);
    const bytes = readFileSync(logPath(ws));
    expect(bytes.every((b) => b === 10 || (b >= 0x20 && b < 0x7f))).toBe(true);
    const latin1 = bytes.toString('latin1').split('\n').filter((l) => l !== '');
    expect(latin1.map((l) => JSON.parse(l))).toEqual(events(logPath(ws)));
    const created = events(logPath(ws)).find((e) => e.event_type === 'GlossarySenseUpdated')!;
    expect(created.new_sense.definition).toBe(definition);
    expect(latin1.join('\n')).toContain('R\\u00e9pertoire de travail \\u2014 \\u4f5c\\u696d\\u30c7\\u30a3\\u30ec\\u30af\\u30c8\\u30ea \\ud83d\\ude00');
  });

  const python = spawnSync('python3', ['-c', 'import json'], { encoding: 'utf8' });
  it.skipIf(python.status !== 0)("and Python's json.loads, reading the file as ASCII under LC_ALL=C, gets exactly our events", async () => {
    ws = blockedWorkspace();
    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--custom', definition], ws.root)).status).toBe(0);
    const script = 'import json,sys\nwith open(sys.argv[1], encoding="ascii") as f:\n    print(json.dumps([json.loads(l) for l in f if l.strip()], sort_keys=True))';
    const read = spawnSync('python3', ['-X', 'utf8=0', '-c', script, logPath(ws)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANG: 'C', PYTHONIOENCODING: 'ascii' } });
    expect(read.stderr).toBe('');
    expect(JSON.parse(read.stdout)).toEqual(events(logPath(ws)));
    // And Python writes the same bytes for them: json.dumps(event, sort_keys=True) is our line.
    const dumped = spawnSync('python3', ['-c', 'import json,sys\nfor l in open(sys.argv[1], encoding="ascii"):\n    print(json.dumps(json.loads(l), sort_keys=True))', logPath(ws)], { encoding: 'utf8' });
    expect(dumped.stdout.split('\n').filter((l) => l !== '')).toEqual(lines(logPath(ws)));
  });
});

describe('appending after lines without a clock', () => {
  it('the next append is above every clock in the file, even with lines without one at the end', async () => {
    ws = blockedWorkspace();
    expect((await cli(['check', '--emit-events'], ws.root)).status).toBe(1);
    const highest = Math.max(...events(logPath(ws)).map((e) => e.lamport_clock as number));
    appendFileSync(logPath(ws), serializeEvent({ ...skSenseByPipeline({ id: 3, t: skTime(3), term: 'frob', definition: 'A frob' }) }) + '\n');
    expect((await cli(['resolve', 'workspace', '--mission', MISSION, '--sense', '2'], ws.root)).status).toBe(0);
    expect(events(logPath(ws)).at(-1)!.lamport_clock).toBe(highest + 1);
    expect((await cli(['validate'], ws.root)).status).toBe(0);
  });
});
