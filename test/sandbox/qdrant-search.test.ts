import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

let standIn: QdrantStandIn;
let client: QdrantClient;
let collections = 0;

beforeAll(async () => {
  standIn = await startQdrantStandIn();
  client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
});

afterAll(() => standIn.stop());

/** A fresh 2-d collection holding the given points (payload { n: id }). */
async function createPlane(points: { id: number; vector: number[] }[], distance: 'Cosine' | 'Dot' = 'Cosine') {
  const name = `search-${++collections}`;
  await client.createCollection(name, { vectors: { size: 2, distance } });
  await client.upsert(name, { wait: true, points: points.map((p) => ({ ...p, payload: { n: p.id } })) });
  return name;
}

// Four directions whose cosine with the query (3, 4) are worked out by hand: the query normalises to (0.6, 0.8).
const COMPASS = [
  { id: 1, vector: [1, 0] }, // 0.6
  { id: 2, vector: [1, 1] }, // (0.6 + 0.8) / sqrt(2) = 0.98995
  { id: 3, vector: [0, 1] }, // 0.8
  { id: 4, vector: [-1, 0] }, // -0.6
];

function idsAndScores(points: { id: string | number; score: number }[]) {
  return points.map((p) => [p.id, Number(p.score.toFixed(5))]);
}

describe('Qdrant stand-in: nearest-neighbour query', () => {
  it('scores Cosine collections by the dot product of normalised vectors, best first', async () => {
    // Prepare
    const name = await createPlane(COMPASS);

    // Act
    const result = await client.query(name, { query: [3, 4] });

    // Assess
    expect(idsAndScores(result.points)).toEqual([
      [2, 0.98995],
      [3, 0.8],
      [1, 0.6],
      [4, -0.6],
    ]);
  });

  it('stores Cosine vectors normalised, as Qdrant does', async () => {
    // Prepare
    const name = await createPlane([{ id: 7, vector: [3, 4] }]);

    // Act
    const page = await client.scroll(name, { with_vector: true });

    // Assess
    expect(page.points[0]?.vector).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it('scores Dot collections by the raw dot product', async () => {
    // Prepare
    const name = await createPlane([{ id: 1, vector: [2, 0] }], 'Dot');

    // Act
    const result = await client.query(name, { query: [3, 4] });

    // Assess
    expect(idsAndScores(result.points)).toEqual([[1, 6]]);
  });

  it('keeps only scores strictly above score_threshold', async () => {
    // Prepare: against (1, 0) the scores are exactly 1, 0.70711, 0 and -1.
    const name = await createPlane(COMPASS);

    // Act
    const atZero = await client.query(name, { query: [1, 0], score_threshold: 0 });
    const atOne = await client.query(name, { query: [1, 0], score_threshold: 1 });

    // Assess
    expect([atZero.points.map((p) => p.id), atOne.points.map((p) => p.id)]).toEqual([[1, 2], []]);
  });

  it('returns at most 10 points when no limit is given', async () => {
    // Prepare
    const name = await createPlane(Array.from({ length: 12 }, (_, i) => ({ id: i + 1, vector: [1, i] })));

    // Act
    const result = await client.query(name, { query: [1, 0] });

    // Assess
    expect(result.points).toHaveLength(10);
  });

  it('returns every point when the limit exceeds the collection, and none from an empty one', async () => {
    // Prepare
    const full = await createPlane(COMPASS);
    const empty = await createPlane([]);

    // Act
    const [all, none] = await Promise.all([
      client.query(full, { query: [1, 0], limit: 1_000_000 }),
      client.query(empty, { query: [1, 0] }),
    ]);

    // Assess
    expect([all.points.length, none.points]).toEqual([4, []]);
  });

  it('skips the first `offset` results and then returns `limit`', async () => {
    // Prepare
    const name = await createPlane(COMPASS);

    // Act
    const result = await client.query(name, { query: [3, 4], offset: 1, limit: 2 });

    // Assess
    expect(result.points.map((p) => p.id)).toEqual([3, 1]);
  });

  it('returns no payload and no vector unless asked, and the version of the write', async () => {
    // Prepare
    const name = await createPlane([{ id: 1, vector: [1, 0] }]);

    // Act
    const result = await client.query(name, { query: [1, 0] });

    // Assess
    expect(result.points).toEqual([{ id: 1, version: 0, score: 1 }]);
  });

  it('returns only the payload keys listed in with_payload', async () => {
    // Prepare
    const name = `search-${++collections}`;
    await client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });
    await client.upsert(name, {
      wait: true,
      points: [{ id: 1, vector: [1, 0], payload: { a: 1, b: 2, meta: { lang: 'en', size: 3 } } }],
    });

    // Act
    const listed = await client.query(name, { query: [1, 0], with_payload: ['a', 'meta.lang', 'missing'] });
    const excluded = await client.query(name, { query: [1, 0], with_payload: { exclude: ['b', 'meta.size'] } });

    // Assess
    expect([listed.points[0]?.payload, excluded.points[0]?.payload]).toEqual([
      { a: 1, meta: { lang: 'en' } },
      { a: 1, meta: { lang: 'en' } },
    ]);
  });

  it('answers a batch with one result per search, in order', async () => {
    // Prepare
    const name = await createPlane(COMPASS);

    // Act
    const results = await client.queryBatch(name, {
      searches: [
        { query: [1, 0], limit: 1 },
        { query: { nearest: [0, 1] }, limit: 1 },
        { query: [-1, 0], limit: 1, filter: { must: [{ key: 'n', match: { value: 2 } }] } },
      ],
    });

    // Assess
    expect(results.map((r) => r.points.map((p) => p.id))).toEqual([[1], [3], [2]]);
  });

  it('refuses a query vector of the wrong dimension with 400 and Qdrant’s message', async () => {
    // Prepare
    const name = await createPlane(COMPASS);

    // Act
    const error = await client.query(name, { query: [1, 2, 3] }).catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({
      status: 400,
      data: { status: { error: 'Wrong input: Vector dimension error: expected dim: 2, got 3' } },
    });
  });

  it('refuses limit 0 with 422, naming the field as Qdrant does', async () => {
    // Prepare
    const name = await createPlane(COMPASS);

    // Act
    const error = await client.queryBatch(name, { searches: [{ query: [1, 0], limit: 0 }] }).catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({
      status: 422,
      data: {
        status: {
          error: 'Validation error in JSON body: [searches[0].internal.limit: value 0 invalid, must be 1 or larger]',
        },
      },
    });
  });
});
