/** The CommonMark spec's examples (npm `commonmark-spec`, which ships no types). */
declare module 'commonmark-spec' {
  /** The spec's text. */
  export const text: string;
  /** Its examples; in `markdown`, a tab is written `→`. */
  export const tests: { markdown: string; html: string; section: string; number: number }[];
}
