/**
 * Seed 003's ValidationMetrics: the run's figures across all queries (pass rate, IR means, latency percentiles,
 * throughput, per-category pass rates), computed from the per-query results.
 */
import { percentile, summarise } from '../quality/distribution.ts';
import type { QueryValidationResult, ValidationMetrics } from '../report/report.ts';
import { meanIrMetrics } from './ir-metrics.ts';

/** Aggregates per-query results; `queryStageMs` is the wall time of the query stage, for throughput. */
export function buildValidationMetrics(options: {
  runId: string;
  timestamp: string;
  results: QueryValidationResult[];
  queryStageMs: number;
}): ValidationMetrics {
  const { results } = options;
  const passed = results.filter((r) => r.passed).length;
  const means = meanIrMetrics(results.map((r) => r.metrics));
  const latencies = results
    .filter((r) => r.status !== 'ERROR')
    .map((r) => r.latency.total_ms)
    .sort((a, b) => a - b);
  const similarities = results.map((r) => r.best_similarity).filter((s): s is number => s !== null);
  const byCategory: ValidationMetrics['by_category'] = {};
  for (const r of results) {
    const c = byCategory[r.query_category] ?? { total: 0, passed: 0, pass_rate: 0 };
    c.total += 1;
    c.passed += r.passed ? 1 : 0;
    c.pass_rate = round2((c.passed / c.total) * 100);
    byCategory[r.query_category] = c;
  }
  const seconds = options.queryStageMs / 1000;
  // Throughput of the queries that ran: a stage where every query errored answered none, however fast it failed.
  const ran = results.filter((r) => r.status !== 'ERROR').length;
  return {
    validation_run_id: options.runId,
    timestamp: options.timestamp,
    query_types_tested: Object.keys(byCategory).sort(),
    total_queries_tested: results.length,
    queries_passed: passed,
    success_rate: results.length === 0 ? 0 : round4(passed / results.length),
    ...means,
    avg_similarity: summarise(similarities).avg,
    avg_latency_ms: latencies.length === 0 ? null : round1(latencies.reduce((a, b) => a + b, 0) / latencies.length),
    p50_latency_ms: roundOrNull(percentile(latencies, 50)),
    p95_latency_ms: roundOrNull(percentile(latencies, 95)),
    p99_latency_ms: roundOrNull(percentile(latencies, 99)),
    throughput_qps: ran === 0 || seconds <= 0 ? null : round2(ran / seconds),
    by_category: byCategory,
  };
}

function roundOrNull(v: number | null): number | null {
  return v === null ? null : round1(v);
}
function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
