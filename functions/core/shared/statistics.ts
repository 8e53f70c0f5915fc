/**
 * The statistics every part of ragwatch shares, in one place: rounding, quantiles and summaries of numbers (token
 * counts, similarities, latencies), and the robust location and spread of short histories.
 * One quantile definition everywhere: linear interpolation between closest ranks, numpy's default (Hyndman & Fan
 * type 7): for n sorted values and p in 0..100, h = (n - 1) * p / 100 and q = x[floor(h)] + (h - floor(h)) *
 * (x[floor(h) + 1] - x[floor(h)]).
 * Summaries are rounded to 4 decimals by default: enough for cosine similarities, harmless for counts and milliseconds.
 */

/** A summary of numbers: the shape of the report's distributions (report/quality-metrics.ts). */
export interface Distribution {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  median: number | null;
  p95: number | null;
}

const DEFAULT_DECIMALS = 4;

/** Rounds half away from zero, after clearing binary noise (1.005 -> 1.01, 99.999999999999 -> 100). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  // `+ 0` turns -0 into 0, so a rounded tiny negative prints and compares as 0.
  return (Math.sign(value) * Math.round(scaled)) / factor + 0;
}

/** The p-th percentile (p in 0..100) of values already sorted ascending, by linear interpolation; null when empty. */
export function percentile(sortedValues: readonly number[], p: number): number | null {
  return quantileAt(sortedValues.length, p, (i) => sortedValues[i] ?? Number.NaN);
}

/** Count, min, max, mean, median and p95 of a list; non-finite values are ignored, every figure null when none is left. */
export function summarise(values: readonly number[], options: { decimals?: number } = {}): Distribution {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const sum = sorted.reduce((total, v) => total + v, 0);
  return buildDistribution(sorted.length, sum, (i) => sorted[i] ?? Number.NaN, options.decimals ?? DEFAULT_DECIMALS);
}

/**
 * The same summary from a histogram (value -> how many times it occurs), exact and without expanding it, so token
 * counts can be summarised from a facet or a stream. Entries with a count under 1 or a non-finite value are ignored.
 */
export function summariseHistogram(
  histogram: ReadonlyMap<number, number>,
  options: { decimals?: number } = {},
): Distribution {
  const bins = [...histogram]
    .filter(([value, count]) => Number.isFinite(value) && count >= 1)
    .map(([value, count]) => ({ value, count: Math.floor(count) }))
    .sort((a, b) => a.value - b.value);
  const ends: number[] = [];
  let total = 0;
  let sum = 0;
  for (const bin of bins) {
    total += bin.count;
    sum += bin.value * bin.count;
    ends.push(total);
  }
  const valueAt = (index: number): number => {
    // The first bin whose cumulative count passes the index holds the index-th smallest value.
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] ?? 0) > index) hi = mid;
      else lo = mid + 1;
    }
    return bins[lo]?.value ?? Number.NaN;
  };
  return buildDistribution(total, sum, valueAt, options.decimals ?? DEFAULT_DECIMALS);
}

function buildDistribution(
  count: number,
  sum: number,
  valueAt: (index: number) => number,
  decimals: number,
): Distribution {
  if (count === 0) return { count: 0, min: null, max: null, avg: null, median: null, p95: null };
  const round = (v: number | null) => (v === null ? null : roundTo(v, decimals));
  return {
    count,
    min: round(valueAt(0)),
    max: round(valueAt(count - 1)),
    avg: round(sum / count),
    median: round(quantileAt(count, 50, valueAt)),
    p95: round(quantileAt(count, 95, valueAt)),
  };
}

function quantileAt(count: number, p: number, valueAt: (index: number) => number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be 0..100, got ${p}`);
  if (count === 0) return null;
  const h = ((count - 1) * p) / 100;
  const lo = Math.floor(h);
  const low = valueAt(lo);
  if (lo + 1 >= count) return low;
  return low + (h - lo) * (valueAt(lo + 1) - low);
}

/*
 * Robust location and spread for short histories: the median and the median absolute deviation (MAD).
 * A week of nightly figures is a small sample that may hold one or two broken nights; the mean and the standard
 * deviation would follow those outliers, the median and the MAD ignore up to half the sample.
 */

/** The median of the values (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/** The median absolute deviation from the median; null for none. */
export function medianAbsoluteDeviation(values: readonly number[]): number | null {
  const centre = median(values);
  if (centre === null) return null;
  return median(values.map((v) => Math.abs(v - centre)));
}

/**
 * 1.4826 x MAD estimates the standard deviation of normally distributed noise; `sigmas` of those make the band,
 * never narrower than `floor` (a history of identical nights has MAD 0, and any change would then be "beyond").
 */
export function noiseBand(values: readonly number[], options: { sigmas: number; floor: number }): number {
  const mad = medianAbsoluteDeviation(values) ?? 0;
  return Math.max(options.sigmas * 1.4826 * mad, options.floor);
}
