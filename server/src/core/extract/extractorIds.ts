/**
 * The ids of the extractors (SPEC §6) that settings and `.kittify/config.yaml` can switch off.
 * A module of its own so that what only names them (settings in the VS Code client) does not
 * bring the extractors in.
 */
export const EXTRACTOR_IDS = ['glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun'] as const;
