/**
 * The ValidationReport: what one run computed, as data. The zod schemas are the single source of truth:
 * the TypeScript types are inferred from them and `docs/report.schema.json` is generated from them.
 * Field names follow the seeds in docs/seeds (001 for the report's skeleton, 000 for errors,
 * 003 for aggregate metrics, 004 for the latency split); where seeds overlap one name is used per idea.
 * Every time is ISO 8601 (UTC); every percentage is 0..100 and every ratio 0..1, as its name says.
 */
import { z } from 'zod';
import { GroundingReport } from '../grounding/grounding-report.ts';
import { IndexHealth } from '../index-health/index-health-report.ts';
import { RegressionReport } from '../regression/regression-report.ts';

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

export const ERROR_TYPES = [
  'LOW_RELEVANCE',
  'METADATA_MISMATCH',
  'MISSING_EXPECTED_SOURCE',
  'LOW_PRECISION',
  'LATENCY_EXCEEDED',
  'NO_RESULTS',
  'TIMEOUT',
  'RATE_LIMITED',
  'RETRIEVAL_FAILED',
  'EMBEDDING_FAILED',
  'DIMENSION_MISMATCH',
  'MODEL_MISMATCH',
  'SITEMAP_FAILED',
  'SITEMAP_URL_REFUSED',
  'SITEMAP_TRUNCATED',
  'COVERAGE_GAP',
  'ORPHAN_URLS',
  'INCOMPLETE_METADATA',
  'CRITERION_BREACHED',
  'CATEGORY_EXPECTATION_MISSED',
  'NO_RELEVANT_DOCUMENTS',
  'GROUNDING_FAILED',
  'UNSUPPORTED_CLAIM',
  'RUN_FAILED',
  'STALE_CHUNKS',
  'STALE_PAGES',
  'MIXED_MODELS',
  'EMBEDDING_DRIFT',
  'ANN_RECALL_LOW',
  'FILTER_VIOLATION',
] as const;
export const ErrorType = z.enum(ERROR_TYPES);
export type ErrorType = z.infer<typeof ErrorType>;

/** Qdrant's two point id forms: a UUID (what the indexer writes, seed 001) or an unsigned integer. */
export const PointId = z
  .string()
  .regex(
    /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i,
    'must be a UUID or an unsigned integer (a Qdrant point id)',
  );

/** A UUID, as seed 003 requires of a validation run's id. */
export const Uuid = z.uuid();

/** Seed 000 ValidationError: a finding or a failure, always data in the report. */
export const ValidationError = z.object({
  id: z.string(),
  validation_id: z.string().describe('The run id, or the query id for a per-query error'),
  error_type: ErrorType,
  message: z.string(),
  severity: Severity,
  details: z.record(z.string(), z.unknown()),
});
export type ValidationError = z.infer<typeof ValidationError>;

/**
 * Seed 001 QueryResult (plus seed 000 relevance, seed 003 confidence, seed 004 timestamp). The seeds' rules hold:
 * similarity 0..1, non-empty text, a valid source URL, token_count > 0, chunk_index >= 0. A stored value that
 * breaks one is reported as null and named in payload_issues, never passed off as valid.
 */
export const QueryResult = z.object({
  rank: z.number().int().min(1),
  chunk_id: PointId,
  chunk_text: z
    .string()
    .min(1)
    .nullable()
    .describe('The payload’s chunk_text; null (and named in payload_issues) when it is missing or empty'),
  similarity_score: z
    .number()
    .min(0)
    .max(1)
    .describe('raw_score clamped to 0..1 and rounded to 4 decimals (seeds 001, 003, 004)'),
  raw_score: z.number().describe('The score as the index returned it (cosine: -1..1, seed 000)'),
  confidence_score: z
    .number()
    .min(0)
    .max(1)
    .describe(
      'Seed 003: confidence in the relevance of the result: similarity_score / the query’s min_similarity, capped at 1 (1 when min_similarity is 0)',
    ),
  source_url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .describe('An http(s) URL (seed 003); else null'),
  chapter_id: z.string().nullable(),
  module_name: z.string().nullable(),
  heading_hierarchy: z.array(z.string()).nullable(),
  token_count: z.number().int().positive().nullable(),
  chunk_index: z.number().int().min(0).nullable(),
  timestamp: z
    .string()
    .nullable()
    .describe('Seed 004: when the chunk was indexed (the payload’s indexed_at); null when the indexer did not say'),
  model_version: z.string().nullable().describe('The embedding model the point was embedded with (payload)'),
  payload_issues: z
    .array(z.string())
    .describe('Stored values that break a seed rule, each reported here and as null above'),
  relevance: z
    .boolean()
    .describe('Judged relevant (by the suite’s relevant/expected_sources, else by module match and min_similarity)'),
  relevance_grade: z.number().int().min(0).max(3),
});
export type QueryResult = z.infer<typeof QueryResult>;

