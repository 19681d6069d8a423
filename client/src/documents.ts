/** The documents the client hands to the language server. */

/** Language contributed for seed glossary files (`.kittify/glossaries/*.yaml`), see package.json. */
export const GLOSSARY_LANGUAGE_ID = 'spec-glossary-yaml';

/** A `DocumentFilter` of the LSP and VS Code APIs: by language or by glob pattern. */
export type FilterLike = { scheme: string; language: string } | { scheme: string; pattern: string };

/**
 * Markdown specs, the seed glossaries (by language and by path, in case a user maps them to
 * plain YAML), `.kittify/config.yaml` and the event logs: the server checks specs and reports
 * problems in the glossary files, and unsaved edits of those files count at once.
 */
export const DOCUMENT_SELECTOR: readonly FilterLike[] = Object.freeze([
  { scheme: 'file', language: 'markdown' },
  // (MDX specs, whatever language an installed extension gives them: the CLI checks them too.)
  { scheme: 'file', pattern: '**/*.mdx' },
  { scheme: 'file', language: GLOSSARY_LANGUAGE_ID },
  { scheme: 'file', pattern: '**/.kittify/glossaries/*.yaml' },
  { scheme: 'file', pattern: '**/.kittify/config.yaml' },
  { scheme: 'file', pattern: '**/.kittify/events/glossary/*.events.jsonl' },
]);

/** Documents that get a gate status: markdown specs. */
export function isSpecDocument(document: { languageId: string; uri: { scheme: string; path: string } }): boolean {
  return (document.languageId === 'markdown' || document.uri.path.toLowerCase().endsWith('.mdx')) && document.uri.scheme === 'file';
}
