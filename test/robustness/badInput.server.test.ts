/**
 * The bad-input matrix through the language server (in this process over a pair of streams, a real
 * JSON-RPC client: test/lsp/client.ts): each bad input becomes a diagnostic on the file it is in, at the offending
 * place, with a message that says what is wrong; valid data next to it still counts; the server
 * stays up and keeps answering; nothing is written outside `.kittify/`. The large inputs are at
 * the promised sizes in the scale run (`npm run test:scale`, helpers/scale.ts), a tenth or so in
 * `npm test`.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic, Hover, MarkupContent, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { TestClient } from '../lsp/client';
import { atScale } from '../helpers/scale';
import { AMBIGUOUS_ZORBLAX, positionOf, readLog, tempWorkspace, uriOf, writeBig, ZORBLAX_SEED, type TempWorkspace } from './helpers';

let ws: TempWorkspace;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  ws?.remove();
});

const SPEC = 'kitty-specs/041-demo/spec.md';
const TEAM = '.kittify/glossaries/team_domain.yaml';
const MISSION_SEED = '.kittify/glossaries/mission_local.yaml';
const ZORBLAX_SPEC = '# Demo\n\nThe zorblax is ready.\n';
/** The document above the size limit (5 MB), in MB; the senses of the large glossary. */
const HUGE_DOCUMENT_MB = atScale(50, 8);
const SENSES = atScale(100_000, 10_000);

async function start(files: Record<string, string | Buffer>, settings: Record<string, unknown> = {}): Promise<TestClient> {
  ws = tempWorkspace({ 'kitty-specs/041-demo/meta.json': JSON.stringify({ mission_id: 'm-041' }) });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(ws.path(file)), { recursive: true });
    writeFileSync(ws.path(file), content);
  }
  client = await TestClient.start({ folders: [ws.root], settings });
  return client;
}

const uri = (relative: string) => uriOf(ws.path(relative));
const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);
const at = (text: string, needle: string, occurrence = 1) => positionOf(text, needle, occurrence);

/** Opens a document and waits for its diagnostics (20 s by default; inputs at scale say how long they may take). */
async function openDoc(relative: string, text: string, timeoutMs?: number): Promise<PublishDiagnosticsParams> {
  const since = client!.mark();
  client!.open(uri(relative), text);
  return client!.diagnostics(uri(relative), () => true, since, `diagnostics of ${relative}`, timeoutMs);
}

/** The server is still up and answering requests. */
async function stillServing(): Promise<void> {
  expect(client!.exited).toBe(false);
  const probe = 'kitty-specs/041-demo/probe.md';
  const published = await openDoc(probe, '# Probe\n\nText.\n');
  expect(published.version).toBe(1);
  const lens = await client!.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uri(probe) } });
  expect(lens[0]!.command.title).toMatch(/^Glossary: /);
  expect(client!.stderr).toBe('');
}

function ambiguous(ds: Diagnostic[], scope: string): Diagnostic | undefined {
  return ds.find((d) => d.code === 'ambiguous' && d.message.startsWith(`${AMBIGUOUS_ZORBLAX} ${scope}`));
}

