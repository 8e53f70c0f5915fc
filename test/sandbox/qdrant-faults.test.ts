import { QdrantClient, QdrantClientResourceExhaustedError, QdrantClientTimeoutError } from '@qdrant/js-client-rest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

const COLLECTION = 'faults';

let standIn: QdrantStandIn;
let client: QdrantClient;

beforeAll(async () => {
  standIn = await startQdrantStandIn();
  client = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 5000 });
  await client.createCollection(COLLECTION, { vectors: { size: 2, distance: 'Cosine' } });
  await client.upsert(COLLECTION, { wait: true, points: [{ id: 1, vector: [1, 0] }] });
});

afterEach(() => {
  standIn.clearFaults();
  standIn.setLatency(0);
  standIn.resetCounts();
  vi.restoreAllMocks();
});

afterAll(() => standIn.stop());

describe('Qdrant stand-in: injected faults', () => {
  it('answers 429 with a Retry-After header and Qdrant’s error envelope', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 30 });

    // Act
    const response = await fetch(`${standIn.url}/collections/${COLLECTION}`);

    // Assess
    expect({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
    }).toEqual({
      status: 429,
      retryAfter: '30',
      body: {
        status: { error: 'Rate limiting exceeded: Read rate limit exceeded, retry later (injected fault)' },
        time: expect.any(Number),
      },
    });
  });

  it('makes the client throw QdrantClientResourceExhaustedError with retry_after from the header', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 7 });

    // Act
    const error = await client.count(COLLECTION).catch((e: unknown) => e);

    // Assess
    expect([
      error instanceof QdrantClientResourceExhaustedError,
      (error as QdrantClientResourceExhaustedError).retry_after,
    ]).toEqual([true, 7]);
  });

  it('shows that the client reads only the first character of Retry-After (a client bug adapters must know)', async () => {
    // Prepare: js-client-rest 1.19 does headers.get('retry-after')?.[0], so "30" becomes 3.
    standIn.inject({ status: 429, retryAfterSeconds: 30 });

    // Act
    const error = await client.count(COLLECTION).catch((e: unknown) => e);

    // Assess
    expect((error as QdrantClientResourceExhaustedError).retry_after).toBe(3);
  });

  it('fails the next request with 500 and then serves normally', async () => {
    // Prepare
    standIn.inject({ status: 500 });

    // Act
    const failed = await client.count(COLLECTION).catch((e: unknown) => e);
    const next = await client.count(COLLECTION);

    // Assess
    expect({ failed, next }).toEqual({
      failed: expect.objectContaining({
        status: 500,
        data: { status: { error: 'Service internal error: injected fault' }, time: expect.any(Number) },
      }),
      next: { count: 1 },
    });
  });

  it('fails `times` requests of the targeted operation only, with the given message', async () => {
    // Prepare
    standIn.inject({ operationId: 'facet', status: 503, times: 2, message: 'upstream down' });

    // Act
    const statuses: (number | string)[] = [];
    for (const call of [
      () => client.count(COLLECTION),
      () => client.facet(COLLECTION, { key: 'k' }),
      () => client.facet(COLLECTION, { key: 'k' }),
    ]) {
      statuses.push(
        await call().then(
          () => 'ok',
          (e: { status: number; data: { status: { error: string } } }) => `${e.status} ${e.data.status.error}`,
        ),
      );
    }
    const third = await client.facet(COLLECTION, { key: 'k' }).catch((e: { status: number }) => e.status);

    // Assess: the third facet reaches the handler, which refuses an unindexed key with 400.
    expect({ statuses, third }).toEqual({ statuses: ['ok', '503 upstream down', '503 upstream down'], third: 400 });
  });

  it('lets a hanging request run into the client’s timeout', async () => {
    // Prepare
    const impatient = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 100 });
    standIn.inject({ operationId: 'query_batch_points', hang: true });

    // Act
    const error = await impatient.queryBatch(COLLECTION, { searches: [{ query: [1, 0] }] }).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(QdrantClientTimeoutError);
  });

  it('closes hanging requests when stopped', async () => {
    // Prepare
    const own = await startQdrantStandIn();
    own.inject({ hang: true });
    const pending = fetch(`${own.url}/collections`).then(
      () => 'answered',
      () => 'connection closed',
    );
    await vi.waitFor(() => expect(own.requestCounts()).toEqual({ get_collections: 1 }));

    // Act
    await own.stop();

    // Assess
    expect(await pending).toBe('connection closed');
  });

  it('answers a slowed request as usual, only later, and slows only its operation', async () => {
    // Prepare: a client more impatient than the delay times out on the slowed search; a patient one gets its answer.
    const impatient = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 50 });
    standIn.inject({ operationId: 'query_batch_points', delayMs: 400, times: 2 });
    const search = (c: QdrantClient) => c.queryBatch(COLLECTION, { searches: [{ query: [1, 0], limit: 1 }] });

    // Act
    const late = await search(impatient).catch((e: unknown) => e);
    const other = await impatient.count(COLLECTION);
    const answered = await search(client);

    // Assess
    expect(late).toBeInstanceOf(QdrantClientTimeoutError);
    expect(other).toEqual({ count: 1 });
    expect(answered.map((r) => r.points.map((p) => p.id))).toEqual([[1]]);
  });

  it('delays every answer by the configured latency', async () => {
    // Prepare: a client more impatient than the latency can only time out.
    const impatient = new QdrantClient({ url: standIn.url, checkCompatibility: false, timeout: 50 });
    standIn.setLatency(400);

    // Act
    const error = await impatient.count(COLLECTION).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(QdrantClientTimeoutError);
  });
});