/** Seed 004 RetrievalResponse latency split, in milliseconds. Batched calls charge their duration to every query in the batch. */
export const LatencyBreakdown = z.object({
  embedding_ms: z.number().min(0),
  search_ms: z.number().min(0),
  post_processing_ms: z.number().min(0),
  total_ms: z.number().min(0),
});
export type LatencyBreakdown = z.infer<typeof LatencyBreakdown>;

/** trec_eval-style IR metrics at k for one query; null when the query has no relevance judgments. */
export const IrMetrics = z.object({
  k: z.number().int().min(1),
  judged_relevant: z.number().int().min(0),
  retrieved_relevant: z.number().int().min(0),
  precision_at_k: z.number().min(0).max(1),
  recall_at_k: z.number().min(0).max(1),
  reciprocal_rank: z.number().min(0).max(1),
  ndcg_at_k: z.number().min(0).max(1),
  hit: z.boolean(),
});
export type IrMetrics = z.infer<typeof IrMetrics>;

export const QueryStatus = z.enum(['PASS', 'FAIL', 'ERROR']);
export type QueryStatus = z.infer<typeof QueryStatus>;

/** Seeds 001 QueryValidationResult + 003 ValidationResponse + 000 ValidationResult + 004 RetrievalResponse. */
export const QueryValidationResult = z.object({
  id: z.string(),
  query_text: z.string(),
  query_category: z.string(),
  description: z.string().nullable(),
  query: z.record(z.string(), z.unknown()).describe('The suite entry as resolved (suite defaults applied)'),
  status: QueryStatus,
  passed: z.boolean(),
  pass_reason: z.string().nullable(),
  fail_reason: z.string().nullable(),
  top_results: z
    .array(QueryResult)
    .refine(
      (rows) =>
        rows.every(
          (r, i) => r.rank === i + 1 && (i === 0 || (rows[i - 1]?.similarity_score ?? 1) >= r.similarity_score),
        ),
      'must be ranked 1..n in descending similarity_score (seed 004)',
    ),
  best_similarity: z.number().min(0).max(1).nullable(),
  mean_top_k_similarity: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      'Mean similarity_score of top_results (seed 000 RetrievalMetrics.avg_similarity, renamed: see docs/DATA-MODEL.md)',
    ),
  semantic_alignment_score: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      'Seed 003: the share of the similarity the retriever gave its top results that went to results judged relevant (Σ similarity of relevant rows / Σ similarity of all rows); null when nothing came back',
    ),
  confidence_score: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Seed 000 RetrievalMetrics: mean confidence_score of top_results; null when nothing came back'),
  module_match: z.boolean().nullable().describe('null when the query names no expected_module'),
  chapter_match: z.boolean().nullable().describe('null when the query names no expected_chapter'),
  expected_sources_found: z.number().int().min(0),
  total_expected_sources: z.number().int().min(0),
  sources_match_ratio: z.number().min(0).max(1).nullable(),
  missing_expected_sources: z.array(z.string()),
  metrics: IrMetrics.nullable(),
  latency: LatencyBreakdown,
  criteria_evaluations: z.record(z.string(), z.boolean()),
  error_types: z.array(ErrorType),
  timestamp: z.string(),
});
export type QueryValidationResult = z.infer<typeof QueryValidationResult>;

export const Distribution = z.object({
  count: z.number().int().min(0),
  min: z.number().nullable(),
  max: z.number().nullable(),
  avg: z.number().nullable(),
  median: z.number().nullable(),
  p95: z.number().nullable(),
});
export type Distribution = z.infer<typeof Distribution>;

/** Seed 001 CoverageReport, plus how it was computed. */
export const CoverageReport = z.object({
  sitemap_url: z.string(),
  path_prefix: z.string().describe('Only sitemap URLs under this path count: <base path>/docs/ unless configured'),
  outside_prefix_urls: z.number().int().min(0).describe('Sitemap URLs not under path_prefix, left out of coverage'),
  suggested_prefix: z
    .string()
    .nullable()
    .describe('When no sitemap URL is under path_prefix: a prefix under which some are (null when none is found)'),
  total_sitemap_urls: z.number().int().min(0),
  indexed_urls: z.array(z.string()).describe('Sitemap URLs found in the index'),
  missing_urls: z.array(z.string()).describe('In the sitemap, not in the index'),
  extra_urls: z.array(z.string()).describe('In the index, not in the sitemap (orphans)'),
  distinct_indexed_urls: z.number().int().min(0),
  coverage_percentage: z.number().min(0).max(100),
  matched_by: z.enum(['url', 'path']).describe('path: the book moved host, URLs were matched by path alone'),
  source: z.enum(['facet', 'scroll']),
  notes: z.array(z.string()),
  timestamp: z.string(),
});
export type CoverageReport = z.infer<typeof CoverageReport>;

