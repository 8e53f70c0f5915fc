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

  it('says nothing when the second sample is empty', () => {
    expect(twoSampleKs([1], [])).toEqual({ statistic: 0, pValue: 1 });
  });

  it('gives the same answer whatever the order of the values and of the two samples', () => {
    const a = [3, 0, 7, 1, 9, 4, 2, 8, 6, 5];
    const b = a.map((x) => x + 3);
    const sorted = twoSampleKs(
      [...a].sort((p, q) => p - q),
      [...b].sort((p, q) => p - q),
    );
    expect(twoSampleKs(a, b)).toEqual(sorted);
    expect(twoSampleKs(b, a)).toEqual(sorted);
    expect(sorted.statistic).toBeCloseTo(0.3, 12);
  });

  it('sums the whole alternating series where its later terms matter (lambda 0.72: p 0.67508)', () => {
    // Oracle: the same Q(lambda) by the other (theta-function) series, 1 - sqrt(2 pi)/lambda sum exp(-(2k-1)^2 pi^2 /
    // (8 lambda^2)), which gives 0.6750781537165953 at lambda = (sqrt(5) + 0.12 + 0.11/sqrt(5)) x 0.3.
    const a = Array.from({ length: 10 }, (_, i) => i);
    expect(
      twoSampleKs(
        a,
        a.map((x) => x + 3),
      ).pValue,
    ).toBeCloseTo(0.6750781537165953, 10);
  });
});
