import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../functions/core/ports.ts';
import { runQueryStage } from '../../../functions/core/queries/query-stage.ts';
import { EmbeddingError, IndexError } from '../../../functions/core/shared/errors.ts';
import { resolveQueries, Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';

const clock: Clock = { now: () => new Date('2026-11-22T00:00:00Z'), monotonicMs: () => 0 };
let ids = 0;
const newId = () => `id-${++ids}`;

const POINTS = [
  {
    id: 'p1',
    vector: [1, 0, 0],
    payload: {
      chunk_text: 'ROS 2 nodes',
      source_url: 'https://b/docs/m1/a',
      module_name: 'Module 1 Ros2',
      chapter_id: 'm1/a',
    },
  },
  {
    id: 'p2',
    vector: [0, 1, 0],
    payload: {
      chunk_text: 'Gazebo physics',
      source_url: 'https://b/docs/m2/b',
      module_name: 'Module 2 Digital Twin',
      chapter_id: 'm2/b',
    },
  },
];

function queries(n: number) {
  const suite = Suite.parse({
    queries: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      query_text: `question ${i}`,
      expected_module: 'Module 1 Ros2',
      min_similarity: 0.5,
    })),
  });
  return resolveQueries(suite);
}

function run(options: { n: number; embedder?: FakeEmbedder; index?: MemoryIndex; vectorSize?: number }) {
  const index = options.index ?? new MemoryIndex(POINTS, { vectorSize: options.vectorSize ?? 3 });
  const embedder = options.embedder ?? new FakeEmbedder();
  const stage = runQueryStage({
    queries: queries(options.n),
    embedder,
    index,
    collection: index.describe(),
    clock,
    newId,
    concurrency: 4,
  });
  return { stage, index, embedder };
}

/** The stage over the given suite queries, one search at a time, with any option replaced. */
function stageOf(
  suiteQueries: unknown[],
  options: Partial<Parameters<typeof runQueryStage>[0]> & { index?: MemoryIndex } = {},
) {
  const index = options.index ?? new MemoryIndex(POINTS);
  return runQueryStage({
    queries: resolveQueries(Suite.parse({ queries: suiteQueries })),
    embedder: new FakeEmbedder(),
    collection: index.describe(),
    clock,
    newId,
    concurrency: 1,
    ...options,
    index,
  });
}

