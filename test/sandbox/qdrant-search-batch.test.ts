import { describe, expect, it } from 'vitest';
import { Collection, type Distance } from '../../sandbox/qdrant/collection.ts';
import { parseFilter } from '../../sandbox/qdrant/filter.ts';
import {
  type AnnSettings,
  type NearestOptions,
  searchNearest,
  searchNearestBatch,
} from '../../sandbox/qdrant/search.ts';

// A query batch is scanned four searches at a time (sandbox/qdrant/search.ts); each answer must be the one the search
// gets alone: the same points, scores and order, ties included, whatever else is in the batch.

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function collectionOf(distance: Distance, next: () => number): Collection {
  const collection = new Collection({ name: 'c', size: 5, distance });
  const points = Array.from({ length: 600 }, (_, i) => ({
    id: i + 1,
    // Every tenth point repeats an earlier vector, so equal scores (and their order) are exercised.
    vector: i % 10 === 9 ? [1, 2, 3, 4, 5].map((x) => x / 7) : Array.from({ length: 5 }, () => next() * 2 - 1),
    payload: { group: i % 3 === 0 ? 'a' : 'b', n: i },
  }));
  collection.upsert(points, 0);
  return collection;
}

function requestsOf(next: () => number, count: number, distance: Distance): NearestOptions[] {
  return Array.from({ length: count }, (_, i) => {
    const filterJson = i % 4 === 1 ? { must: [{ key: 'group', match: { value: 'a' } }] } : undefined;
    return {
      vector: i % 5 === 4 ? [1, 2, 3, 4, 5].map((x) => x / 7) : Array.from({ length: 5 }, () => next() * 2 - 1),
      limit: [1, 5, 10, 700][i % 4] as number,
      offset: i % 6 === 5 ? 3 : 0,
      filter: parseFilter(filterJson),
      filterJson,
      // A distance keeps scores below its threshold, a similarity those above.
      scoreThreshold: i % 7 === 3 ? (distance === 'Euclid' ? 1.5 : 0.2) : undefined,
      exact: i % 3 === 2,
      hnswEf: i % 8 === 6 ? 50 : undefined,
    };
  });
}

describe('Qdrant stand-in: a query batch answers each search as alone', () => {
  const cases: [string, Distance, AnnSettings][] = [
    ['Cosine, healthy', 'Cosine', { visitFraction: 1 }],
    ['Dot, healthy', 'Dot', { visitFraction: 1 }],
    ['Euclid', 'Euclid', { visitFraction: 1 }],
    ['Cosine, degraded ANN and a filter leak', 'Cosine', { visitFraction: 0.4, filterLeak: true }],
    [
      'Cosine, score noise',
      'Cosine',
      { visitFraction: 1, perturb: (id, _q, score) => (Number(id) % 5) * 1e-3 - score * 1e-4 },
    ],
  ];
  it.each(cases)('%s', (_name, distance, ann) => {
    const next = random(7);
    const collection = collectionOf(distance, next);
    for (const count of [1, 3, 4, 9, 23]) {
      const requests = requestsOf(next, count, distance);
      const alone = requests.map((request) => searchNearest(collection, request, ann));
      expect(searchNearestBatch(collection, requests, ann)).toEqual(alone);
      // Not vacuous: the searches found points, and some equal scores among them.
      expect(alone.every((hits) => hits.length > 0)).toBe(true);
    }
  });

  it('keeps equal scores in slot order within a batch of four', () => {
    const collection = collectionOf('Cosine', random(3));
    const same = [1, 2, 3, 4, 5].map((x) => x / 7);
    const requests = Array.from({ length: 4 }, () => ({ vector: same, limit: 60, offset: 0 }));
    const [first] = searchNearestBatch(collection, requests);
    const top = (first ?? []).filter((hit) => hit.score === first?.[0]?.score);
    expect(top.length).toBe(60);
    expect(top.map((hit) => hit.slot)).toEqual([...top.map((hit) => hit.slot)].sort((a, b) => a - b));
  });
});
