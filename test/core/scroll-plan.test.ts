import { describe, expect, it } from 'vitest';
import { DEFAULT_SCROLL_PARTITIONS, scrollPlan } from '../../functions/core/scroll-plan.ts';

const info = { name: 'book', vectorSize: 3, distance: 'Cosine', pointsCount: 12_345, payloadIndexes: {} };

describe('the scroll plan', () => {
  it('reads one page after the other at 1 partition, and in ranges sized by the described count from 2 on', () => {
    expect(scrollPlan(1000, 1, info)).toEqual({ pageSize: 1000 });
    expect(scrollPlan(500, 2, info)).toEqual({ pageSize: 500, parallel: { partitions: 2, expectedPoints: 12_345 } });
    expect(scrollPlan(1000, DEFAULT_SCROLL_PARTITIONS, info).parallel?.partitions).toBe(8);
  });
});
