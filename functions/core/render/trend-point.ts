/**
 * A run's headline figures, the unit of a trend: what the HTML report graphs over the last runs. The current run
 * gives its own from its report; earlier runs come from the history port's digests (core/history/run-digest.ts),
 * which carry the figures the regression detectors need: pass rate, MRR, nDCG, p95 latency, missing and orphan URLs.
 */
import type { RunDigest } from '../history/run-digest.ts';
import type { ValidationReport } from '../report/report.ts';

export interface TrendPoint {
  run_id: string;
  timestamp: string;
  status: ValidationReport['status'];
  /** null for a run that could not complete or ran no query: a 0 would read as "every query failed". */
  pass_rate: number | null;
  mrr: number | null;
  ndcg: number | null;
  p95_latency_ms: number | null;
  missing_pages: number | null;
  orphan_pages: number | null;
}

/** The headline figures of this run's report. */
export function buildTrendPoint(report: ValidationReport): TrendPoint {
  const vm = report.validation_metrics;
  return {
    run_id: report.run_id,
    timestamp: report.timestamp,
    status: report.status,
    pass_rate: report.status !== 'ERROR' && report.total_queries > 0 ? report.pass_rate : null,
    mrr: vm.mrr,
    ndcg: vm.ndcg_at_k,
    p95_latency_ms: vm.p95_latency_ms,
    missing_pages: report.coverage_report?.missing_count ?? null,
    orphan_pages: report.coverage_report?.extra_count ?? null,
  };
}

/** The headline figures of an earlier run, from its history digest. */
export function trendPointFromDigest(digest: RunDigest): TrendPoint {
  return {
    run_id: digest.runId,
    timestamp: digest.startedAt,
    status: digest.status,
    pass_rate: digest.metrics.pass_rate ?? null,
    mrr: digest.metrics.mrr ?? null,
    ndcg: digest.metrics.ndcg_at_k ?? null,
    p95_latency_ms: digest.metrics.p95_latency_ms ?? null,
    missing_pages: digest.coverage?.missing.length ?? null,
    orphan_pages: digest.coverage?.orphans.length ?? null,
  };
}

/** Points oldest first, one per run id, the current run last, at most `limit`. */
export function orderTrend(points: TrendPoint[], current: TrendPoint, limit = 14): TrendPoint[] {
  const byRun = new Map(points.filter((p) => p.run_id !== current.run_id).map((p) => [p.run_id, p]));
  const past = [...byRun.values()].filter((p) => p.timestamp <= current.timestamp);
  past.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return [...past.slice(-(limit - 1)), current];
}
