import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CohereEmbedder, type CohereEmbedderOptions } from '../../../functions/adapters/cohere/embedder.ts';
import { startRunDeadline } from '../../../functions/adapters/run-deadline.ts';
import { DependencyGate } from '../../../functions/adapters/transport.ts';
import { EmbeddingError } from '../../../functions/core/shared/errors.ts';
import { type CohereStandIn, embedText, startCohereStandIn } from '../../../sandbox/cohere/index.ts';

const API_KEY = 'co-test-key-5f2a9c81d7';
const MODEL = 'embed-english-v3.0';

let standIn: CohereStandIn;

beforeAll(async () => {
  standIn = await startCohereStandIn({ apiKey: API_KEY });
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  standIn.clearFaults();
  standIn.resetCounts();
});

function embedder(overrides: Partial<CohereEmbedderOptions> = {}): CohereEmbedder {
  return new CohereEmbedder({
    apiKey: API_KEY,
    model: MODEL,
    timeoutMs: 5000,
    baseUrl: standIn.url,
    maxRetries: 0,
    ...overrides,
  });
}

async function caught(promise: Promise<unknown>): Promise<EmbeddingError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EmbeddingError) return error;
    throw error;
  }
  throw new Error('expected an EmbeddingError');
}

/** A loopback server that records each request and answers with a fixed response. */
async function startRecorder(answer: { status: number; headers?: Record<string, string>; body: unknown }) {
  const requests: { path: string; authorization: string | undefined; body: unknown }[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    request.on('end', () => {
      requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(text) });
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, requests, stop };
}

const EMBED_ANSWER = {
  id: 'x',
  texts: ['a'],
  embeddings: { float: [[0.6, 0.8]] },
  meta: { api_version: { version: '2' }, billed_units: { input_tokens: 1 } },
  response_type: 'embeddings_by_type',
};

