/**
 * `npm run package` on a clean copy of the repository (the files git tracks or would track, no
 * dist/, node_modules linked in; built once per run by globalSetup.ts, and installed by the VS
 * Code session too) builds a .vsix that holds what VS Code needs: the manifest with every setting, the bundled client and server, the word list, the core glossary, the language
 * configuration and grammar — and no node_modules. The server inside it answers `initialize`
 * over both transports (VS Code uses node IPC, other editors stdio).
 */

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Module, { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter, StreamMessageReader, StreamMessageWriter, type InitializeResult, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { ALL_CLIENT_COMMANDS } from '../../client/src/commands';
import { GLOSSARY_LANGUAGE_ID } from '../../client/src/documents';
import { RESTART_SETTINGS } from '../../client/src/settings';
import { ALL_COMMANDS, DEFAULT_SETTINGS, LOG_LEVELS, SETTINGS_SECTION } from '../../server/src/shared/protocol';
import { EXTRACTOR_IDS } from '../../server/src/core/extract/extractors';
import { CONFLICT_CODES } from '../../server/src/service/codes';
import { extractZip, readZip, type ZipEntry } from './zip';

let work: string;
let entries: ZipEntry[];
let unpacked: string;
let manifest: Record<string, any>;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'spec-glossary-vsix-unpacked-'));
  entries = readZip(readFileSync(inject('vsix')));
  unpacked = path.join(work, 'unpacked');
  extractZip(entries, unpacked);
  manifest = JSON.parse(readFileSync(path.join(unpacked, 'extension', 'package.json'), 'utf8'));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const names = () => entries.map((e) => e.name);

