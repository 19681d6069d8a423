/** The engine facade: checks with a workspace's vocabulary, and engines that share nothing. */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../server/src/core/check/engine';
import { parseGlossaryConfig } from '../../server/src/core/config';
import { common, EMPTY_GLOSSARY } from '../helpers/core';

const TEXT = `# Access

The allowlist names each frobnicator. The allowlist grows when a frobnicator joins.
Every allowlist entry points at one frobnicator.
`;

const terms = (report: { findings: { term: string }[] }) => [...new Set(report.findings.map((f) => f.term))].sort();

describe('engine', () => {
  it('a workspace’s ignore_words silence those words and nothing else: the shared vocabulary still counts', () => {
    const engine = createEngine({ commonWords: common });
    expect(terms(engine.checkDocument(TEXT, { glossary: EMPTY_GLOSSARY }))).toEqual(['frobnicator']);
    const vocabulary = engine.vocabulary(['frobnicator']);
    expect(terms(engine.checkDocument(TEXT, { glossary: EMPTY_GLOSSARY, ...vocabulary }))).toEqual([]);
    const other = engine.vocabulary(['zorblax']);
    expect(terms(engine.checkDocument(TEXT, { glossary: EMPTY_GLOSSARY, ...other }))).toEqual(['frobnicator']);
  });

  it('ignore_words name terms as SPEC §4 does (a plural, spaces and case as written) and also as written', () => {
    const engine = createEngine({ commonWords: common });
    const text = 'The zorblax and zorblax and more Zorblaxes.\nA "frobnication pipeline" here and "frobnication pipelines" there.\n';
    expect(terms(engine.checkDocument(text, { glossary: EMPTY_GLOSSARY }))).toEqual(['frobnication pipeline', 'zorblax']);
    const { config } = parseGlossaryConfig('glossary:\n  ignore_words: [ZORBLAXES, "frobnication  Pipelines "]\n');
    expect(config.ignoreWords).toEqual(['zorblaxes', 'zorblax', 'frobnication pipelines', 'frobnication pipeline']);
    expect(terms(engine.checkDocument(text, { glossary: EMPTY_GLOSSARY, ...engine.vocabulary(config.ignoreWords) }))).toEqual([]);
  });

  it('gives one vocabulary per ignore list, so what checks learnt about words under it carries over', () => {
    const engine = createEngine({ commonWords: common });
    expect(engine.vocabulary(['frobnicator', 'zorblax'])).toBe(engine.vocabulary(['frobnicator', 'zorblax']));
    expect(engine.vocabulary([])).toBe(engine.vocabulary());
    expect(engine.vocabulary([]).common).toBe(common);
  });

  it('two engines check alike and share no state: an incremental checker of one equals fresh checks of the other', () => {
    const a = createEngine({ commonWords: common });
    const b = createEngine({ commonWords: common });
    const checker = a.createIncrementalChecker();
    let text = TEXT;
    for (const insert of ['frobnicator ', 'allowlist ', 'The ']) {
      text = text.replace('grows', `grows ${insert}`);
      b.resetLexicon();
      expect(checker.check(text, { glossary: EMPTY_GLOSSARY })).toEqual(b.checkDocument(text, { glossary: EMPTY_GLOSSARY }));
    }
  });
});
