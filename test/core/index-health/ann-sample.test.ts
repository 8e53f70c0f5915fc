import { describe, expect, it } from 'vitest';
import { DEFAULT_ANN_SAMPLE } from '../../../functions/core/config.ts';
import { annSample } from '../../../functions/core/index-health/ann-sample.ts';

const DAY = 86_400_000;
const night = (n: number) => new Date(n * DAY + 3 * 3_600_000);
const ten = Array.from({ length: 10 }, (_, i) => i);

describe("ANN health's nightly sample of searches", () => {
  it('defaults to 20 searches', () => {
    expect(DEFAULT_ANN_SAMPLE).toBe(20);
  });

  it('takes every search, in order, when the sample is the suite or larger', () => {
    expect(annSample(ten, 10, night(7))).toEqual(ten);
    expect(annSample(ten, 11, night(7))).toEqual(ten);
  });

  it('takes the next slice each night, wrapping, so every search is compared within ceil(N / size) nights', () => {
    expect(annSample(ten, 4, night(0))).toEqual([0, 1, 2, 3]);
    expect(annSample(ten, 4, night(1))).toEqual([4, 5, 6, 7]);
    expect(annSample(ten, 4, night(2))).toEqual([8, 9, 0, 1]);
    const seen = new Set([0, 1, 2].flatMap((n) => annSample(ten, 4, night(n))));
    expect(seen.size).toBe(10);
  });

  it('gives the same sample to two runs of the same night (a re-run compares what the night compared)', () => {
    const early = new Date(5 * DAY + 60_000);
    const late = new Date(6 * DAY - 60_000);
    expect(annSample(ten, 3, early)).toEqual(annSample(ten, 3, late));
    expect(annSample(ten, 3, new Date(6 * DAY))).not.toEqual(annSample(ten, 3, late));
  });

  it('takes nothing for a sample of 0 (or below) and from an empty suite', () => {
    expect(annSample(ten, 0, night(3))).toEqual([]);
    expect(annSample(ten, -2, night(3))).toEqual([]);
    expect(annSample([], 20, night(3))).toEqual([]);
  });

  it('takes exactly size searches, each once, when the sample is one short of the suite', () => {
    const sample = annSample(ten, 9, night(123));
    expect(sample).toHaveLength(9);
    expect(new Set(sample).size).toBe(9);
  });

  it('reads a date before the epoch without a negative index', () => {
    expect(annSample(ten, 3, new Date(-1 * DAY))).toEqual([7, 8, 9]);
  });
});
