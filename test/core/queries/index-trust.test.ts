import { describe, expect, it } from 'vitest';
import type { Clock, EmbeddingResult, SearchHit, SearchRequest } from '../../../functions/core/ports.ts';
import {
  anomalousScores,
  distanceProblem,
  isAnomalousScore,
  SCORE_TOLERANCE,
} from '../../../functions/core/queries/index-trust.ts';
import { queriesCheck } from '../../../functions/core/queries/queries-check.ts';
import { runQueryStage } from '../../../functions/core/queries/query-stage.ts';
import { resolveQueries, Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const clock: Clock = { now: () => new Date('2026-11-27T00:00:00Z'), monotonicMs: () => 0 };
let ids = 0;
const newId = () => `id-${++ids}`;

const POINTS = [
  {
    id: 'p1',
    vector: [1, 0, 0],
    payload: { chunk_text: 'ROS 2 nodes', source_url: 'https://b/docs/a', module_name: 'M1' },
  },
  { id: 'p2', vector: [0, 1, 0], payload: { chunk_text: 'Gazebo', source_url: 'https://b/docs/b', module_name: 'M2' } },
];

function queries(n: number) {
  return resolveQueries(
    Suite.parse({
      queries: Array.from({ length: n }, (_, i) => ({
        id: `q${i}`,
        query_text: `question ${i}`,
        expected_module: 'M1',
        min_similarity: 0.5,
      })),
    }),
  );
}

/** An index whose answers are rewritten: the way a misbehaving index or a proxy in front of it would lie. */
class LyingIndex extends MemoryIndex {
  readonly lie: (hits: SearchHit[], request: SearchRequest) => SearchHit[];
  constructor(lie: (hits: SearchHit[], request: SearchRequest) => SearchHit[]) {
    super(POINTS);
    this.lie = lie;
  }
  override async searchBatch(requests: SearchRequest[]): Promise<SearchHit[][]> {
    const answers = await super.searchBatch(requests);
    return answers.map((hits, i) => this.lie(hits, requests[i] as SearchRequest));
  }
}

/** An embedder whose call number `badCall` answers vectors of `size` (a model swapped behind one replica). */
class OneBadBatchEmbedder extends FakeEmbedder {
  readonly badCall: number;
  readonly size: number;
  constructor(badCall: number, size: number) {
    super({ maxBatchSize: 4 });
    this.badCall = badCall;
    this.size = size;
  }
  override async embedQueries(texts: string[]): Promise<EmbeddingResult> {
    const call = this.calls.length;
    const answer = await super.embedQueries(texts);
    if (call !== this.badCall) return answer;
    return { vectors: answer.vectors.map(() => Array.from({ length: this.size }, () => 0.1)) };
  }
}

function stage(options: { n: number; index?: MemoryIndex; embedder?: FakeEmbedder }) {
  const index = options.index ?? new MemoryIndex(POINTS);
  return runQueryStage({
    queries: queries(options.n),
    embedder: options.embedder ?? new FakeEmbedder(),
    index,
    collection: index.describe(),
    clock,
    newId,
    concurrency: 2,
  });
}

describe('the collection’s distance', () => {
  it('accepts Cosine and Dot (unit vectors: their dot product is their cosine)', () => {
    expect(distanceProblem({ name: 'book', distance: 'Cosine' })).toBeNull();
    expect(distanceProblem({ name: 'book', distance: 'Dot' })).toBeNull();
  });

  it.each(['Euclid', 'Manhattan', 'undefined', ''])('refuses %j, naming the collection and the fix', (distance) => {
    expect(distanceProblem({ name: 'book', distance })).toBe(
      `the collection "book" uses ${distance} distance; ragwatch's similarity rules are defined for cosine ` +
        'similarity (Cosine, or Dot on unit vectors): re-index it with Cosine distance',
    );
  });

  it('searches nothing in a Euclid collection: every query ERROR, the stage failed, an UNSUPPORTED_DISTANCE finding', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { distance: 'Euclid' });
    const { ctx } = buildRunContext({ index, suite: { queries: [{ id: 'q1', query_text: 'a' }] } });

    // Act
    const result = await runCheck(queriesCheck, ctx);

    // Assess
    expect(index.calls).not.toContain('searchBatch');
    expect(result.sections?.query_results?.map((r) => [r.status, r.error_types])).toEqual([
      ['ERROR', ['RETRIEVAL_FAILED']],
    ]);
    expect(result.failures).toEqual([expect.stringMatching(/^queries: the collection "book" uses Euclid distance/)]);
    expect(result.errors).toContainEqual(
      expect.objectContaining({
        error_type: 'UNSUPPORTED_DISTANCE',
        severity: 'CRITICAL',
        validation_id: 'run-1',
        message: expect.stringMatching(/^the collection "book" uses Euclid distance; ragwatch's similarity rules/),
        details: { collection: 'book', distance: 'Euclid' },
      }),
    );
  });
});

