/**
 * Seed 003's ValidationMetrics: the run's figures across all queries (pass rate, IR means, latency percentiles,
 * throughput, per-category pass rates), computed from the per-query results.
 */

import type { ValidationError } from '../report/findings.ts';
import type { QueryValidationResult } from '../report/query-validation.ts';
import type { ValidationMetrics } from '../report/validation-metrics.ts';
import { percentile, roundTo, summarise } from '../shared/statistics.ts';
import type { QueryCategory } from '../suite/suite.ts';
import { meanBenchmarkMetrics } from './benchmark-metrics.ts';
import { meanIrMetrics } from './ir-metrics.ts';

/** Aggregates per-query results; `queryStageMs` is the wall time of the query stage, for throughput. */
export function buildValidationMetrics(options: {
  runId: string;
  timestamp: string;
  results: QueryValidationResult[];
  queryStageMs: number;
  /** The suite's category descriptions and expectations (seed 000 QueryCategory), by name. */
  categories?: Readonly<Record<string, QueryCategory>>;
}): ValidationMetrics {
  const { results } = options;
  const passed = results.filter((r) => r.passed).length;
  const means = meanIrMetrics(results.map((r) => r.metrics));
  const latencies = results
    .filter((r) => r.status !== 'ERROR')
    // Each query's share of its batched calls: a call's whole duration is every query's wait, and a percentile
    // over those is the slowest call's, growing with the batch (issue 23 §6).
    .map((r) => r.latency.batch_share_ms ?? r.latency.total_ms)
    .sort((a, b) => a - b);
  const similarities = results.map((r) => r.best_similarity).filter((s): s is number => s !== null);
  const byCategory: ValidationMetrics['by_category'] = {};
  for (const name of [...new Set(results.map((r) => r.query_category))]) {
    byCategory[name] = judgeCategory(
      results.filter((r) => r.query_category === name),
      options.categories?.[name],
    );
  }
  const latencyAt = (p: number) => {
    const ms = percentile(latencies, p);
    return ms === null ? null : roundTo(ms, 1);
  };
  const seconds = options.queryStageMs / 1000;
  // Throughput of the queries that ran: a stage where every query errored answered none, however fast it failed.
  const ran = results.filter((r) => r.status !== 'ERROR').length;
  return {
    validation_run_id: options.runId,
    timestamp: options.timestamp,
    query_types_tested: Object.keys(byCategory).sort(),
    total_queries_tested: results.length,
    queries_passed: passed,
    success_rate: results.length === 0 ? 0 : roundTo(passed / results.length, 4),
    ...means,
    avg_similarity: summarise(similarities).avg,
    latency_basis: 'batch_share',
    avg_latency_ms: latencies.length === 0 ? null : roundTo(latencies.reduce((a, b) => a + b, 0) / latencies.length, 1),
    p50_latency_ms: latencyAt(50),
    p95_latency_ms: latencyAt(95),
    p99_latency_ms: latencyAt(99),
    throughput_qps: ran === 0 || seconds <= 0 ? null : roundTo(ran / seconds, 2),
    ...(results.some((r) => r.benchmark_metrics !== undefined)
      ? { benchmark: meanBenchmarkMetrics(results.map((r) => r.benchmark_metrics ?? null)) }
      : {}),
    by_category: byCategory,
  };
}

/** One CATEGORY_EXPECTATION_MISSED per category whose figures miss what the suite's categories expect of it. */
export function categoryErrors(metrics: ValidationMetrics, runId: string, newId: () => string): ValidationError[] {
  return Object.entries(metrics.by_category)
    .filter(([, c]) => c.expected_met === false)
    .map(([name, c]) => ({
      id: newId(),
      validation_id: runId,
      error_type: 'CATEGORY_EXPECTATION_MISSED',
      severity: 'MEDIUM',
      message: `Category '${name}' misses its expected results: pass rate ${c.pass_rate}%, mean semantic alignment ${c.mean_semantic_alignment ?? 'n/a'} (expected ${JSON.stringify(c.expected_results)})`,
      details: {
        category: name,
        pass_rate: c.pass_rate,
        mean_semantic_alignment: c.mean_semantic_alignment,
        expected_results: c.expected_results,
      },
    }));
}

/** One category's figures, and whether they meet what the suite expects of that kind of query. */
function judgeCategory(
  results: QueryValidationResult[],
  category: QueryCategory | undefined,
): ValidationMetrics['by_category'][string] {
  const passed = results.filter((r) => r.passed).length;
  const passRate = roundTo((passed / results.length) * 100, 2);
  const alignments = results.map((r) => r.semantic_alignment_score).filter((a): a is number => a !== null);
  const alignment =
    alignments.length === 0 ? null : roundTo(alignments.reduce((a, b) => a + b, 0) / alignments.length, 4);
  const expected = category?.expected_results ?? null;
  const checks = [
    expected?.min_pass_rate === undefined ? null : passRate >= expected.min_pass_rate,
    expected?.min_semantic_alignment === undefined
      ? null
      : alignment !== null && alignment >= expected.min_semantic_alignment,
  ].filter((c): c is boolean => c !== null);
  return {
    total: results.length,
    passed,
    pass_rate: passRate,
    mean_semantic_alignment: alignment,
    description: category?.description ?? null,
    expected_results: expected,
    expected_met: checks.length === 0 ? null : checks.every(Boolean),
  };
}
