import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../server/src/core/markdown/frontMatter';

/** The text between the offsets a located value or problem points at. */
const at = (text: string, start: number, end: number) => text.slice(start, end);

describe('front matter hint lists', () => {
  const text = ['---', 'glossary_watch_terms: [lane, "work package", {x: 1}]', 'glossary_exclude_terms: {a: b}', 'glossary_aliases:', '  wp: "work package"', '  c: [x]', '---', 'body', ''].join('\n');
  const front = parseFrontMatter(text)!;

  it('locates each term at its characters, without the quotes', () => {
    expect(front.watchTerms.map((t) => [t.value, at(text, t.start, t.end)])).toEqual([
      ['lane', 'lane'],
      ['work package', 'work package'],
    ]);
    expect(front.aliases.map(({ alias, canonical }) => [at(text, alias.start, alias.end), at(text, canonical.start, canonical.end)])).toEqual([['wp', 'work package']]);
  });

  it('reports what it ignores, in the order written', () => {
    expect(front.problems.map((p) => [p.code, p.message, p.range.start.line])).toEqual([
      ['frontmatter.invalid', 'Every item of `glossary_watch_terms` must be a term (a string); this one is ignored.', 1],
      ['frontmatter.invalid', '`glossary_exclude_terms` must be a list of terms.', 2],
      ['frontmatter.invalid', 'Each `glossary_aliases` entry must map an alias to a term (both strings); this one is ignored.', 5],
    ]);
    expect(front.excludeTerms).toEqual([]);
  });

  it('reads a lone string as a list of one, and rejects aliases that are no mapping', () => {
    const other = parseFrontMatter('---\nglossary_exclude_terms: lane\nglossary_aliases: [a, b]\n---\n')!;
    expect(other.excludeTerms).toEqual(['lane']);
    expect(other.problems.map((p) => p.message)).toEqual(['`glossary_aliases` must be a mapping of alias to term.']);
  });
});
