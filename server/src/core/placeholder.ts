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

/**
 * Why `definition` is a placeholder, or undefined when it is a real definition. `term` is the
 * term it defines: when the term itself begins with a marker word ("todo item", "fixme comment",
 * "TBD-2 test bench"), a definition that begins with the term's name (or its plural) as a whole
 * word and says more names the term ("Todo item — one entry of a checklist"); any other one that
 * begins with a marker ("TODO: fill this in", the bare name) is still a placeholder.
 */
export function placeholderKind(definition: string, term?: string): 'empty' | 'marker' | 'template' | undefined {
  const text = definition.trim();
  if (text === '' || ONLY_PUNCTUATION.test(text)) return 'empty';
  if (MARKER.test(text) && !namesTerm(text, term)) return 'marker';
  // A whole definition in square brackets is a template's instruction to the writer.
  if (text.startsWith('[') && text.endsWith(']') && !text.slice(1, -1).includes(']')) return 'template';
  return undefined;
}

/**
 * Whether `text`, which begins with a marker word, begins with the name of `term` (itself
 * beginning with that word) and then says more: "Todo item — one entry of a checklist" of
 * `todo item`; not "TODO: fill this in" of it, nor the bare name.
 */
function namesTerm(text: string, term: string | undefined): boolean {
  const name = term?.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!name || !MARKER.test(name)) return false;
  const written = text.toLowerCase().replace(/\s+/g, ' ');
  if (!written.startsWith(name)) return false;
  // The name itself or its plural, as a whole word ("TODO itemize" does not name `todo item`).
  const rest = written.slice(name.length).replace(/^e?s(?![\p{L}\p{N}])/u, '');
  return !/^[\p{L}\p{N}]/u.test(rest) && !ONLY_PUNCTUATION.test(rest);
}

/** Whether `definition` (of `term`, when known: see placeholderKind) is a placeholder. */
export function isPlaceholderDefinition(definition: string, term?: string): boolean {
  return placeholderKind(definition, term) !== undefined;
}