describe('runQueryStage', () => {
  it('embeds 200 queries in 3 calls and searches them in 2 batch calls', async () => {
    // Act
    const { stage, index, embedder } = run({ n: 200 });
    const result = await stage;

    // Assess: ceil(200/96) = 3 embed calls, ceil(200/100) = 2 query-batch calls.
    expect(embedder.calls.map((c) => c.length)).toEqual([96, 96, 8]);
    expect(index.calls.filter((c) => c === 'searchBatch')).toHaveLength(2);
    expect(result).toMatchObject({
      embedCalls: 3,
      searchCalls: 2,
      billedInputTokens: 200,
      stageFailure: null,
      dimensionMismatch: null,
    });
    expect(nonEmpty(result.results, 'query results').every((r) => r.status === 'PASS')).toBe(true);
  });

  it('turns only the queries of a failed embedding call into ERROR results', async () => {
    // Prepare
    const embedder = new FakeEmbedder({ maxBatchSize: 2 });
    embedder.failOnCall.set(1, new EmbeddingError('Cohere embed failed with 500', 'unavailable', { status: 500 }));

    // Act
    const { results, errors } = await run({ n: 5, embedder }).stage;

    // Assess
    expect(results.map((r) => r.status)).toEqual(['PASS', 'PASS', 'ERROR', 'ERROR', 'PASS']);
    expect(results[2]?.fail_reason).toBe('Cohere embed failed with 500');
    expect(errors.map((e) => [e.validation_id, e.error_type])).toEqual([
      ['q2', 'EMBEDDING_FAILED'],
      ['q3', 'EMBEDDING_FAILED'],
    ]);
  });

  it('reports a timed-out search as TIMEOUT for the queries it carried', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS);
    index.failWith.searchBatch = new IndexError('Qdrant query batch on collection "book" timed out', 'timeout');

    // Act
    const result = await run({ n: 2, index }).stage;

    // Assess
    expect(result.results.map((r) => [r.status, r.error_types])).toEqual([
      ['ERROR', ['TIMEOUT']],
      ['ERROR', ['TIMEOUT']],
    ]);
    expect(result.stageFailure).toBe('no query could be run: Qdrant query batch on collection "book" timed out');
  });

  it('searches nothing when the embedding dimension differs from the collection', async () => {
    // Act
    const { stage, index } = run({ n: 3, vectorSize: 1024 });
    const result = await stage;

    // Assess
    expect(index.calls).not.toContain('searchBatch');
    expect(result.dimensionMismatch).toEqual({ embedding: 3, collection: 1024 });
    expect(result.stageFailure).toBe(
      "embedding dimension 3 (fake-embed) does not match the collection's vector size 1024",
    );
    expect(nonEmpty(result.results, 'query results').every((r) => r.status === 'ERROR')).toBe(true);
  });

  it('marks every query ERROR with the reason when the collection cannot be described', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS);
    const embedder = new FakeEmbedder();
    const missing = new IndexError(
      'Qdrant get collection on collection "book" failed with 404: Not found',
      'not_found',
      { status: 404 },
    );

    // Act
    const result = await runQueryStage({
      queries: queries(2),
      embedder,
      index,
      collection: Promise.reject(missing),
      clock,
      newId,
      concurrency: 2,
    });

    // Assess
    expect(result.results.map((r) => r.fail_reason)).toEqual([missing.message, missing.message]);
    expect(result.errors.map((e) => e.error_type)).toEqual(['RETRIEVAL_FAILED', 'RETRIEVAL_FAILED']);
  });

  it('sends each query its own top_k and filter', async () => {
    // Prepare
    const suite = Suite.parse({
      queries: [{ query_text: 'gazebo', top_k: 1, filters: { module: 'Module 2 Digital Twin' } }],
    });
    const index = new MemoryIndex(POINTS);

    // Act
    const { results } = await runQueryStage({
      queries: resolveQueries(suite),
      embedder: new FakeEmbedder(),
      index,
      collection: index.describe(),
      clock,
      newId,
      concurrency: 1,
    });

    // Assess: the filter keeps p2 although p1 is the nearer vector.
    expect(results[0]?.top_results.map((r) => r.chunk_id)).toEqual(['p2']);
  });

  it('measures embedding, search and judging time per query from the clock, and the stage’s own duration', async () => {
    // Prepare: the clock is read at the start, around the embed call, around the search, around judging, at the end.
    const readings = [5, 10, 40.04, 50, 75, 100, 100.26, 125];
    const stepping: Clock = { now: clock.now, monotonicMs: () => readings.shift() ?? Number.NaN };
    const index = new MemoryIndex(POINTS);

    // Act
    const result = await runQueryStage({
      queries: queries(1),
      embedder: new FakeEmbedder(),
      index,
      collection: index.describe(),
      clock: stepping,
      newId,
      concurrency: 1,
    });

    // Assess
    expect(result.results[0]?.latency).toEqual({
      embedding_ms: 30,
      search_ms: 25,
      post_processing_ms: 0.3,
      total_ms: 55.3,
      batch_share_ms: 55.3,
    });
    expect(result.durationMs).toBe(120);
    expect(result.searches).toEqual([
      { queryId: 'q0', request: expect.objectContaining({ limit: 5 }), hits: expect.any(Array) },
    ]);
  });

  it('embeds each query’s own text', async () => {
    // Prepare: question 1 points at p2, so its best hit is p2.
    const embedder = new FakeEmbedder({ vectors: { 'question 1': [0, 1, 0] } });

    // Act
    const { results } = await run({ n: 2, embedder }).stage;

    // Assess
    expect(embedder.calls).toEqual([['question 0', 'question 1']]);
    expect(results.map((r) => r.top_results[0]?.chunk_id)).toEqual(['p1', 'p2']);
  });

  it('still searches the other queries when the first embedding call failed', async () => {
    // Prepare
    const embedder = new FakeEmbedder({ maxBatchSize: 2 });
    embedder.failOnCall.set(0, new EmbeddingError('Cohere embed failed with 500', 'unavailable', { status: 500 }));

    // Act
    const result = await run({ n: 3, embedder }).stage;

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['ERROR', 'ERROR', 'PASS']);
    expect([result.stageFailure, result.dimensionMismatch]).toEqual([null, null]);
  });

  it('says why a query was not searched when the dimension differs', async () => {
    // Act
    const { results } = await run({ n: 1, vectorSize: 1024 }).stage;

    // Assess
    expect(results[0]?.fail_reason).toBe(
      "not searched: embedding dimension 3 (fake-embed) does not match the collection's vector size 1024",
    );
  });

  it('reports no stage failure when there is no query to run', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS);
    const events: unknown[] = [];

    // Act
    const result = await runQueryStage({
      queries: [],
      embedder: new FakeEmbedder(),
      index,
      collection: index.describe(),
      clock,
      newId,
      concurrency: 1,
      progress: (event) => events.push(event),
    });

    // Assess: no count either (a bar of 0/0 would be drawn for nothing)
    expect(result).toMatchObject({ results: [], errors: [], embedCalls: 0, searchCalls: 0, stageFailure: null });
    expect(events).toEqual([]);
  });

  it('reports each search batch’s progress with the queries done so far', async () => {
    // Prepare: 150 queries are searched in batches of 100 and 50.
    const index = new MemoryIndex(POINTS);
    const events: unknown[] = [];

    // Act
    await runQueryStage({
      queries: queries(150),
      embedder: new FakeEmbedder(),
      index,
      collection: index.describe(),
      clock,
      newId,
      concurrency: 1,
      progress: (event) => events.push(event),
    });

    // Assess
    expect(events).toEqual([
      { kind: 'queries', done: 0, total: 150 },
      { kind: 'queries', done: 100, total: 150 },
      { kind: 'queries', done: 150, total: 150 },
    ]);
  });

  it('counts a query that is not searched as done, so the count reaches the total', async () => {
    // Prepare: 5 queries, the second embedding call (queries 3 and 4) fails, so 3 are searched and 2 never are.
    const embedder = new FakeEmbedder({ maxBatchSize: 2 });
    embedder.failOnCall.set(1, new EmbeddingError('Cohere embed failed with 500', 'unavailable', { status: 500 }));
    const index = new MemoryIndex(POINTS);
    const events: unknown[] = [];

    // Act
    await runQueryStage({
      queries: queries(5),
      embedder,
      index,
      collection: index.describe(),
      clock,
      newId,
      concurrency: 1,
      progress: (event) => events.push(event),
    });

    // Assess: the 2 unsearched are done from the start; the one batch of 3 brings the count to 5 of 5
    expect(events).toEqual([
      { kind: 'queries', done: 2, total: 5 },
      { kind: 'queries', done: 5, total: 5 },
    ]);
  });

  it('reaches the total when no query can be searched at all', async () => {
    // Prepare: every embedding fails
    const embedder = new FakeEmbedder();
    embedder.failOnCall.set(0, new EmbeddingError('Cohere embed failed with 500', 'unavailable', { status: 500 }));
    const index = new MemoryIndex(POINTS);
    const events: unknown[] = [];

    // Act
    await runQueryStage({
      queries: queries(3),
      embedder,
      index,
      collection: index.describe(),
      clock,
      newId,
      concurrency: 1,
      progress: (event) => events.push(event),
    });

    // Assess
    expect(events).toEqual([{ kind: 'queries', done: 3, total: 3 }]);
  });

  it('does not search a query whose module filter names a module the index lacks, and says so', async () => {
    // Prepare: the catalog knows one module; q1 filters on another.
    const queries = [
      { id: 'known', query_text: 'ros', filters: { module: 'Module 1 Ros2' } },
      { id: 'unknown', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } },
    ];

    // Act
    const result = await stageOf(queries, {
      catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }),
    });

    // Assess
    expect(result.results.map((r) => [r.id, r.status])).toEqual([
      ['known', 'PASS'],
      ['unknown', 'ERROR'],
    ]);
    expect(result.results[1]?.fail_reason).toMatch(/^not searched: filter /);
    expect(result.errors.map((e) => [e.validation_id, e.error_type, e.severity])).toEqual([
      ['unknown', 'METADATA_MISMATCH', 'HIGH'],
    ]);
    expect(result.searches.map((s) => s.queryId)).toEqual(['known']);
  });

  it('fails the stage when every search fails, a query the suite kept from being searched aside', async () => {
    // Prepare: Qdrant answers no search (503); one query names a module the index lacks (not searched at all).
    const index = new MemoryIndex(POINTS);
    index.failWith.searchBatch = new IndexError(
      'Qdrant query batch on collection "book" failed with 503',
      'unavailable',
    );
    const queries = [
      { id: 'known', query_text: 'ros', filters: { module: 'Module 1 Ros2' } },
      { id: 'unknown', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } },
    ];

    // Act
    const result = await stageOf(queries, {
      index,
      catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }),
    });

    // Assess: nothing was evaluated, so the stage failed (the run is ERROR, not a pass rate of 0 %).
    expect(result.results.map((r) => [r.id, r.status, r.error_types])).toEqual([
      ['known', 'ERROR', ['RETRIEVAL_FAILED']],
      ['unknown', 'ERROR', ['METADATA_MISMATCH']],
    ]);
    expect(result.stageFailure).toBe('no query could be run: Qdrant query batch on collection "book" failed with 503');
  });

  it('does not fail the stage when no query failed, even if none was searched (the suite is at fault)', async () => {
    // Act: the only query names a module the index lacks.
    const result = await stageOf([{ id: 'unknown', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } }], {
      catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }),
    });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['ERROR']);
    expect(result.stageFailure).toBeNull();
  });

  it('does not fail the stage when one query of several was searched', async () => {
    // Prepare: the first batch call fails; the suite has 101 queries, so a second call carries the last one.
    const index = new (class extends MemoryIndex {
      override async searchBatch(requests: Parameters<MemoryIndex['searchBatch']>[0]) {
        if (this.searches.length === 0) {
          this.searches.push(requests);
          throw new IndexError('Qdrant query batch on collection "book" failed with 503', 'unavailable');
        }
        return super.searchBatch(requests);
      }
    })(POINTS);

    // Act
    const result = await run({ n: 101, index }).stage;

    // Assess
    expect(result.results.filter((r) => r.status === 'ERROR')).toHaveLength(100);
    expect(result.stageFailure).toBeNull();
  });

  it('searches every query when the catalog cannot be read', async () => {
    // Act
    const result = await stageOf([{ id: 'q', query_text: 'ros', filters: { chapter: 'm1/a' } }], {
      catalog: Promise.reject(new IndexError('facet failed', 'unavailable')),
    });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['PASS']);
    expect(result.searches).toHaveLength(1);
  });
});

