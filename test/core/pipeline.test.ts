import { describe, expect, test } from 'vitest';
import { mergeDecisions, Pipeline, PipelineConfigError, type Unit } from '../../server/src/core/pipeline';
import { createPipeline } from '../../server/src/core/check/check';

type Log = string[];
const unit = (id: string, extra: Partial<Unit<Log>> = {}): Unit<Log> => ({ id, phase: 'extraction', run: (log) => log.push(id), ...extra });

describe('middleware pipeline (seed 003 ordering)', () => {
  test('phases run in fixed order whatever the registration order', () => {
    const log: Log = [];
    new Pipeline<Log>([unit('r', { phase: 'resume' }), unit('g', { phase: 'generation_gate' }), unit('c', { phase: 'clarification' }), unit('s', { phase: 'semantic_check' }), unit('e')]).run(log);
    expect(log).toEqual(['e', 's', 'g', 'c', 'r']);
  });

  test('within a phase: before/after, then priority, then id', () => {
    const pipeline = new Pipeline<Log>([unit('b', { priority: 1 }), unit('a', { priority: 1 }), unit('z', { priority: 0 }), unit('late', { priority: -5, after: ['b'] }), unit('first', { priority: 9, before: ['z'] })]);
    // Among the units whose constraints are met, the lowest (priority, id) runs next.
    expect(pipeline.ids()).toEqual(['a', 'b', 'late', 'first', 'z']);
  });

  test('a cycle is a clear error when the pipeline is built', () => {
    expect(() => new Pipeline<Log>([unit('x', { after: ['y'] }), unit('y', { after: ['z'] }), unit('z', { after: ['x'] })])).toThrow(PipelineConfigError);
    expect(() => new Pipeline<Log>([unit('x', { before: ['y'] }), unit('y', { before: ['x'] })])).toThrow(/cycle in phase 'extraction': (x → y → x|y → x → y)/);
  });

  test('duplicate ids are rejected', () => {
    expect(() => new Pipeline<Log>([unit('x'), unit('x')])).toThrow(/share the id 'x'/);
  });

  test('disabled units are skipped, required ones are not', () => {
    const log: Log = [];
    new Pipeline<Log>([unit('a'), unit('b', { required: true })]).run(log, new Set(['a', 'b']));
    expect(log).toEqual(['b']);
  });

  test('the standard check pipeline has every extractor as a unit, in a deterministic order', () => {
    expect(createPipeline().ids()).toEqual(['extraction.vocabulary', 'glossary_match', 'metadata_hint', 'quoted_phrase', 'acronym', 'casing_pattern', 'repeated_noun', 'extraction.locate', 'semantic_check.resolve', 'semantic_check.vocabulary_sections', 'generation_gate.strictness']);
  });

  test('decision lattice: any deny blocks, warnings and annotations accumulate', () => {
    const merged = mergeDecisions([
      { kind: 'warn', reasonCode: 'w1', message: 'a' },
      { kind: 'allow', reasonCode: 'ok', message: 'b' },
      { kind: 'annotate', reasonCode: 'n', message: 'c' },
      { kind: 'deny', reasonCode: 'd', message: 'd' },
      { kind: 'warn', reasonCode: 'w2', message: 'e' },
    ]);
    expect(merged.blocked).toBe(true);
    expect(merged.warnings.map((d) => d.reasonCode)).toEqual(['w1', 'w2']);
    expect(merged.annotations.map((d) => d.reasonCode)).toEqual(['n']);
    expect(mergeDecisions([{ kind: 'warn', reasonCode: 'w', message: '' }]).blocked).toBe(false);
  });
});
