/**
 * The ValidationReport: what one run computed, as data. The zod schemas are the single source of truth:
 * the TypeScript types are inferred from them and `docs/report.schema.json` is generated from them.
 * Field names follow the seeds in docs/seeds (001 for the report's skeleton, 000 for errors,
 * 003 for aggregate metrics, 004 for the latency split); where seeds overlap one name is used per idea.
 * Every time is ISO 8601 (UTC); every percentage is 0..100 and every ratio 0..1, as its name says.
 */
import { z } from 'zod';
import { CoverageReport } from './coverage-report.ts';
import { CriterionResult, failsTheRun, failsTheRunJsonSchema, ValidationError } from './findings.ts';
import { GroundingReport } from './grounding-report.ts';
import { IndexHealth } from './index-health-report.ts';
import { MaintenanceWindow } from './maintenance-window.ts';
import { QualityMetrics } from './quality-metrics.ts';
import { QueryValidationResult } from './query-validation.ts';
import { ifThen, withRecordRules } from './record-rules.ts';
import { RegressionReport } from './regression-report.ts';
import { ValidationMetrics } from './validation-metrics.ts';

const LIFECYCLE_STATES = ['CREATED', 'EXECUTING', 'COMPLETED', 'FAILED', 'ANALYZED'] as const;
/** The report's schema version: bumped when a field is renamed or its meaning changes (`ragwatch --version`); 2 renamed the fields docs/DATA-MODEL.md lists under "Renamed in schema_version 2". */
export const REPORT_SCHEMA_VERSION = '2';

export const LifecycleEvent = z.object({ state: z.enum(LIFECYCLE_STATES), at: z.iso.datetime() });
export type LifecycleEvent = z.infer<typeof LifecycleEvent>;

/** How the run used the services: calls per stage and which path each aggregate took. */
export const Execution = z.object({
  embed_calls: z.number().int().min(0),
  search_calls: z.number().int().min(0),
  embedding_model: z.string().min(1),
  vector_size: z.number().int().nullable(),
  // Keys are snake_case step names (functions/core/checks/steps.ts): a key a jq path or a metric dimension takes
  // as it is. schema_version 1 had keys with spaces ("exact search").
  stages: z.record(
    z.string().regex(/^[a-z][a-z0-9_]*$/, 'a stage key is snake_case'),
    z.object({ status: z.enum(['ok', 'failed', 'skipped', 'cut']), duration_ms: z.number() }),
  ),
});
export type Execution = z.infer<typeof Execution>;

const RunStatus = z.enum(['PASSED', 'FAILED', 'ERROR']);

/** Seed 001 ValidationReport's fields; ValidationReport below adds the rules between them. */
// Strict, as the published document is (additionalProperties: false): a field the report does not define is refused.
const ValidationReportFields = z.strictObject({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  run_id: z.string().uuid(),
  status: RunStatus.describe(
    'PASSED: every criterion holds; FAILED: a criterion is breached; ERROR: the run could not complete',
  ),
  status_reason: z.string().min(1),
  collection: z.string().min(1),
  environment: z.string().min(1),
  suite: z.object({
    name: z.string().min(1),
    source: z.string().min(1),
    query_count: z.number().int().min(0).describe('The queries run (those set aside are not)'),
    set_aside: z
      .array(z.object({ id: z.string().min(1), reason: z.string().min(1) }))
      .optional()
      .describe('Queries the suite keeps but marks set_aside: neither run nor counted; absent when none'),
  }),
  timestamp: z.iso.datetime().describe('When the run started (UTC)'),
  finished_at: z.iso.datetime(),
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
  // Set only when the run fell in a planned maintenance window (core/post-run/maintenance.ts): no email was sent.
  maintenance: MaintenanceWindow.optional().describe(
    'The planned maintenance window this run fell in (an S3 marker): the run and its report as usual, but no incident moved and no email was sent; absent outside a window',
  ),
  regression: RegressionReport.optional().describe(
    'What changed against the baseline of recent runs, and the golden queries the run found stale (written by the run, compared: false until the comparison with history); absent when neither was done',
  ),
});

const count = (r: z.output<typeof ValidationReportFields>, status: string) =>
  r.query_results.filter((q) => q.status === status).length;
const stateIs = (state: string) => ({ properties: { state: { const: state } } });

/** Seed 001 ValidationReport: the one document a run produces, whose status follows its criteria and findings. */
export const ValidationReport = withRecordRules(ValidationReportFields, [
  {
    rule: 'a PASSED run has every success criterion passed and no finding that fails the run (CRITICAL, or HIGH of a type its severity judges: JUDGED_BY)',
    holds: (r) => r.status !== 'PASSED' || (r.success_criteria.every((c) => c.passed) && !r.errors.some(failsTheRun)),
    jsonSchema: ifThen(
      { status: 'PASSED' },
      {
        success_criteria: { items: { properties: { passed: { const: true } } } },
        errors: { items: { not: failsTheRunJsonSchema() } },
      },
    ),
  },
  {
    rule: 'a FAILED run has a breached success criterion or a finding that fails the run',
    holds: (r) => r.status !== 'FAILED' || r.success_criteria.some((c) => !c.passed) || r.errors.some(failsTheRun),
    jsonSchema: {
      if: { properties: { status: { const: 'FAILED' } }, required: ['status'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a thenable.
      then: {
        anyOf: [
          { properties: { success_criteria: { contains: { properties: { passed: { const: false } } } } } },
          { properties: { errors: { contains: failsTheRunJsonSchema() } } },
        ],
      },
    },
  },
  {
    rule: 'an ERROR run, and only an ERROR run, has a FAILED state in its lifecycle',
    holds: (r) => (r.status === 'ERROR') === r.lifecycle.some((e) => e.state === 'FAILED'),
    jsonSchema: ifThen(
      { status: 'ERROR' },
      { lifecycle: { contains: stateIs('FAILED') } },
      { lifecycle: { items: { not: stateIs('FAILED') } } },
    ),
  },
  {
    rule: 'total_queries is the number of query_results, and passed/failed/error_queries count their PASS/FAIL/ERROR (zod only: counts)',
    holds: (r) =>
      r.total_queries === r.query_results.length &&
      r.passed_queries === count(r, 'PASS') &&
      r.failed_queries === count(r, 'FAIL') &&
      r.error_queries === count(r, 'ERROR'),
    jsonSchema: null,
  },
  {
    rule: 'pass_rate is passed_queries / total_queries × 100 to 2 decimals, 0 when there are none (zod only: a ratio)',
    holds: (r) =>
      Math.abs(r.pass_rate - (r.total_queries === 0 ? 0 : (r.passed_queries / r.total_queries) * 100)) <= 0.005,
    jsonSchema: null,
  },
  {
    rule: 'the lifecycle runs forward in time, from timestamp to no later than finished_at (zod only: an order)',
    holds: (r) => {
      const times = [r.timestamp, ...r.lifecycle.map((e) => e.at), r.finished_at].map((t) => Date.parse(t));
      return times.every((t, i) => i === 0 || (times[i - 1] ?? t) <= t);
    },
    jsonSchema: null,
  },
  {
    rule: 'validation_metrics.validation_run_id is the run_id (zod only: two values compared)',
    holds: (r) => r.validation_metrics.validation_run_id === r.run_id,
    jsonSchema: null,
  },
]);
export type ValidationReport = z.infer<typeof ValidationReport>;

/** The JSON Schema of the report, generated from the zod schema above. */
export function buildReportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ValidationReport, { target: 'draft-2020-12' }) as Record<string, unknown>;
}
