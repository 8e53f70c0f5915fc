import { describe, expect, it } from 'vitest';
import { twoSampleKs } from '../../../functions/core/regression/ks-test.ts';

describe('twoSampleKs', () => {
  it('finds no difference between identical samples', () => {
    expect(twoSampleKs([0.5, 0.6, 0.7], [0.7, 0.6, 0.5])).toEqual({ statistic: 0, pValue: 1 });
  });

  it('matches SciPy’s asymptotic ks_2samp on half-overlapping samples (D 0.5, p 0.1875)', () => {
    const { statistic, pValue } = twoSampleKs([1, 2, 3, 4, 5, 6, 7, 8], [5, 6, 7, 8, 9, 10, 11, 12]);
    expect(statistic).toBe(0.5);
    expect(pValue).toBeCloseTo(0.1875, 3);
  });

  it('rejects sameness for two separated samples of twelve', () => {
    const before = Array.from({ length: 12 }, (_, i) => 0.6 + i * 0.01);
    const after = before.map((s) => s - 0.4);
    const { statistic, pValue } = twoSampleKs(after, before);
    expect(statistic).toBe(1);
    expect(pValue).toBeLessThan(1e-4);
  });

  it('says nothing about an empty sample', () => {
    expect(twoSampleKs([], [1])).toEqual({ statistic: 0, pValue: 1 });
  });
});