describe('bad input through the language server', () => {
  it('malformed YAML in a seed: an Error diagnostic at its line on the seed; the other scopes still apply', async () => {
    await start({ [TEAM]: 'terms:\n  - surface: workspace\n    definition: [unclosed\n  - surface: other\n', [MISSION_SEED]: ZORBLAX_SEED });
    const doc = await openDoc(SPEC, ZORBLAX_SPEC); // the folder is loaded with its first document
    const seed = await client!.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'diagnostics on the broken seed');
    expect(seed.diagnostics.length).toBeGreaterThan(0);
    for (const d of seed.diagnostics) {
      expect(d).toMatchObject({ code: 'glossary.parse-error', severity: 1, source: 'spec-glossary' });
      expect(d.message).toMatch(/^YAML syntax error: \S/);
      expect([2, 3]).toContain(d.range.start.line);
    }
    expect(ambiguous(doc.diagnostics, 'mission_local')?.range.start).toEqual(at(ZORBLAX_SPEC, 'zorblax'));
    await stillServing();
  });

  it('wrong types in seed fields, config.yaml and front matter: one diagnostic at each offending value', async () => {
    const seed = `terms:
  - surface: 123
    definition: number surface
  - surface: alpha
    definition: [a, list]
  - surface: beta
    definition: x
    confidence: "high"
  - surface: gamma
    definition: x
    status: 5
  - surface: delta
    definition: x
    synonyms_to_avoid: {a: b}
${ZORBLAX_SEED.replace('terms:\n', '')}`;
    const config = 'glossary:\n  strictness: 5\n  check: [x]\n  ignore_words: oops\n';
    const spec = '---\ncritical_step: "yes"\nglossary_fields: 7\n---\n# Demo\n\nThe zorblax is ready.\n';
    await start({ [TEAM]: seed, '.kittify/config.yaml': config });
    const doc = await openDoc(SPEC, spec);
    const seedDiagnostics = await client!.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'seed diagnostics');
    expect(seedDiagnostics.diagnostics.map((d) => [d.code, d.severity, d.range.start])).toEqual([
      ['glossary.invalid-surface', 1, at(seed, '123')],
      ['glossary.invalid-definition', 1, at(seed, '[a, list]')],
      ['glossary.invalid-confidence', 1, at(seed, '"high"')],
      ['glossary.invalid-status', 1, at(seed, '5\n')],
      ['glossary.invalid-synonyms-to-avoid', 1, at(seed, '{a: b}')],
    ]);
    const configDiagnostics = await client!.diagnostics(uri('.kittify/config.yaml'), (ds) => ds.length > 0, 0, 'config diagnostics');
    expect(configDiagnostics.diagnostics.map((d) => [d.code, d.severity, d.range.start])).toEqual([
      ['config.invalid-strictness', 2, at(config, '5')],
      ['config.invalid-check', 2, at(config, '[x]')],
      ['config.invalid-list', 2, at(config, 'oops')],
    ]);
    expect(doc.diagnostics.map((d) => [d.code, d.range.start, d.message])).toEqual([
      ['frontmatter.invalid', at(spec, '"yes"'), '`critical_step` must be true or false; it is ignored (not critical).'],
      ['frontmatter.invalid', at(spec, '7'), '`glossary_fields` must be a list of section headings (strings); other values are ignored.'],
      // (The invalid strictness is said at its value in config.yaml, above, not again at each spec's line 1.)
      ['ambiguous', at(spec, 'zorblax'), expect.stringContaining(`${AMBIGUOUS_ZORBLAX} team_domain`)],
    ]);
    expect(doc.diagnostics[2]!.severity).toBe(2); // not critical: medium → Warning
    await stillServing();
  });

  it('duplicate keys in a seed, in config.yaml and in front matter are reported where they repeat', async () => {
    const seed = `terms:\n  - surface: worktree\n    surface: worktree\n    definition: dup\n${ZORBLAX_SEED.replace('terms:\n', '')}terms: []\n`;
    const config = 'glossary:\n  strictness: max\nglossary: {}\n';
    const spec = '---\nstep_id: one\nstep_id: two\n---\nThe zorblax is ready.\n';
    await start({ [TEAM]: seed, '.kittify/config.yaml': config });
    const doc = await openDoc(SPEC, spec);
    const seedDiagnostics = await client!.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'seed diagnostics');
    expect(seedDiagnostics.diagnostics.map((d) => [d.code, d.range.start])).toEqual([
      ['glossary.duplicate-key', at(seed, 'terms:', 2)],
      ['glossary.duplicate-key', at(seed, 'surface: worktree', 2)],
    ]);
    const configDiagnostics = await client!.diagnostics(uri('.kittify/config.yaml'), (ds) => ds.length > 0, 0, 'config diagnostics');
    expect(configDiagnostics.diagnostics.map((d) => [d.code, d.range.start, d.message])).toEqual([
      ['config.duplicate-key', at(config, 'glossary:', 2), 'Duplicate key `glossary` (first at line 1); only the first one is read.'],
    ]);
    expect(doc.diagnostics.map((d) => [d.code, d.range.start])).toEqual([
      ['frontmatter.invalid', at(spec, 'step_id', 2)],
      ['ambiguous', at(spec, 'zorblax')],
    ]);
    // First wins: strictness max blocks on any conflict.
    const lens = await client!.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uri(SPEC) } });
    expect(lens[0]!.command.title).toMatch(/generation blocked \(strictness max\)$/);
  });

  it(`a ${HUGE_DOCUMENT_MB} MB document is not checked: one Information diagnostic with its size and the limit; the server keeps serving`, async () => {
    await start({ [TEAM]: ZORBLAX_SEED });
    const text = 'The zorblax is ready and the zorblax is set.\n'.repeat(Math.ceil((HUGE_DOCUMENT_MB * 1024 * 1024) / 45));
    const doc = await openDoc('docs/huge.md', text);
    expect(doc.diagnostics).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 3,
        code: 'file.too-large',
        source: 'spec-glossary',
        message: `spec-glossary did not check this document: it is ${(text.length / 1024 / 1024).toFixed(1)} MB, above the 5 MB limit (setting specGlossary.maxFileSize).`,
      },
    ]);
    // An edit that keeps it large keeps it skipped; the hover has nothing to say and does not fail.
    const since = client!.mark();
    client!.change(uri('docs/huge.md'), [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }]);
    const again = await client!.diagnostics(uri('docs/huge.md'), () => true, since, 'the edited huge document');
    expect(again.version).toBe(2);
    expect(codes(again.diagnostics)).toEqual(['file.too-large']);
    expect(await client!.request('textDocument/hover', { textDocument: { uri: uri('docs/huge.md') }, position: { line: 0, character: 6 } })).toBeNull();
    client!.close(uri('docs/huge.md'));
    await stillServing();
  });

  it('binary input: a binary document gets one Information diagnostic; binary and 50 MB seeds are refused on their file', async () => {
    await start({ [TEAM]: ZORBLAX_SEED, [MISSION_SEED]: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]) });
    writeBig(ws.path('.kittify/glossaries/audience_domain.yaml'), 50 * 1024 * 1024, '# padding\n');
    // The readable seed still counts.
    expect(ambiguous((await openDoc(SPEC, ZORBLAX_SPEC)).diagnostics, 'team_domain')).toBeDefined();
    const binarySeed = await client!.diagnostics(uri(MISSION_SEED), (ds) => ds.length > 0, 0, 'the binary seed');
    expect(binarySeed.diagnostics).toMatchObject([{ code: 'file.unreadable', severity: 2, message: `mission_local.yaml looks binary (it contains NUL bytes); it was skipped` }]);
    const bigSeed = await client!.diagnostics(uri('.kittify/glossaries/audience_domain.yaml'), (ds) => ds.length > 0, 0, 'the 50 MB seed');
    expect(bigSeed.diagnostics).toMatchObject([{ code: 'file.unreadable', severity: 2, message: 'audience_domain.yaml is 50 MB, above the 5 MB limit; it was skipped' }]);
    const doc = await openDoc('docs/image.md', '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR');
    expect(doc.diagnostics).toMatchObject([{ code: 'file.unreadable', severity: 3, message: 'spec-glossary did not check this document: it looks binary (a NUL character at line 3, column 1).' }]);
    await stillServing();
  });

  it('invalid UTF-8 in a seed on disk: a warning with the first bad byte; its entries still load', async () => {
    const seed = Buffer.concat([Buffer.from(ZORBLAX_SEED), Buffer.from('  - surface: caf'), Buffer.from([0xe9]), Buffer.from('\n    definition: latin-1 bytes\n')]);
    await start({ [TEAM]: seed });
    expect(ambiguous((await openDoc(SPEC, ZORBLAX_SPEC)).diagnostics, 'team_domain')).toBeDefined();
    const diagnostics = await client!.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'seed diagnostics');
    expect(diagnostics.diagnostics).toMatchObject([
      { code: 'file.unreadable', severity: 2, message: `team_domain.yaml is not valid UTF-8 (first invalid byte at line 10, column 17); invalid bytes were replaced with U+FFFD` },
    ]);
    await stillServing();
  });

  it('CRLF line endings and a BOM, in the buffer and on disk: the same ranges as with LF', async () => {
    const crlf = (text: string) => '\ufeff' + text.replace(/\n/g, '\r\n');
    const spec = '# Demo\n\nThe zorblax is ready.\nAnd the zorblax again, "zorblax".\n';
    await start({ [TEAM]: crlf(ZORBLAX_SEED), '.kittify/config.yaml': crlf('glossary:\n  strictness: max\n') });
    const lf = await openDoc(SPEC, spec);
    const crlfDoc = await openDoc('kitty-specs/041-demo/plan.md', spec.replace(/\n/g, '\r\n'));
    const shape = (ds: Diagnostic[]) => ds.map((d) => [d.code, d.range, d.message, d.relatedInformation?.map((r) => r.location.range)]);
    expect(shape(crlfDoc.diagnostics)).toEqual(shape(lf.diagnostics));
    expect(lf.diagnostics.map((d) => d.range.start)).toEqual([at(spec, 'zorblax'), at(spec, 'zorblax', 2), at(spec, 'zorblax', 3)]);
    // The related entries point at the list items of the BOM+CRLF seed (lines 1 and 5).
    expect(lf.diagnostics[0]!.relatedInformation!.map((r) => r.location.range.start.line)).toEqual([1, 5]);
    const lens = await client!.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uri(SPEC) } });
    expect(lens[0]!.command.title).toMatch(/\(strictness max\)$/);
    expect(client!.published.filter((p) => p.uri === uri(TEAM) || p.uri === uri('.kittify/config.yaml')).flatMap((p) => p.diagnostics)).toEqual([]);
  });

  it('a seed or event log symlinked outside the workspace is refused: diagnostics on the link, a failed command, the outside file untouched', async () => {
    ws = tempWorkspace({});
    const outside = `${ws.root}-outside`;
    mkdirSync(outside, { recursive: true });
    try {
      writeFileSync(path.join(outside, 'team.yaml'), ZORBLAX_SEED);
      writeFileSync(path.join(outside, 'stolen.events.jsonl'), 'precious\n');
      const logRel = '.kittify/events/glossary/m-041.events.jsonl';
      mkdirSync(ws.path('.kittify/glossaries'), { recursive: true });
      mkdirSync(ws.path('.kittify/events/glossary'), { recursive: true });
      mkdirSync(ws.path('kitty-specs/041-demo'), { recursive: true });
      writeFileSync(ws.path(MISSION_SEED), ZORBLAX_SEED);
      writeFileSync(ws.path('kitty-specs/041-demo/meta.json'), JSON.stringify({ mission_id: 'm-041' }));
      symlinkSync(path.join(outside, 'team.yaml'), ws.path(TEAM));
      symlinkSync(path.join(outside, 'stolen.events.jsonl'), ws.path(logRel));
      client = await TestClient.start({ folders: [ws.root] });
      const doc = await openDoc(SPEC, ZORBLAX_SPEC);
      const seed = await client.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'diagnostics on the linked seed');
      expect(seed.diagnostics).toMatchObject([{ code: 'file.unreadable', message: expect.stringMatching(/team_domain\.yaml resolves to .*-outside\/team\.yaml through a symbolic link, outside the workspace folder .*; refusing to use it$/) }]);
      const log = await client.diagnostics(uri(logRel), (ds) => ds.length > 0, 0, 'diagnostics on the linked log');
      expect(log.diagnostics).toMatchObject([{ code: 'events.invalid-line', message: expect.stringMatching(/stolen\.events\.jsonl through a symbolic link, outside the workspace folder/) }]);
      // A decision cannot be written through the link: the user is told, nothing changes.
      const diagnostic = ambiguous(doc.diagnostics, 'mission_local')!;
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
      const result = await client.request<{ ok: boolean; message: string }>('workspace/executeCommand', actions[0]!.command);
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/stolen\.events\.jsonl through a symbolic link, outside the workspace folder .*; refusing to use it$/);
      await client.until(() => client!.messages.find((m) => m.type === 1 && m.message === result.message), 'the error message shown to the user');
      expect(readFileSync(path.join(outside, 'stolen.events.jsonl'), 'utf8')).toBe('precious\n');
      expect(readdirSync(outside).sort()).toEqual(['stolen.events.jsonl', 'team.yaml']);
      await stillServing();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a mission id with '../' is sanitized: the decision lands in the log folder", async () => {
    await start({ [TEAM]: ZORBLAX_SEED });
    const spec = '---\nmission_id: ../../../escape\n---\nThe zorblax is ready.\n';
    const doc = await openDoc(SPEC, spec);
    const diagnostic = ambiguous(doc.diagnostics, 'team_domain')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    expect(actions[0]!.command!.arguments![0]).toMatchObject({ missionId: '../../../escape' });
    const since = client!.mark();
    const result = await client!.request<{ ok: boolean }>('workspace/executeCommand', actions[0]!.command);
    expect(result.ok).toBe(true);
    const logDir = ws.path('.kittify/events/glossary');
    expect(readdirSync(logDir)).toEqual(['..-..-..-escape.events.jsonl']);
    expect(readLog(path.join(logDir, '..-..-..-escape.events.jsonl')).events).toMatchObject([{ event_type: 'GlossaryClarificationResolved', mission_id: '../../../escape' }]);
    expect(existsSync(path.join(ws.root, '..', 'escape.events.jsonl'))).toBe(false);
    // The pin applies to the document of that mission.
    await client!.diagnostics(uri(SPEC), (ds) => !ambiguous(ds, 'team_domain'), since, 'the pinned document');
    // A command naming another mission than the document's is refused (the mission is always the
    // document's, issue 19): nothing is written anywhere.
    const direct = await client!.request<{ ok: boolean }>('workspace/executeCommand', {
      command: 'specGlossary.deferTerm',
      arguments: [{ uri: uri(SPEC), missionId: '../../x/../y', stepId: 'spec', term: 'zorblax', severity: 'medium', options: [] }],
    });
    expect(direct.ok).toBe(false);
    expect(readdirSync(logDir).sort()).toEqual(['..-..-..-escape.events.jsonl']);
  });

  it('an event log line of 10 MB: a warning on that line; the decisions after it apply', async () => {
    await start({ [TEAM]: ZORBLAX_SEED });
    const logRel = '.kittify/events/glossary/m-041.events.jsonl';
    const doc = await openDoc(SPEC, ZORBLAX_SPEC);
    const diagnostic = ambiguous(doc.diagnostics, 'team_domain')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: uri(SPEC) }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
    await client!.request('workspace/executeCommand', actions.find((a) => a.title.startsWith('Defer'))!.command);
    const resolvedLater = await client!.request<{ ok: boolean }>('workspace/executeCommand', actions[1]!.command);
    expect(resolvedLater.ok).toBe(true);
    const lines = readLog(ws.path(logRel)).wholeLines;
    expect(lines).toHaveLength(2);
    const since = client!.mark();
    writeFileSync(ws.path(logRel), [lines[0], 'x'.repeat(10 * 1024 * 1024), lines[1]].join('\n') + '\n');
    client!.fileChanged(uri(logRel));
    const log = await client!.diagnostics(uri(logRel), (ds) => ds.length > 0, since, 'the warning on the huge line');
    expect(log.diagnostics).toHaveLength(1);
    expect(log.diagnostics[0]).toMatchObject({ code: 'events.invalid-line', severity: 2, range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } } });
    expect(log.diagnostics[0]!.message).toMatch(/^not valid JSON \(.{1,200}\); line skipped$/);
    // The pin on line 3 still applies: the term is pinned, and the spec shows no ambiguity.
    const hover = await client!.request<Hover>('textDocument/hover', { textDocument: { uri: uri(SPEC) }, position: diagnostic.range.start });
    expect((hover.contents as MarkupContent).value).toContain('Pinned');
    expect(ambiguous(client!.published.filter((p) => p.uri === uri(SPEC)).at(-1)!.diagnostics, 'team_domain')).toBeUndefined();
    await stillServing();
  });

  it('front matter that is not a mapping: a warning on the front matter; the document is still checked', async () => {
    await start({ [TEAM]: ZORBLAX_SEED });
    const spec = '---\n- a\n- b\n---\nThe zorblax is ready.\n';
    const doc = await openDoc(SPEC, spec);
    expect(doc.diagnostics.map((d) => [d.code, d.severity, d.range.start, d.message])).toEqual([
      ['frontmatter.invalid', 2, { line: 0, character: 0 }, 'Front matter must be a mapping of keys to values; it was ignored.'],
      ['ambiguous', 2, at(spec, 'zorblax'), expect.stringContaining(`${AMBIGUOUS_ZORBLAX} team_domain`)],
    ]);
  });

  it('a YAML alias bomb in front matter and a seed, and a 1 MB front matter: a warning each, no hang, the body still checked', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n') + '\n';
    const seed = `${bomb}terms:\n  - surface: zorblax\n    definition: *i\n${ZORBLAX_SEED.replace('terms:\n', '')}`;
    await start({ [TEAM]: seed });
    const started = Date.now();
    const bombDoc = await openDoc(SPEC, `---\n${bomb}---\nThe zorblax is ready.\n`);
    const bigDoc = await openDoc('docs/big-front.md', `---\n${'key: value\n'.repeat(100_000)}---\nThe zorblax is ready.\n`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(bombDoc.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['frontmatter.invalid', 'Front matter could not be read: Excessive alias count indicates a resource exhaustion attack'],
      ['ambiguous', expect.stringContaining(`${AMBIGUOUS_ZORBLAX} team_domain`)],
    ]);
    expect(bigDoc.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['frontmatter.invalid', 'Front matter is larger than 256 KiB and was not read.'],
      ['ambiguous', expect.stringContaining(`${AMBIGUOUS_ZORBLAX} team_domain`)],
    ]);
    const seedDiagnostics = await client!.diagnostics(uri(TEAM), (ds) => ds.length > 0, 0, 'seed diagnostics');
    // The anchors' keys are not `terms`: Spec Kitty refuses such a file, so each is an error too.
    expect(seedDiagnostics.diagnostics.map((d) => [d.code, d.range.start])).toEqual([
      ...'abcdefghi'.split('').map((k) => ['glossary.unknown-key', at(seed, `${k}: &`)]),
      ['glossary.invalid-definition', at(seed, '*i\n')],
    ]);
    await stillServing();
  });

  it('malformed requests and notifications: answered with a fallback or InvalidParams, logged, never fatal', async () => {
    await start({ [TEAM]: ZORBLAX_SEED });
    const c = client!;
    expect(await c.request('textDocument/hover', {})).toBeNull();
    expect(await c.request('textDocument/hover', { textDocument: { uri: 'file:///nowhere.md' }, position: { line: -5, character: 'x' } })).toBeNull();
    expect(await c.request('textDocument/codeAction', { textDocument: { uri: 'file:///nowhere.md' }, range: null, context: { diagnostics: 'no' } })).toEqual([]);
    await expect(c.request('workspace/executeCommand', { command: 'specGlossary.selectSense', arguments: [{ uri: 5 }] })).rejects.toMatchObject({ code: -32602, message: 'uri must be a non-empty string' });
    await expect(c.request('workspace/executeCommand', { command: 'specGlossary.nope', arguments: [] })).rejects.toMatchObject({ code: -32602 });
    // An optional field of the wrong type is malformed, not left out: refused, nothing written (a
    // `definition: 42` taken for "no definition" inserted a draft entry).
    const base = { uri: uri('kitty-specs/041-demo/spec.md'), missionId: 'm', term: 'zorblax' };
    for (const [command, args, field] of [
      ['specGlossary.defineTerm', { ...base, scope: 'team_domain', definition: 42 }, 'definition'],
      ['specGlossary.defineInSpec', { ...base, definition: 42 }, 'definition'],
      ['specGlossary.defineInSpec', { ...base, specUri: 7 }, 'specUri'],
      ['specGlossary.deferTerm', { ...base, written: ['x'] }, 'written'],
      ['specGlossary.listCandidates', { uri: 42 }, 'uri'],
    ] as const) {
      await expect(c.request('workspace/executeCommand', { command, arguments: [args] }), `${command} ${field}`).rejects.toMatchObject({ code: -32602, message: `${field} must be a string when given` });
    }
    expect(c.appliedEdits).toEqual([]);
    void c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'not a uri', languageId: 'markdown', version: 1, text: 5 } });
    void c.connection.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///never-opened.md', version: 3 }, contentChanges: [{ text: 'x' }] });
    void c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: 'ftp://x/y', type: 9 }, { uri: uri(TEAM), type: 2 }] });
    c.setSettings({ maxFileSize: -5, debounceMs: 'soon', severityOverrides: 7, disabledExtractors: 'all' });
    // An edit whose range lies outside the document is clamped, as the protocol's text sync does.
    const doc = 'kitty-specs/041-demo/clamped.md';
    await openDoc(doc, 'Text.\n');
    const since = c.mark();
    void c.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(doc), version: 2 }, contentChanges: [{ range: { start: { line: 99, character: 99 }, end: { line: 120, character: 0 } }, text: ' The zorblax.' }] });
    const clamped = await c.diagnostics(uri(doc), (ds) => ds.length > 0, since, 'the clamped edit checked');
    expect(clamped.version).toBe(2);
    expect(clamped.diagnostics.map((d) => d.code)).toEqual(['ambiguous']);
    await c.until(() => c.logs.find((l) => /specGlossary\.maxFileSize: expected a positive number/.test(l.message)), 'the settings warning');
    await stillServing();
  });

  it(`a glossary with ${SENSES.toLocaleString('en')} senses: loaded and used; the server stays responsive`, async () => {
    let seed = 'terms:\n';
    // Written as Spec Kitty writes a seed, one key per line. (The same entries in flow style, which
    // only the yaml library reads, are held to scale in test/property/seeds.property.test.ts.)
    for (let i = 0; i < SENSES; i++) seed += `  - surface: term${i}\n    definition: sense ${i}\n`;
    await start({ [TEAM]: seed + ZORBLAX_SEED.replace('terms:\n', '') });
    const started = Date.now();
    // The bound of this test, not the usual 20 s wait: reading the glossary is a second of CPU, many more on a busy machine.
    const doc = await openDoc(SPEC, '# Demo\n\nThe term4242 and the zorblax are ready.\n', 40_000);
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['ambiguous']);
    const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uri(SPEC) }, position: { line: 2, character: 6 } });
    expect(hover.contents.value).toContain('sense 4242');
    await stillServing();
  });
});
