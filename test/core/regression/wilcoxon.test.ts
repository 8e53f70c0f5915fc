/**
 * The signed-rank test against values computed independently: exact tails by brute force over every sign pattern
 * (below) and published critical values (n = 10: P(W <= 10) = 43/1024 and P(W <= 5) = 10/1024, the 0.05 and 0.01
 * one-sided critical values; n = 12: P(W <= 13) = 87/4096, the 0.025 one), and the normal approximation with ties
 * computed by hand with SciPy's formula (se² = (n(n+1)(2n+1) - ½ Σ t(t²-1)) / 24, no continuity correction).
 */
import { describe, expect, it } from 'vitest';
import { wilcoxonLess } from '../../../functions/core/regression/wilcoxon.ts';

/** Differences whose |d| ranks are 1..n, the ranks in `positive` with a + sign, the others with a -. */
const withPositiveRanks = (n: number, positive: number[]) =>
  Array.from({ length: n }, (_, i) => (positive.includes(i + 1) ? 1 : -1) * (i + 1) * 0.001);

/** P(W+ <= w) by enumerating all 2^n sign patterns: slow and obviously right. */
function bruteForce(n: number, w: number): number {
  let hits = 0;
  for (let mask = 0; mask < 2 ** n; mask += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) if (mask & (1 << i)) sum += i + 1;
    if (sum <= w) hits += 1;
  }
  return hits / 2 ** n;
}

describe('wilcoxonLess', () => {
  it('gives 1/4096 when all twelve queries fell', () => {
    const result = wilcoxonLess(Array.from({ length: 12 }, (_, i) => -0.01 - i * 0.001));
    expect(result).toEqual({ statistic: 0, pValue: 1 / 4096, n: 12, method: 'exact' });
  });

  it('matches the published critical values for n = 10 and n = 12', () => {
    expect(wilcoxonLess(withPositiveRanks(10, [10])).pValue).toBeCloseTo(43 / 1024, 12);
    expect(wilcoxonLess(withPositiveRanks(10, [1, 4])).pValue).toBeCloseTo(10 / 1024, 12);
    expect(wilcoxonLess(withPositiveRanks(10, [5, 1])).pValue).toBeCloseTo(bruteForce(10, 6), 12);
    expect(wilcoxonLess(withPositiveRanks(12, [12, 1])).pValue).toBeCloseTo(87 / 4096, 12);
  });

  it('agrees with brute force on every W+ for n = 9', () => {
    for (let w = 0; w <= 45; w += 1) {
      const positive = [];
      for (let r = 9, left = w; r >= 1; r -= 1)
        if (r <= left) {
          positive.push(r);
          left -= r;
        }
      const result = wilcoxonLess(withPositiveRanks(9, positive));
      expect(result.statistic).toBe(w);
      expect(result.pValue).toBeCloseTo(bruteForce(9, w), 12);
    }
  });

  it('drops zero differences, and with tied |d| uses the normal approximation with the tie correction', () => {
    // n 11 after the zero; ties {0.01, 0.01}, {0.02, 0.02}, {0.03 x2}, {0.04 x3}; W+ = 1.5 + 3.5 = 5;
    // z = (5 - 33) / sqrt((11*12*23 - 0.5*(6+6+6+24)) / 24) = -2.4982, p = 0.00624 (hand, and scipy's formula).
    const d = [-0.05, -0.03, -0.03, 0.01, -0.02, -0.04, -0.04, -0.04, 0.02, -0.01, -0.06, 0];
    const result = wilcoxonLess(d);
    expect(result).toMatchObject({ statistic: 5, n: 11, method: 'normal approximation' });
    expect(result.pValue).toBeCloseTo(0.006242, 5);
  });

  it('uses the normal approximation above 50 differences', () => {
    const d = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? 1 : -1) * (i + 1) * 0.001);
    const result = wilcoxonLess(d);
    // W+ = 1 + 3 + ... + 59 = 900, mean 915, se = sqrt(60*61*121/24) = 135.84: z = -0.1104, p = 0.4560.
    expect(result).toMatchObject({ statistic: 900, n: 60, method: 'normal approximation' });
    expect(result.pValue).toBeCloseTo(0.456, 3);
  });

  it('says nothing (p 1) about no difference at all', () => {
    expect(wilcoxonLess([0, 0])).toEqual({ statistic: 0, pValue: 1, n: 0, method: 'exact' });
  });

  it('gives p close to 1 when every value rose', () => {
    expect(wilcoxonLess([0.01, 0.02, 0.03]).pValue).toBe(1);
    expect(wilcoxonLess([0.01, 0.02, -0.03]).pValue).toBeCloseTo(bruteForce(3, 3), 12);
  });
});
