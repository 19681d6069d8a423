/**
 * Every example of the CommonMark spec (npm `commonmark-spec`): masking agrees with markdown-it's
 * reading of it (see test/helpers/maskOracle.ts): what markdown-it reads as code, a link's
 * destination, an autolink, HTML or a reference definition is masked, its prose is not.
 */

import { tests } from 'commonmark-spec';
import { describe, expect, test } from 'vitest';
import { disagreements } from '../helpers/maskOracle';

// (The spec writes a tab as →.)
const examples = tests.map((example) => ({ ...example, markdown: example.markdown.replace(/→/g, '\t') }));

describe('CommonMark spec examples', () => {
  test('there are the spec’s 652 examples', () => {
    expect(examples.length).toBe(652);
  });

  test.each(examples.map((example) => [example.number, example.section, example.markdown] as const))('example %i (%s)', (_number, _section, markdown) => {
    expect(disagreements(markdown)).toEqual([]);
  });
});