describe('Qdrant stand-in: request counters', () => {
  // A stand-in of their own: a request an earlier test's client gave up on can still reach the shared one after that
  // test ended (on a loaded machine it does), and would be counted here.
  let counted: QdrantStandIn;
  let counting: QdrantClient;

  beforeAll(async () => {
    counted = await startQdrantStandIn();
    counting = new QdrantClient({ url: counted.url, checkCompatibility: false, timeout: 5000 });
    await counting.createCollection(COLLECTION, { vectors: { size: 2, distance: 'Cosine' } });
    await counting.upsert(COLLECTION, { wait: true, points: [{ id: 1, vector: [1, 0] }] });
    counted.resetCounts();
  });

  afterEach(() => {
    counted.clearFaults();
    counted.resetCounts();
  });

  afterAll(() => counted.stop());

  it('counts requests per operationId, refusals and injected faults included', async () => {
    // Prepare
    counted.inject({ operationId: 'count_points', status: 500 });

    // Act
    await counting.count(COLLECTION).catch(() => undefined);
    await counting.count(COLLECTION);
    await counting.queryBatch(COLLECTION, { searches: [{ query: [1, 0] }, { query: [0, 1] }] });
    await counting.getCollection('missing').catch(() => undefined);
    await fetch(`${counted.url}/no/such/route`);

    // Assess
    expect(counted.requestCounts()).toEqual({ count_points: 2, query_batch_points: 1, get_collection: 1 });
  });

  it('starts again from zero after resetCounts', async () => {
    // Prepare
    await counting.count(COLLECTION);

    // Act
    counted.resetCounts();

    // Assess
    expect(counted.requestCounts()).toEqual({});
  });
});

describe('Qdrant stand-in: api-key', () => {
  const KEY = 'stand-in-secret-key';
  let guarded: QdrantStandIn;

  beforeAll(async () => {
    guarded = await startQdrantStandIn({ apiKey: KEY });
  });

  afterAll(() => guarded.stop());

  async function send(headers: Record<string, string>) {
    const response = await fetch(`${guarded.url}/collections`, { headers });
    return { status: response.status, body: await response.text() };
  }

  it('answers 401 when no key is given, as Qdrant 1.19 does', async () => {
    expect(await send({})).toEqual({ status: 401, body: 'Must provide an API key or an Authorization bearer token' });
  });

  it('answers 401 for a wrong key too', async () => {
    expect(await send({ 'api-key': 'wrong' })).toEqual({ status: 401, body: 'Invalid API key or JWT' });
  });

  it('accepts the key in the api-key header or as a bearer token', async () => {
    const results = await Promise.all([send({ 'api-key': KEY }), send({ authorization: `Bearer ${KEY}` })]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
  });

  it('leaves GET / open, as Qdrant whitelists it', async () => {
    const response = await fetch(`${guarded.url}/`);
    expect(response.status).toBe(200);
  });

  it('serves the real client configured with the key', async () => {
    // Prepare: the client warns about a key over plain http; the warning is expected here.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const keyed = new QdrantClient({ url: guarded.url, apiKey: KEY, checkCompatibility: false, timeout: 5000 });

    // Act
    const result = await keyed.getCollections();

    // Assess
    expect(result).toEqual({ collections: [] });
  });
});
