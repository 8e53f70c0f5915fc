import { Cohere, CohereClientV2, CohereError, CohereTimeoutError } from 'cohere-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';

// What these tests pin down about cohere-ai 8.1.0, for the adapters built on it:
// - it retries 408, 429 and every 5xx, `maxRetries` times (default 2), never a 4xx other than 408 and 429;
// - it waits Retry-After (whole seconds) when given, else about 1 s then 2 s (plus or minus 10% jitter);
// - `timeoutInSeconds` is per attempt, and a timeout is never retried;
// - a timeout surfaces as a plain CohereError whose cause is the string 'timeout' (message '"timeout"'), not as a
//   CohereTimeoutError, because Node's fetch rejects with the abort reason rather than an AbortError.

const MODEL = 'embed-english-v3.0';
const EMBED: Cohere.V2EmbedRequest = { model: MODEL, texts: ['How do topics work?'], inputType: 'search_query' };
const CHAT: Cohere.V2ChatRequest = {
  model: 'command-a-03-2025',
  messages: [{ role: 'user', content: 'How do topics work?' }],
};

let standIn: CohereStandIn;

beforeAll(async () => {
  standIn = await startCohereStandIn();
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  standIn.resetCounts();
  standIn.clearFaults();
  standIn.setLatency(0);
});

function connect(options: { maxRetries?: number; timeoutInSeconds?: number } = {}): CohereClientV2 {
  return new CohereClientV2({ baseUrl: standIn.url, token: 'any-token', ...options });
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the Cohere stand-in, injected faults through CohereClientV2', () => {
  it('answers 429 with a Retry-After header, which the SDK raises as TooManyRequestsError when not retrying', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 7 });

    // Act
    const error = await catchError(connect({ maxRetries: 0 }).embed(EMBED));

    // Assess
    expect(error).toBeInstanceOf(Cohere.TooManyRequestsError);
    const tooMany = error as Cohere.TooManyRequestsError;
    expect({ status: tooMany.statusCode, retryAfter: tooMany.rawResponse?.headers.get('retry-after') }).toEqual({
      status: 429,
      retryAfter: '7',
    });
    expect(standIn.requestCounts()).toEqual({ embed: 1, chat: 0 });
  });

  it('lets the SDK retry a 429 after Retry-After and succeed', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 1 });

    // Act
    const response = await connect({ maxRetries: 1 }).embed(EMBED);

    // Assess
    expect(response.embeddings.float).toHaveLength(1);
    expect(standIn.requestCounts()).toEqual({ embed: 2, chat: 0 });
  });

  it('sees the SDK try three times by default before giving up on 429', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 1, times: 3 });

    // Act
    const error = await catchError(connect().embed(EMBED));

    // Assess
    expect(error).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect(standIn.requestCounts()).toEqual({ embed: 3, chat: 0 });
  });

  it('answers 500, which the SDK raises as InternalServerError when not retrying', async () => {
    // Prepare
    standIn.inject({ status: 500 });

    // Act
    const error = await catchError(connect({ maxRetries: 0 }).embed(EMBED));

    // Assess
    expect(error).toBeInstanceOf(Cohere.InternalServerError);
    expect(error).toMatchObject({ statusCode: 500, body: { message: expect.any(String) } });
    expect(standIn.requestCounts()).toEqual({ embed: 1, chat: 0 });
  });

  it('lets the SDK retry a 500 and succeed', async () => {
    // Prepare
    standIn.inject({ status: 500 });

    // Act
    const response = await connect({ maxRetries: 1 }).embed(EMBED);

    // Assess
    expect(response.embeddings.float).toHaveLength(1);
    expect(standIn.requestCounts()).toEqual({ embed: 2, chat: 0 });
  });

  it('answers 503, which the SDK raises as ServiceUnavailableError', async () => {
    // Prepare
    standIn.inject({ status: 503 });

    // Act
    const error = await catchError(connect({ maxRetries: 0 }).embed(EMBED));

    // Assess
    expect(error).toBeInstanceOf(Cohere.ServiceUnavailableError);
  });

  it('answers an injected 400, which the SDK never retries', async () => {
    // Prepare
    standIn.inject({ status: 400, message: 'invalid request: injected' });

    // Act
    const error = await catchError(connect({ maxRetries: 2 }).embed(EMBED));

    // Assess
    expect(error).toMatchObject({ statusCode: 400, body: { message: 'invalid request: injected' } });
    expect(standIn.requestCounts()).toEqual({ embed: 1, chat: 0 });
  });

  it('hangs, so the SDK times out with a CohereError caused by "timeout", without retrying', async () => {
    // Prepare
    standIn.inject({ hang: true, times: 3 });

    // Act
    const error = await catchError(connect({ maxRetries: 2, timeoutInSeconds: 0.2 }).embed(EMBED));

    // Assess
    expect(error).toBeInstanceOf(CohereError);
    expect(error).not.toBeInstanceOf(CohereTimeoutError);
    expect(error).toMatchObject({ cause: 'timeout', statusCode: undefined });
    expect(standIn.requestCounts()).toEqual({ embed: 1, chat: 0 });
  });

  it('delays answers by the set latency, so a client with a shorter timeout gives up', async () => {
    // Prepare
    standIn.setLatency(1000);

    // Act
    const error = await catchError(connect({ maxRetries: 0, timeoutInSeconds: 0.1 }).embed(EMBED));

    // Assess
    expect(error).toMatchObject({ cause: 'timeout' });
  });

  it('answers normally once the injected faults are used up', async () => {
    // Prepare
    standIn.inject({ status: 500, times: 2 });
    const client = connect({ maxRetries: 0 });
    await catchError(client.embed(EMBED));
    await catchError(client.embed(EMBED));

    // Act
    const response = await client.embed(EMBED);

    // Assess
    expect(response.embeddings.float).toHaveLength(1);
  });

  it('plays a fault aimed at chat on chat only', async () => {
    // Prepare
    standIn.inject({ status: 500, endpoint: 'chat' });
    const client = connect({ maxRetries: 0 });

    // Act
    const embedded = await client.embed(EMBED);
    const chatError = await catchError(client.chat(CHAT));

    // Assess
    expect(embedded.embeddings.float).toHaveLength(1);
    expect(chatError).toBeInstanceOf(Cohere.InternalServerError);
    expect(standIn.requestCounts()).toEqual({ embed: 1, chat: 1 });
  });

  it('plays a 429 on chat too', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 2, endpoint: 'chat' });

    // Act
    const error = await catchError(connect({ maxRetries: 0 }).chat(CHAT));

    // Assess
    expect(error).toBeInstanceOf(Cohere.TooManyRequestsError);
  });

  it('hangs on chat too, until the client times out', async () => {
    // Prepare
    standIn.inject({ hang: true, endpoint: 'chat' });

    // Act
    const error = await catchError(connect({ maxRetries: 0, timeoutInSeconds: 0.2 }).chat(CHAT));

    // Assess
    expect(error).toMatchObject({ cause: 'timeout' });
  });

  it('stops even while a request hangs, and the hanging client sees the connection drop', async () => {
    // Prepare
    const own = await startCohereStandIn();
    own.inject({ hang: true });
    const client = new CohereClientV2({ baseUrl: own.url, token: 'any-token', maxRetries: 0 });
    const pending = catchError(client.embed(EMBED));
    await waitUntil(() => own.requestCounts().embed === 1);

    // Act
    await own.stop();

    // Assess
    expect(await pending).toBeInstanceOf(CohereError);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
