import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATION_IDS,
  type QdrantStandIn,
  type RecordedExchange,
  startQdrantStandIn,
} from '../../sandbox/qdrant/index.ts';
import { loadQdrantContract } from '../helpers/openapi-contract.ts';

const contract = loadQdrantContract();
const NAME = 'contract';
const MISSING = 'no-such-collection';

let standIn: QdrantStandIn;
/** Exchanges whose requests the real client built from valid arguments: their bodies must match the contract. */
let wellFormed: RecordedExchange[] = [];
/** Every exchange, including the deliberately invalid requests of the second phase. */
let all: RecordedExchange[] = [];

/** Runs a call that is expected to be refused; the refusal itself is what the exchange log keeps. */
async function refused(call: Promise<unknown>): Promise<void> {
  await call.catch(() => undefined);
}

/** Every endpoint, through the real client, with valid arguments: successes and the errors Qdrant answers them with. */
async function runClientScenario(client: QdrantClient): Promise<void> {
  await client.versionInfo();
  await client.getCollections();
  await client.collectionExists(NAME);
  await client.createCollection(NAME, { vectors: { size: 3, distance: 'Cosine' } });
  await refused(client.createCollection(NAME, { vectors: { size: 3, distance: 'Cosine' } }));
  await client.createPayloadIndex(NAME, { field_name: 'source_url', field_schema: 'keyword', wait: true });
  await client.createPayloadIndex(NAME, {
    field_name: 'token_count',
    field_schema: { type: 'integer', lookup: true, range: false },
  });
  await refused(client.createPayloadIndex(MISSING, { field_name: 'x', field_schema: 'keyword' }));
  await client.upsert(NAME, {
    wait: true,
    points: [
      {
        id: 1,
        vector: [1, 0, 0],
        payload: { source_url: '/a', token_count: 120, heading_hierarchy: ['A', 'B'], note: null },
      },
      { id: 2, vector: [0, 1, 0], payload: { source_url: ['/a', '/b'], token_count: 80 } },
      { id: '550e8400-e29b-41d4-a716-446655440000', vector: [0, 0, 1], payload: {} },
    ],
  });
  await client.upsert(NAME, { batch: { ids: [3], vectors: [[1, 1, 0]], payloads: [{ source_url: '/c' }] } });
  await refused(client.upsert(NAME, { wait: true, points: [{ id: 9, vector: [1, 0] }] }));
  await refused(client.upsert(MISSING, { points: [{ id: 9, vector: [1, 0, 0] }] }));
  await client.collectionExists(NAME);
  await client.getCollection(NAME);
  await refused(client.getCollection(MISSING));
  const filter = {
    must: [{ key: 'source_url', match: { any: ['/a', '/c'] } }],
    must_not: [{ is_null: { key: 'note' } }],
  };
  await client.query(NAME, {
    query: [1, 0.5, 0],
    filter,
    with_payload: ['source_url'],
    with_vector: true,
    score_threshold: 0.1,
  });
  await client.query(NAME, { query: { nearest: [0, 0, 1] }, limit: 2, offset: 1, with_payload: true });
  await client.query(NAME, { query: [1, 0, 0], limit: 2, params: { exact: true } });
  await client.queryBatch(NAME, { searches: [{ query: [1, 0, 0], params: { hnsw_ef: 16, exact: false } }] });
  await refused(client.query(NAME, { query: [1, 0] }));
  await refused(client.query(MISSING, { query: [1, 0, 0] }));
  await client.queryBatch(NAME, {
    searches: [
      { query: [1, 0, 0], limit: 2, with_payload: { exclude: ['token_count'] } },
      { query: [0, 1, 0], filter },
    ],
  });
  await refused(client.queryBatch(MISSING, { searches: [{ query: [1, 0, 0] }] }));
  const first = await client.scroll(NAME, { limit: 2, with_payload: ['source_url'] });
  await client.scroll(NAME, {
    limit: 2,
    offset: first.next_page_offset ?? undefined,
    with_vector: true,
    filter: { must: [{ is_empty: { key: 'token_count' } }] },
  });
  await refused(client.scroll(MISSING));
  await client.count(NAME, { filter, exact: true });
  await refused(client.count(MISSING));
  await client.facet(NAME, {
    key: 'source_url',
    exact: true,
    limit: 5,
    filter: { must: [{ key: 'token_count', range: { gte: 50 } }] },
  });
  await client.facet(NAME, { key: 'token_count' });
  await refused(client.facet(NAME, { key: 'heading_hierarchy' }));
  await refused(client.facet(MISSING, { key: 'source_url' }));
  await client.retrieve(NAME, { ids: [1, 2, 99], with_payload: ['source_url'], with_vector: true });
  await refused(client.retrieve(MISSING, { ids: [1] }));
  await client.setPayload(NAME, { payload: { reviewed: true }, points: [1], wait: true });
  await client.setPayload(NAME, {
    payload: { reviewed: false },
    filter: { must: [{ key: 'source_url', match: { value: '/c' } }] },
  });
  await refused(client.setPayload(MISSING, { payload: { reviewed: true }, points: [1] }));
  await client.delete(NAME, { points: [3], wait: true });
  await client.delete(NAME, { filter: { must: [{ key: 'source_url', match: { value: '/none' } }] } });
  await refused(client.delete(MISSING, { points: [1] }));
  standIn.inject({ operationId: 'get_collection', status: 429, retryAfterSeconds: 2 });
  await refused(client.getCollection(NAME));
  standIn.inject({ operationId: 'count_points', status: 500 });
  await refused(client.count(NAME));
  standIn.inject({ operationId: 'scroll_points', status: 503 });
  await refused(client.scroll(NAME));
  await client.deleteCollection(MISSING);
}

