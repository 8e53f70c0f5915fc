import { describe, expect, it } from 'vitest';
import {
  benchmarkDepth,
  computeBenchmarkMetrics,
  meanBenchmarkMetrics,
  parseBenchmarkMetric,
} from '../../../functions/core/queries/benchmark-metrics.ts';
import { parseSuite, resolveQueries } from '../../../functions/core/suite/suite.ts';

const row = (id: string, url: string) => ({ chunk_id: id, source_url: url });
// Relevant a at rank 2 and c at rank 7 of ten results.
const RANKING = ['x', 'a', 'y', 'z', 'w', 'v', 'c', 'u', 't', 's'].map((id) => row(id, `https://b/${id}`));
const JUDGMENTS = [
  { kind: 'url' as const, target: 'https://b/a', grade: 1 },
  { kind: 'url' as const, target: 'https://b/c', grade: 1 },
];

describe('parseBenchmarkMetric', () => {
  it.each([
    ['precision@5', 'precision@5'],
    ['Recall@10', 'recall@10'],
    ['MRR', 'mrr'],
    ['ndcg@10', 'ndcg@10'],
    ['hit_rate@3', 'hit_rate@3'],
  ])('reads %s', (raw, name) => {
    expect(parseBenchmarkMetric(raw)?.name).toBe(name);
  });

  it.each(['precision', 'f1@5', 'recall@0', 'ndcg@51'])('refuses %s', (raw) => {
    expect(parseBenchmarkMetric(raw)).toBeNull();
  });
});

describe('benchmarkDepth', () => {
  it('is the deepest cut-off', () => {
    expect(benchmarkDepth(['precision@5', 'recall@10', 'mrr'])).toBe(10);
  });
});

describe('computeBenchmarkMetrics', () => {
  it('computes each metric at its own cut-off', () => {
    // Act
    const figures = computeBenchmarkMetrics({
      metrics: ['precision@5', 'recall@5', 'recall@10', 'mrr', 'hit_rate@1'],
      ranking: RANKING,
      judgments: JUDGMENTS,
      depth: 10,
    });

    // Assess: @5 sees a only; @10 sees both; the first relevant is at rank 2.
    expect(figures).toEqual({ 'precision@5': 0.2, 'recall@5': 0.5, 'recall@10': 1, mrr: 0.5, 'hit_rate@1': 0 });
  });

  it('gives nothing for a query without judgments', () => {
    expect(computeBenchmarkMetrics({ metrics: ['mrr'], ranking: RANKING, judgments: null, depth: 10 })).toBeNull();
  });
});

describe('meanBenchmarkMetrics', () => {
  it('averages over the queries that have figures', () => {
    expect(meanBenchmarkMetrics([{ mrr: 1 }, null, { mrr: 0.5 }])).toEqual({ mrr: 0.75 });
  });
});

describe('a suite’s metrics', () => {
  it('searches each query to the deepest cut-off', () => {
    // Act
    const suite = parseSuite(
      JSON.stringify({ metrics: ['precision@5', 'recall@10'], queries: [{ query_text: 'q', top_k: 3 }] }),
      's.json',
    );

    // Assess
    expect(resolveQueries(suite)[0]).toMatchObject({ top_k: 3, search_limit: 10 });
  });

  it('refuses an unsupported metric, naming it by its path', () => {
    expect(() => parseSuite(JSON.stringify({ metrics: ['f1@5'], queries: [{ query_text: 'q' }] }), 's.json')).toThrow(
      'metrics[0]: must be precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k',
    );
  });
});
