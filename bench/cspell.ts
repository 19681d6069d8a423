/**
 * cspell-lib (a dev dependency) as the reference: the same text, spell-checked as a markdown
 * document in the same run. cspell-lib is an ES module; the benchmark bundle is CommonJS, so it
 * is loaded with a real dynamic import (kept out of the bundle).
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../server/src/node/packageFiles';

export interface CSpell {
  version: string;
  /** `spellCheckDocument` of the text (settings ready, dictionaries loaded): the usual API. */
  checkDocument(text: string, uri: string): Promise<number>;
  /** A `DocumentValidator` prepared once for `text`, re-checked: cspell's most favourable case. */
  preparedValidator(text: string, uri: string): Promise<() => number>;
}

type CSpellLib = typeof import('cspell-lib');

// A plain `import()` would be rewritten into `require()` by the CommonJS bundler.
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export async function loadCSpell(): Promise<CSpell | undefined> {
  let lib: CSpellLib;
  try {
    lib = (await importModule('cspell-lib')) as CSpellLib;
  } catch {
    return undefined;
  }
  const settings = lib.mergeSettings(await lib.getDefaultSettings(), await lib.getGlobalSettingsAsync());
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(path.join(packageRoot(), 'node_modules', 'cspell-lib', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // Only for the report.
  }
  return {
    version,
    async checkDocument(text, uri) {
      const result = await lib.spellCheckDocument({ uri, text, languageId: 'markdown', locale: 'en' }, { noConfigSearch: true }, settings);
      return result.issues.length;
    },
    async preparedValidator(text, uri) {
      const doc = lib.createTextDocument({ uri, content: text, languageId: 'markdown', locale: 'en' });
      const validator = new lib.DocumentValidator(doc, { noConfigSearch: true }, settings);
      await validator.prepare();
      return () => validator.checkDocument().length;
    },
  };
}

/**
 * cspell-lib in a process of its own (bench.cjs --child cspell), driven over IPC: its heap (the
 * dictionaries, ~200 MB) and its garbage then slow neither side's timings down.
 */
export interface CSpellProcess {
  version: string;
  /** Milliseconds of one `spellCheckDocument` of the text stored under `key`. */
  check(key: string): Promise<number>;
  /** Milliseconds of one re-check by a `DocumentValidator` prepared for that text. */
  recheck(key: string): Promise<number>;
  load(key: string, text: string): Promise<void>;
  stop(): void;
}

type Request = { id: number; op: 'load' | 'check' | 'recheck'; key: string; text?: string };
type Reply = { id: number; ms?: number; error?: string; version?: string };

export async function startCSpellProcess(bench: string): Promise<CSpellProcess | undefined> {
  const { fork } = await import('node:child_process');
  const child = fork(bench, ['--child', 'cspell'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const waiting = new Map<number, (reply: Reply) => void>();
  child.on('message', (reply: Reply) => {
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  let next = 0;
  const ask = (request: Omit<Request, 'id'>) =>
    new Promise<Reply>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.send({ ...request, id });
    });
  let timer: NodeJS.Timeout | undefined;
  const hello = await Promise.race([ask({ op: 'load', key: '', text: '' }), new Promise<Reply>((resolve) => (timer = setTimeout(() => resolve({ id: 0, error: 'no answer' }), 60_000)))]);
  clearTimeout(timer);
  if (hello.error !== undefined) {
    child.kill();
    return undefined;
  }
  const timed = async (request: Omit<Request, 'id'>) => {
    const reply = await ask(request);
    if (reply.error !== undefined) throw new Error(`cspell child: ${reply.error}`);
    return reply.ms ?? 0;
  };
  return {
    version: hello.version ?? 'unknown',
    check: (key) => timed({ op: 'check', key }),
    recheck: (key) => timed({ op: 'recheck', key }),
    load: async (key, text) => void (await timed({ op: 'load', key, text })),
    stop: () => child.kill(),
  };
}

/** The child's side (bench.cjs --child cspell). */
export async function serveCSpell(): Promise<void> {
  const cspell = await loadCSpell();
  const texts = new Map<string, { text: string; uri: string; recheck?: () => number }>();
  process.on('message', (request: Request) => {
    void (async () => {
      try {
        if (!cspell) throw new Error('cspell-lib could not be loaded');
        if (request.op === 'load') {
          if (request.key) {
            const uri = `file:///bench/${request.key}/spec.md`;
            await cspell.checkDocument(request.text!, uri); // loads the dictionaries
            texts.set(request.key, { text: request.text!, uri, recheck: await cspell.preparedValidator(request.text!, uri) });
          }
          process.send!({ id: request.id, ms: 0, version: cspell.version } satisfies Reply);
          return;
        }
        const entry = texts.get(request.key);
        if (!entry) throw new Error(`no text '${request.key}'`);
        const start = performance.now();
        if (request.op === 'check') await cspell.checkDocument(entry.text, entry.uri);
        else entry.recheck!();
        process.send!({ id: request.id, ms: performance.now() - start } satisfies Reply);
      } catch (error) {
        process.send!({ id: request.id, error: (error as Error).message } satisfies Reply);
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
}
