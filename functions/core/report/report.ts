/**
 * The ValidationReport: what one run computed, as data. The zod schemas are the single source of truth:
 * the TypeScript types are inferred from them and `docs/report.schema.json` is generated from them.
 * Field names follow the seeds in docs/seeds (001 for the report's skeleton, 000 for errors,
 * 003 for aggregate metrics, 004 for the latency split); where seeds overlap one name is used per idea.
 * Every time is ISO 8601 (UTC); every percentage is 0..100 and every ratio 0..1, as its name says.
 */
import { z } from 'zod';
import { CoverageReport } from './coverage-report.ts';
import { CriterionResult, ValidationError } from './findings.ts';
import { GroundingReport } from './grounding-report.ts';
import { IndexHealth } from './index-health-report.ts';
import { QualityMetrics } from './quality-metrics.ts';
import { QueryValidationResult } from './query-validation.ts';
import { RegressionReport } from './regression-report.ts';
import { ValidationMetrics } from './validation-metrics.ts';

const LIFECYCLE_STATES = ['CREATED', 'EXECUTING', 'COMPLETED', 'FAILED', 'ANALYZED'] as const;
export const LifecycleEvent = z.object({ state: z.enum(LIFECYCLE_STATES), at: z.string() });
export type LifecycleEvent = z.infer<typeof LifecycleEvent>;

/** How the run used the services: calls per stage and which path each aggregate took. */
export const Execution = z.object({
  embed_calls: z.number().int().min(0),
  search_calls: z.number().int().min(0),
  embedding_model: z.string(),
  vector_size: z.number().int().nullable(),
  stages: z.record(
    z.string(),
    z.object({ status: z.enum(['ok', 'failed', 'skipped', 'cut']), duration_ms: z.number() }),
  ),
});
export type Execution = z.infer<typeof Execution>;

const RunStatus = z.enum(['PASSED', 'FAILED', 'ERROR']);

/** Seed 001 ValidationReport: the one document a run produces. */
export const ValidationReport = z.object({
  schema_version: z.literal('1'),
  run_id: z.string().uuid(),
  status: RunStatus.describe(
    'PASSED: every criterion holds; FAILED: a criterion is breached; ERROR: the run could not complete',
  ),
  status_reason: z.string(),
  collection: z.string(),
  environment: z.string(),
  suite: z.object({ name: z.string(), source: z.string(), query_count: z.number().int().min(0) }),
  timestamp: z.string().describe('When the run started'),
  finished_at: z.string(),
  duration_seconds: z.number().min(0),
  lifecycle: z.array(LifecycleEvent),
  total_queries: z.number().int().min(0),
  passed_queries: z.number().int().min(0),
  failed_queries: z.number().int().min(0),
  error_queries: z.number().int().min(0),
  pass_rate: z.number().min(0).max(100),
  query_results: z.array(QueryValidationResult),
  coverage_report: CoverageReport.nullable(),
  quality_metrics: QualityMetrics.nullable(),
  grounding_report: GroundingReport.nullable().describe(
    'Grounded answers (seed 002); null when no query is marked agent: true',
  ),
  // Absent on reports built without the engine (a run that failed before it started).
  index_health: IndexHealth.nullable()
    .optional()
    .describe(
      'Index health (stale chunks, freshness, models, drift canary, ANN recall, filters); null when no check ran',
    ),
  validation_metrics: ValidationMetrics,
  success_criteria: z.array(CriterionResult),
  errors: z.array(ValidationError),
  execution: Execution,
  // What changed since the usual (core/regression); the run writes its stale golden queries here first (SUITE_STALE).
  regression: RegressionReport.optional().describe(
    'What changed against the baseline of recent runs, and the golden queries the run found stale (written by the run, compared: false until the comparison with history); absent when neither was done',
  ),
});
export type ValidationReport = z.infer<typeof ValidationReport>;

/** The JSON Schema of the report, generated from the zod schema above. */
export function buildReportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ValidationReport, { target: 'draft-2020-12' }) as Record<string, unknown>;
}
