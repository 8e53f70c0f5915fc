/**
 * Report -> CloudWatch metric datums, and their split into PutMetricData calls. Pure: the datum shape mirrors
 * CloudWatch's MetricDatum so the adapter passes it through unchanged, but nothing here imports the SDK.
 * Limits honoured (PutMetricData, 2026): 1,000 datums and 1 MB per call, 150 distinct values per datum in
 * Values/Counts, finite numbers only, magnitudes inside CloudWatch's accepted range.
 */
import { alertsOperations } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import { roundTo } from '../shared/statistics.ts';
import { dimensionValue } from './dimension-value.ts';

type MetricUnit = 'Percent' | 'Count' | 'Seconds' | 'Milliseconds' | 'None';

interface MetricDimension {
  Name: string;
  Value: string;
}

export interface MetricDatum {
  MetricName: string;
  Dimensions: MetricDimension[];
  Timestamp: Date;
  Unit: MetricUnit;
  Value?: number;
  Values?: number[];
  Counts?: number[];
}

const PUT_METRIC_DATA_LIMITS = {
  maxDatumsPerCall: 1000,
  /** 1 MB per request, less room for the JSON envelope (Namespace, brackets) around the datums. */
  maxBytesPerCall: 1_000_000 - 4_096,
  maxValuesPerDatum: 150,
} as const;

// CloudWatch rejects magnitudes outside this range (zero excepted); smaller ones are sent as 0.
const MIN_MAGNITUDE = 8.51592e-109;
const MAX_MAGNITUDE = 1.174271e108;

/** Every metric name this module emits, for the dashboard, the alarms and the docs. */
export const METRIC_NAMES = {
  passRate: 'PassRate',
  coverage: 'CoveragePercent',
  completeness: 'MetadataCompletenessPercent',
  queriesFailed: 'QueriesFailed',
  queryErrors: 'QueryErrors',
  queriesTotal: 'QueriesTotal',
  missingUrls: 'MissingUrls',
  orphanUrls: 'OrphanUrls',
  avgSimilarity: 'AvgSimilarity',
  precision: 'PrecisionAtK',
  recall: 'RecallAtK',
  mrr: 'MRR',
  ndcg: 'NdcgAtK',
  hitRate: 'HitRate',
  groundedRate: 'GroundedRate',
  runDuration: 'RunDurationSeconds',
  runSucceeded: 'RunSucceeded',
  queryLatency: 'QueryLatency',
  embeddingLatency: 'EmbeddingLatency',
  searchLatency: 'SearchLatency',
  regressions: 'Regressions',
  annRecall: 'AnnRecall',
  canaryMinCosine: 'CanaryMinCosine',
  stalePages: 'StalePages',
  staleChunkPages: 'StaleChunkPages',
  missingChunkPages: 'MissingChunkPages',
  embeddingModels: 'EmbeddingModels',
  filterViolations: 'FilterViolations',
  alertsHeld: 'AlertsHeld',
} as const;

/** Turns a report into metric datums: run-level figures, per-category pass rates and latency distributions. */
export function buildMetricData(report: ValidationReport): MetricDatum[] {
  const timestamp = new Date(report.timestamp);
  const base: MetricDimension[] = [
    { Name: 'Collection', Value: dimensionValue(report.collection) },
    { Name: 'Environment', Value: dimensionValue(report.environment) },
  ];
  const vm = report.validation_metrics;
  // A run that could not complete has no pass rate worth graphing: a 0 would read as "every query failed".
  const completed = report.status !== 'ERROR';
  const single = (name: string, unit: MetricUnit, value: number | null | undefined, dims = base) =>
    scalarDatum({ MetricName: name, Dimensions: dims, Timestamp: timestamp, Unit: unit }, value);

  // RunSucceeded is the heartbeat: 1 whenever the run completed (even with breached criteria), 0 on ERROR.
  const scalars = [
    single(METRIC_NAMES.runSucceeded, 'Count', completed ? 1 : 0),
    single(METRIC_NAMES.runDuration, 'Seconds', report.duration_seconds),
    single(METRIC_NAMES.queriesTotal, 'Count', report.total_queries),
    single(METRIC_NAMES.queriesFailed, 'Count', report.failed_queries),
    single(METRIC_NAMES.queryErrors, 'Count', report.error_queries),
    single(METRIC_NAMES.passRate, 'Percent', completed ? report.pass_rate : null),
    single(METRIC_NAMES.coverage, 'Percent', report.coverage_report?.coverage_percentage),
    single(METRIC_NAMES.missingUrls, 'Count', report.coverage_report?.missing_count),
    single(METRIC_NAMES.orphanUrls, 'Count', report.coverage_report?.extra_count),
    single(METRIC_NAMES.completeness, 'Percent', report.quality_metrics?.metadata_completeness_rate),
    single(METRIC_NAMES.avgSimilarity, 'None', vm.avg_similarity),
    single(METRIC_NAMES.precision, 'None', vm.overall_precision),
    single(METRIC_NAMES.recall, 'None', vm.overall_recall),
    single(METRIC_NAMES.mrr, 'None', vm.mrr),
    single(METRIC_NAMES.ndcg, 'None', vm.ndcg_at_k),
    single(METRIC_NAMES.hitRate, 'None', vm.hit_rate),
    single(METRIC_NAMES.groundedRate, 'Percent', report.grounding_report?.grounded_rate),
    // Findings against the baseline that ops act on (not latency, not golden-set rot); none when not compared.
    single(
      METRIC_NAMES.regressions,
      'Count',
      report.regression?.compared ? report.regression.findings.filter(alertsOperations).length : undefined,
    ),
    ...indexHealthData(report, single),
    // 1 on a run inside a planned maintenance window (its alerts held, core/post-run/maintenance.ts), 0 otherwise:
    // a silenced night shows on the dashboard, not only in its report.
    single(METRIC_NAMES.alertsHeld, 'Count', report.maintenance === undefined ? 0 : 1),
  ];
  const perCategory = Object.entries(completed ? vm.by_category : {}).map(([category, figures]) =>
    single(METRIC_NAMES.passRate, 'Percent', figures.pass_rate, [
      ...base,
      { Name: 'QueryCategory', Value: dimensionValue(category) },
    ]),
  );
  // Errored queries never got a retrieval latency (a timeout or nothing): they would skew the percentiles.
  const timed = report.query_results.filter((q) => q.status !== 'ERROR');
  const latencies = (
    [
      // The report's figure: each query's share of its batched calls (the calls' whole durations are the two below).
      [METRIC_NAMES.queryLatency, timed.map((q) => q.latency.batch_share_ms ?? q.latency.total_ms)],
      [METRIC_NAMES.embeddingLatency, timed.map((q) => q.latency.embedding_ms)],
      [METRIC_NAMES.searchLatency, timed.map((q) => q.latency.search_ms)],
    ] as const
  ).flatMap(([name, values]) =>
    distributionData({ MetricName: name, Dimensions: base, Timestamp: timestamp, Unit: 'Milliseconds' }, values),
  );
  return [...scalars, ...perCategory, ...latencies].filter((d): d is MetricDatum => d !== null);
}

