/**
 * A run's headline figures, the unit of a trend: what the HTML report graphs over the last runs. Built from a
 * report alone, so any source of past reports (a folder, S3's latest.json, a history port) can supply points.
 */
import type { ValidationReport } from './report.ts';

export interface TrendPoint {
  run_id: string;
  timestamp: string;
  status: ValidationReport['status'];
  /** null for a run that could not complete: a 0 would read as "every query failed". */
  pass_rate: number | null;
  coverage: number | null;
  completeness: number | null;
  mrr: number | null;
  ndcg: number | null;
  grounded_rate: number | null;
  p95_latency_ms: number | null;
}

/** The headline figures of one report. */
export function buildTrendPoint(report: ValidationReport): TrendPoint {
  const vm = report.validation_metrics;
  const completed = report.status !== 'ERROR';
  return {
    run_id: report.run_id,
    timestamp: report.timestamp,
    status: report.status,
    pass_rate: completed && report.total_queries > 0 ? report.pass_rate : null,
    coverage: report.coverage_report?.coverage_percentage ?? null,
    completeness: report.quality_metrics?.metadata_completeness_rate ?? null,
    mrr: vm.mrr,
    ndcg: vm.ndcg_at_k,
    grounded_rate: report.grounding_report?.grounded_rate ?? null,
    p95_latency_ms: vm.p95_latency_ms,
  };
}

/** Points oldest first, one per run id, the current run last, at most `limit`. */
export function orderTrend(points: TrendPoint[], current: TrendPoint, limit = 14): TrendPoint[] {
  const byRun = new Map(points.filter((p) => p.run_id !== current.run_id).map((p) => [p.run_id, p]));
  const past = [...byRun.values()].filter((p) => p.timestamp <= current.timestamp);
  past.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return [...past.slice(-(limit - 1)), current];
}
