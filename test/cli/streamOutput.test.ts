/**
 * How `check` writes its report (issue 19, item 3): in pieces, gathered into bounded chunks, and
 * never faster than the reader takes them. A real check of 20,000 findings is formatted into a
 * sink injected in place of standard output; the sink records every chunk and answers some of
 * them with "wait" (a full pipe).
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHUNK_CHARS, writeChunked } from '../../server/src/cli/output/chunks';
import { jsonOutput } from '../../server/src/cli/output/json';
import { sarifOutput } from '../../server/src/cli/output/sarif';
import { PLAIN, textOutput } from '../../server/src/cli/output/text';
import { runCheck, type CheckRun } from '../../server/src/cli/runCheck';
import { collectMarkdownFiles } from '../../server/src/cli/files';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

const SEED = `terms:
  - surface: zorblax
    definition: A flux capacitor of the deployment pipeline
    confidence: 0.9
    status: active
  - surface: zorblax
    definition: A queue of pending reviews
    confidence: 0.6
    status: active
`;
const FINDINGS = 20_000;

describe('check output is streamed', () => {
  let ws: TempWorkspace;
  let run: CheckRun;

  beforeAll(async () => {
    const files: Record<string, string> = { '.kittify/glossaries/team_domain.yaml': SEED };
    for (let i = 0; i < 4; i++) files[`docs/s${i}.md`] = `# S${i}\n\n${'The zorblax and the zorblax.\n'.repeat(FINDINGS / 8)}`;
    ws = tempWorkspace(files);
    run = await runCheck(collectMarkdownFiles([ws.path('docs')], ws.root), {});
  });
  afterAll(() => ws.remove());

  const formats = {
    text: (r: CheckRun) => textOutput(r, ws.root, PLAIN),
    json: (r: CheckRun) => jsonOutput(r, ws.root),
    sarif: (r: CheckRun) => sarifOutput(r, ws.root),
  };

  for (const [name, format] of Object.entries(formats)) {
    test(`${name}: bounded chunks, each written only after the previous one drained; the whole report arrives`, async () => {
      let pulled = 0;
      let longestPiece = 0;
      function* counted(pieces: Iterable<string>) {
        for (const piece of pieces) {
          pulled++;
          longestPiece = Math.max(longestPiece, piece.length);
          yield piece;
        }
      }
      const chunks: string[] = [];
      let waits = 0;
      await writeChunked(counted(format(run)), async (chunk) => {
        chunks.push(chunk);
        if (chunks.length % 3 !== 0) return;
        // "Wait": nothing more may be formatted until this resolves.
        waits++;
        const before = pulled;
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect(pulled).toBe(before);
      });

      expect(waits).toBeGreaterThan(0);
      // The longest piece is one finding, or SARIF's rule descriptions (5 KB): no string of the
      // whole report, nor of one document's findings, is ever built.
      expect(longestPiece).toBeLessThan(16_384);
      for (const chunk of chunks) expect(chunk.length).toBeLessThan(CHUNK_CHARS + longestPiece);
      const output = chunks.join('');
      expect(output.endsWith('\n')).toBe(true);
      if (name === 'text') {
        const lines = output.trimEnd().split('\n');
        expect(lines.filter((l) => l.includes(' ambiguous '))).toHaveLength(FINDINGS);
        expect(lines.at(-1)).toBe(`4 documents checked, ${FINDINGS} findings (0 high, ${FINDINGS} medium, 0 low), 0 blocked.`);
      } else if (name === 'json') {
        const json = JSON.parse(output) as { documents: { findings: unknown[] }[]; summary: { findings: number; documents: number } };
        expect(json.summary).toMatchObject({ documents: 4, findings: FINDINGS });
        expect(json.documents.map((d) => d.findings.length)).toEqual([FINDINGS / 4, FINDINGS / 4, FINDINGS / 4, FINDINGS / 4]);
      } else {
        const sarif = JSON.parse(output) as { runs: { results: { ruleId: string }[] }[] };
        expect(sarif.runs[0]!.results).toHaveLength(FINDINGS);
        expect(new Set(sarif.runs[0]!.results.map((r) => r.ruleId))).toEqual(new Set(['ambiguous']));
      }
    });
  }
});
