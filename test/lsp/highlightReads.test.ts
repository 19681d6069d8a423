/**
 * Document highlight is asked as the cursor moves, typing included: in an open spec it is
 * answered from the document's own check, reading no glossary file from disk.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentHighlight } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { MemoryFileSystem } from '../helpers/memoryFileSystem';
import { TestClient } from './client';

let client: TestClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

describe('document highlight while typing', () => {
  it('reads no glossary file and follows the buffer as typed', async () => {
    const root = '/mem/highlight';
    const team = `${root}/.kittify/glossaries/team_domain.yaml`;
    const spec = `${root}/kitty-specs/041-demo/spec.md`;
    const reads: string[] = [];
    class CountingFileSystem extends MemoryFileSystem {
      override readFile(file: string): Uint8Array {
        reads.push(file);
        return super.readFile(file);
      }
    }
    const text = '# Demo\n\nEach lane moves on.\n';
    const fs = new CountingFileSystem({ [team]: 'terms:\n  - surface: lane\n    definition: A column of the board\n', [spec]: text });
    client = await TestClient.start({ folders: [root], fs });
    const uri = URI.file(spec).toString();
    client.open(uri, text);
    await client.diagnostics(uri);
    reads.length = 0;
    for (let i = 0; i < 5; i++) {
      const end = i === 0 ? 0 : 6 + 5 * (i - 1); // typed at the end of the new line: 'A lane lane …'
      client.change(uri, [{ range: { start: { line: 3, character: end }, end: { line: 3, character: end } }, text: i === 0 ? 'A lane' : ' lane' }]);
      const highlights = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', { textDocument: { uri }, position: { line: 2, character: 6 } });
      expect(highlights.map((h) => [h.range.start.line, h.range.start.character])).toEqual([[2, 5], ...Array.from({ length: i + 1 }, (_, k) => [3, 2 + 5 * k])]);
    }
    expect(reads.filter((file) => file.endsWith('.yaml'))).toEqual([]);
  });
});
