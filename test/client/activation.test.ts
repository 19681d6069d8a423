/**
 * The bundled extension (dist/extension.cjs) activated against a stand-in `vscode` module: it
 * starts the real bundled server over node IPC, registers the server's and its own commands,
 * restarts cleanly when a setting that needs it changes (the server's commands are registered
 * again, not twice), stops when disabled, its "Define … with a definition…" command asks for a
 * definition and passes it to the server, and its "server running" context key follows a crash
 * of the server and the library's restart.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientCommands, RUNNING_CONTEXT_KEY } from '../../client/src/commands';
import { Commands } from '../../server/src/shared/protocol';
import { REPO, tempWorkspace, type TempWorkspace } from '../helpers/workspace';
import { createFakeVscode, type FakeVscode } from './fakeVscode';

const EXTENSION = path.join(REPO, 'dist', 'extension.cjs');

let workspace: TempWorkspace;
let fake: FakeVscode;
let extension: { activate(context: unknown): Promise<void>; deactivate(): Promise<void> | undefined };
const subscriptions: Array<{ dispose(): unknown }> = [];

function load(file: string, vscode: unknown) {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : original.call(this, request, ...rest);
  };
  try {
    return createRequire(file)(file);
  } finally {
    loader._load = original;
  }
}

/** Polls a condition of the fake editor's state (it changes on messages from the server). */
async function until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${fake.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const running = () => fake.contexts.get(RUNNING_CONTEXT_KEY) === true;

beforeAll(async () => {
  if (!existsSync(EXTENSION)) throw new Error(`${EXTENSION} is missing: run \`npm run build\` first`);
  workspace = tempWorkspace({
    '.kittify/glossaries/team_domain.yaml': 'terms:\n  - surface: workspace\n    definition: Git worktree directory\n    status: active\n',
    'kitty-specs/001-demo/spec.md': '# Spec\n\nThe workspace holds the "quuxbar".\n',
  });
  fake = createFakeVscode(workspace.root);
  extension = load(EXTENSION, fake.module);
  const context = {
    subscriptions,
    extensionPath: REPO,
    extensionUri: fake.module['Uri'].file(REPO),
    asAbsolutePath: (relative: string) => path.join(REPO, relative),
    globalState: { get: () => undefined, update: async () => undefined, keys: () => [] },
    workspaceState: { get: () => undefined, update: async () => undefined, keys: () => [] },
    environmentVariableCollection: {},
    extensionMode: 1,
  };
  await extension.activate(context);
}, 30_000);

afterAll(async () => {
  await extension?.deactivate();
  for (const d of subscriptions.splice(0)) d.dispose();
  workspace?.remove();
});

describe('the VS Code extension', () => {
  it('starts the bundled server and registers its commands and the client commands', async () => {
    await until('the server to run', running);
    await until('the server to log that it is ready', () => fake.output.some((line) => line.includes('language server ready')));
    for (const id of [...Object.values(Commands), ...Object.values(ClientCommands)]) expect(fake.commands.has(id), id).toBe(true);
  });

  it('restarts when specGlossary.server.path changes, and stops and starts with specGlossary.enable', async () => {
    const serverModule = path.join(REPO, 'dist', 'server.cjs');
    fake.changeSettings({ 'specGlossary.server.path': serverModule });
    await until('the restart to begin', () => !running());
    await until('the server to run again', running);
    expect(fake.commands.has(Commands.selectSense)).toBe(true);
    expect(fake.messages.filter((m) => m.level === 'error')).toEqual([]);

    fake.changeSettings({ 'specGlossary.enable': false });
    await until('the server to stop', () => !running() && !fake.commands.has(Commands.selectSense));
    fake.changeSettings({ 'specGlossary.enable': true });
    await until('the server to start again', () => running() && fake.commands.has(Commands.selectSense));

    // A setting the server applies itself does not restart anything.
    fake.changeSettings({ 'specGlossary.strictness': 'max' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running()).toBe(true);
  });

  it('asks for a definition and records it through the server (GlossarySenseUpdated + Resolved)', async () => {
    await until('the server to run', running);
    const window = fake.module['window'];
    const prompts: unknown[] = [];
    window.showInputBox = async (options: unknown) => {
      prompts.push(options);
      return '  Folder of a Spec Kitty mission  ';
    };
    const spec = workspace.path('kitty-specs/001-demo/spec.md');
    const result = await fake.commands.get(ClientCommands.defineTermWithDefinition)!({
      uri: fake.module['Uri'].file(spec).toString(),
      missionId: '001-demo',
      stepId: 'spec',
      term: 'quuxbar',
      scope: 'team_domain',
    });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ title: "Define 'quuxbar' in the team glossary with a definition…" });
    expect(result).toMatchObject({ ok: true });
    const events = readFileSync(workspace.path('.kittify/events/glossary/001-demo.events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.event_type)).toEqual(['GlossarySenseUpdated', 'GlossaryClarificationResolved']);
    expect(events[1].selected_sense).toMatchObject({ surface: 'quuxbar', scope: 'team_domain', definition: 'Folder of a Spec Kitty mission' });
    expect(fake.messages).toContainEqual(expect.objectContaining({ level: 'status' }));
  });

  it('shows the gate status of the active spec in the status bar, from the code lens', async () => {
    await until('the server to run', running);
    const spec = workspace.write('kitty-specs/002-gate/spec.md', '---\ncritical_step: true\n---\n# Gate\n\nThe "frobnicator" uses the workspace.\n');
    fake.showDocument(spec, 'markdown', readFileSync(spec, 'utf8'));
    const item = () => fake.statusBarItems.find((i) => i['visible'] && String(i['text']).includes('Glossary:'));
    await until('the gate status in the status bar', () => item() !== undefined);
    // specGlossary.strictness was set to max above: any conflict blocks.
    expect(item()!['text']).toBe('$(check) Glossary: 0 high · 0 medium · 1 low — generation blocked (strictness max)');

    fake.showDocument(workspace.path('.kittify/glossaries/team_domain.yaml'), 'spec-glossary-yaml', '');
    await until('the status bar item to hide for a non-spec', () => item() === undefined);
  });

  it('cancelling the input box does nothing', async () => {
    fake.module['window'].showInputBox = async () => undefined;
    const before = readFileSync(workspace.path('.kittify/events/glossary/001-demo.events.jsonl'), 'utf8');
    const result = await fake.commands.get(ClientCommands.defineTermWithDefinition)!({ uri: 'file:///x.md', missionId: 'm', term: 't', scope: 'mission_local' });
    expect(result).toBeUndefined();
    expect(readFileSync(workspace.path('.kittify/events/glossary/001-demo.events.jsonl'), 'utf8')).toBe(before);
  });

  it('follows a crash of the server: not running while it is down, running again once the library restarts it', async () => {
    await until('the server to run', running);
    const [pid, ...more] = serverProcesses();
    expect(more).toEqual([]);
    // Every value the context key is set to from now on (the restart may come before a poll).
    const set: unknown[] = [];
    const contexts = fake.contexts;
    const setContext = contexts.set.bind(contexts);
    contexts.set = (key, value) => {
      if (key === RUNNING_CONTEXT_KEY) set.push(value);
      return setContext(key, value);
    };
    try {
      process.kill(pid!, 'SIGKILL');
      await until('the library to start the server again', () => set.includes(false) && running() && serverProcesses().length === 1 && serverProcesses()[0] !== pid);
      expect(set).toEqual([false, true]);
    } finally {
      contexts.set = setContext;
    }
  });
});

/** The pids of this process's children running the bundled server (Linux: read from /proc). */
function serverProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // (The parent pid is the 4th field, after the command name in parentheses.)
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
      if (parent === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(path.join('dist', 'server'))) found.push(Number(entry));
    } catch {
      // (Gone meanwhile.)
    }
  }
  return found;
}
