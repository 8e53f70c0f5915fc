/**
 * The stand-in's approximate search (`params.exact`, `hnsw_ef`, and the degradeAnn knob), through the real client:
 * the fault the ANN-health check must see.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

let standIn: QdrantStandIn;
let client: QdrantClient;
const NAME = 'ann';
const QUERY = [0.3, 0.7, 0.1, 0.5];

beforeAll(async () => {
  standIn = await startQdrantStandIn();
  client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
  await client.createCollection(NAME, { vectors: { size: 4, distance: 'Cosine' } });
  await client.upsert(NAME, {
    wait: true,
    points: Array.from({ length: 400 }, (_, i) => ({
      id: i + 1,
      vector: [Math.sin(i), Math.cos(i * 0.7), Math.sin(i * 1.3), Math.cos(i * 0.3)],
    })),
  });
});

afterAll(() => standIn.stop());

async function topIds(params?: { exact?: boolean; hnsw_ef?: number }): Promise<unknown[]> {
  const result = await client.query(NAME, { query: QUERY, limit: 10, ...(params ? { params } : {}) });
  return result.points.map((p) => p.id);
}

function recall(found: unknown[], truth: unknown[]): number {
  return found.filter((id) => truth.includes(id)).length / truth.length;
}

describe('Qdrant stand-in: approximate search', () => {
  it('answers approximate and exact searches alike while healthy', async () => {
    standIn.degradeAnn(1);
    expect(await topIds()).toEqual(await topIds({ exact: true }));
  });

  it('loses recall in approximate searches once degraded, while exact ones stay right', async () => {
    const truth = await topIds({ exact: true });
    standIn.degradeAnn(0.3);
    try {
      expect(recall(await topIds(), truth)).toBeLessThan(0.6);
      expect(await topIds({ exact: true })).toEqual(truth);
    } finally {
      standIn.degradeAnn(1);
    }
  });

  it('recovers recall with a larger hnsw_ef', async () => {
    const truth = await topIds({ exact: true });
    standIn.degradeAnn(0.3);
    try {
      expect(recall(await topIds({ hnsw_ef: 400 }), truth)).toBe(1);
    } finally {
      standIn.degradeAnn(1);
    }
  });

  it('gives the same approximate answer to the same query twice', async () => {
    standIn.degradeAnn(0.3);
    try {
      expect(await topIds()).toEqual(await topIds());
    } finally {
      standIn.degradeAnn(1);
    }
  });
});

describe('Qdrant stand-in: unreachable points', () => {
  it('hides an unreachable point from approximate search only, until restored', async () => {
    const truth = await topIds({ exact: true });
    standIn.makeUnreachable([truth[0] as number]);
    try {
      expect(await topIds()).not.toContain(truth[0]);
      expect(await topIds({ exact: true })).toEqual(truth);
    } finally {
      standIn.makeUnreachable([]);
    }
    expect(await topIds()).toEqual(truth);
  });
});

describe('Qdrant stand-in: filter leak', () => {
  const LEAK = 'leak';
  // Four points in group "a" (two of them also in "c"), the rest in "b"; only "a" points match the filters below.
  beforeAll(async () => {
    await client.createCollection(LEAK, { vectors: { size: 4, distance: 'Cosine' } });
    await client.upsert(LEAK, {
      wait: true,
      points: Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        vector: [Math.sin(i), Math.cos(i * 0.7), Math.sin(i * 1.3), Math.cos(i * 0.3)],
        payload: { group: i < 4 ? 'a' : 'b', tags: i < 2 ? ['a', 'c'] : ['b'] },
      })),
    });
  });

  const onlyA = { must: [{ key: 'group', match: { value: 'a' } }] };
  async function groups(filter: object, limit: number, params?: { exact?: boolean }) {
    const result = await client.query(LEAK, {
      query: QUERY,
      filter,
      limit,
      with_payload: true,
      ...(params ? { params } : {}),
    });
    return result.points.map((p) => [p.id, p.payload?.group, p.score] as const);
  }

  it('adds the best point outside the filter, at its rank, to a filtered search with room to spare', async () => {
    const truth = await groups(onlyA, 10, { exact: true });
    standIn.leakFilters(true);
    try {
      const leaked = await groups(onlyA, 10);
      expect(leaked).toHaveLength(truth.length + 1);
      expect(leaked.filter(([, group]) => group !== 'a')).toHaveLength(1);
      expect(leaked.filter(([, group]) => group === 'a')).toEqual(truth);
      const scores = leaked.map(([, , score]) => score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    } finally {
      standIn.leakFilters(false);
    }
  });

  it('puts the leaked point in place of the last hit when the search found its limit', async () => {
    const truth = await groups(onlyA, 3, { exact: true });
    standIn.leakFilters(true);
    try {
      const leaked = await groups(onlyA, 3);
      expect(leaked).toHaveLength(3);
      expect(leaked.filter(([, group]) => group === 'a')).toEqual(truth.slice(0, 2));
    } finally {
      standIn.leakFilters(false);
    }
  });

  it('leaks only searches whose filter names the scoped key and value, nested or in match.any', async () => {
    standIn.leakFilters({ key: 'tags', value: 'c' });
    try {
      const outsideA = async (filter: object) => (await groups(filter, 10)).filter(([, g]) => g !== 'a').length;
      expect(await outsideA(onlyA)).toBe(0);
      expect(await outsideA({ must: [{ key: 'tags', match: { value: 'c' } }] })).toBe(1);
      expect(await outsideA({ must: [onlyA, { should: [{ key: 'tags', match: { any: ['x', 'c'] } }] }] })).toBe(1);
      expect(await outsideA({ must: [{ key: 'tags', match: { value: 'a' } }] })).toBe(0);
      expect(await outsideA({ must: [{ key: 'group', match: { value: 'c' } }] })).toBe(0);
    } finally {
      standIn.leakFilters(false);
    }
  });

  it('leaves exact searches and unfiltered ones alone', async () => {
    const exact = await groups(onlyA, 10, { exact: true });
    const unfiltered = await client.query(LEAK, { query: QUERY, limit: 5 });
    standIn.leakFilters(true);
    try {
      expect(await groups(onlyA, 10, { exact: true })).toEqual(exact);
      expect(await client.query(LEAK, { query: QUERY, limit: 5 })).toEqual(unfiltered);
    } finally {
      standIn.leakFilters(false);
    }
  });

  it("adds the replay's score perturbation to exact and approximate scores alike, and drops it on null", async () => {
    const scores = async (exact: boolean) =>
      (await client.query(NAME, { query: QUERY, limit: 400, params: { exact } })).points.map((p) => [p.id, p.score]);
    const clean = new Map((await scores(true)) as [number, number][]);
    // Point 7 lifted by 5 (above every cosine), every other score lowered by 10 %.
    standIn.perturbScores((id, _query, score) => (id === 7 ? 5 : -0.1 * score));
    try {
      for (const exact of [true, false]) {
        const moved = (await scores(exact)) as [number, number][];
        expect(moved[0]).toEqual([7, Math.fround((clean.get(7) ?? 0) + 5)]);
        for (const [id, score] of moved.slice(1)) expect(score).toBeCloseTo(0.9 * (clean.get(id) ?? 0), 6);
      }
    } finally {
      standIn.perturbScores(null);
    }
    expect(new Map((await scores(true)) as [number, number][])).toEqual(clean);
  });
});
