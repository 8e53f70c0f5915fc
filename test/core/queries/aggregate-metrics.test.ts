import { describe, expect, it } from 'vitest';
import { buildValidationMetrics } from '../../../functions/core/queries/aggregate-metrics.ts';
import type { IrMetrics, QueryValidationResult } from '../../../functions/core/report/query-validation.ts';
import { ValidationMetrics } from '../../../functions/core/report/validation-metrics.ts';
import { buildQuery } from '../../nightly/fixtures/reports.ts';

const AT = '2026-03-14T02:00:00.000Z';
// Seed 003: validation_run_id is a UUID.
const RUN_ID = '0b7f3c1e-2a4d-4e5f-9a6b-7c8d9e0f1a2b';

function ir(overrides: Partial<IrMetrics>): IrMetrics {
  return {
    k: 5,
    judged_relevant: 1,
    retrieved_relevant: 1,
    precision_at_k: 0.2,
    recall_at_k: 1,
    reciprocal_rank: 1,
    ndcg_at_k: 1,
    hit: true,
    ...overrides,
  };
}

/** A query result with a given total latency (ms), best similarity and IR metrics. */
function result(
  id: string,
  spec: { status?: 'PASS' | 'FAIL' | 'ERROR'; category?: string; ms?: number; best?: number; metrics?: IrMetrics },
): QueryValidationResult {
  const ms = spec.ms ?? 100;
  const q = buildQuery({
    id,
    status: spec.status ?? 'PASS',
    category: spec.category ?? 'semantic',
    latency: { embedding_ms: ms, search_ms: 0, post_processing_ms: 0, total_ms: ms },
    best: spec.best ?? 0.8,
  });
  return { ...q, metrics: spec.metrics ?? null };
}

/** A category's fields when the suite says nothing of it (the fixture's queries are fully aligned). */
const UNJUDGED = { mean_semantic_alignment: 1, description: null, expected_results: null, expected_met: null };

function build(results: QueryValidationResult[], queryStageMs = 1000) {
  return buildValidationMetrics({ runId: RUN_ID, timestamp: AT, results, queryStageMs });
}

