import { describe, expect, it } from 'vitest';
import { percentile, roundTo, summarise, summariseHistogram } from '../../../functions/core/shared/statistics.ts';

describe('summarise', () => {
  it('reports a count of zero and null figures for no values', () => {
    expect(summarise([])).toEqual({ count: 0, min: null, max: null, avg: null, median: null, p95: null });
  });

  it('summarises token counts with interpolated median and p95', () => {
    // Prepare: sorted [450, 750, 768, 1024], n = 4.
    const values = [768, 450, 1024, 750];

    // Act
    const summary = summarise(values);

    // Assess
    // avg = 2992 / 4 = 748. median: h = 3 * 0.5 = 1.5 -> 750 + 0.5 * (768 - 750) = 759.
    // p95: h = 3 * 0.95 = 2.85 -> 768 + 0.85 * (1024 - 768) = 768 + 217.6 = 985.6.
    expect(summary).toEqual({ count: 4, min: 450, max: 1024, avg: 748, median: 759, p95: 985.6 });
  });

  it('rounds similarities to 4 decimals', () => {
    // Prepare
    const values = [0.123456, 0.654321];

    // Act
    const summary = summarise(values);

    // Assess
    // avg = median = 0.777777 / 2 = 0.3888885 -> 0.3889.
    // p95: h = 0.95 -> 0.123456 + 0.95 * 0.530865 = 0.62777775 -> 0.6278.
    expect(summary).toEqual({ count: 2, min: 0.1235, max: 0.6543, avg: 0.3889, median: 0.3889, p95: 0.6278 });
  });

  it('gives every figure as the value itself for a single value', () => {
    expect(summarise([0.5])).toEqual({ count: 1, min: 0.5, max: 0.5, avg: 0.5, median: 0.5, p95: 0.5 });
  });

  it('ignores values that are not finite numbers', () => {
    expect(summarise([Number.NaN, 2, Number.POSITIVE_INFINITY, 4])).toEqual({
      count: 2,
      min: 2,
      max: 4,
      avg: 3,
      median: 3,
      // h = 0.95 -> 2 + 0.95 * 2 = 3.9
      p95: 3.9,
    });
  });
});

describe('summariseHistogram', () => {
  it('gives the same summary as the expanded values', () => {
    // Prepare: 450 once, 750 twice, 1024 once = [450, 750, 750, 1024].
    const histogram = new Map([
      [1024, 1],
      [450, 1],
      [750, 2],
    ]);

    // Act
    const summary = summariseHistogram(histogram);

    // Assess
    // avg = (450 + 1500 + 1024) / 4 = 743.5. median: h = 1.5 -> 750 + 0.5 * 0 = 750.
    // p95: h = 2.85 -> 750 + 0.85 * (1024 - 750) = 750 + 232.9 = 982.9.
    expect(summary).toEqual({ count: 4, min: 450, max: 1024, avg: 743.5, median: 750, p95: 982.9 });
    expect(summary).toEqual(summarise([450, 750, 750, 1024]));
  });

  it('ignores bins with no occurrences', () => {
    // Act
    const summary = summariseHistogram(
      new Map([
        [10, 0],
        [20, 3],
      ]),
    );

    // Assess
    expect(summary).toEqual({ count: 3, min: 20, max: 20, avg: 20, median: 20, p95: 20 });
  });

  it('ignores bins with a fractional count under 1 or a value that is not finite, and floors other counts', () => {
    // Act: 2.7 occurrences of 20 count as 2.
    const summary = summariseHistogram(
      new Map([
        [5, 0.5],
        [7, -3],
        [Number.NaN, 4],
        [Number.POSITIVE_INFINITY, 1],
        [20, 2.7],
        [40, 1],
      ]),
    );

    // Assess
    expect(summary).toEqual(summarise([20, 20, 40]));
  });

  it('reports null figures for an empty histogram', () => {
    expect(summariseHistogram(new Map())).toEqual({
      count: 0,
      min: null,
      max: null,
      avg: null,
      median: null,
      p95: null,
    });
  });
});

describe('percentile', () => {
  it('interpolates latency percentiles between closest ranks', () => {
    // Prepare: n = 5.
    const sorted = [10, 20, 30, 40, 50];

    // Act
    const figures = [50, 95, 99].map((p) => percentile(sorted, p));

    // Assess
    // p50: h = 4 * 0.5 = 2 -> 30. p95: h = 3.8 -> 40 + 0.8 * 10 = 48. p99: h = 3.96 -> 40 + 0.96 * 10 = 49.6.
    expect(figures.map((v) => roundTo(v ?? Number.NaN, 9))).toEqual([30, 48, 49.6]);
  });

  it('returns null for no values', () => {
    expect(percentile([], 95)).toBeNull();
  });

  it('takes the minimum at p = 0 and the maximum at p = 100', () => {
    expect([percentile([10, 20, 30], 0), percentile([10, 20, 30], 100)]).toEqual([10, 30]);
  });

  it('refuses a percentile outside 0..100', () => {
    expect(() => percentile([1], 101)).toThrow(new RangeError('percentile: p must be 0..100, got 101'));
    expect(() => percentile([1], -0.1)).toThrow(new RangeError('percentile: p must be 0..100, got -0.1'));
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('roundTo', () => {
  it('rounds half away from zero despite binary noise', () => {
    // 1.005 is stored as 1.00499999999999989...; 99.99999999999999 is float noise for 100.
    expect([roundTo(1.005, 2), roundTo(-1.005, 2), roundTo(99.99999999999999, 2)]).toEqual([1.01, -1.01, 100]);
  });

  it('turns a rounded tiny negative into plain zero', () => {
    expect(Object.is(roundTo(-0.00001, 4), 0)).toBe(true);
  });
});