export const FieldCompleteness = z.object({
  field: z.string(),
  present: z.number().int().min(0),
  missing: z.number().int().min(0),
  completeness_rate: z.number().min(0).max(100),
});
export type FieldCompleteness = z.infer<typeof FieldCompleteness>;

/** Seed 001 QualityMetrics, plus per-field completeness and how it was computed. */
export const QualityMetrics = z.object({
  total_chunks: z.number().int().min(0),
  chunks_with_complete_metadata: z.number().int().min(0),
  metadata_completeness_rate: z.number().min(0).max(100),
  required_fields: z.array(z.string()),
  field_completeness: z.array(FieldCompleteness),
  token_distribution: Distribution,
  avg_similarity_score: z.number().nullable(),
  similarity_distribution: Distribution,
  source: z.object({
    completeness: z.enum(['count', 'scroll']),
    token_distribution: z.enum(['facet', 'scroll']),
  }),
  points_scanned: z.number().int().min(0),
  timestamp: z.string(),
});
export type QualityMetrics = z.infer<typeof QualityMetrics>;

/** Seed 003 ValidationMetrics, with the IR means and latency percentiles. */
export const ValidationMetrics = z.object({
  validation_run_id: Uuid,
  timestamp: z.string(),
  query_types_tested: z.array(z.string()),
  total_queries_tested: z.number().int().min(0),
  queries_passed: z.number().int().min(0),
  success_rate: z.number().min(0).max(1),
  judged_queries: z.number().int().min(0),
  overall_precision: z.number().min(0).max(1).nullable(),
  overall_recall: z.number().min(0).max(1).nullable(),
  mrr: z.number().min(0).max(1).nullable(),
  ndcg_at_k: z.number().min(0).max(1).nullable(),
  hit_rate: z.number().min(0).max(1).nullable(),
  avg_similarity: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Mean of each query’s best_similarity (as quality_metrics.avg_similarity_score, seed 001)'),
  avg_latency_ms: z.number().min(0).nullable(),
  p50_latency_ms: z.number().min(0).nullable(),
  p95_latency_ms: z.number().min(0).nullable(),
  p99_latency_ms: z.number().min(0).nullable(),
  throughput_qps: z.number().min(0).nullable(),
  by_category: z.record(
    z.string(),
    z.object({
      total: z.number().int(),
      passed: z.number().int(),
      pass_rate: z.number().min(0).max(100),
      mean_semantic_alignment: z.number().min(0).max(1).nullable(),
      description: z.string().nullable().describe('Seed 000 QueryCategory.description, from the suite’s categories'),
      expected_results: z
        .object({ min_pass_rate: z.number().optional(), min_semantic_alignment: z.number().optional() })
        .nullable()
        .describe('Seed 000 QueryCategory.expected_results, from the suite’s categories'),
      expected_met: z
        .boolean()
        .nullable()
        .describe('Every expectation in expected_results holds; null when the category sets none'),
    }),
  ),
});
export type ValidationMetrics = z.infer<typeof ValidationMetrics>;

export const CriterionResult = z.object({
  name: z.string(),
  description: z.string(),
  value: z.number().nullable().describe('null when the figure could not be computed (counts as breached)'),
  threshold: z.number(),
  comparator: z.enum(['>=', '<=']),
  passed: z.boolean(),
  severity: Severity,
});
export type CriterionResult = z.infer<typeof CriterionResult>;

export const LIFECYCLE_STATES = ['CREATED', 'EXECUTING', 'COMPLETED', 'FAILED', 'ANALYZED'] as const;
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

export const RunStatus = z.enum(['PASSED', 'FAILED', 'ERROR']);
export type RunStatus = z.infer<typeof RunStatus>;

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
  // What changed since the usual (core/regression); absent on a report the post-run comparison has not seen.
  regression: RegressionReport.optional().describe(
    'What changed against the baseline of recent runs; absent when the run was not compared with its history',
  ),
});
export type ValidationReport = z.infer<typeof ValidationReport>;

/** The JSON Schema of the report, generated from the zod schema above. */
export function buildReportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ValidationReport, { target: 'draft-2020-12' }) as Record<string, unknown>;
}
