/** The stand-in's retrieve, delete and set_payload, through the real client. */
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

/** A collection holding points 1..n, point i with vector [i, 1] and payload { page: i % 2 === 0 ? 'even' : 'odd' }. */
async function collectionOf(n: number): Promise<string> {
  const name = `updates-${++collections}`;
  await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' } });
  await client.upsert(name, {
    wait: true,
    points: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      vector: [i + 1, 1],
      payload: { page: (i + 1) % 2 === 0 ? 'even' : 'odd' },
    })),
  });
  return name;
}

async function ids(name: string): Promise<unknown[]> {
  return (await client.scroll(name, { limit: 100, with_payload: false })).points.map((p) => p.id);
}

describe('Qdrant stand-in: retrieve, delete, set_payload', () => {
  it('retrieves points by id in the order asked, skipping unknown ids, with vectors when asked', async () => {
    const name = await collectionOf(3);
    const points = await client.retrieve(name, { ids: [3, 99, 1], with_vector: true, with_payload: true });
    expect(points).toEqual([
      { id: 3, payload: { page: 'odd' }, vector: [3, 1] },
      { id: 1, payload: { page: 'odd' }, vector: [1, 1] },
    ]);
  });

  it('deletes points by id, keeping the others findable with their own vectors', async () => {
    const name = await collectionOf(5);
    await client.delete(name, { wait: true, points: [2, 42] });
    expect(await ids(name)).toEqual([1, 3, 4, 5]);
    const [point] = await client.retrieve(name, { ids: [5], with_vector: true });
    expect(point?.vector).toEqual([5, 1]);
    expect((await client.count(name)).count).toBe(4);
  });

  it('deletes the points a filter selects', async () => {
    const name = await collectionOf(5);
    await client.delete(name, { wait: true, filter: { must: [{ key: 'page', match: { value: 'even' } }] } });
    expect(await ids(name)).toEqual([1, 3, 5]);
  });

  it('merges set_payload into the selected points, keeping their other fields', async () => {
    const name = await collectionOf(3);
    await client.setPayload(name, { wait: true, payload: { hash: 'h' }, points: [1, 2] });
    const points = await client.retrieve(name, { ids: [1, 2, 3] });
    expect(points.map((p) => p.payload)).toEqual([
      { page: 'odd', hash: 'h' },
      { page: 'even', hash: 'h' },
      { page: 'odd' },
    ]);
  });

  it('searches the remaining points correctly after a delete moved the last one', async () => {
    const name = await collectionOf(4);
    await client.delete(name, { wait: true, points: [1] });
    const result = await client.query(name, { query: [1, 0], limit: 3 });
    expect(result.points.map((p) => [p.id, p.score])).toEqual([
      [4, 4],
      [3, 3],
      [2, 2],
    ]);
  });
});
