import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IndexError } from '../../functions/core/shared/errors.ts';
import type { IndexPoint } from '../../functions/indexer/index-book.ts';
import { pointIdFor } from '../../functions/indexer/point-id.ts';
import { QdrantWriter, type QdrantWriterOptions } from '../../functions/indexer/qdrant-writer.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

const API_KEY = 'qd-test-key-81c4e0a9';

let standIn: QdrantStandIn;
let client: QdrantClient;
let collection: string;
let counter = 0;

beforeAll(async () => {
  standIn = await startQdrantStandIn();
  client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  counter += 1;
  collection = `book-${counter}`;
  standIn.clearFaults();
  standIn.resetCounts();
});

function writer(overrides: Partial<QdrantWriterOptions> = {}): QdrantWriter {
  return new QdrantWriter({
    url: standIn.url,
    collection,
    timeoutMs: 5000,
    payloadIndexes: true,
    recreate: false,
    retries: 0,
    ...overrides,
  });
}

function point(i: number, url = 'https://book.example.com/docs/intro'): IndexPoint {
  return {
    id: pointIdFor(url, i),
    vector: [1, i % 7, 0, 1],
    payload: {
      chunk_text: `chunk ${i}`,
      source_url: url,
      chapter_id: 'intro',
      module_name: 'Introduction',
      heading_hierarchy: ['Introduction'],
      token_count: 2,
      chunk_index: i,
      indexed_at: '2025-12-23T18:30:00.000Z',
      content_hash: 'h',
      page_hash: 'p',
      page_version: `${url} p 1`,
      model_version: 'embed-english-v3.0',
      embed_header: 'Introduction',
    },
  };
}

async function caught(promise: Promise<unknown>): Promise<IndexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof IndexError) return error;
    throw error;
  }
  throw new Error('expected an IndexError');
}

describe('QdrantWriter', () => {
  it('creates a missing collection with the vector size, cosine distance and the seven payload indexes', async () => {
    // Act
    await writer().prepare({ vectorSize: 4 });

    // Assess
    const info = await client.getCollection(collection);
    const schema = Object.fromEntries(Object.entries(info.payload_schema ?? {}).map(([k, v]) => [k, v?.data_type]));
    expect({ vectors: info.config.params.vectors, schema }).toEqual({
      vectors: expect.objectContaining({ size: 4, distance: 'Cosine' }),
      schema: {
        source_url: 'keyword',
        module_name: 'keyword',
        chapter_id: 'keyword',
        token_count: 'integer',
        model_version: 'keyword',
        page_version: 'keyword',
        indexed_at: 'keyword',
      },
    });
  });

  it('creates no payload index when told not to', async () => {
    // Act
    await writer({ payloadIndexes: false }).prepare({ vectorSize: 4 });

    // Assess
    const info = await client.getCollection(collection);
    expect([info.payload_schema ?? {}, standIn.requestCounts().create_field_index ?? 0]).toEqual([{}, 0]);
  });

  it('keeps an existing collection, its points and its indexes, creating only what is missing', async () => {
    // Prepare
    await writer().prepare({ vectorSize: 4 });
    await writer().upsert([point(0), point(1)]);
    standIn.resetCounts();

    // Act
    await writer().prepare({ vectorSize: 4 });

    // Assess
    const counts = standIn.requestCounts();
    expect([
      (await client.count(collection)).count,
      counts.create_collection ?? 0,
      counts.create_field_index ?? 0,
    ]).toEqual([2, 0, 0]);
  });

  it('drops the old points when asked to recreate the collection', async () => {
    // Prepare
    await writer().prepare({ vectorSize: 4 });
    await writer().upsert([point(0), point(1), point(2)]);

    // Act
    await writer({ recreate: true }).prepare({ vectorSize: 4 });

    // Assess
    expect([(await client.count(collection)).count, standIn.requestCounts().delete_collection]).toEqual([0, 1]);
  });

  it('refuses a collection whose vectors have another size', async () => {
    // Prepare
    await client.createCollection(collection, { vectors: { size: 768, distance: 'Cosine' } });

    // Act
    const error = await caught(writer().prepare({ vectorSize: 1024 }));

    // Assess
    expect([error.kind, error.message]).toEqual([
      'bad_request',
      `Qdrant collection "${collection}" holds vectors of size 768 with Cosine distance; the embeddings need size 1024 ` +
        'with Cosine distance: recreate it (--recreate) or index into another collection',
    ]);
  });

  it('upserts in batches of 256, so every point is stored with its payload', async () => {
    // Prepare
    await writer().prepare({ vectorSize: 4 });
    const points = Array.from({ length: 600 }, (_, i) => point(i));

    // Act
    await writer().upsert(points);

    // Assess
    const { points: found } = await client.scroll(collection, {
      filter: { must: [{ key: 'chunk_index', match: { value: 599 } }] },
      with_payload: true,
      limit: 2,
    });
    const stored = found.length === 1 ? found[0] : undefined;
    expect([standIn.requestCounts().upsert_points, (await client.count(collection)).count, stored?.payload]).toEqual([
      3,
      600,
      point(599).payload,
    ]);
  });

  it('turns a server error into an unavailable IndexError that names the operation', async () => {
    // Prepare
    await writer().prepare({ vectorSize: 4 });
    standIn.inject({ operationId: 'upsert_points', status: 500 });

    // Act
    const error = await caught(writer().upsert([point(0)]));

    // Assess
    expect([
      error.kind,
      error.status,
      error.message.startsWith(`Qdrant upsert of 1 points on collection "${collection}"`),
    ]).toEqual(['unavailable', 500, true]);
  });

  it('retries a transient failure when retries are allowed', async () => {
    // Prepare
    await writer().prepare({ vectorSize: 4 });
    standIn.inject({ operationId: 'upsert_points', status: 503 });

    // Act
    await writer({ retries: 1 }).upsert([point(0)]);

    // Assess
    expect([standIn.requestCounts().upsert_points, (await client.count(collection)).count]).toEqual([2, 1]);
  });

  it('reports a wrong API key as unauthorized without showing it', async () => {
    // Prepare
    const guarded = await startQdrantStandIn({ apiKey: API_KEY });

    // Act
    const error = await caught(writer({ url: guarded.url, apiKey: 'qd-wrong-key-77' }).prepare({ vectorSize: 4 }));
    await guarded.stop();

    // Assess
    expect([error.kind, error.status]).toEqual(['unauthorized', 401]);
    expect(error.message).not.toMatch(/qd-wrong-key-77|qd-test-key/);
  });

  it('gives up on a hanging request after its timeout', async () => {
    // Prepare
    standIn.inject({ operationId: 'get_collection', hang: true });

    // Act
    const error = await caught(writer({ timeoutMs: 200 }).prepare({ vectorSize: 4 }));

    // Assess
    expect(error.kind).toBe('timeout');
  });
});
