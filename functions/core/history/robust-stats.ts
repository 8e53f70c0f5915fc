/**
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
