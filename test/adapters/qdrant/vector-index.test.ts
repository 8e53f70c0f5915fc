/**
 * The Qdrant adapter's honesty at its boundary, through the real client against the stand-in (and a fault proxy
 * for answers the stand-in does not play): Retry-After read whole, a long one failing fast, malformed answers
 * named, a failed Qdrant not tried again in the same run, and the run's deadline cutting a hung request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QdrantIndex } from '../../../functions/adapters/qdrant/vector-index.ts';
import { startRunDeadline } from '../../../functions/adapters/run-deadline.ts';
import { DependencyGate } from '../../../functions/adapters/transport.ts';
import type { IndexError } from '../../../functions/core/shared/errors.ts';
import { type FaultProxy, startFaultProxy } from '../../../sandbox/faults/fault-proxy.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../../sandbox/qdrant/index.ts';

const COLLECTION = 'honest';
let standIn: QdrantStandIn;
let proxy: FaultProxy;

beforeAll(async () => {
  standIn = await startQdrantStandIn();
  proxy = await startFaultProxy(standIn.url);
  const index = new QdrantIndex({ url: standIn.url, collection: COLLECTION, timeoutMs: 5000 });
  await fetch(`${standIn.url}/collections/${COLLECTION}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vectors: { size: 2, distance: 'Cosine' } }),
  });
  await index.describe();
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

function index(options: { url?: string; timeoutMs?: number; retries?: number } = {}): QdrantIndex {
  return new QdrantIndex({
    url: options.url ?? standIn.url,
    collection: COLLECTION,
    timeoutMs: options.timeoutMs ?? 5000,
    retries: options.retries ?? 2,
  });
}

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as IndexError,
  );

describe('QdrantIndex and Retry-After', () => {
  it('reads a two-digit Retry-After whole (the client alone keeps its first digit) and fails fast past the 10 s cap', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', status: 429, retryAfterSeconds: 30 });

    // Act
    const error = await failureOf(index().count());

    // Assess
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 30, status: 429 });
    expect(error?.message).toMatch(
      /^Qdrant count on collection "honest" at http:\/\/127\.0\.0\.1:\d+ was rate limited \(429, Retry-After 30 s\)$/,
    );
    expect(standIn.requestCounts().count_points).toBe(1);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    // Prepare
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    proxy.setFault({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': inAMinute },
      body: '{"status":{"error":"slow down"}}',
    });

    // Act
    const error = await failureOf(index({ url: proxy.url }).count());

    // Assess
    expect(error?.kind).toBe('rate_limited');
    expect(error?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(error?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('waits a Retry-After within the cap and then succeeds', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', status: 429, retryAfterSeconds: 1 });

    // Act
    const count = await index().count();

    // Assess
    expect(count).toBe(0);
    expect(standIn.requestCounts().count_points).toBe(2);
  });
});

describe('QdrantIndex and malformed answers', () => {
  it('names Qdrant and the body when the answer is not JSON', async () => {
    // Prepare
    proxy.setFault({
      kind: 'status',
      status: 200,
      body: '<html>gateway</html>',
      headers: { 'content-type': 'application/json' },
    });

    // Act
    const error = await failureOf(index({ url: proxy.url }).count());

    // Assess
    expect(error?.message).toMatch(
      /^Qdrant count on collection "honest" at http:\/\/127\.0\.0\.1:\d+ answered a malformed response: the body is not JSON/,
    );
  });

  it('names the field when a search answer has no points list', async () => {
    // Prepare
    proxy.setFault({ kind: 'status', status: 200, body: JSON.stringify({ result: [{ hits: [] }], status: 'ok' }) });

    // Act
    const error = await failureOf(
      index({ url: proxy.url }).searchBatch([{ vector: [1, 0], limit: 3, payloadFields: [] }]),
    );

    // Assess
    expect(error?.message).toMatch(/answered a malformed response: result\[0\]\.points is missing$/);
  });

  it('names the missing result when an answer has none', async () => {
    // Prepare
    proxy.setFault({ kind: 'status', status: 200, body: JSON.stringify({ status: 'ok' }) });

    // Act
    const error = await failureOf(index({ url: proxy.url }).describe());

    // Assess
    expect(error?.message).toMatch(
      /^Qdrant get collection .* answered a malformed response: no "result" in the answer \(got an object\)$/,
    );
  });
});

describe('QdrantIndex within one run', () => {
  it('asks a read that timed out once more, and answers with the second answer', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', hang: true, times: 1 });
    const once = index({ timeoutMs: 200 });

    // Act
    const count = await once.count();

    // Assess
    expect(typeof count).toBe('number');
    expect(standIn.requestCounts().count_points).toBe(2);
    expect(await once.count()).toBe(count); // the gate stayed open
    expect(standIn.requestCounts().count_points).toBe(3);
  });

  it('does not ask again when the run deadline leaves no room for a second timeout', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', hang: true, times: 1 });
    const deadline = startRunDeadline(350);
    const tight = new QdrantIndex({ url: standIn.url, collection: COLLECTION, timeoutMs: 200, run: deadline });

    // Act
    const error = await failureOf(tight.count());
    deadline.cancel();

    // Assess
    expect(error?.message).toMatch(/timed out after 200 ms$/);
    expect(standIn.requestCounts().count_points).toBe(1);
  });

  it('does not try Qdrant again after two calls in a row timed out (each asked twice)', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', hang: true, times: 4 });
    const shared = index({ timeoutMs: 200 });
    await failureOf(shared.count());
    await failureOf(shared.count());

    // Act
    const error = await failureOf(shared.count());

    // Assess
    expect(error?.message).toMatch(
      /^Qdrant not tried again: it failed earlier in this run \(Qdrant count .* timed out after 200 ms\)$/,
    );
    expect(error?.kind).toBe('timeout');
    expect(standIn.requestCounts().count_points).toBe(4);
  });

  it('keeps Qdrant open after one call timed out even when asked again (a blip), and counts again after a success', async () => {
    // Prepare: the first call's two attempts hang; then Qdrant answers.
    standIn.inject({ operationId: 'count_points', hang: true, times: 2 });
    const shared = index({ timeoutMs: 200 });
    expect((await failureOf(shared.count()))?.kind).toBe('timeout');

    // Act
    const count = await shared.count();
    standIn.inject({ operationId: 'count_points', hang: true, times: 2 });
    const again = await failureOf(shared.count());
    const after = await shared.count();

    // Assess: the later steps ran; a second lone timeout, after a success, does not close it either.
    expect(typeof count).toBe('number');
    expect(again?.message).toMatch(/timed out after 200 ms$/);
    expect(after).toBe(count);
    expect(standIn.requestCounts().count_points).toBe(6);
  });

  it('ends a hung request when the run deadline fires, saying it was cut', async () => {
    // Prepare
    standIn.inject({ operationId: 'count_points', hang: true });
    const deadline = startRunDeadline(100);
    const cut = new QdrantIndex({ url: standIn.url, collection: COLLECTION, timeoutMs: 5000, run: deadline });

    // Act
    const error = await failureOf(cut.count());

    // Assess
    expect(error?.message).toMatch(
      /^Qdrant count on collection "honest" at .* was cut: the run deadline \(0\.1 s\) was reached$/,
    );
    expect(error?.kind).toBe('timeout');
  });

  it('counts no strike for a call cut by its own deadline: the index sharing the gate goes on (the agent’s margin)', async () => {
    // Prepare: the agent's index stops before the run's; both share one gate that closes on the first hard failure.
    standIn.inject({ operationId: 'count_points', hang: true, times: 1 });
    const gate = new DependencyGate('Qdrant');
    const agentDeadline = startRunDeadline(100);
    const agent = new QdrantIndex({
      url: standIn.url,
      collection: COLLECTION,
      timeoutMs: 5000,
      run: agentDeadline,
      gate,
    });
    const run = new QdrantIndex({ url: standIn.url, collection: COLLECTION, timeoutMs: 5000, gate });

    // Act
    const cut = await failureOf(agent.count());
    const after = await run.count();

    // Assess
    expect(cut?.message).toMatch(/was cut: the run deadline \(0\.1 s\) was reached$/);
    expect(typeof after).toBe('number');
    expect(standIn.requestCounts().count_points).toBe(2);
  });
});

describe('QdrantIndex and a collection that does not exist', () => {
  it('names the collections that do exist, so a typo or the wrong QDRANT_URL is plain', async () => {
    // Act
    const error = await failureOf(
      new QdrantIndex({ url: standIn.url, collection: 'honset', timeoutMs: 5000, retries: 0 }).describe(),
    );

    // Assess
    expect(error?.kind).toBe('not_found');
    expect(error?.message).toMatch(
      /^Qdrant get collection on collection "honset" at http:\/\/127\.0\.0\.1:\d+ failed with 404: .*; the collections there: (\S+, )*honest(, \S+)* \(QDRANT_COLLECTION names the one to validate\)$/,
    );
  });

  it('says the first error as it was when the list cannot be read either', async () => {
    // Prepare: the list is refused too
    standIn.inject({ operationId: 'get_collections', status: 500, times: 10 });

    // Act
    const error = await failureOf(
      new QdrantIndex({ url: standIn.url, collection: 'honset', timeoutMs: 5000, retries: 0 }).describe(),
    );

    // Assess
    expect(error?.kind).toBe('not_found');
    expect(error?.message).toMatch(/failed with 404: [^;]*$/);
  });
});