describe('scores no cosine can have', () => {
  it('pins the tolerance on both sides of -1 and 1', () => {
    expect(SCORE_TOLERANCE).toBe(1e-4);
    for (const sound of [1, -1, 0, 0.42, 1 + SCORE_TOLERANCE, -1 - SCORE_TOLERANCE, 1.0000001])
      expect(isAnomalousScore(sound), String(sound)).toBe(false);
    for (const wrong of [1.0002, -1.0002, 7.5, -3, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN])
      expect(isAnomalousScore(wrong), String(wrong)).toBe(true);
  });

  it('names each anomalous score with its point, in rank order', () => {
    const hits = [
      { id: 'a', score: 7.5, payload: {} },
      { id: 'b', score: 0.5, payload: {} },
      { id: 'c', score: Number.POSITIVE_INFINITY, payload: {} },
    ];
    expect(anomalousScores(hits)).toEqual(['7.5 (point a)', 'Infinity (point c)']);
  });

  it.each([
    [7.5, '7.5'],
    [-3, '-3'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NaN, 'NaN'],
  ])(
    'a score of %s fails its query as INDEX_ANOMALY, never clamped into a pass, and the run as ERROR',
    async (bad, written) => {
      // Prepare: the first query's top hit carries the impossible score; the other query is answered honestly.
      const index = new LyingIndex((hits, request) =>
        request.vector[0] === 1 && hits[0] ? [{ ...hits[0], score: bad }, ...hits.slice(1)] : hits,
      );
      const embedder = new FakeEmbedder({ vectors: { 'question 1': [0.9, 0.1, 0] } });

      // Act
      const result = await stage({ n: 2, index, embedder });

      // Assess
      expect(result.results.map((r) => r.status)).toEqual(['ERROR', 'PASS']);
      expect(result.results[0]?.error_types).toEqual(['INDEX_ANOMALY']);
      expect(result.results[0]?.fail_reason).toBe(
        `Qdrant answered scores no Cosine similarity can have (outside -1..1 or not finite): ${written} (point p1)`,
      );
      expect(result.results[0]?.top_results).toEqual([]);
      expect(result.scoreAnomalies).toEqual([{ queryId: 'q0', scores: [`${written} (point p1)`] }]);
      expect(result.stageFailure).toBe(
        `the index answered impossible scores for 1 of 2 queries (first: q0: ${written} (point p1))`,
      );
      // The anomalous answer is not handed to the index-health checks either.
      expect(result.searches.map((s) => s.queryId)).toEqual(['q1']);
    },
  );

  it('reports one CRITICAL INDEX_ANOMALY for the run, with the count and the first scores', async () => {
    // Prepare
    const index = new LyingIndex((hits) => hits.map((h) => ({ ...h, score: h.score + 2 })));
    const { ctx } = buildRunContext({
      index,
      suite: {
        queries: [
          { id: 'q1', query_text: 'a' },
          { id: 'q2', query_text: 'b' },
        ],
      },
    });

    // Act
    const result = await runCheck(queriesCheck, ctx);

    // Assess
    const finding = result.errors.find((e) => e.error_type === 'INDEX_ANOMALY' && e.validation_id === 'run-1');
    expect(finding).toMatchObject({
      severity: 'CRITICAL',
      message:
        'the index answered scores no similarity can have for 2 queries; its ranking cannot be trusted ' +
        '(first: q1: 3 (point p1), 2 (point p2))',
      details: { query_count: 2, queries: ['q1', 'q2'], first_scores: ['3 (point p1)', '2 (point p2)'] },
    });
    expect(result.failures).toEqual([
      expect.stringMatching(/^queries: the index answered impossible scores for 2 of 2/),
    ]);
    expect(result.sections?.query_results?.every((r) => r.status === 'ERROR')).toBe(true);
  });

  it('says "1 query" for one, and lists the first 20 of more', async () => {
    // Prepare: one lying query, then 21.
    const one = new LyingIndex((hits, request) =>
      request.vector[0] === 1 ? hits.map((h) => ({ ...h, score: h.score + 2 })) : hits,
    );
    const embedder = new FakeEmbedder({ vectors: { b: [0.9, 0.1, 0] } });
    const single = buildRunContext({
      index: one,
      embedder,
      suite: {
        queries: [
          { id: 'q1', query_text: 'a' },
          { id: 'q2', query_text: 'b' },
        ],
      },
    });
    const many = buildRunContext({
      index: new LyingIndex((hits) => hits.map((h) => ({ ...h, score: h.score + 2 }))),
      suite: { queries: Array.from({ length: 21 }, (_, i) => ({ id: `q${i + 1}`, query_text: `t${i}` })) },
    });

    // Act
    const a = await runCheck(queriesCheck, single.ctx);
    const b = await runCheck(queriesCheck, many.ctx);

    // Assess
    const runFinding = (r: typeof a) =>
      r.errors.find((e) => e.error_type === 'INDEX_ANOMALY' && e.validation_id === 'run-1');
    expect(runFinding(a)?.message).toMatch(
      /^the index answered scores no similarity can have for 1 query; its ranking/,
    );
    expect(runFinding(b)?.details).toMatchObject({
      query_count: 21,
      queries: Array.from({ length: 20 }, (_, i) => `q${i + 1}`),
    });
  });

  it('accepts a score of 1.00001 (float rounding of a vector with itself)', async () => {
    const index = new LyingIndex((hits) => hits.map((h, i) => (i === 0 ? { ...h, score: 1.00001 } : h)));
    const result = await stage({ n: 1, index });
    expect(result.results.map((r) => r.status)).toEqual(['PASS']);
    expect(result.stageFailure).toBeNull();
    expect(result.results[0]?.top_results[0]).toMatchObject({ similarity_score: 1, raw_score: 1.00001 });
  });
});

