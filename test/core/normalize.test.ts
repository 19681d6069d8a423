import { describe, expect, test } from 'vitest';
import { isNormalized, normalizeSurface, singularize, termNamed } from '../../server/src/core/normalize';

describe('normalizeSurface (SPEC §4)', () => {
  test.each([
    ['  Workspace  ', 'workspace'],
    ['MISSIONS', 'mission'],
    ['primitives', 'primitive'],
    ['policies', 'policy'],
    ['classes', 'class'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['wishes', 'wish'],
    ['API Gateway', 'api gateway'],
    ['work   packages', 'work package'],
    ['Work Packages', 'work package'],
    ['lanes', 'lane'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeSurface(input)).toBe(expected);
  });

  test.each(['class', 'address', 'bonus', 'basis', 'chaos', 'atlas', 'status', 'analysis', 'canvas', 'bus', 'gas', 'its'])('%s stays unchanged', (word) => {
    expect(normalizeSurface(word)).toBe(word);
  });

  test('only the last word of a multi-word surface is singularized', () => {
    expect(normalizeSurface('missions packages')).toBe('missions package');
  });

  test('words that are not letters only are left alone', () => {
    expect(singularize('v2s')).toBe('v2s');
    expect(normalizeSurface('work_packages')).toBe('work_packages');
  });

  test('a stem without a vowel keeps its s', () => {
    expect(singularize('wps')).toBe('wps');
  });

  test('is idempotent', () => {
    for (const word of ['Workspaces', 'policies', 'classes', 'API Gateways', 'chaos']) {
      expect(normalizeSurface(normalizeSurface(word))).toBe(normalizeSurface(word));
    }
  });

  test('isNormalized', () => {
    expect(isNormalized('work package')).toBe(true);
    expect(isNormalized('Work package')).toBe(false);
    expect(isNormalized(' work package')).toBe(false);
    expect(isNormalized('work  package')).toBe(false);
  });
});

describe('termNamed: the term a typed name stands for', () => {
  const known = (...terms: string[]) => (term: string) => terms.includes(term);
  test('a plural the glossary walk reads names the singular the glossary holds', () => {
    expect(termNamed('Cafés', known('café'))).toBe('café');
    expect(termNamed('user scenarios', known('user scenario'))).toBe('user scenario');
    expect(termNamed('Acceptance  Criteria', known('acceptance criterion'))).toBe('acceptance criterion');
  });
  test('normalized as written when that is known, or when the singular is not', () => {
    expect(termNamed('status', known('status', 'statu'))).toBe('status');
    expect(termNamed('Cafés', known())).toBe('cafés');
    expect(termNamed('Work Packages', known())).toBe('work package');
    expect(termNamed('   ', known(''))).toBe('');
  });
});
