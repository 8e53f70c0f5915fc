import { describe, expect, it } from 'vitest';
import { median, medianAbsoluteDeviation, noiseBand } from '../../../functions/core/shared/statistics.ts';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('is the mean of the middle two of an even count', () => {
    expect(median([1, 2, 4, 10])).toBe(3);
  });

  it('is null for no values', () => {
    expect(median([])).toBeNull();
  });

  it('ignores three outliers among seven values', () => {
    expect(median([0.8, 0.81, 0.79, 0.8, 0.1, 0.1, 0.1])).toBe(0.79);
  });
});

describe('noiseBand', () => {
  it('is 3 robust sigmas (1.4826 x MAD) when that is above the floor', () => {
    // MAD of [1, 2, 3, 4, 5] is 1.
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 5])).toBe(1);
    expect(noiseBand([1, 2, 3, 4, 5], { sigmas: 3, floor: 4 })).toBeCloseTo(4.4478, 4);
  });

  it('is the floor when the spread is narrower', () => {
    expect(noiseBand([1, 2, 3, 4, 5], { sigmas: 3, floor: 4.5 })).toBe(4.5);
  });

  it('is the floor for a history of identical values', () => {
    expect(noiseBand([0.7, 0.7, 0.7], { sigmas: 3, floor: 0.05 })).toBe(0.05);
  });
});