describe('every vector of every embed call', () => {
  it('fails only the queries of the call that answered the wrong size, named on Cohere with the sizes', async () => {
    // Prepare: 10 queries in calls of 4; the second call (q4..q7) answers 512 floats, the collection holds 3.
    const embedder = new OneBadBatchEmbedder(1, 512);
    const index = new MemoryIndex(POINTS);

    // Act
    const result = await stage({ n: 10, index, embedder });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual([
      'PASS',
      'PASS',
      'PASS',
      'PASS',
      'ERROR',
      'ERROR',
      'ERROR',
      'ERROR',
      'PASS',
      'PASS',
    ]);
    expect(result.results[4]?.error_types).toEqual(['EMBEDDING_FAILED']);
    expect(result.results[4]?.fail_reason).toBe(
      'Cohere embed call 2 of 3 (fake-embed, queries q4..q7) returned 4 of 4 vectors of size 512; the collection ' +
        '"book" holds vectors of size 3: not searched',
    );
    // Nothing of the bad call reached the index: no search failed because of it.
    expect(index.searches.flat().every((r) => r.vector.length === 3)).toBe(true);
    expect(index.searches.flat()).toHaveLength(6);
    expect(result.stageFailure).toBeNull();
    expect(result.dimensionMismatch).toBeNull();
  });

  it('fails a whole call when only one of its vectors has the wrong size', async () => {
    // Prepare
    const embedder = new FakeEmbedder({ maxBatchSize: 2, vectors: { 'question 3': [1, 0, 0, 0] } });

    // Act
    const result = await stage({ n: 4, embedder });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['PASS', 'PASS', 'ERROR', 'ERROR']);
    expect(result.results[2]?.fail_reason).toBe(
      'Cohere embed call 2 of 2 (fake-embed, queries q2..q3) returned 1 of 2 vectors of size 4; the collection ' +
        '"book" holds vectors of size 3: not searched',
    );
  });

  it('names the one query of a call that carried only one', async () => {
    // Prepare: three queries in calls of two; the second call carries q2 alone
    const embedder = new FakeEmbedder({ maxBatchSize: 2, vectors: { 'question 2': [1, 0, 0, 0] } });

    // Act
    const result = await stage({ n: 3, embedder });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['PASS', 'PASS', 'ERROR']);
    expect(result.results[2]?.fail_reason).toBe(
      'Cohere embed call 2 of 2 (fake-embed, query q2) returned 1 of 1 vectors of size 4; the collection ' +
        '"book" holds vectors of size 3: not searched',
    );
  });

  it('is still one DIMENSION_MISMATCH for the run when every call answered the wrong size', async () => {
    const embedder = new OneBadBatchEmbedder(0, 512);
    const result = await stage({ n: 3, embedder });
    expect(result.dimensionMismatch).toEqual({ embedding: 512, collection: 3 });
    expect(result.stageFailure).toBe(
      "embedding dimension 512 (fake-embed) does not match the collection's vector size 3",
    );
  });

  it('fails a call that answered fewer vectors than it was sent texts', async () => {
    // Prepare
    const embedder = new FakeEmbedder({ maxBatchSize: 2 });
    const short = embedder.embedQueries.bind(embedder);
    let call = 0;
    embedder.embedQueries = async (texts) => {
      const answer = await short(texts);
      call += 1;
      return call === 1 ? { vectors: answer.vectors.slice(1) } : answer;
    };

    // Act
    const result = await stage({ n: 3, embedder });

    // Assess
    expect(result.results.map((r) => r.status)).toEqual(['ERROR', 'ERROR', 'PASS']);
    expect(result.results[0]?.fail_reason).toBe(
      'Cohere embed call 1 of 2 (fake-embed, queries q0..q1) returned 1 vectors for 2 queries',
    );
    expect(result.results[0]?.error_types).toEqual(['EMBEDDING_FAILED']);
  });
});

