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

async function createCollection(): Promise<string> {
  const name = `points-${++collections}`;
  await client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });
  return name;
}

async function insert(name: string, points: { id: number | string; payload?: Record<string, unknown> }[]) {
  await client.upsert(name, { wait: true, points: points.map((p) => ({ vector: [1, 1], ...p })) });
}

const UUID_A = '550e8400-e29b-41d4-a716-446655440000';
const UUID_B = 'f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f';

describe('Qdrant stand-in: upsert', () => {
  it('replaces the vector and the whole payload of an existing id', async () => {
    // Prepare
    const name = await createCollection();
    await insert(name, [{ id: 1, payload: { a: 1, b: 2 } }]);

    // Act
    await client.upsert(name, { wait: true, points: [{ id: 1, vector: [0, 1], payload: { c: 3 } }] });

    // Assess
    const page = await client.scroll(name, { with_vector: true });
    expect(page.points).toEqual([{ id: 1, payload: { c: 3 }, vector: [0, 1] }]);
  });

  it('reports completed with wait=true and acknowledged otherwise, with increasing operation ids', async () => {
    // Prepare
    const name = await createCollection();

    // Act
    const waited = await client.upsert(name, { wait: true, points: [{ id: 1, vector: [1, 0] }] });
    const queued = await client.upsert(name, { wait: false, points: [{ id: 2, vector: [1, 0] }] });

    // Assess
    expect([waited, queued]).toEqual([
      { operation_id: 0, status: 'completed' },
      { operation_id: 1, status: 'acknowledged' },
    ]);
  });

  it('accepts UUID ids in any case and answers them in canonical lowercase form', async () => {
    // Prepare
    const name = await createCollection();

    // Act
    await insert(name, [{ id: UUID_A.toUpperCase() }, { id: UUID_A }]);

    // Assess
    const page = await client.scroll(name);
    expect(page.points).toEqual([{ id: UUID_A, payload: {} }]);
  });

  it('stores nothing when one vector of the batch has the wrong dimension', async () => {
    // Prepare
    const name = await createCollection();

    // Act
    const error = await client
      .upsert(name, {
        wait: true,
        points: [
          { id: 1, vector: [1, 0] },
          { id: 2, vector: [1, 0, 0] },
        ],
      })
      .catch((e: unknown) => e);

    // Assess
    expect([error, (await client.count(name)).count]).toEqual([
      expect.objectContaining({
        status: 400,
        data: expect.objectContaining({
          status: { error: 'Wrong input: Vector dimension error: expected dim: 2, got 3' },
        }),
      }),
      0,
    ]);
  });

  it('accepts the column batch form', async () => {
    // Prepare
    const name = await createCollection();

    // Act
    await client.upsert(name, {
      wait: true,
      batch: {
        ids: [2, 1],
        vectors: [
          [1, 0],
          [0, 1],
        ],
        payloads: [{ k: 'two' }, { k: 'one' }],
      },
    });

    // Assess
    const page = await client.scroll(name);
    expect(page.points).toEqual([
      { id: 1, payload: { k: 'one' } },
      { id: 2, payload: { k: 'two' } },
    ]);
  });
});