describe('runQueryStage: failure types', () => {
  it('reports a rate-limited search as RATE_LIMITED and any other failed search as RETRIEVAL_FAILED', async () => {
    // Prepare
    const limited = new MemoryIndex(POINTS);
    limited.failWith.searchBatch = new IndexError('Qdrant asked to wait 30 s', 'rate_limited');
    const down = new MemoryIndex(POINTS);
    down.failWith.searchBatch = new IndexError('Qdrant failed with 503', 'unavailable');

    // Act
    const [a, b] = await Promise.all([run({ n: 1, index: limited }).stage, run({ n: 1, index: down }).stage]);

    // Assess
    expect([a.results[0]?.error_types, b.results[0]?.error_types]).toEqual([['RATE_LIMITED'], ['RETRIEVAL_FAILED']]);
  });

  it('reports a query not searched for a dimension mismatch as RETRIEVAL_FAILED', async () => {
    // Act
    const { results } = await run({ n: 1, vectorSize: 1024 }).stage;

    // Assess
    expect(results[0]?.error_types).toEqual(['RETRIEVAL_FAILED']);
  });
});

describe('runQueryStage: the catalog', () => {
  it('searches without waiting for the catalog when no query filters on a module or chapter', async () => {
    // Prepare: the catalog is ready only once a search was sent, so waiting for it first would never end.
    let release: (catalog: { modules: string[]; chapters: string[] }) => void = () => undefined;
    const catalog = new Promise<{ modules: string[]; chapters: string[] }>((resolve) => {
      release = resolve;
    });
    const index = new MemoryIndex(POINTS);
    const search = index.searchBatch.bind(index);
    index.searchBatch = (requests) => {
      release({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] });
      return search(requests);
    };

    // Act
    const result = await stageOf([{ id: 'q', query_text: 'ros', filters: { section: 'Nodes' } }], { index, catalog });

    // Assess
    expect(result.searches.map((s) => s.queryId)).toEqual(['q']);
  });

  it('does not search a query whose chapter filter alone names a chapter the index lacks', async () => {
    // Act
    const result = await stageOf(
      [
        { id: 'q0', query_text: 'ros', filters: { chapter: 'm1/a' } },
        { id: 'q1', query_text: 'isaac', filters: { chapter: 'm9/z' } },
      ],
      { catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }) },
    );

    // Assess
    expect(result.results.map((r) => [r.id, r.status])).toEqual([
      ['q0', 'PASS'],
      ['q1', 'ERROR'],
    ]);
    expect(result.searches.map((s) => s.queryId)).toEqual(['q0']);
  });
});

