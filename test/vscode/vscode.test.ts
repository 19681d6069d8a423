/**
 * The extension in a real VS Code: code-server of a pinned version (installed from the npm
 * registry, native parts built from source; scripts/vscode/codeServer.mjs) with the .vsix that
 * `npm run package` builds from a clean copy (globalSetup.ts), on a copy of examples/, driven in
 * Debian's Chromium by playwright-core the way a person would use it: keyboard shortcuts, the
 * mouse, menus, the status bar.
 *
 * What the editor should show comes from the CLI run on the same copy at test time, so the test
 * follows the server's rules; it asserts concrete outcomes (a named word squiggled, an event line
 * with that term, the status bar's counts). The steps run in order in one session, as one
 * person's session would. Screenshots of each step, the session's logs and event log are kept in
 * test-results/vscode/.
 *
 * code-server or Chromium missing and not installable: skipped with the reason, a failure in CI.
 */

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import { REPO } from '../helpers/workspace';
import { checkWorkspace, flagsOf, readEvents, severityCounts, type CliDocument, type Flag, type GlossaryEvent } from './expected';
import { IN_CI, installCodeServer, launchChromium, startSession, type Browser, type Session } from './session';
import { Workbench, type Squiggle } from './workbench';

const ARTIFACTS = path.join(REPO, 'test-results', 'vscode');
/** From the last key press to the squiggle on screen (issue 20: "within a second"). */
const TYPING_LATENCY_MS = 1_000;
const TYPED_ACRONYM = 'ZQXW';
const CUSTOM_DEFINITION = 'Payment Card Industry Data Security Standard, the rules for handling card numbers';

const install = installCodeServer();
if (!install.ok && !IN_CI) {
  console.warn(`test/vscode/vscode.test.ts: skipped — ${install.reason} (in CI this is a failure).`);
}

let session: Session | undefined;
let browser: Browser | undefined;
let vscode: Workbench;
let root: string;
/** The spec under test: the first one the CLI finds an ambiguous term in. */
let spec: CliDocument;
let specPath: string;
let flags: Flag[];
let ambiguous: Flag;
const timings: Record<string, number> = {};

function shot(name: string): Promise<void> {
  return vscode.screenshot(path.join(ARTIFACTS, `${name}.png`));
}