describe('what each query is told when the index cannot be trusted', () => {
  it('tells every query of a collection with an unsupported distance that it was not searched, and why', async () => {
    const index = new MemoryIndex(POINTS, { distance: 'Euclid' });
    const result = await stage({ n: 2, index });
    expect(result.results.map((r) => r.fail_reason)).toEqual([
      expect.stringMatching(/^not searched: the collection "book" uses Euclid distance; /),
      expect.stringMatching(/^not searched: the collection "book" uses Euclid distance; /),
    ]);
  });

  it('lists every wrong size a call answered, separated by commas', async () => {
    // Prepare: the second call (q2, q3) answers one vector of 4 floats and one of 5; the collection holds 3.
    const embedder = new FakeEmbedder({
      maxBatchSize: 2,
      vectors: { 'question 2': [1, 0, 0, 0], 'question 3': [1, 0, 0, 0, 0] },
    });

    // Act
    const result = await stage({ n: 4, embedder });

    // Assess
    expect(result.results[2]?.fail_reason).toBe(
      'Cohere embed call 2 of 2 (fake-embed, queries q2..q3) returned 2 of 2 vectors of size 4, 5; the collection ' +
        '"book" holds vectors of size 3: not searched',
    );
  });

  it('lists every impossible score of one answer, separated by commas', async () => {
    const index = new LyingIndex((hits) => hits.map((h, i) => ({ ...h, score: 2 + i })));
    const result = await stage({ n: 1, index });
    expect(result.results[0]?.fail_reason).toBe(
      'Qdrant answered scores no Cosine similarity can have (outside -1..1 or not finite): 2 (point p1), 3 (point p2)',
    );
  });
});
