/**
 * Placeholder definitions (SPEC §3): text that stands where a definition will be written — empty,
 * `TODO…`, `TBD`, or a template's bracketed hint such as `[What it represents…]`. Such a text is
 * reported and never resolves a term, whether it comes from a seed file or an event.
 */

// A marker word at the start, alone or followed by anything that is not a letter or digit
// ("TODO", "TODO: define pci", "tbd.", "FIXME - later"), but not a word that merely starts so
// ("Todos are…", "TBDs"). TBA and FIXME are the same kind of marker.
const MARKER = /^(?:todo|tbd|tba|fixme)(?![\p{L}\p{N}])/iu;
// Nothing but punctuation or symbols: "…", "...", "-", "?", "n/a" is not covered (it is a word).
const ONLY_PUNCTUATION = /^[\p{P}\p{S}\s]*$/u;

/** Why `definition` is a placeholder, or undefined when it is a real definition. */
export function placeholderKind(definition: string): 'empty' | 'marker' | 'template' | undefined {
  const text = definition.trim();
  if (text === '' || ONLY_PUNCTUATION.test(text)) return 'empty';
  if (MARKER.test(text)) return 'marker';
  // A whole definition in square brackets is a template's instruction to the writer.
  if (text.startsWith('[') && text.endsWith(']') && !text.slice(1, -1).includes(']')) return 'template';
  return undefined;
}

export function isPlaceholderDefinition(definition: string): boolean {
  return placeholderKind(definition) !== undefined;
}