describe('the .vsix built by npm run package', () => {
  it('holds the bundles, data, glossary, language files and manifest, and no dependencies or sources', () => {
    const files = names();
    for (const needed of [
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/dist/extension.cjs',
      'extension/dist/server.cjs',
      'extension/dist/server.js',
      'extension/dist/cli.cjs',
      'extension/dist/package.json',
      'extension/dist/data/common-words.txt',
      'extension/dist/data/known-words.txt',
      'extension/dist/data/spec_kitty_core.json',
      'extension/glossaries/spec_kitty_core.yaml',
      'extension/language-configuration.json',
      'extension/syntaxes/spec-glossary-yaml.tmLanguage.json',
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.some((f) => /^extension\/readme\.md$/i.test(f))).toBe(true);
    expect(files.some((f) => /^extension\/license(\.txt)?$/i.test(f))).toBe(true);
    expect(files.filter((f) => f.includes('node_modules/') || f.includes('dist/tools/'))).toEqual([]);
    expect(files.filter((f) => /\.(ts|map)$/.test(f) || /^extension\/(server|client|test|scripts|bench)\//.test(f))).toEqual([]);
  });

  it('has bundles that need nothing but Node built-ins (and vscode, for the client)', () => {
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    for (const [bundle, allowed] of [
      ['extension/dist/extension.cjs', ['vscode']],
      ['extension/dist/server.cjs', []],
      ['extension/dist/cli.cjs', []],
    ] as const) {
      const code = readFileSync(path.join(unpacked, bundle), 'utf8');
      const required = new Set([...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
      const foreign = [...required].filter((id) => !builtins.has(id) && !(allowed as readonly string[]).includes(id));
      expect(foreign, bundle).toEqual([]);
    }
  });

  it('has a manifest VS Code can run: entry point, engine, activation, language, grammar, commands', () => {
    expect(manifest['engines']['vscode']).toMatch(/^\^1\.\d+\.\d+$/);
    expect(manifest['main']).toBe('./dist/extension.cjs');
    // (A workspace with only a config or event logs, the bundled core glossary in use, activates too.)
    expect(manifest['activationEvents']).toEqual(expect.arrayContaining(['onLanguage:markdown', 'onLanguage:mdx', 'workspaceContains:**/.kittify/config.yaml', 'workspaceContains:**/.kittify/events/glossary/*.events.jsonl']));
    expect(names()).toContain(`extension/${path.posix.normalize(manifest['main'])}`);

    const language = manifest['contributes']['languages'].find((l: { id: string }) => l.id === GLOSSARY_LANGUAGE_ID);
    expect(language.filenamePatterns).toContain('**/.kittify/glossaries/*.yaml');
    expect(names()).toContain(`extension/${path.posix.normalize(language.configuration)}`);
    const grammar = manifest['contributes']['grammars'].find((g: { language: string }) => g.language === GLOSSARY_LANGUAGE_ID);
    expect(names()).toContain(`extension/${path.posix.normalize(grammar.path)}`);
    const grammarJson = JSON.parse(readFileSync(path.join(unpacked, 'extension', grammar.path), 'utf8'));
    expect(grammarJson.scopeName).toBe(grammar.scopeName);
    expect(grammarJson.patterns).toContainEqual({ include: 'source.yaml' });

    const known = new Set<string>([...ALL_COMMANDS, ...ALL_CLIENT_COMMANDS]);
    const contributed = manifest['contributes']['commands'].map((c: { command: string }) => c.command);
    expect(contributed.filter((id: string) => !known.has(id))).toEqual([]);
    for (const id of contributed) expect(id.startsWith(`${SETTINGS_SECTION}.`)).toBe(true);
  });

  it('contributes every specGlossary setting with its default and a description', () => {
    const properties: Record<string, any> = manifest['contributes']['configuration']['properties'];
    const expected = new Map<string, unknown>();
    const flatten = (prefix: string, value: unknown) => {
      if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
        for (const [key, inner] of Object.entries(value)) flatten(`${prefix}.${key}`, inner);
      } else expected.set(prefix, value);
    };
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) flatten(`${SETTINGS_SECTION}.${key}`, value);
    for (const [id, value] of expected) {
      expect(properties[id], id).toBeDefined();
      expect(properties[id].default, id).toEqual(value);
    }
    for (const id of RESTART_SETTINGS) expect(properties[id], id).toBeDefined();
    for (const [id, property] of Object.entries(properties)) {
      expect(id.startsWith(`${SETTINGS_SECTION}.`), id).toBe(true);
      expect(String(property.description ?? property.markdownDescription ?? '').length, `${id} needs a description`).toBeGreaterThan(20);
      expect(property.default, `${id} needs a default`).toBeDefined();
    }
    expect(properties[`${SETTINGS_SECTION}.strictness`].enum).toEqual(['', 'off', 'medium', 'max']);
    expect(properties[`${SETTINGS_SECTION}.logLevel`].enum).toEqual([...LOG_LEVELS]);
    expect(properties[`${SETTINGS_SECTION}.disabledExtractors`].items.enum).toEqual([...EXTRACTOR_IDS]);
    expect(Object.keys(properties[`${SETTINGS_SECTION}.severityOverrides`].properties)).toEqual([...CONFLICT_CODES]);
    // A workspace must not be able to pick the program VS Code runs.
    expect(properties[`${SETTINGS_SECTION}.server.path`].scope).toBe('machine');
  });

  it('loads the client bundle as CommonJS and exports activate/deactivate', () => {
    const extension = loadWithStubVscode(path.join(unpacked, 'extension', 'dist', 'extension.cjs'));
    expect(typeof extension.activate).toBe('function');
    expect(typeof extension.deactivate).toBe('function');
  });

  it.each([
    ['stdio', 'server.js'],
    ['node-ipc', 'server.js'],
    ['node-ipc', 'server.cjs'],
  ] as const)('starts the bundled server, which answers initialize over %s (dist/%s)', async (transport, module) => {
    const server = path.join(unpacked, 'extension', 'dist', module);
    const folder = path.join(unpacked, 'extension');
    const child: ChildProcess =
      transport === 'stdio' ? spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] }) : fork(server, ['--node-ipc'], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    const connection: ProtocolConnection =
      transport === 'stdio' ? createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!)) : createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    try {
      const result: InitializeResult = await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(folder).href,
        workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'extension' }],
        capabilities: {},
      });
      expect(result.serverInfo?.name).toBe('spec-glossary');
      expect(result.capabilities.codeActionProvider).toBeTruthy();
      expect(result.capabilities.executeCommandProvider?.commands).toEqual(expect.arrayContaining([...ALL_COMMANDS]));
      await connection.sendRequest('shutdown');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await connection.sendNotification('exit');
      await exited;
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});

/** `require()` a bundle with `vscode` answered by an inert stand-in (any property, call or `new` works). */
function loadWithStubVscode(file: string): Record<string, unknown> {
  const handler: ProxyHandler<() => void> = {
    get: (target, prop) => {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => 0;
      const record = target as unknown as Record<PropertyKey, unknown>;
      if (!(prop in record)) record[prop] = stub();
      return record[prop];
    },
    apply: () => stub(),
    construct: () => stub(),
  };
  const stub = (): object => new Proxy(function () {}, handler);
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? stub() : original.call(this, request, ...rest);
  };
  try {
    return createRequire(file)(file) as Record<string, unknown>;
  } finally {
    loader._load = original;
  }
}