describe('runQueryStage: the catalog, read for one query or for judging', () => {
  it('reads the catalog when any query filters on a module, not only when all do', async () => {
    const result = await stageOf(
      [
        { id: 'plain', query_text: 'ros' },
        { id: 'unknown', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } },
      ],
      { catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }) },
    );
    expect(result.results.map((r) => [r.id, r.status])).toEqual([
      ['plain', 'PASS'],
      ['unknown', 'ERROR'],
    ]);
    expect(result.searches.map((s) => s.queryId)).toEqual(['plain']);
  });

  it('judges an expected module against the catalog, naming a module the index does not have', async () => {
    const catalog = Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] });
    const filtered = await stageOf(
      [{ id: 'q', query_text: 'ros', expected_module: 'Module 9 Isaac', filters: { chapter: 'm1/a' } }],
      { catalog },
    );
    const plain = await stageOf([{ id: 'q', query_text: 'ros', expected_module: 'Module 9 Isaac' }], { catalog });
    for (const result of [filtered, plain])
      expect(result.results[0]?.fail_reason).toContain(
        "expected module 'Module 9 Isaac' is not in the index (known modules: Module 1 Ros2)",
      );
  });
});

describe('runQueryStage: a failed embed call keeps its own reason', () => {
  it('is not overwritten by the collection’s unsupported distance', async () => {
    // Prepare: calls of 2; the first (a, b) fails, the second (c, d) is embedded; the collection uses Euclid.
    const embedder = new FakeEmbedder({ maxBatchSize: 2 });
    embedder.failOnCall.set(0, new Error('Cohere answered 500'));
    const index = new MemoryIndex(POINTS, { distance: 'Euclid' });

    // Act
    const result = await stageOf(
      ['a', 'b', 'c', 'd'].map((id) => ({ id, query_text: `question ${id}` })),
      { embedder, index },
    );

    // Assess
    expect(result.results.map((r) => [r.id, r.error_types, r.fail_reason?.slice(0, 36)])).toEqual([
      ['a', ['EMBEDDING_FAILED'], 'Cohere answered 500'],
      ['b', ['EMBEDDING_FAILED'], 'Cohere answered 500'],
      ['c', ['RETRIEVAL_FAILED'], 'not searched: the collection "book" '],
      ['d', ['RETRIEVAL_FAILED'], 'not searched: the collection "book" '],
    ]);
  });

  it('is not turned into an unknown filter when the query also names a module the index lacks', async () => {
    const embedder = new FakeEmbedder();
    embedder.failOnCall.set(0, new Error('Cohere answered 500'));
    const result = await stageOf([{ id: 'q', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } }], {
      embedder,
      catalog: Promise.resolve({ modules: ['Module 1 Ros2'], chapters: ['m1/a'] }),
    });
    expect(result.results.map((r) => [r.error_types, r.fail_reason])).toEqual([
      [['EMBEDDING_FAILED'], 'Cohere answered 500'],
    ]);
  });
});

