// The code caches of the shipped bundles (dist/server.cjs.cache, dist/cli.cjs.cache): each bundle
// is run once as a user first meets it, its launcher (scripts/launcher.cjs) keeping V8's code of
// that run when the process exits. The language server: initialize, a spec opened, its diagnostics
// published, shutdown. The CLI: a check of that spec. A training run that fails leaves no cache
// (the bundle then compiles at each start, as without one) and says so; the build goes on.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How long a training run may take before it is given up. */
const TIMEOUT_MS = 30_000;

/** A spec a writer could have written: terms of the core glossary, a vocabulary section, an ambiguity. */
const SPEC = `---
title: Checkout retries
---

# Checkout retries

## Domain Language

| Term | Meaning |
|------|---------|
| retry budget | How many times a payment call may be tried again |

## Overview

Each mission moves through its lanes as the work package is reviewed. The workspace of a
mission holds its specs; an agent picks up a work package once its dependencies are done.

- The retry budget is counted per checkout, not per API call.
- A WP in the "for_review" lane waits for its reviewer.

> The glossary decides what a term means here.
`;

export async function writeCodeCaches(dist) {
  const folder = mkdtempSync(join(tmpdir(), 'spec-glossary-code-cache-'));
  try {
    mkdirSync(join(folder, 'kitty-specs', '001-checkout-retries'), { recursive: true });
    const spec = join(folder, 'kitty-specs', '001-checkout-retries', 'spec.md');
    writeFileSync(spec, SPEC);
    for (const [name, run] of [
      ['cli', () => runCli(dist, folder)],
      ['server', () => runServer(dist, folder, spec)],
    ]) {
      const cache = join(dist, `${name}.cjs.cache`);
      rmSync(cache, { force: true });
      try {
        await run();
      } catch (error) {
        rmSync(cache, { force: true });
        console.warn(`warning: no code cache for dist/${name}.cjs (it compiles at each start): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const trainingEnv = () => ({ ...process.env, SPEC_GLOSSARY_WRITE_CODE_CACHE: '1' });

function runCli(dist, folder) {
  const child = spawn(process.execPath, [join(dist, 'cli.js'), 'check', '.', '--format', 'json'], { cwd: folder, env: trainingEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  return finished(child, (code) => code === 0 || code === 1);
}

/** An LSP session over stdio, answering the server's own requests with nothing. */
function runServer(dist, folder, spec) {
  const child = spawn(process.execPath, [join(dist, 'server.js'), '--stdio'], { cwd: folder, env: trainingEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  };
  const uri = pathToFileURL(spec).href;
  let pending = Buffer.alloc(0);
  child.stdout.on('data', (data) => {
    pending = Buffer.concat([pending, data]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(pending.subarray(0, end).toString('latin1'))?.[1]);
      if (pending.length < end + 4 + length) return;
      const message = JSON.parse(pending.subarray(end + 4, end + 4 + length).toString('utf8'));
      pending = pending.subarray(end + 4 + length);
      if (message.method !== undefined && message.id !== undefined) send({ id: message.id, result: message.method === 'workspace/configuration' ? message.params.items.map(() => ({ debounceMs: 0 })) : null });
      else if (message.id === 1) {
        send({ method: 'initialized', params: {} });
        send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'markdown', version: 1, text: SPEC } } });
      } else if (message.method === 'textDocument/publishDiagnostics' && message.params.uri === uri && message.params.version === 1) send({ id: 2, method: 'shutdown' });
      else if (message.id === 2) send({ method: 'exit' });
    }
  });
  const root = pathToFileURL(folder).href;
  send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: root, workspaceFolders: [{ uri: root, name: 'training' }], capabilities: CAPABILITIES } });
  return finished(child, (code) => code === 0);
}

/** What an editor such as VS Code or Neovim says it can do, so the server takes the paths it takes there. */
const CAPABILITIES = {
  workspace: { applyEdit: true, configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: false } },
  textDocument: { synchronization: { didSave: true }, publishDiagnostics: { versionSupport: true, relatedInformation: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } }, hover: {} },
};

function finished(child, succeeded) {
  let stderr = '';
  child.stderr.on('data', (data) => (stderr += data));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (succeeded(code)) resolve();
      else reject(new Error(`the training run ended with ${signal ?? `exit code ${code}`}${stderr ? `: ${stderr.trim().slice(0, 500)}` : ''}`));
    });
  });
}
