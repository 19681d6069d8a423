/**
 * The open documents, found by any spelling of their URI. The server names a file by vscode-uri's
 * form of its path (`fileUri`), which percent-encodes `(`, `)`, `+`, `@` and the like; Neovim and
 * eglot send those characters as they are. Looked up by the server's form, a document opened by
 * the client's form is found all the same, so its unsaved text (not the disk's) is what features
 * read and edit; edits then name it by the client's own URI (`uriOf`).
 */

import { TextDocuments, type TextDocumentsConfiguration } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';

export class OpenDocuments extends TextDocuments<TextDocument> {
  /** vscode-uri's form of a URI → the URI the client opened the document with, where the two differ. */
  private readonly spelled = new Map<string, string>();

  constructor(configuration: TextDocumentsConfiguration<TextDocument>) {
    super(configuration);
    // (Registered first: every later listener already finds the document by either form.)
    this.onDidOpen(({ document }) => {
      const canonical = canonicalUri(document.uri);
      if (canonical !== document.uri) this.spelled.set(canonical, document.uri);
    });
    this.onDidClose(({ document }) => {
      const canonical = canonicalUri(document.uri);
      if (this.spelled.get(canonical) === document.uri) this.spelled.delete(canonical);
    });
  }

  override get(uri: string): TextDocument | undefined {
    const document = super.get(uri);
    if (document !== undefined || this.spelled.size === 0) return document;
    const spelled = this.spelled.get(canonicalUri(uri));
    return spelled === undefined ? undefined : super.get(spelled);
  }
}

/** The URI to name `uri`'s file by in an edit: the open document's own (its client's spelling), else `uri`. */
export function uriOf(documents: Pick<TextDocuments<TextDocument>, 'get'>, uri: string): string {
  return documents.get(uri)?.uri ?? uri;
}

/** vscode-uri's form of a URI (what `fileUri` gives for a file); the text itself when it does not parse. */
function canonicalUri(uri: string): string {
  try {
    return URI.parse(uri).toString();
  } catch {
    return uri;
  }
}