describe('CohereEmbedder', () => {
  it('counts no strike for a call cut by its own deadline: the embedder sharing the gate goes on (the agent’s margin)', async () => {
    // Prepare: the agent's embedder stops before the run's; both share one gate that closes on the first hard failure.
    standIn.inject({ endpoint: 'embed', hang: true, times: 1 });
    const gate = new DependencyGate('Cohere');
    const agentDeadline = startRunDeadline(100);
    const agent = embedder({ run: agentDeadline, gate });
    const run = embedder({ gate });

    // Act
    const cut = await caught(agent.embedQueries(['q']));
    const after = await run.embedQueries(['q']);

    // Assess
    expect(cut.message).toMatch(/cut: the run deadline \(0\.1 s\) was reached/);
    expect(after.vectors).toHaveLength(1);
    expect(standIn.requestCounts().embed).toBe(2);
  });

  it('returns one float vector per text, in order, with the billed input tokens', async () => {
    // Prepare
    const texts = ['What is ROS 2?', 'How does Gazebo simulate a LiDAR?'];

    // Act
    const result = await embedder().embedQueries(texts);

    // Assess
    expect(result).toEqual({
      vectors: texts.map((text) => embedText(text, 1024)),
      billedInputTokens: expect.any(Number),
    });
    expect(result.vectors.map((v) => v.length)).toEqual([1024, 1024]);
    expect(result.billedInputTokens).toBeGreaterThan(0);
  });

  it('sends queries as search_query and documents as search_document, asking for float embeddings of the model', async () => {
    // Prepare
    const recorder = await startRecorder({ status: 200, body: EMBED_ANSWER });
    const client = embedder({ baseUrl: recorder.url });

    // Act
    await client.embedQueries(['a']);
    await client.embedDocuments(['a']);
    await recorder.stop();

    // Assess
    expect(recorder.requests).toEqual([
      {
        path: '/v2/embed',
        authorization: `Bearer ${API_KEY}`,
        body: { model: MODEL, texts: ['a'], input_type: 'search_query', embedding_types: ['float'] },
      },
      {
        path: '/v2/embed',
        authorization: `Bearer ${API_KEY}`,
        body: { model: MODEL, texts: ['a'], input_type: 'search_document', embedding_types: ['float'] },
      },
    ]);
  });

  it('answers an empty list without calling Cohere', async () => {
    // Act
    const result = await embedder().embedDocuments([]);

    // Assess
    expect(result).toEqual({ vectors: [] });
    expect(standIn.requestCounts().embed).toBe(0);
  });

  it('accepts 96 texts in one call and refuses 97 with a plain Error before any request', async () => {
    // Prepare
    const texts = Array.from({ length: 97 }, (_, i) => `text ${i}`);

    // Act
    const ok = await embedder().embedDocuments(texts.slice(0, 96));
    const refusal = embedder()
      .embedDocuments(texts)
      .catch((error: unknown) => error);

    // Assess
    expect(ok.vectors).toHaveLength(96);
    const error = await refusal;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(EmbeddingError);
    expect((error as Error).message).toBe('CohereEmbedder: at most 96 texts per call, got 97; batch before calling');
    expect(standIn.requestCounts().embed).toBe(1);
  });

  it('reports a wrong key as unauthorized without showing either key', async () => {
    // Act
    const error = await caught(embedder({ apiKey: 'co-wrong-key-0000' }).embedQueries(['q']));

    // Assess
    expect({ kind: error.kind, status: error.status, message: error.message }).toEqual({
      kind: 'unauthorized',
      status: 401,
      message: `Cohere embed search_query (POST ${standIn.url}/v2/embed) answered 401: invalid api token`,
    });
  });

  it('reports a missing key as unauthorized', async () => {
    // Act
    const error = await caught(embedder({ apiKey: '' }).embedQueries(['q']));

    // Assess
    expect([error.kind, error.status, error.message.endsWith('answered 401: no api key supplied')]).toEqual([
      'unauthorized',
      401,
      true,
    ]);
  });

  it('reports a 429 as rate_limited with the Retry-After seconds', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 7 });

    // Act
    const error = await caught(embedder().embedQueries(['q']));

    // Assess
    expect({
      name: error.name,
      kind: error.kind,
      status: error.status,
      retryAfterSeconds: error.retryAfterSeconds,
      message: error.message,
    }).toEqual({
      name: 'EmbeddingError',
      kind: 'rate_limited',
      status: 429,
      retryAfterSeconds: 7,
      message: `Cohere embed search_query (POST ${standIn.url}/v2/embed) answered 429 (retry after 7 s): You are past the rate limit for this API key, please retry later.`,
    });
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    // Prepare
    const inOneMinute = new Date(Date.now() + 60_000).toUTCString();
    const recorder = await startRecorder({
      status: 429,
      headers: { 'retry-after': inOneMinute },
      body: { message: 'slow down' },
    });

    // Act
    const error = await caught(embedder({ baseUrl: recorder.url }).embedQueries(['q']));
    await recorder.stop();

    // Assess: the date has one-second precision, so it is 59 or 60 seconds away.
    expect([
      error.kind,
      error.retryAfterSeconds !== undefined && error.retryAfterSeconds >= 59 && error.retryAfterSeconds <= 60,
    ]).toEqual(['rate_limited', true]);
  });

  it('reports a 500 and a 503 as unavailable', async () => {
    // Prepare
    standIn.inject({ status: 500 });
    standIn.inject({ status: 503 });

    // Act
    const errors = [await caught(embedder().embedQueries(['q'])), await caught(embedder().embedQueries(['q']))];

    // Assess
    expect(errors.map((e) => [e.kind, e.status])).toEqual([
      ['unavailable', 500],
      ['unavailable', 503],
    ]);
  });

  it('reports a refused request as bad_request with Cohere’s message', async () => {
    // Prepare
    standIn.inject({ status: 400, message: 'invalid request: texts must not be empty strings' });

    // Act
    const error = await caught(embedder().embedDocuments(['d']));

    // Assess
    expect([error.kind, error.status, error.message]).toEqual([
      'bad_request',
      400,
      `Cohere embed search_document (POST ${standIn.url}/v2/embed) answered 400: invalid request: texts must not be empty strings`,
    ]);
  });

  it('reports an unknown model as not_found', async () => {
    // Act
    const error = await caught(embedder({ model: 'embed-nonexistent-v9' }).embedQueries(['q']));

    // Assess
    expect([error.kind, error.status, error.message.includes("model 'embed-nonexistent-v9' not found")]).toEqual([
      'not_found',
      404,
      true,
    ]);
  });

  it('gives up on a hanging request after its timeout and says so', async () => {
    // Prepare
    standIn.inject({ hang: true });

    // Act
    const error = await caught(embedder({ timeoutMs: 200 }).embedQueries(['q']));

    // Assess
    expect({ kind: error.kind, status: error.status, message: error.message }).toEqual({
      kind: 'timeout',
      status: undefined,
      message: `Cohere embed search_query (POST ${standIn.url}/v2/embed) timed out after 200 ms`,
    });
  });

  it('reports a refused connection as unavailable', async () => {
    // Prepare: a port that was just free and now has nobody listening.
    const recorder = await startRecorder({ status: 200, body: EMBED_ANSWER });
    await recorder.stop();

    // Act
    const error = await caught(embedder({ baseUrl: recorder.url }).embedQueries(['q']));

    // Assess
    expect([error.kind, error.message]).toEqual([
      'unavailable',
      `Cohere embed search_query (POST ${recorder.url}/v2/embed) is unreachable (ECONNREFUSED)`,
    ]);
  });

  it('redacts the API key when an error body echoes it', async () => {
    // Prepare
    standIn.inject({ status: 400, message: `invalid request: key ${API_KEY} is not allowed to use this model` });

    // Act
    const error = await caught(embedder().embedQueries(['q']));

    // Assess
    expect(error.message).toBe(
      `Cohere embed search_query (POST ${standIn.url}/v2/embed) answered 400: invalid request: key [REDACTED] is not allowed to use this model`,
    );
    expect(
      JSON.stringify({ ...error, message: error.message, stack: error.stack, cause: String(error.cause) }),
    ).not.toContain(API_KEY);
  });

  it('keeps user and password of a base URL out of messages', async () => {
    // Prepare
    const url = new URL(standIn.url);
    url.username = 'proxyuser';
    url.password = 'proxysecret';
    standIn.inject({ status: 500 });

    // Act
    const error = await caught(embedder({ baseUrl: url.toString().replace(/\/$/, '') }).embedQueries(['q']));

    // Assess
    expect(error.message).not.toMatch(/proxyuser|proxysecret/);
  });

  it('lets the SDK retry a rate-limited call after its Retry-After when retries are allowed', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 1 });

    // Act
    const result = await embedder({ maxRetries: 1 }).embedQueries(['What is ROS 2?']);

    // Assess
    expect([result.vectors.length, standIn.requestCounts().embed]).toEqual([1, 2]);
  });
});