describe('Qdrant stand-in: loadPoints (the benchmark’s fast path)', () => {
  it('stores points as an upsert would: normalised, queryable, replacing known ids', async () => {
    // Prepare
    const name = await createCollection();
    standIn.loadPoints(name, [
      { id: 2, vector: Float32Array.from([3, 4]), payload: { tags: ['a', 'b'] } },
      { id: 1, vector: [1, 0], payload: { tags: ['a', 'b'] } },
    ]);

    // Act
    standIn.loadPoints(name, [{ id: 1, vector: [0, 2], payload: { tags: ['c'] } }]);

    // Assess
    const [page, hits] = await Promise.all([
      client.scroll(name, { with_vector: true }),
      client.query(name, { query: [0, 1], with_payload: true }),
    ]);
    expect({ page: page.points, hits: hits.points.map((p) => [p.id, p.score]) }).toEqual({
      page: [
        { id: 1, payload: { tags: ['c'] }, vector: [0, 1] },
        { id: 2, payload: { tags: ['a', 'b'] }, vector: [expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)] },
      ],
      hits: [
        [1, 1],
        [2, expect.closeTo(0.8, 6)],
      ],
    });
  });

  it('refuses a collection that does not exist and a vector of the wrong size', async () => {
    // Prepare
    const name = await createCollection();

    // Act
    const attempts = [
      () => standIn.loadPoints('points-none', [{ id: 1, vector: [1, 0] }]),
      () => standIn.loadPoints(name, [{ id: 1, vector: [1, 0, 0] }]),
    ].map((attempt) => {
      try {
        attempt();
        return 'stored';
      } catch (error) {
        return (error as Error).message;
      }
    });

    // Assess
    expect(attempts).toEqual([
      "Not found: Collection `points-none` doesn't exist!",
      'Wrong input: Vector dimension error: expected dim: 2, got 3',
    ]);
  });
});

describe('Qdrant stand-in: scroll', () => {
  it('pages through every point in id order, with next_page_offset null on the last page', async () => {
    // Prepare
    const name = await createCollection();
    await insert(
      name,
      Array.from({ length: 25 }, (_, i) => ({ id: 25 - i })),
    );

    // Act
    const pages: { ids: (string | number)[]; next: unknown }[] = [];
    let offset: string | number | undefined;
    do {
      const page = await client.scroll(name, { limit: 10, offset, with_payload: false });
      pages.push({ ids: page.points.map((p) => p.id), next: page.next_page_offset });
      offset = (page.next_page_offset ?? undefined) as string | number | undefined;
    } while (offset !== undefined);

    // Assess
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(pages).toEqual([
      { ids: range(1, 10), next: 11 },
      { ids: range(11, 20), next: 21 },
      { ids: range(21, 25), next: null },
    ]);
  });

  it('orders integer ids before UUIDs, and starts from the first id at or after `offset`', async () => {
    // Prepare
    const name = await createCollection();
    await insert(name, [{ id: UUID_B }, { id: 30 }, { id: UUID_A }, { id: 10 }]);

    // Act
    const all = await client.scroll(name, { with_payload: false });
    const fromTwenty = await client.scroll(name, { offset: 20, limit: 2, with_payload: false });

    // Assess
    expect([all.points.map((p) => p.id), fromTwenty]).toEqual([
      [10, 30, UUID_A, UUID_B],
      { points: [{ id: 30 }, { id: UUID_A }], next_page_offset: UUID_B },
    ]);
  });

  it('pages over the points matching the filter only', async () => {
    // Prepare
    const name = await createCollection();
    await insert(
      name,
      Array.from({ length: 9 }, (_, i) => ({ id: i + 1, payload: { odd: (i + 1) % 2 === 1 } })),
    );

    // Act
    const page = await client.scroll(name, {
      limit: 2,
      offset: 4,
      filter: { must: [{ key: 'odd', match: { value: true } }] },
    });

    // Assess
    expect(page).toEqual({
      points: [
        { id: 5, payload: { odd: true } },
        { id: 7, payload: { odd: true } },
      ],
      next_page_offset: 9,
    });
  });
});

describe('Qdrant stand-in: count', () => {
  it('counts every point without a filter and the matching ones with a filter', async () => {
    // Prepare
    const name = await createCollection();
    await insert(name, [
      { id: 1, payload: { m: 'a' } },
      { id: 2, payload: { m: 'b' } },
      { id: 3, payload: { m: 'a' } },
    ]);

    // Act
    const [all, some] = await Promise.all([
      client.count(name),
      client.count(name, { filter: { must: [{ key: 'm', match: { value: 'a' } }] }, exact: false }),
    ]);

    // Assess
    expect([all, some]).toEqual([{ count: 3 }, { count: 2 }]);
  });
});

