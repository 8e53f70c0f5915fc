/**
 * The report's `regression` section: what changed since the usual, judged against a baseline of recent healthy
 * runs (core/history/baseline.ts). A finding is data, like a ValidationError: its kind, severity, a message a
 * person can act on, and the figures behind it (value, baseline, band).
 */
import { z } from 'zod';
import { Severity } from './findings.ts';

const REGRESSION_KINDS = [
  'QUERY_REGRESSED',
  'RANK_DROPPED',
  'SIMILARITY_DROPPED',
  'METRIC_DROPPED',
  'SCORE_SHIFT',
  'SCORE_DRIFT',
  'QUERY_DRIFT',
  'COVERAGE_NEWLY_MISSING',
  'COVERAGE_NEWLY_ORPHANED',
  'FLAKY',
  'SUITE_STALE',
  'NEW_QUERY_FAILING',
] as const;
const RegressionKind = z.enum(REGRESSION_KINDS);

export const RegressionFinding = z.object({
  kind: RegressionKind,
  severity: Severity,
  message: z.string(),
  /** Who should act: ops for the index and service, the suite's maintainer for golden-set rot. */
  addressed_to: z.enum(['operations', 'suite maintainer']),
  query_id: z.string().nullable(),
  metric: z.string().nullable(),
  value: z.number().nullable(),
  baseline: z.number().nullable(),
  band: z.number().nullable().describe('The run-to-run noise band: a move beyond baseline ± band is a regression'),
  urls: z.array(z.string()),
});
export type RegressionFinding = z.infer<typeof RegressionFinding>;

const BaselineRun = z.object({
  run_id: z.string(),
  status: z.enum(['PASSED', 'FAILED']),
  started_at: z.iso.datetime(),
  location: z.string(),
});

export const ScoreShiftTest = z.object({
  test: z.literal('Wilcoxon signed-rank, paired, one-sided (fell)'),
  method: z.enum(['exact', 'normal approximation']),
  statistic: z
    .number()
    .min(0)
    .describe('W+: the sum of the ranks of the queries whose best similarity rose against their own baseline'),
  p_value: z.number().min(0).max(1),
  pairs: z.number().int().min(0).describe('Queries paired with their baseline'),
  median_shift: z.number().describe('Median of (best similarity now - its baseline median)'),
});
export type ScoreShiftTest = z.infer<typeof ScoreShiftTest>;

export const RegressionReport = z.object({
  compared: z.boolean().describe('false when there was no baseline to compare with (see note)'),
  note: z.string(),
  baseline_runs: z.array(BaselineRun),
  findings: z.array(RegressionFinding),
  recovered_queries: z.array(z.string()).describe('Queries that failed in the baseline and pass now'),
  stale_queries: z
    .array(z.string())
    .describe('Queries whose expected source or relevant URL is no longer in the sitemap: not retrieval failures'),
  score_shift: ScoreShiftTest.nullable(),
  awaiting_confirmation: z
    .boolean()
    .optional()
    .describe(
      'true when the findings breach no criterion and the run before was not a regression: they open no incident until the next run confirms them (absent: false)',
    ),
});
export type RegressionReport = z.infer<typeof RegressionReport>;

/**
 * Whether a finding should reach ops (open or escalate an incident, count in the Regressions metric). Latency
 * percentiles are reported but do not alert: one night's latency on shared infrastructure moves with the
 * neighbours' load, and the p95 success criterion (max_p95_latency_ms) is the line to alert on. A FLAKY query is
 * reported, never alerted: its verdict flips at its threshold. Golden-set rot and new failing queries go to the
 * suite's maintainer, on its own track.
 */
export function alertsOperations(f: RegressionFinding): boolean {
  return (
    f.addressed_to === 'operations' &&
    f.kind !== 'FLAKY' &&
    !(f.kind === 'METRIC_DROPPED' && (f.metric ?? '').endsWith('_ms'))
  );
}

/** A finding with the fields that do not apply left null. */
export function finding(
  fields: Pick<RegressionFinding, 'kind' | 'severity' | 'message'> & Partial<RegressionFinding>,
): RegressionFinding {
  return {
    addressed_to: 'operations',
    query_id: null,
    metric: null,
    value: null,
    baseline: null,
    band: null,
    urls: [],
    ...fields,
  };
}