/** The index-health figures someone would graph; a block that could not be computed sends nothing. */
function indexHealthData(
  report: ValidationReport,
  single: (name: string, unit: MetricUnit, value: number | null | undefined) => MetricDatum | null,
): (MetricDatum | null)[] {
  const health = report.index_health;
  const stale = health?.stale_chunks;
  const models = health?.embedding_models?.models.filter((m) => m.model !== '(none)');
  return [
    single(METRIC_NAMES.annRecall, 'None', health?.ann?.recall),
    single(METRIC_NAMES.canaryMinCosine, 'None', health?.drift_canary?.min_cosine),
    single(METRIC_NAMES.stalePages, 'Count', health?.freshness?.stale_pages),
    single(METRIC_NAMES.staleChunkPages, 'Count', stale?.stale_pages),
    single(METRIC_NAMES.missingChunkPages, 'Count', health?.missing_chunks?.pages_missing_chunks),
    single(METRIC_NAMES.embeddingModels, 'Count', models?.length),
    single(METRIC_NAMES.filterViolations, 'Count', health?.filters?.violations),
  ];
}

/** Splits datums into PutMetricData calls that each respect the count and size limits. */
export function chunkMetricData(
  datums: MetricDatum[],
  limits: { maxDatumsPerCall: number; maxBytesPerCall: number } = PUT_METRIC_DATA_LIMITS,
): MetricDatum[][] {
  const encoder = new TextEncoder();
  const calls: MetricDatum[][] = [];
  let current: MetricDatum[] = [];
  let bytes = 0;
  for (const datum of datums) {
    const size = encoder.encode(JSON.stringify(datum)).length + 1;
    if (current.length > 0 && (current.length >= limits.maxDatumsPerCall || bytes + size > limits.maxBytesPerCall)) {
      calls.push(current);
      current = [];
      bytes = 0;
    }
    current.push(datum);
    bytes += size;
  }
  if (current.length > 0) calls.push(current);
  return calls;
}

function scalarDatum(head: Omit<MetricDatum, 'Value'>, value: number | null | undefined): MetricDatum | null {
  const safe = sendable(value);
  return safe === null ? null : { ...head, Value: safe };
}

/** Values/Counts datums (at most 150 distinct values each) so CloudWatch can compute p50/p95/p99. */
function distributionData(head: Omit<MetricDatum, 'Values' | 'Counts'>, raw: number[]): MetricDatum[] {
  const counts = new Map<number, number>();
  for (const value of raw) {
    const safe = sendable(value);
    // Rounded to 0.1 ms so equal latencies share one Values entry; finer precision means nothing at this scale.
    if (safe === null) continue;
    const key = roundTo(safe, 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const entries = [...counts.entries()].sort(([a], [b]) => a - b);
  const data: MetricDatum[] = [];
  for (let i = 0; i < entries.length; i += PUT_METRIC_DATA_LIMITS.maxValuesPerDatum) {
    const slice = entries.slice(i, i + PUT_METRIC_DATA_LIMITS.maxValuesPerDatum);
    data.push({ ...head, Values: slice.map(([v]) => v), Counts: slice.map(([, c]) => c) });
  }
  return data;
}

function sendable(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  if (Math.abs(value) > MAX_MAGNITUDE) return null;
  return Math.abs(value) < MIN_MAGNITUDE ? 0 : value;
}
