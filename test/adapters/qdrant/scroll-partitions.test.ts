/**
 * The fallback scroll read in W id ranges at once (issue 20), through the real client against the stand-in: every
 * point exactly once for every W, whatever the ids (dense or sparse integers, the indexer's UUIDs, both kinds), about
 * ceil(P / 1000) requests, and a depth of about 1 + ceil((P - 1000) / (1000 W)) pages one after the other. Depth is
 * counted, not timed: the first page, then the most pages any one range read (a range has one request in flight).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareIds, type PointId, splitRemaining } from '../../../functions/adapters/qdrant/id-ranges.ts';
import { QdrantIndex } from '../../../functions/adapters/qdrant/vector-index.ts';
import { pointIdFor } from '../../../functions/indexer/point-id.ts';
import { type QdrantStandIn, type RecordedExchange, startQdrantStandIn } from '../../../sandbox/qdrant/index.ts';

const PAGE = 1000;
let standIn: QdrantStandIn;

/** Collections by their ids; every point's payload names its id so a lost or doubled point is seen. */
const COLLECTIONS: Record<string, PointId[]> = {
  'dense 1..25000': Array.from({ length: 25_000 }, (_, i) => i + 1),
  'dense 1..2500': Array.from({ length: 2_500 }, (_, i) => i + 1),
  'sparse integers, gaps of 1 to 997': (() => {
    let id = 5;
    return Array.from({ length: 12_000 }, (_, i) => {
      id += 1 + ((i * 7919) % 997);
      return id;
    });
  })(),
  'the indexer’s UUIDs (v5)': Array.from({ length: 12_000 }, (_, i) => pointIdFor(`https://b.example/p${i % 900}`, i)),
  'integers then UUIDs': [
    ...Array.from({ length: 1_500 }, (_, i) => i * 3),
    ...Array.from({ length: 6_000 }, (_, i) => pointIdFor('https://b.example/x', i)),
  ],
  'fewer points than a page': [7, 8, 9],
  empty: [],
};

