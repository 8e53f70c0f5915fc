import { describe, expect, it } from 'vitest';
import { computeBenchmarkMetrics, meanBenchmarkMetrics } from '../../../functions/core/queries/benchmark-metrics.ts';
import { benchmarkDepth, parseBenchmarkMetric } from '../../../functions/core/suite/benchmark-metric-names.ts';
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

describe('parseBenchmarkMetric: cut-offs and forms', () => {
  it('reads each kind with the report field it takes and its cut-off', () => {
    expect(parseBenchmarkMetric(' NDCG@50 ')).toEqual({ name: 'ndcg@50', field: 'ndcg_at_k', k: 50 });
    expect(parseBenchmarkMetric('precision@1')).toEqual({ name: 'precision@1', field: 'precision_at_k', k: 1 });
    expect(parseBenchmarkMetric('recall@7')).toEqual({ name: 'recall@7', field: 'recall_at_k', k: 7 });
    expect(parseBenchmarkMetric('Hit_Rate@3')).toEqual({ name: 'hit_rate@3', field: 'hit', k: 3 });
    expect(parseBenchmarkMetric('mrr')).toEqual({ name: 'mrr', field: 'reciprocal_rank', k: null });
    expect(parseBenchmarkMetric('MRR@10')).toEqual({ name: 'mrr@10', field: 'reciprocal_rank', k: 10 });
  });

  it.each(['precision@51', 'mrr@99', 'recall@05', 'hit_rate@', 'xmrr', 'mrr@1x', 'precision@5 recall@5'])(
    'refuses %s',
    (raw) => {
      expect(parseBenchmarkMetric(raw)).toBeNull();
    },
  );
});

describe('benchmarkDepth: without cut-offs', () => {
  it('is 0 for no metric, or for metrics without a cut-off', () => {
    expect(benchmarkDepth([])).toBe(0);
    expect(benchmarkDepth(['mrr', 'not-a-metric'])).toBe(0);
  });

  it('counts the cut-off of mrr@k', () => {
    expect(benchmarkDepth(['mrr@20', 'precision@5'])).toBe(20);
  });
});

describe('computeBenchmarkMetrics: depth, hits and what it skips', () => {
  it('gives nothing when the suite lists no metric', () => {
    expect(computeBenchmarkMetrics({ metrics: [], ranking: RANKING, judgments: JUDGMENTS, depth: 10 })).toBeNull();
  });

  it('computes mrr without a cut-off at the search depth', () => {
    // Without a, c is the first relevant, at rank 6: seen at depth 6, not at depth 5.
    const ranking = RANKING.filter((r) => r.chunk_id !== 'a');
    const at = (depth: number) =>
      computeBenchmarkMetrics({ metrics: ['mrr'], ranking, judgments: JUDGMENTS, depth })?.mrr;
    expect(at(6)).toBe(0.1667);
    expect(at(5)).toBe(0);
  });

  it('computes mrr at a cut-off of at least 1 when the search depth is 0', () => {
    const ranking = [row('a', 'https://b/a')];
    expect(computeBenchmarkMetrics({ metrics: ['mrr'], ranking, judgments: JUDGMENTS, depth: 0 })).toEqual({ mrr: 1 });
  });

  it('counts a hit as 1 and a miss as 0', () => {
    expect(
      computeBenchmarkMetrics({
        metrics: ['hit_rate@2', 'hit_rate@1'],
        ranking: RANKING,
        judgments: JUDGMENTS,
        depth: 10,
      }),
    ).toEqual({ 'hit_rate@2': 1, 'hit_rate@1': 0 });
  });

  it('skips a name that is not a metric and computes the others', () => {
    expect(
      computeBenchmarkMetrics({ metrics: ['f1@5', 'ndcg@2'], ranking: RANKING, judgments: JUDGMENTS, depth: 10 }),
    ).toEqual({ 'ndcg@2': expect.closeTo(0.3869, 4) });
  });
});

describe('meanBenchmarkMetrics: rounding and gaps', () => {
  it('gives nothing when no query has figures', () => {
    expect(meanBenchmarkMetrics([])).toBeNull();
    expect(meanBenchmarkMetrics([null, null])).toBeNull();
  });

  it('rounds each mean to four decimals, counting a figure a query lacks as 0', () => {
    expect(meanBenchmarkMetrics([{ mrr: 1, 'recall@5': 1 }, { mrr: 0 }, { mrr: 0, 'recall@5': 1 }])).toEqual({
      mrr: 0.3333,
      'recall@5': 0.6667,
    });
  });
});
