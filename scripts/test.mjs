// npm test: the type check beside the build and then the tests; fails if any fails.
//
// The type check (tsc -b) runs on one thread and vitest leaves part of the machine idle (its
// workers wait on servers, child processes and timers), so running them side by side takes the
// type check off the wall time instead of adding it. The tests wait for the build because a few
// of them run the bundles it writes (docs/testing.md); the type check needs nothing built.
//
// Arguments go to vitest, as `npm test -- <file>` or `-- --reporter=json` did when npm test was
// `npm run build && tsc -b && vitest run`. vitest's output is passed through as it comes; the type
// check's is held back and printed after it, so the two never interleave.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

/** Runs `node <script> <args>` in the repository and resolves with its exit code. */
function run(script, args, options) {
  const child = spawn(node, [join(root, script), ...args], { cwd: root, ...options });
  running.add(child);
  const done = new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`npm test: could not start ${script}: ${error.message}\n`);
      resolve(1);
    });
    // A child ended by a signal counts as a failure (its code is null).
    child.on('close', (code) => {
      running.delete(child);
      resolve(code ?? 1);
    });
  });
  return { child, done };
}

// Ctrl-C reaches the children too (same process group); a signal sent to this process alone
// (a CI runner stopping the job) is passed on, so no vitest or tsc is left running.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
  });
}

const typecheck = run('node_modules/typescript/bin/tsc', ['-b'], { stdio: ['ignore', 'pipe', 'pipe'] });
const output = [];
typecheck.child.stdout.on('data', (chunk) => output.push(chunk));
typecheck.child.stderr.on('data', (chunk) => output.push(chunk));

/** Prints what the type check said once it is done; resolves with its exit code. */
async function typecheckResult() {
  const code = await typecheck.done;
  process.stdout.write(Buffer.concat(output));
  process.stdout.write(code === 0 ? 'Type check (tsc -b): no errors\n' : `Type check (tsc -b) failed (exit code ${code})\n`);
  return code;
}

const build = await run('scripts/build.mjs', [], { stdio: 'inherit' }).done;
if (build !== 0) {
  await typecheckResult();
  process.exit(build);
}
const tests = await run('node_modules/vitest/vitest.mjs', ['run', ...process.argv.slice(2)], { stdio: 'inherit' }).done;
const types = await typecheckResult();
process.exit(tests !== 0 ? tests : types);