/** Polls a file-system condition (event logs, log files: not the page) until it holds. */
async function until<T>(what: string, read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for an event of the copy's event logs that passes `match`. */
function waitForEvent(what: string, match: (event: GlossaryEvent) => boolean): Promise<{ file: string; event: GlossaryEvent }> {
  return until(what, () => readEvents(root).find(({ event }) => match(event))).catch((error: Error) => {
    throw new Error(`${error.message}; the event log holds: ${JSON.stringify(readEvents(root).map((e) => e.event))}`);
  });
}

const sameWord = (a: string | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();
const onLine = (squiggles: Squiggle[], flag: Pick<Flag, 'line' | 'text'>) => squiggles.filter((s) => s.line === flag.line && s.text === flag.text);

/** The mission's event log is `<mission>.events.jsonl`: by mission id, or by the mission folder's name. */
function expectMissionLog(file: string): void {
  const folder = specPath.split('/').at(-2)!;
  expect([`${spec.mission_id}.events.jsonl`, `${folder}.events.jsonl`]).toContain(file);
}

/** What the status bar must say for a CLI report: the counts by severity, and whether blocked. */
function statusFor(document: CliDocument): { include: string[]; exclude: string[] } {
  const counts = severityCounts(document);
  const include = [` ${counts.high} high`, ` ${counts.medium} medium`, ` ${counts.low} low`];
  return document.blocked ? { include: [...include, 'blocked'], exclude: [] } : { include, exclude: ['blocked'] };
}

function keepArtifacts(): void {
  if (!session) return;
  const { logs, folder } = session.info;
  if (existsSync(logs)) cpSync(logs, path.join(ARTIFACTS, 'logs'), { recursive: true });
  const events = path.join(folder, '.kittify', 'events');
  if (existsSync(events)) cpSync(events, path.join(ARTIFACTS, 'events'), { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'timings.json'), JSON.stringify({ codeServer: session.info.codeServer, ...timings }, null, 2) + '\n');
}

/** Files under `dir` whose name passes `test`. */
function findFiles(dir: string, test: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((relative) => path.join(dir, relative))
    .filter((file) => test(path.basename(file)) && statSync(file).isFile());
}

describe.skipIf(!install.ok && !IN_CI)(`VS Code (code-server ${install.version}) with the extension, on a copy of examples/`, () => {
  beforeAll(async () => {
    expect(install.ok, `the VS Code session cannot run: ${install.reason}`).toBe(true);
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    let started = Date.now();
    session = await startSession(150_000, inject('vsix'));
    timings['sessionStartMs'] = Date.now() - started;
    root = session.info.folder;

    const documents = checkWorkspace(root);
    const withAmbiguity = documents.find((d) => d.findings.some((f) => f.conflict_type === 'ambiguous' && f.candidate_senses.length >= 2));
    expect(withAmbiguity, `the CLI reports no ambiguous term in ${root}: ${JSON.stringify(documents)}`).toBeDefined();
    spec = withAmbiguity!;
    specPath = spec.path;
    flags = flagsOf(root, spec);
    ambiguous = flags.find((f) => f.finding.conflict_type === 'ambiguous' && f.finding.candidate_senses.length >= 2)!;

    browser = await launchChromium();
    vscode = new Workbench(browser.page);
    started = Date.now();
    try {
      await vscode.open(session.info.url);
      await vscode.openFile(specPath);
    } catch (error) {
      await shot('failed-0-open').catch(() => undefined);
      throw error;
    }
    timings['openMs'] = Date.now() - started;
  }, 240_000);

  afterAll(async () => {
    keepArtifacts();
    await browser?.close();
    await session?.stop();
  });

  function screenshotOnFailure(name: string): void {
    onTestFailed(async () => {
      await shot(`failed-${name}`).catch(() => undefined);
    });
  }

  it('1. squiggles the words the CLI reports, with its severities, and no others', async () => {
    screenshotOnFailure('1-squiggles');
    // The example's own promise (docs/examples.md): 'workspace' is ambiguous in the checkout spec.
    expect(specPath).toBe('kitty-specs/001-checkout-flow/spec.md');
    expect(ambiguous.text).toBe('workspace');
    expect(flags.length).toBeGreaterThanOrEqual(2);

    const seen: Squiggle[] = [];
    for (const [index, flag] of flags.entries()) {
      await vscode.goTo(flag.line, flag.column);
      // The first wait includes the extension's activation and the server's start.
      const squiggles = await vscode.waitForSquiggles(`a squiggle under '${flag.text}' on line ${flag.line}`, (now) => onLine(now, flag).length > 0, index === 0 ? 45_000 : 15_000);
      for (const squiggle of onLine(squiggles, flag)) expect(squiggle.severity, `'${flag.text}' on line ${flag.line}`).toBe(flag.squiggle);
      seen.push(...squiggles);
    }
    // Every squiggle drawn is one of the CLI's findings: nothing flagged in front matter, comments,
    // code or link targets, which hold the same words.
    const expected = new Set(flags.map((f) => `${f.line}:${f.text}:${f.squiggle}`));
    for (const squiggle of seen) expect(expected, `a squiggle the CLI does not report: ${JSON.stringify(squiggle)}`).toContain(`${squiggle.line}:${squiggle.text}:${squiggle.severity}`);

    await vscode.goTo(ambiguous.line, ambiguous.column);
    await shot('01-squiggles');
  });

  it('2. the status bar shows the gate status, and a click on it opens the Problems view listing every finding', async () => {
    screenshotOnFailure('2-problems');
    const status = statusFor(spec);
    await vscode.waitForGateStatus(status.include, status.exclude);
    await vscode.clickGateStatus();
    const rows = await vscode.problems();
    const severityWord = { error: 'Error', warning: 'Warning', info: 'Info' } as const;
    const listed = rows.filter((row) => /^(Error|Warning|Info): /.test(row) && row.includes('generated by spec-glossary'));
    for (const flag of flags) {
      const row = `${severityWord[flag.squiggle]}: ${flag.finding.message} at line ${flag.line} and character ${flag.column}.`;
      expect(listed.some((r) => r.startsWith(row)), `no Problems row starting ${JSON.stringify(row)} in ${JSON.stringify(listed)}`).toBe(true);
    }
    expect(listed).toHaveLength(flags.length);
    await shot('02-problems');
  });

  it('3. hovering the ambiguous word shows every candidate sense', async () => {
    screenshotOnFailure('3-hover');
    await vscode.goTo(ambiguous.line, ambiguous.column);
    const [squiggle] = onLine(await vscode.squiggles(), ambiguous);
    expect(squiggle, `no squiggle under '${ambiguous.text}'`).toBeDefined();
    const definitions = ambiguous.finding.candidate_senses.map((sense) => sense.definition);
    const text = await vscode.hover(squiggle!.x, squiggle!.y - 3, definitions);
    expect(text).toContain(ambiguous.finding.message);
    for (const sense of ambiguous.finding.candidate_senses) expect(text).toContain(sense.scope);
    await shot('03-hover');
    await vscode.hideHover();
  });

  it('4. the quick-fix menu offers the senses; picking one removes the squiggles, logs the decision and updates the status bar', async () => {
    screenshotOnFailure('4-quick-fix');
    await vscode.goTo(ambiguous.line, ambiguous.column);
    const titles = await vscode.quickFixes();
    await shot('04-quick-fix-menu');
    const senses = ambiguous.finding.candidate_senses;
    // "Use 'workspace' = <the definition, maybe shortened with …> (team_domain)", one per sense.
    const useTitles = senses.map((sense) => {
      const title = titles.find((t) => {
        const match = /^Use '(.+)' = (.+?)…? \((\w+)\)$/.exec(t);
        return !!match && sameWord(match[1], ambiguous.text) && sense.definition.startsWith(match[2]!) && match[3] === sense.scope;
      });
      expect(title, `no "Use '${ambiguous.text}' = ${sense.definition.slice(0, 30)}…" in ${JSON.stringify(titles)}`).toBeDefined();
      return title!;
    });
    expect(new Set(useTitles).size).toBe(senses.length);

    const picked = senses[0]!;
    await vscode.chooseAction(useTitles[0]!);

    const occurrences = flags.filter((f) => f.finding.term === ambiguous.finding.term);
    await vscode.waitForSquiggles(`the squiggles under '${ambiguous.text}' to go away`, (now) => occurrences.every((f) => onLine(now, f).length === 0));

    const isResolution = (e: GlossaryEvent) => e.event_type === 'GlossaryClarificationResolved' && sameWord(e.term_surface, ambiguous.text);
    const { file, event } = await waitForEvent(`GlossaryClarificationResolved for '${ambiguous.text}'`, isResolution);
    expectMissionLog(file);
    expect(event).toMatchObject({ mission_id: spec.mission_id, resolution_mode: 'interactive', selected_sense: { scope: picked.scope, definition: picked.definition } });
    expect(readEvents(root).filter(({ event }) => isResolution(event)), 'one decision, one line').toHaveLength(1);

    // Pinned now (no squiggle): Ctrl+. on it offers to change the decision or reopen it.
    await vscode.goTo(ambiguous.line, ambiguous.column);
    const change = await vscode.quickFixes();
    const other = senses[1]!;
    const instead = change.find((t) => {
      const match = /^Use '(.+)' = (.+?)…? \((\w+)\) instead$/.exec(t);
      return !!match && sameWord(match[1], ambiguous.text) && other.definition.startsWith(match[2]!) && match[3] === other.scope;
    });
    expect(instead, `no "Use '${ambiguous.text}' = ${other.definition.slice(0, 30)}… instead" in ${JSON.stringify(change)}`).toBeDefined();
    expect(change.some((t) => /^Reopen '(.+)' for clarification$/.exec(t) !== null && sameWord(/'(.+)'/.exec(t)![1], ambiguous.text)), JSON.stringify(change)).toBe(true);
    await shot('04-change-of-mind-menu');
    await vscode.page.keyboard.press('Escape');
    await vscode.page.locator('.action-widget').waitFor({ state: 'hidden', timeout: 10_000 });

    // The CLI replays the log: the editor's status must now agree with it.
    const after = checkWorkspace(root).find((d) => d.path === specPath)!;
    expect(after.findings.some((f) => f.term === ambiguous.finding.term)).toBe(false);
    const status = statusFor(after);
    await vscode.waitForGateStatus(status.include, status.exclude);
    await shot('04-sense-picked');
  });

  it('5. "Define … with a definition…" takes a custom sense in an input box and records it', async () => {
    screenshotOnFailure('5-define');
    const unknown = flagsOf(root, checkWorkspace(root).find((d) => d.path === specPath)!).find((f) => f.finding.conflict_type === 'unknown');
    expect(unknown, 'the CLI reports no unknown term in the spec').toBeDefined();
    await vscode.goTo(unknown!.line, unknown!.column);
    const titles = await vscode.quickFixes();
    const title = titles.find((t) => /^Define '(.+)' in the mission glossary with a definition…$/.exec(t) && sameWord(/'(.+)'/.exec(t)![1], unknown!.text));
    expect(title, `no "Define '${unknown!.text}' in the mission glossary with a definition…" in ${JSON.stringify(titles)}`).toBeDefined();
    await vscode.chooseAction(title!);

    // The input box: titled like the action, says what will happen, refuses an empty definition.
    await vscode.waitForInputBoxText(title!);
    const box = await vscode.inputBox();
    expect(box).toContain('recorded in the event log');
    await vscode.page.keyboard.press('Enter');
    await vscode.waitForInputBoxText('Type a definition, or press Escape to cancel.');
    await vscode.page.keyboard.type(CUSTOM_DEFINITION);
    await vscode.waitForInputBoxText('Type a definition, or press Escape to cancel.', false);
    expect(await vscode.inputBoxValue()).toBe(CUSTOM_DEFINITION);
    await shot('05-input-box');
    await vscode.page.keyboard.press('Enter');
    await vscode.inputBoxClosed();

    await vscode.waitForSquiggles(`the squiggle under '${unknown!.text}' to go away`, (now) => onLine(now, unknown!).length === 0);
    const updated = await waitForEvent(`GlossarySenseUpdated for '${unknown!.text}'`, (e) => e.event_type === 'GlossarySenseUpdated' && sameWord(e.term_surface, unknown!.text));
    expectMissionLog(updated.file);
    expect(updated.event).toMatchObject({ mission_id: spec.mission_id, scope: 'mission_local', new_sense: { definition: CUSTOM_DEFINITION, scope: 'mission_local' } });
    const resolved = await waitForEvent(`GlossaryClarificationResolved for '${unknown!.text}'`, (e) => e.event_type === 'GlossaryClarificationResolved' && sameWord(e.term_surface, unknown!.text));
    expect(resolved.event).toMatchObject({ mission_id: spec.mission_id, selected_sense: { definition: CUSTOM_DEFINITION, scope: 'mission_local' } });

    const after = checkWorkspace(root).find((d) => d.path === specPath)!;
    const status = statusFor(after);
    await vscode.waitForGateStatus(status.include, status.exclude);
    await shot('05-defined');
  });

  it(`6. a typed acronym (${TYPED_ACRONYM}) is flagged within ${TYPING_LATENCY_MS} ms`, async () => {
    screenshotOnFailure('6-typing');
    await vscode.goTo(ambiguous.line);
    await vscode.page.keyboard.press('End');
    await vscode.watchForSquiggle(TYPED_ACRONYM);
    await vscode.page.keyboard.type(` ${TYPED_ACRONYM} `);
    const latency = await vscode.squiggleLatency(10_000);
    timings['typedAcronymToSquiggleMs'] = Math.round(latency);
    const [squiggle] = (await vscode.squiggles()).filter((s) => s.text === TYPED_ACRONYM);
    expect(squiggle).toMatchObject({ line: ambiguous.line, severity: 'info' });
    await shot('06-acronym');
    expect(latency, `the squiggle came ${Math.round(latency)} ms after the last key`).toBeLessThan(TYPING_LATENCY_MS);
  });

  it('7. restarting the server brings the diagnostics back, and the "Spec Glossary" output channel shows no errors', async () => {
    screenshotOnFailure('7-output');
    const outputLog = () => findFiles(session!.info.logs, (name) => name.endsWith('-Spec Glossary.log'));
    const channelText = () => outputLog().map((file) => readFileSync(file, 'utf8')).join('');
    const readyCount = () => channelText().split('\n').filter((line) => line.includes('language server ready')).length;
    expect(outputLog(), `no "Spec Glossary" output log under ${session!.info.logs}`).toHaveLength(1);
    expect(readyCount()).toBe(1);

    await vscode.runCommand('Spec Glossary: Restart Language Server');
    await until('a second "language server ready" in the output channel', () => (readyCount() === 2 ? true : undefined), 30_000);
    await vscode.waitForSquiggles(`'${TYPED_ACRONYM}' flagged again after the restart`, (now) => now.some((s) => s.text === TYPED_ACRONYM), 30_000);
    await vscode.runCommand('Spec Glossary: Show Output');
    const shown = await vscode.outputText('language server ready');
    await shot('07-output');

    const text = channelText();
    expect(text).toContain('GlossaryClarificationResolved');
    // Level-tagged errors and warnings of the client library, and whatever a crashing server
    // prints (stack frames, unhandled rejections).
    const problems = text.split('\n').filter((line) => /^\[(Error|Warn)/.test(line) || /^\s+at \S.*:\d+:\d+\)?$/.test(line) || /Unhandled|Uncaught/.test(line));
    expect(problems, `errors in the "Spec Glossary" output channel:\n${text}`).toEqual([]);
    expect(shown).toContain('language server ready');
    expect(shown).not.toMatch(/\[Error/);

    // And the extension host log says nothing bad about the extension (activation, diagnostics).
    const hostLogs = findFiles(session!.info.logs, (name) => name === 'remoteexthost.log' || name === 'exthost.log');
    expect(hostLogs.length).toBeGreaterThan(0);
    const complaints = hostLogs
      .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
      .filter((line) => /\[(error|warning)\]/.test(line) && /spec-glossary|Spec Glossary/i.test(line));
    expect(complaints, 'the extension host logged errors or warnings about the extension').toEqual([]);
  });
});