/** Requests that break the contract on purpose, to see Qdrant's 400 (format) and 422 (validation) answers. */
async function runInvalidScenario(client: QdrantClient): Promise<void> {
  await client.createCollection(NAME, { vectors: { size: 3, distance: 'Cosine' } });
  await refused(client.query(NAME, { query: [1, 0, 0], limit: 0 }));
  await refused(client.queryBatch(NAME, { searches: [{ query: [1, 0, 0], limit: 0 }] }));
  const raw = (method: string, path: string, body: string) =>
    fetch(`${standIn.url}${path}`, { method, body, headers: { 'content-type': 'application/json' } });
  await raw('POST', `/collections/${NAME}/points/scroll`, '{"limit": 10,');
  await raw('POST', `/collections/${NAME}/facet`, JSON.stringify({ key: 'source_url', limit: 0 }));
  await raw('PUT', `/collections/${NAME}`, JSON.stringify({ vectors: { size: 3, distance: 'Cosinus' } }));
  await client.deleteCollection(NAME);
}

beforeAll(async () => {
  standIn = await startQdrantStandIn({ recordExchanges: true });
  const client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
  await runClientScenario(client);
  wellFormed = standIn.exchanges();
  await client.deleteCollection(NAME);
  await runInvalidScenario(client);
  all = standIn.exchanges();
});

afterAll(() => standIn.stop());

const OPERATIONS_WITH_BODY = OPERATION_IDS.filter(
  (id) => contract.checkRequest(id, undefined)[0]?.includes('no JSON schema') !== true,
);

describe('Qdrant stand-in against Qdrant’s OpenAPI document', () => {
  it('serves only operations the document defines', () => {
    expect(OPERATION_IDS.filter((id) => !contract.operationIds.has(id))).toEqual([]);
  });

  it('exercised every operation with its success and error answers', () => {
    // Assess: the scenario must keep covering each status, or the checks below would silently check less.
    const statuses: Record<string, number[]> = {};
    for (const { operationId, status } of all) {
      statuses[operationId] = [...new Set([...(statuses[operationId] ?? []), status])].sort((a, b) => a - b);
    }
    expect(statuses).toEqual({
      root: [200],
      get_collections: [200],
      collection_exists: [200],
      create_collection: [200, 400, 409],
      create_field_index: [200, 404],
      upsert_points: [200, 400, 404],
      get_collection: [200, 404, 429],
      query_points: [200, 400, 404, 422],
      query_batch_points: [200, 404, 422],
      scroll_points: [200, 400, 404, 503],
      count_points: [200, 404, 500],
      facet: [200, 400, 404, 422],
      delete_collection: [200],
      get_points: [200, 404],
      set_payload: [200, 404],
      delete_points: [200, 404],
    });
  });

  it.each(OPERATION_IDS)('answers %s with bodies that match the document for each status', (operationId) => {
    // Act
    const problems = all
      .filter((e) => e.operationId === operationId)
      .flatMap((e) => contract.checkResponse(operationId, e.status, e.responseBody));

    // Assess
    expect(problems).toEqual([]);
  });

  it.each(OPERATIONS_WITH_BODY)('receives %s requests from the real client that match the document', (operationId) => {
    // Prepare
    const requests = wellFormed.filter((e) => e.operationId === operationId);

    // Act
    const problems = requests.flatMap((e) => contract.checkRequest(operationId, e.requestBody));

    // Assess
    expect([requests.length > 0, problems]).toEqual([true, []]);
  });

  it('flags a response that breaks the contract, so the checks above can fail', () => {
    // Act
    const problems = contract.checkResponse('scroll_points', 200, {
      result: { points: [{ id: -1, payload: 'text' }], next_page_offset: 1.5 },
      status: 'ok',
      time: 0,
    });

    // Assess
    expect(problems).toEqual(expect.arrayContaining(['scroll_points 200 response/result/points/0/id must be >= 0']));
  });

  it('flags a request that breaks the contract', () => {
    // Act
    const problems = contract.checkRequest('facet', { key: 'source_url', limit: 0, exact: 'yes' });

    // Assess
    expect(problems).toEqual(
      expect.arrayContaining(['facet request/limit must be >= 1', 'facet request/exact must be boolean,null']),
    );
  });
});