describe('runQueryStage: latency', () => {
  it('gives each query the durations of the calls that carried it, and its share of them for the percentiles', async () => {
    // Prepare: two queries in one embed call of 60 ms and one search call of 20 ms; judging takes no time.
    const readings = [0, 10, 70, 100, 120, 200, 200, 300, 300, 400];
    const stepping: Clock = { now: clock.now, monotonicMs: () => readings.shift() ?? Number.NaN };

    // Act
    const result = await stageOf(
      [
        { id: 'a', query_text: 'ros' },
        { id: 'b', query_text: 'gazebo' },
      ],
      { clock: stepping },
    );

    // Assess: each waited 80 ms; its share is (60 + 20) / 2 = 40 ms.
    const expected = { embedding_ms: 60, search_ms: 20, post_processing_ms: 0, total_ms: 80, batch_share_ms: 40 };
    expect(result.results.map((r) => r.latency)).toEqual([expected, expected]);
  });

  it('gives a query over its latency budget the time it waited for the services in the finding', async () => {
    // Prepare: embed 30 ms, search 25 ms against a budget of 54 ms.
    const readings = [5, 10, 40, 50, 75, 100, 100, 125];
    const stepping: Clock = { now: clock.now, monotonicMs: () => readings.shift() ?? Number.NaN };

    // Act
    const result = await stageOf([{ id: 'slow', query_text: 'ros', criteria: { max_latency_ms: 54 } }], {
      clock: stepping,
    });

    // Assess
    const finding = result.errors.find((e) => e.error_type === 'LATENCY_EXCEEDED');
    expect(finding?.details).toMatchObject({ embedding_ms: 30, search_ms: 25, total_ms: 55, retrieval_ms: 55 });
  });
});
