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

function nextName(): string {
  collections += 1;
  return `collections-${collections}`;
}

/** A raw request, for what the client hides (status of a refusal, the body of a malformed request). */
async function send(method: string, path: string, body?: string) {
  const response = await fetch(`${standIn.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? '' : JSON.parse(text) };
}

describe('Qdrant stand-in: service and collections', () => {
  it('answers GET / with the version info, without the envelope', async () => {
    expect(await client.versionInfo()).toEqual({ title: 'qdrant - vector search engine', version: '1.19.0' });
  });

  it('creates a collection, lists it, says it exists and describes it as Qdrant does', async () => {
    // Prepare
    const name = nextName();

    // Act
    const created = await client.createCollection(name, { vectors: { size: 4, distance: 'Cosine' } });
    await client.upsert(name, { wait: true, points: [{ id: 1, vector: [1, 0, 0, 0], payload: { url: '/a' } }] });

    // Assess
    const [list, exists, info] = await Promise.all([
      client.getCollections(),
      client.collectionExists(name),
      client.getCollection(name),
    ]);
    expect({
      created,
      listed: list.collections.some((c) => c.name === name),
      exists,
      info: {
        status: info.status,
        points_count: info.points_count,
        indexed_vectors_count: info.indexed_vectors_count,
        segments_count: info.segments_count,
        vectors: info.config.params.vectors,
        payload_schema: info.payload_schema,
      },
    }).toEqual({
      created: true,
      listed: true,
      exists: { exists: true },
      info: {
        status: 'green',
        points_count: 1,
        indexed_vectors_count: 0,
        segments_count: 1,
        vectors: { size: 4, distance: 'Cosine' },
        payload_schema: {},
      },
    });
  });

  it('reports each payload index with its type, its parameters and the points it covers', async () => {
    // Prepare
    const name = nextName();
    await client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });
    await client.upsert(name, {
      wait: true,
      points: [
        { id: 1, vector: [1, 0], payload: { url: '/a', tokens: 10 } },
        { id: 2, vector: [1, 0], payload: { url: 3, tokens: 'many' } },
        { id: 3, vector: [1, 0], payload: { url: ['/b', '/c'] } },
      ],
    });

    // Act
    const index = await client.createPayloadIndex(name, { field_name: 'url', field_schema: 'keyword', wait: true });
    await client.createPayloadIndex(name, { field_name: 'tokens', field_schema: { type: 'integer', range: false } });

    // Assess
    const info = await client.getCollection(name);
    expect({ index, schema: info.payload_schema }).toEqual({
      index: { operation_id: 1, status: 'completed' },
      schema: {
        url: { data_type: 'keyword', points: 2 },
        tokens: { data_type: 'integer', params: { type: 'integer', range: false }, points: 1 },
      },
    });
  });

  it('says a missing collection does not exist, and answers 404 with Qdrant’s message when it is used', async () => {
    // Act
    const exists = await client.collectionExists('nowhere');
    const error = await client.getCollection('nowhere').catch((e: unknown) => e);

    // Assess
    expect({ exists, error }).toEqual({
      exists: { exists: false },
      error: expect.objectContaining({
        status: 404,
        data: { status: { error: "Not found: Collection `nowhere` doesn't exist!" }, time: expect.any(Number) },
      }),
    });
  });

  it('refuses to create a collection twice with 409', async () => {
    // Prepare
    const name = nextName();
    await client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });

    // Act
    const error = await client
      .createCollection(name, { vectors: { size: 2, distance: 'Cosine' } })
      .catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({
      status: 409,
      data: { status: { error: `Wrong input: Collection \`${name}\` already exists!` } },
    });
  });

  it('deletes a collection, answering true, and false when there was none', async () => {
    // Prepare
    const name = nextName();
    await client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });

    // Act
    const first = await client.deleteCollection(name);
    const second = await client.deleteCollection(name);

    // Assess
    expect([first, second, await client.collectionExists(name)]).toEqual([true, false, { exists: false }]);
  });

  it('refuses a body that is not JSON with 400 "Format error in JSON body"', async () => {
    // Act
    const empty = await send('POST', '/collections/any/points/count', '');
    const broken = await send('POST', '/collections/any/points/count', '{"filter":');

    // Assess
    expect([empty, broken.status, broken.body.status.error.startsWith('Format error in JSON body: ')]).toEqual([
      {
        status: 400,
        body: {
          status: { error: 'Format error in JSON body: EOF while parsing a value at line 1 column 0' },
          time: expect.any(Number),
        },
      },
      400,
      true,
    ]);
  });

  it('refuses a body of the wrong shape with 400 before looking up the collection', async () => {
    // Act
    const result = await send('PUT', '/collections/any', JSON.stringify({ vectors: { size: 3, distance: 'cosine' } }));

    // Assess
    expect(result).toEqual({
      status: 400,
      body: {
        status: {
          error:
            'Format error in JSON body: unknown variant `cosine`, expected one of `Cosine`, `Euclid`, `Dot`, `Manhattan`',
        },
        time: expect.any(Number),
      },
    });
  });

  it('refuses a valid-shaped body that breaks a validation rule with 422', async () => {
    // Act
    const result = await send('POST', '/collections/any/points/scroll', JSON.stringify({ limit: 0 }));

    // Assess
    expect(result).toEqual({
      status: 422,
      body: {
        status: {
          error: 'Validation error in JSON body: [scroll_request.limit: value 0 invalid, must be 1 or larger]',
        },
        time: expect.any(Number),
      },
    });
  });

  it('answers 404 with an empty body for an unknown path or a known path with another method', async () => {
    // Act
    const results = await Promise.all([
      send('GET', '/telemetry'),
      send('POST', '/collections/any'),
      send('GET', '/collections/a/b/c'),
    ]);

    // Assess
    expect(results).toEqual([
      { status: 404, body: '' },
      { status: 404, body: '' },
      { status: 404, body: '' },
    ]);
  });
});
