import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

type Filter = NonNullable<Parameters<QdrantClient['scroll']>[1]>['filter'];

const COLLECTION = 'filters';

// Payloads chosen so every condition kind has points on both sides of it.
const POINTS = [
  { id: 1, payload: { city: 'London', tags: ['a', 'b'], n: 5, flag: true, note: 'x', meta: { lang: 'en' } } },
  { id: 2, payload: { city: 'Berlin', tags: [], n: 10, flag: false, note: null } },
  { id: 3, payload: { city: ['Berlin', 'Moscow'], tags: [null], n: 7.5 } },
  { id: 4, payload: {} },
  { id: 5, payload: { city: 'Paris', n: -1, chunks: [{ lang: 'en' }, { lang: 'fr' }] } },
];

let standIn: QdrantStandIn;
let client: QdrantClient;

// Prepare, once: the tests only read this collection, each one Acting with a filter and Assessing the ids it selects.
beforeAll(async () => {
  standIn = await startQdrantStandIn();
  client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
  await client.createCollection(COLLECTION, { vectors: { size: 2, distance: 'Cosine' } });
  await client.upsert(COLLECTION, { wait: true, points: POINTS.map((p) => ({ ...p, vector: [1, p.id] })) });
});

afterAll(() => standIn.stop());

/** The ids of the points the filter selects, in id order. */
async function select(filter: Filter): Promise<(string | number)[]> {
  const page = await client.scroll(COLLECTION, { filter, limit: 100, with_payload: false });
  return page.points.map((p) => p.id);
}

describe('Qdrant stand-in: filters', () => {
  it('matches a keyword value against a scalar or any element of an array', async () => {
    expect(await select({ must: [{ key: 'city', match: { value: 'Berlin' } }] })).toEqual([2, 3]);
  });

  it('matches an integer value only on equal integers', async () => {
    expect(
      await select({
        should: [
          { key: 'n', match: { value: 5 } },
          { key: 'n', match: { value: 7 } },
        ],
      }),
    ).toEqual([1]);
  });

  it('matches a boolean value', async () => {
    expect(await select({ must: [{ key: 'flag', match: { value: false } }] })).toEqual([2]);
  });

  it('matches `any` when one of the values is present', async () => {
    expect(await select({ must: [{ key: 'city', match: { any: ['London', 'Moscow'] } }] })).toEqual([1, 3]);
  });

  it('matches `except` when some value is not excluded, and never for a missing key', async () => {
    expect(await select({ must: [{ key: 'city', match: { except: ['Berlin'] } }] })).toEqual([1, 3, 5]);
  });

  it('counts a missing key, null and [] as empty, but not [null]', async () => {
    expect(await select({ must: [{ is_empty: { key: 'tags' } }] })).toEqual([2, 4, 5]);
  });

  it('counts only an explicit null as null, not a missing key', async () => {
    const [empty, isNull] = await Promise.all([
      select({ must: [{ is_empty: { key: 'note' } }] }),
      select({ must: [{ is_null: { key: 'note' } }] }),
    ]);
    expect({ empty, isNull }).toEqual({ empty: [2, 3, 4, 5], isNull: [2] });
  });

  it('excludes points matching a must_not condition', async () => {
    expect(await select({ must_not: [{ key: 'city', match: { value: 'Berlin' } }] })).toEqual([1, 4, 5]);
  });

  it('needs one should condition to hold, and an empty should matches nothing', async () => {
    const [some, none] = await Promise.all([
      select({
        should: [
          { key: 'city', match: { value: 'Paris' } },
          { key: 'flag', match: { value: true } },
        ],
      }),
      select({ should: [] }),
    ]);
    expect({ some, none }).toEqual({ some: [1, 5], none: [] });
  });

  it('evaluates a filter nested inside a clause', async () => {
    const nested: Filter = {
      must: [{ key: 'n', range: { gt: 0 } }],
      must_not: [
        {
          should: [
            { key: 'city', match: { value: 'London' } },
            { key: 'flag', match: { value: false } },
          ],
        },
      ],
    };
    expect(await select(nested)).toEqual([3]);
  });

  it('accepts a single condition where a list is expected', async () => {
    expect(await select({ must: { key: 'city', match: { value: 'Paris' } } })).toEqual([5]);
  });

  it('selects by numeric range', async () => {
    expect(await select({ must: [{ key: 'n', range: { gte: 5, lt: 10 } }] })).toEqual([1, 3]);
  });

  it('selects by point id with has_id', async () => {
    expect(await select({ must: [{ has_id: [4, 2, 99] }] })).toEqual([2, 4]);
  });

  it('requires min_should.min_count of its conditions', async () => {
    const filter: Filter = {
      min_should: {
        conditions: [
          { key: 'city', match: { value: 'London' } },
          { key: 'flag', match: { value: true } },
          { key: 'n', range: { gt: 6 } },
        ],
        min_count: 2,
      },
    };
    expect(await select(filter)).toEqual([1]);
  });

  it('reads nested keys with dots, flattening arrays of objects on the way', async () => {
    const [meta, chunks] = await Promise.all([
      select({ must: [{ key: 'meta.lang', match: { value: 'en' } }] }),
      select({ must: [{ key: 'chunks.lang', match: { value: 'fr' } }] }),
    ]);
    expect({ meta, chunks }).toEqual({ meta: [1], chunks: [5] });
  });

  it('applies the same filter to count and to query', async () => {
    const filter: Filter = { must: [{ key: 'city', match: { value: 'Berlin' } }] };
    const [count, query] = await Promise.all([
      client.count(COLLECTION, { filter }),
      client.query(COLLECTION, { query: [1, 0], filter }),
    ]);
    expect({ count: count.count, ids: query.points.map((p) => p.id).sort() }).toEqual({ count: 2, ids: [2, 3] });
  });

  it('refuses an unknown filter clause with 400, as serde does', async () => {
    const response = await fetch(`${standIn.url}/collections/${COLLECTION}/points/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter: { and: [] } }),
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 400,
      body: {
        status: {
          error:
            'Format error in JSON body: unknown field `and`, expected one of `should`, `min_should`, `must`, `must_not`',
        },
        time: expect.any(Number),
      },
    });
  });
});
