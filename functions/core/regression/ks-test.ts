/**
 * The two-sample Kolmogorov-Smirnov test: do two samples come from the same distribution? Its statistic D is the
 * largest vertical gap between the two empirical distribution functions, so it sees a shift of the whole
 * distribution (every score lower, or squeezed together) rather than a few outliers, and it assumes no shape
 * (similarity scores are not normal). The p-value is the asymptotic Kolmogorov distribution with Stephens'
 * small-sample correction (as in Numerical Recipes' kstwo), accurate enough from about 4 values a side.
 */

export interface KsResult {
  statistic: number;
  pValue: number;
}

/** Two-sample KS test of `a` against `b`; D = 0 and p = 1 when either sample is empty. */
export function twoSampleKs(a: readonly number[], b: readonly number[]): KsResult {
  if (a.length === 0 || b.length === 0) return { statistic: 0, pValue: 1 };
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const xi = x[i] as number;
    const yj = y[j] as number;
    if (xi <= yj) i += 1;
    if (yj <= xi) j += 1;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  const ne = (x.length * y.length) / (x.length + y.length);
  const sqrtNe = Math.sqrt(ne);
  return { statistic: d, pValue: kolmogorovQ((sqrtNe + 0.12 + 0.11 / sqrtNe) * d) };
}

/** Q(lambda) = 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 lambda^2), the Kolmogorov distribution's survival function. */
function kolmogorovQ(lambda: number): number {
  if (lambda < 0.2) return 1;
  let sum = 0;
  for (let k = 1; k <= 100; k += 1) {
    const term = (k % 2 === 1 ? 2 : -2) * Math.exp(-2 * k * k * lambda * lambda);
    sum += term;
    if (Math.abs(term) < 1e-10) break;
  }
  return Math.min(1, Math.max(0, sum));
}