describe('buildValidationMetrics', () => {
  it('aggregates pass rate, IR means, latency percentiles, throughput and categories (seed 003)', () => {
    // Prepare: 3 answered queries (100, 200, 400 ms) and 1 in ERROR, whose latency and similarity do not count.
    const results = [
      result('q1', { category: 'keyword', ms: 100, best: 0.9, metrics: ir({ reciprocal_rank: 1 }) }),
      result('q2', { category: 'semantic', ms: 200, best: 0.7, metrics: ir({ reciprocal_rank: 0.5, hit: true }) }),
      result('q3', { status: 'FAIL', category: 'semantic', ms: 400, best: 0.5 }),
      result('q4', { status: 'ERROR', category: 'keyword', ms: 9000 }),
    ];

    // Act
    const metrics = build(results, 2000);

    // Assess: p50 of [100, 200, 400] = 200; p95: h = 1.9 -> 200 + 0.9 * 200 = 380; p99: 200 + 0.98 * 200 = 396;
    // throughput counts the 3 queries that ran, over 2 s.
    expect(metrics).toEqual({
      validation_run_id: RUN_ID,
      timestamp: AT,
      query_types_tested: ['keyword', 'semantic'],
      total_queries_tested: 4,
      queries_passed: 2,
      success_rate: 0.5,
      judged_queries: 2,
      overall_precision: 0.2,
      overall_recall: 1,
      mrr: 0.75,
      ndcg_at_k: 1,
      hit_rate: 1,
      avg_similarity: 0.7,
      latency_basis: 'batch_share',
      avg_latency_ms: 233.3,
      p50_latency_ms: 200,
      p95_latency_ms: 380,
      p99_latency_ms: 396,
      throughput_qps: 1.5,
      by_category: {
        keyword: { ...UNJUDGED, total: 2, passed: 1, pass_rate: 50 },
        semantic: { ...UNJUDGED, total: 2, passed: 1, pass_rate: 50 },
      },
    });
    expect(ValidationMetrics.parse(metrics)).toEqual(metrics);
  });

  it('takes the percentiles over each query’s share of its batched calls, not the calls’ whole durations', () => {
    // Prepare: three queries that each waited 300 ms for calls they shared three ways: 100 ms each.
    const shared = (id: string) => {
      const r = result(id, { ms: 300 });
      return { ...r, latency: { ...r.latency, batch_share_ms: 100 } };
    };

    // Act
    const metrics = build([shared('q1'), shared('q2'), shared('q3')]);

    // Assess
    expect([metrics.latency_basis, metrics.p50_latency_ms, metrics.p95_latency_ms]).toEqual(['batch_share', 100, 100]);
  });

  it('sorts latencies before taking percentiles, whatever order the queries ran in', () => {
    // Act
    const metrics = build([result('q1', { ms: 400 }), result('q2', { ms: 100 }), result('q3', { ms: 200 })]);

    // Assess
    expect([metrics.p50_latency_ms, metrics.p95_latency_ms]).toEqual([200, 380]);
  });

  it('rounds latencies to 1 decimal, rates to 2 and the success rate to 4', () => {
    // Prepare: 1 of 3 passes; latencies 100.04, 100.06, 100.11 ms over 700 ms.
    const results = [
      result('q1', { ms: 100.04 }),
      result('q2', { status: 'FAIL', ms: 100.06 }),
      result('q3', { status: 'FAIL', ms: 100.11 }),
    ];

    // Act
    const metrics = build(results, 700);

    // Assess
    expect(metrics).toMatchObject({
      success_rate: 0.3333,
      avg_latency_ms: 100.1,
      p50_latency_ms: 100.1,
      throughput_qps: 4.29,
      by_category: { semantic: { ...UNJUDGED, total: 3, passed: 1, pass_rate: 33.33 } },
    });
  });

  it('reports nulls, not zeros or NaN, when no query was run', () => {
    // Act
    const metrics = build([], 0);

    // Assess
    expect(metrics).toMatchObject({
      total_queries_tested: 0,
      queries_passed: 0,
      success_rate: 0,
      judged_queries: 0,
      mrr: null,
      avg_similarity: null,
      avg_latency_ms: null,
      p50_latency_ms: null,
      p95_latency_ms: null,
      p99_latency_ms: null,
      throughput_qps: null,
      query_types_tested: [],
      by_category: {},
    });
  });

  it('reports no latency figure and no throughput when every query failed to run', () => {
    // Act
    const metrics = build([result('q1', { status: 'ERROR', ms: 50 })]);

    // Assess
    expect(metrics).toMatchObject({
      avg_latency_ms: null,
      p50_latency_ms: null,
      p95_latency_ms: null,
      p99_latency_ms: null,
      avg_similarity: null,
      success_rate: 0,
      throughput_qps: null,
    });
  });

  it('reports no throughput when the query stage took no measurable time', () => {
    // Act
    const metrics = build([result('q1', {})], 0);

    // Assess
    expect(metrics.throughput_qps).toBeNull();
  });

  it('lists the query types in name order, whatever order the queries ran in', () => {
    const metrics = build([result('q1', { category: 'semantic' }), result('q2', { category: 'keyword' })]);
    expect(metrics.query_types_tested).toEqual(['keyword', 'semantic']);
  });

  it('averages the benchmark metrics when any query carries them, over those that do, and leaves them out when none does', () => {
    // Prepare: q1 was judged with benchmark metrics, q2 (a probe, say) was not.
    const judged = { ...result('q1', {}), benchmark_metrics: { 'recall@5': 0.5, mrr: 1 } };

    // Act
    const some = build([judged, result('q2', {})]);
    const none = build([result('q1', {}), result('q2', {})]);

    // Assess
    expect(some.benchmark).toEqual({ 'recall@5': 0.5, mrr: 1 });
    expect('benchmark' in none).toBe(false);
  });
});
