/**
 * The Wilcoxon signed-rank test on paired differences, one-sided: did the values fall? Each query's best
 * similarity now is paired with its own baseline, so the test sees a shift in which every query drops a little
 * (what a drifting or swapped embedding model does) even when the two sets of values overlap entirely, which an
 * unpaired test of twelve values cannot. It assumes only that, with no change, a difference is as likely to be
 * positive as negative by the same amount (symmetric around 0), not that similarities are normal.
 *
 * As SciPy's `wilcoxon(d, alternative='less')` with its defaults (zero_method 'wilcox', method 'auto'): zero
 * differences are dropped; W+ is the sum of the ranks (1 = smallest |d|, ties given their average rank) of the
 * positive differences; the p-value is P(W+ <= observed) from the exact null distribution (each of the 2^n sign
 * patterns equally likely) when there are at most 50 differences and no tied |d|, else from the normal
 * approximation with SciPy's tie correction and no continuity correction.
 */

export interface WilcoxonResult {
  /** W+: the sum of the ranks of the positive differences (small when the values fell). */
  statistic: number;
  pValue: number;
  /** Differences that were not zero (the test's n). */
  n: number;
  method: 'exact' | 'normal approximation';
}

const EXACT_MAX_N = 50;

/** One-sided ("the differences are below 0") signed-rank test; p = 1 with no non-zero difference. */
export function wilcoxonLess(differences: readonly number[]): WilcoxonResult {
  const d = differences.filter((x) => x !== 0 && Number.isFinite(x));
  const n = d.length;
  if (n === 0) return { statistic: 0, pValue: 1, n: 0, method: 'exact' };
  const { ranks, tieSizes } = averageRanks(d.map(Math.abs));
  const statistic = d.reduce((sum, x, i) => (x > 0 ? sum + (ranks[i] as number) : sum), 0);
  if (n <= EXACT_MAX_N && tieSizes.length === 0)
    return { statistic, pValue: exactLowerTail(n, statistic), n, method: 'exact' };
  const mean = (n * (n + 1)) / 4;
  const ties = tieSizes.reduce((sum, t) => sum + t * (t * t - 1), 0);
  const se = Math.sqrt((n * (n + 1) * (2 * n + 1) - 0.5 * ties) / 24);
  return { statistic, pValue: normalCdf((statistic - mean) / se), n, method: 'normal approximation' };
}

/** Ranks 1..n of `values` (ties get the mean of their ranks) and the size of each group of ties. */
function averageRanks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length).fill(0);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.[0] === order[start]?.[0]) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k += 1) ranks[order[k]?.[1] as number] = rank;
    if (end > start) tieSizes.push(end - start + 1);
    start = end + 1;
  }
  return { ranks, tieSizes };
}

/** P(W+ <= w) under the null: the share of the 2^n subsets of {1..n} whose sum is at most w. */
function exactLowerTail(n: number, w: number): number {
  const max = (n * (n + 1)) / 2;
  // counts[s]: subsets of {1..k} summing to s, built up one k at a time (doubles: 2^50 is exact in a float).
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let k = 1; k <= n; k += 1)
    for (let s = (k * (k + 1)) / 2; s >= k; s -= 1) counts[s] = (counts[s] as number) + (counts[s - k] as number);
  let below = 0;
  for (let s = 0; s <= Math.min(Math.floor(w), max); s += 1) below += counts[s] as number;
  return Math.min(1, below / 2 ** n);
}

/** The standard normal CDF, from the complementary error function (Numerical Recipes' erfc, |error| < 1.2e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}
