/** What the server reads of a client's capabilities (lsp/capabilities.ts). */
import { describe, expect, it } from 'vitest';
import { clientFeatures } from '../../server/src/lsp/capabilities';

describe('clientFeatures', () => {
  it('markdown only for a client that says it renders it; plain text for one that says nothing', () => {
    expect(clientFeatures({})).toMatchObject({ markdownHover: false, markdownCompletion: false });
    expect(clientFeatures({ textDocument: { hover: { contentFormat: ['plaintext'] }, completion: { completionItem: { documentationFormat: ['plaintext'] } } } })).toMatchObject({ markdownHover: false, markdownCompletion: false });
    expect(clientFeatures({ textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] }, completion: { completionItem: { documentationFormat: ['markdown'] } } } })).toMatchObject({ markdownHover: true, markdownCompletion: true });
  });
});