beforeAll(async () => {
  standIn = await startQdrantStandIn({ recordExchanges: true });
  for (const [name, ids] of Object.entries(COLLECTIONS)) {
    await fetch(`${standIn.url}/collections/${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vectors: { size: 2, distance: 'Cosine' } }),
    });
    standIn.loadPoints(
      name,
      ids.map((id) => ({ id, vector: [1, 0], payload: { key: String(id) } })),
    );
  }
});

afterAll(async () => {
  await standIn?.stop();
});

async function scrolled(collection: string, partitions: number, expectedPoints?: number) {
  const index = new QdrantIndex({ url: standIn.url, collection, timeoutMs: 5000 });
  const expected = expectedPoints ?? COLLECTIONS[collection]?.length ?? 0;
  const before = standIn.exchanges().length;
  const seen: string[] = [];
  let mismatched = 0;
  for await (const page of index.scroll({
    payloadFields: ['key'],
    pageSize: PAGE,
    parallel: { partitions, expectedPoints: expected },
  })) {
    for (const point of page) {
      if (point.payload.key !== point.id) mismatched += 1;
      seen.push(point.id);
    }
  }
  expect(mismatched).toBe(0);
  const scrolls = standIn.exchanges().slice(before);
  return { seen, scrolls, depth: depthOf(scrolls, partitions, expected) };
}

/**
 * The first page, then the most requests one range made: the ranges are cut as the adapter cuts them (from the
 * first page's ids and the points expected), and each request belongs to the range its offset falls in.
 */
function depthOf(scrolls: RecordedExchange[], partitions: number, expectedPoints: number): number {
  const [first, ...rest] = scrolls;
  if (first === undefined) return 0;
  const { points, next_page_offset: next } = (
    first.responseBody as { result: { points: { id: PointId }[]; next_page_offset: PointId | null } }
  ).result;
  if (next === null) return 1;
  const remaining = expectedPoints - points.length;
  const starts = splitRemaining({
    pageIds: points.map((p) => p.id),
    next,
    remaining,
    count: Math.min(partitions, Math.ceil(remaining / PAGE)),
  }).map((r) => r.start);
  const offsets = rest.map((e) => (e.requestBody as { offset: PointId }).offset);
  const perRange = starts.map(
    (start, k) =>
      offsets.filter((o) => {
        const end = starts[k + 1];
        return compareIds(o, start) >= 0 && (end === undefined || compareIds(o, end) < 0);
      }).length,
  );
  return 1 + Math.max(...perRange);
}

const sortedIds = (ids: readonly PointId[]) => ids.map(String).sort();

describe('the fallback scroll in W id ranges at once', () => {
  for (const collection of Object.keys(COLLECTIONS)) {
    it.each([1, 2, 3, 8, 32])(`${collection}: reads every point exactly once with W = %i`, async (partitions) => {
      const { seen } = await scrolled(collection, partitions);

      expect(seen.sort()).toEqual(sortedIds(COLLECTIONS[collection] ?? []));
    });
  }

  it('reads 25,000 dense ids in 25 requests at every W, 25 pages deep at W = 1 and 4 at W = 8', async () => {
    const one = await scrolled('dense 1..25000', 1);
    const eight = await scrolled('dense 1..25000', 8);

    expect(one.scrolls).toHaveLength(25);
    expect(eight.scrolls).toHaveLength(25);
    // 1 + ceil(24,000 / (1000 x 8)) = 4: the first page, then 8 ranges of 3,000 points.
    expect(eight.depth).toBe(4);
    expect(one.depth).toBe(25);
  });

  it('cuts no range smaller than a page: 2,500 points are 3 requests 2 deep at W = 8', async () => {
    const { scrolls, depth } = await scrolled('dense 1..2500', 8);

    expect(scrolls).toHaveLength(3);
    expect(depth).toBe(2);
  });

  it('spreads the indexer’s UUIDs and sparse integers: depth near 1 + ceil((P - 1000) / (1000 W)), requests near P / 1000 + W', async () => {
    for (const collection of ['the indexer’s UUIDs (v5)', 'sparse integers, gaps of 1 to 997']) {
      const { scrolls, depth } = await scrolled(collection, 8);

      // 11,000 points after the first page in 8 ranges of about 1,375: 2 pages each when the cuts are even.
      expect(depth, collection).toBe(1 + 2);
      expect(scrolls.length, collection).toBeGreaterThanOrEqual(12);
      expect(scrolls.length, collection).toBeLessThanOrEqual(12 + 8);
    }
  });

  it('still reads every point when the collection holds far more than it said (the last range has no end)', async () => {
    const { seen, depth } = await scrolled('dense 1..25000', 8, 5_000);

    expect(seen).toHaveLength(25_000);
    // The estimate put 4,000 points in 4 ranges; the last range reads the other 20,000 alone.
    expect(depth).toBeGreaterThan(10);
  });

  it('cuts integer ranges from the page’s spacing and UUID ranges across their space', () => {
    expect(splitRemaining({ pageIds: [1, 3, 5], next: 7, remaining: 8, count: 4 })).toEqual([
      { start: 7, end: 11 },
      { start: 11, end: 15 },
      { start: 15, end: 19 },
      { start: 19, end: undefined },
    ]);
    expect(splitRemaining({ pageIds: [1, 3, 5], next: 7, remaining: 0, count: 4 })).toEqual([
      { start: 7, end: undefined },
    ]);
    expect(
      splitRemaining({ pageIds: [], next: '80000000-0000-0000-0000-000000000000', remaining: 10, count: 2 }),
    ).toEqual([
      { start: '80000000-0000-0000-0000-000000000000', end: 'c0000000-0000-0000-0000-000000000000' },
      { start: 'c0000000-0000-0000-0000-000000000000', end: undefined },
    ]);
  });
});