describe('Qdrant stand-in: facet', () => {
  async function createIndexed(
    points: { id: number; payload: Record<string, unknown> }[],
    field: string,
    schema: 'keyword' | 'integer' | 'bool' | 'text',
  ) {
    const name = await createCollection();
    await client.createPayloadIndex(name, { field_name: field, field_schema: schema, wait: true });
    await insert(name, points);
    return name;
  }

  it('counts points per value, by count descending then value ascending', async () => {
    // Prepare
    const urls = ['/b', '/a', '/c', '/b', '/a', '/d'];
    const name = await createIndexed(
      urls.map((url, i) => ({ id: i, payload: { url } })),
      'url',
      'keyword',
    );

    // Act
    const result = await client.facet(name, { key: 'url', exact: true });

    // Assess
    expect(result.hits).toEqual([
      { value: '/a', count: 2 },
      { value: '/b', count: 2 },
      { value: '/c', count: 1 },
      { value: '/d', count: 1 },
    ]);
  });

  it('returns 10 values unless a limit is given', async () => {
    // Prepare
    const name = await createIndexed(
      Array.from({ length: 12 }, (_, i) => ({ id: i, payload: { n: i } })),
      'n',
      'integer',
    );

    // Act
    const [byDefault, limited] = await Promise.all([
      client.facet(name, { key: 'n' }),
      client.facet(name, { key: 'n', limit: 3 }),
    ]);

    // Assess
    expect([byDefault.hits.length, limited.hits]).toEqual([
      10,
      [
        { value: 0, count: 1 },
        { value: 1, count: 1 },
        { value: 2, count: 1 },
      ],
    ]);
  });

  it('counts a point once per distinct value of an array, and only points matching the filter', async () => {
    // Prepare
    const name = await createIndexed(
      [
        { id: 1, payload: { tags: ['x', 'x', 'y'], keep: true } },
        { id: 2, payload: { tags: 'y', keep: true } },
        { id: 3, payload: { tags: ['x'], keep: false } },
      ],
      'tags',
      'keyword',
    );

    // Act
    const result = await client.facet(name, {
      key: 'tags',
      filter: { must: [{ key: 'keep', match: { value: true } }] },
    });

    // Assess
    expect(result.hits).toEqual([
      { value: 'y', count: 2 },
      { value: 'x', count: 1 },
    ]);
  });

  it('facets a bool index', async () => {
    // Prepare
    const name = await createIndexed(
      [
        { id: 1, payload: { f: true } },
        { id: 2, payload: { f: false } },
        { id: 3, payload: { f: true } },
      ],
      'f',
      'bool',
    );

    // Act
    const result = await client.facet(name, { key: 'f' });

    // Assess
    expect(result.hits).toEqual([
      { value: true, count: 2 },
      { value: false, count: 1 },
    ]);
  });

  it('refuses a field without a keyword, integer, bool or uuid index with Qdrant’s 400', async () => {
    // Prepare: `url` has no index and `body` has a full-text one, which facets cannot use either.
    const name = await createIndexed([{ id: 1, payload: { url: '/a', body: 'text' } }], 'body', 'text');

    // Act
    const errors = await Promise.all(
      ['url', 'body'].map((key) =>
        client.facet(name, { key }).catch((e: { status: number; data: unknown }) => [e.status, e.data]),
      ),
    );

    // Assess
    const refusal = (key: string) => [
      400,
      {
        status: {
          error:
            `Wrong input: No appropriate index for faceting: \`${key}\`. Please create one to facet on this field. ` +
            'Check https://qdrant.tech/documentation/concepts/indexing/#payload-index to see which payload schemas support Match conditions',
        },
        time: expect.any(Number),
      },
    ];
    expect(errors).toEqual([refusal('url'), refusal('body')]);
  });
});
