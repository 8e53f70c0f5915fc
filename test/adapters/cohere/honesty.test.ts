/**
 * The Cohere adapters' honesty at their boundary, through cohere-ai against the stand-in (and a fault proxy for
 * answers the stand-in does not play): malformed answers named, a long Retry-After failing fast, and a Cohere
 * that failed hard not tried again by the chat in the same run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCohereChat } from '../../../functions/adapters/cohere/chat.ts';
import { CohereEmbedder } from '../../../functions/adapters/cohere/embedder.ts';
import { DependencyGate } from '../../../functions/adapters/transport.ts';
import { type CohereStandIn, startCohereStandIn } from '../../../sandbox/cohere/index.ts';
import { type FaultProxy, startFaultProxy } from '../../../sandbox/faults/fault-proxy.ts';

let standIn: CohereStandIn;
let proxy: FaultProxy;

beforeAll(async () => {
  standIn = await startCohereStandIn();
  proxy = await startFaultProxy(standIn.url);
});

afterAll(async () => {
  await proxy.stop();
  await standIn.stop();
});

beforeEach(() => {
  standIn.clearFaults();
  standIn.resetCounts();
  proxy.setFault({ kind: 'pass' });
});

const embedder = (baseUrl: string, gate?: DependencyGate) =>
  new CohereEmbedder({
    apiKey: 'co-test-key-123456',
    model: 'embed-english-v3.0',
    timeoutMs: 5000,
    baseUrl,
    ...(gate ? { gate } : {}),
  });
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error & { kind?: string },
  );

describe('CohereEmbedder and malformed answers', () => {
  it('names Cohere and the missing field instead of "Cannot read properties of undefined"', async () => {
    // Prepare
    proxy.setFault({ kind: 'status', status: 200, body: JSON.stringify({ id: 'x', texts: ['q'] }) });

    // Act
    const error = await failureOf(embedder(proxy.url).embedQueries(['q']));

    // Assess
    expect(error?.message).toMatch(
      /^Cohere embed \(POST http:\/\/127\.0\.0\.1:\d+\/v2\/embed\) answered a malformed response: no "embeddings" object$/,
    );
  });

  it('names the vector that is not a list of numbers', async () => {
    // Prepare
    proxy.setFault({
      kind: 'status',
      status: 200,
      body: JSON.stringify({
        embeddings: {
          float: [
            [0.1, 0.2],
            ['a', 0.3],
          ],
        },
      }),
    });

    // Act
    const error = await failureOf(embedder(proxy.url).embedQueries(['q1', 'q2']));

    // Assess
    expect(error?.message).toMatch(
      /answered a malformed response: embeddings\.float\[1\] is not a list of 2 finite numbers$/,
    );
  });
});

describe('CohereEmbedder and Retry-After', () => {
  it('fails fast as rate_limited, naming the wait asked, when Retry-After exceeds the 60 s cap', async () => {
    // Prepare
    standIn.inject({ endpoint: 'embed', status: 429, retryAfterSeconds: 120 });

    // Act
    const error = await failureOf(embedder(standIn.url).embedQueries(['q']));

    // Assess
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 120 });
    expect(error?.message).toContain('answered 429 (retry after 120 s)');
    expect(standIn.requestCounts().embed).toBe(1);
  });
});

describe('one Cohere gate for embed and chat', () => {
  it('does not send the chat once the embedder met a 401', async () => {
    // Prepare
    const gate = new DependencyGate('Cohere');
    proxy.setFault({ kind: 'status', status: 401, body: JSON.stringify({ message: 'invalid api token' }) });
    await failureOf(embedder(proxy.url, gate).embedQueries(['q']));
    const chat = createCohereChat({ token: 'co-test-key-123456', baseUrl: standIn.url, timeoutInSeconds: 5, gate });

    // Act
    const error = await failureOf(chat.chat({ question: 'q', documents: [] }));

    // Assess
    expect(error?.message).toMatch(
      /^Cohere not tried again: it failed earlier in this run \(Cohere embed .* answered 401: invalid api token\)$/,
    );
    expect(standIn.requestCounts().chat).toBe(0);
  });
});

describe('Cohere chat and malformed answers', () => {
  it('calls an answer without a message malformed rather than an empty answer', async () => {
    // Prepare
    proxy.setFault({ kind: 'status', status: 200, body: JSON.stringify({ id: 'x', finish_reason: 'COMPLETE' }) });
    const chat = createCohereChat({ token: 'co-test-key-123456', baseUrl: proxy.url, timeoutInSeconds: 5 });

    // Act
    const error = await failureOf(chat.chat({ question: 'q', documents: [] }));

    // Assess
    expect(error?.message).toMatch(
      /^Cohere chat \(command-a-03-2025\) at http:\/\/127\.0\.0\.1:\d+ answered a malformed response: no "message" object$/,
    );
  });
});
