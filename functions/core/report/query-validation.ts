/**
 * The golden queries in the report: each query's verdict with its ranked results, figures and latency (seeds 000,
 * 001, 003 and 004).
 */
import { z } from 'zod';
import { ErrorType } from './findings.ts';
import { ifThen, withRecordRules } from './record-rules.ts';

/** Qdrant's two point id forms: a UUID (what the indexer writes, seed 001) or an unsigned integer. */
const PointId = z
  .string()
  .regex(
    /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i,
    'must be a UUID or an unsigned integer (a Qdrant point id)',
  );

/**
 * Seed 001 QueryResult (plus seed 000 relevance, seed 003 confidence, seed 004 timestamp). The seeds' rules hold:
 * similarity 0..1, non-empty text, a valid source URL, token_count > 0, chunk_index >= 0. A stored value that
 * breaks one is reported as null and named in payload_issues, never passed off as valid.
 */
const QueryResultFields = z.object({
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
      'Seed 003: confidence in the relevance of the result: relevance_grade / the query’s top grade × similarity_score / min_similarity (capped at 1; 1 when min_similarity is 0); 0 for a result judged not relevant',
    ),
  source_url: z
    .url({ protocol: /^https?$/ })
    // zod checks the protocol itself; the published schema says it as a pattern beside its uri format.
    .meta({ pattern: '^https?://' })
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
  relevance_grade: z
    .number()
    .int()
    .min(0)
    .max(3)
    .describe('The best judgment the result matches (0: none); every chunk of a relevant page has its page’s grade'),
});

/** A result's relevance, grade and confidence agree: a result judged not relevant has grade 0 and confidence 0. */
export const QueryResult = withRecordRules(QueryResultFields, [
  {
    rule: 'relevance is true exactly when relevance_grade is at least 1; a result not relevant has confidence_score 0',
    holds: (r) => r.relevance === r.relevance_grade > 0 && (r.relevance || r.confidence_score === 0),
    jsonSchema: ifThen(
      { relevance: true },
      { relevance_grade: { minimum: 1 } },
      { relevance_grade: { const: 0 }, confidence_score: { const: 0 } },
    ),
  },
]);
export type QueryResult = z.infer<typeof QueryResult>;

/**
 * Seed 004 RetrievalResponse latency split, in milliseconds. Queries are embedded and searched in batched calls:
 * embedding_ms and search_ms are the durations of the calls that carried the query (every query in a call waited
 * that long), and batch_share_ms is the query's share of them (each call's duration divided by the queries it
 * carried) plus its own judging: what the run's latency percentiles are over.
 */
export const LatencyBreakdown = z.object({
  embedding_ms: z.number().min(0).describe('The duration of the embed call that carried the query'),
  search_ms: z.number().min(0).describe('The duration of the search call that carried the query'),
  post_processing_ms: z.number().min(0),
  total_ms: z.number().min(0).describe('embedding_ms + search_ms + post_processing_ms: the time the query waited'),
  batch_share_ms: z
    .number()
    .min(0)
    .optional()
    .describe(
      'The query’s share of its batched calls (each call’s duration / the queries it carried) + post_processing_ms; the run’s latency percentiles are over it',
    ),
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

const QueryStatus = z.enum(['PASS', 'FAIL', 'ERROR']);

/** Seeds 001 QueryValidationResult + 003 ValidationResponse + 000 ValidationResult + 004 RetrievalResponse. */
const QueryValidationFields = z.object({
  id: z.string().min(1),
  query_text: z.string().min(1),
  query_category: z.string().min(1),
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
    .describe(
      'Seed 000 RetrievalMetrics: mean confidence_score of top_results weighted by rank, 1 / log2(rank + 1); null when nothing came back',
    ),
  module_match: z.boolean().nullable().describe('null when the query names no expected_module'),
  chapter_match: z.boolean().nullable().describe('null when the query names no expected_chapter'),
  expected_sources_found: z.number().int().min(0),
  total_expected_sources: z.number().int().min(0),
  sources_match_ratio: z.number().min(0).max(1).nullable(),
  missing_expected_sources: z.array(z.string()),
  metrics: IrMetrics.nullable(),
  benchmark_metrics: z
    .record(z.string(), z.number().min(0).max(1))
    .nullable()
    .optional()
    .describe('The suite’s benchmark metrics (seed 004), each at its own cut-off; null when not judged or not run'),
  latency: LatencyBreakdown,
  criteria_evaluations: z.record(z.string(), z.boolean()),
  error_types: z.array(ErrorType),
  timestamp: z.iso.datetime().describe('When the query was judged (UTC)'),
});

const FIGURES = ['best_similarity', 'mean_top_k_similarity', 'semantic_alignment_score', 'confidence_score'] as const;
const unit = { type: 'number', minimum: 0, maximum: 1 };

/** A query's verdict agrees with itself: passed, the reasons and the figures follow its status and its results. */
export const QueryValidationResult = withRecordRules(QueryValidationFields, [
  {
    rule: 'passed is true exactly when status is PASS, with a pass_reason and no fail_reason (else the reverse)',
    holds: (q) =>
      q.passed === (q.status === 'PASS') &&
      (q.pass_reason !== null) === q.passed &&
      (q.fail_reason === null) === q.passed,
    jsonSchema: ifThen(
      { status: 'PASS' },
      { passed: { const: true }, pass_reason: { type: 'string' }, fail_reason: { type: 'null' } },
      { passed: { const: false }, pass_reason: { type: 'null' }, fail_reason: { type: 'string' } },
    ),
  },
  {
    rule: 'the similarity figures are null exactly when top_results is empty',
    holds: (q) => FIGURES.every((f) => (q[f] === null) === (q.top_results.length === 0)),
    jsonSchema: {
      if: { properties: { top_results: { maxItems: 0 } } },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a thenable.
      then: { properties: Object.fromEntries(FIGURES.map((f) => [f, { type: 'null' }])) },
      else: { properties: Object.fromEntries(FIGURES.map((f) => [f, unit])) },
    },
  },
  {
    rule: 'sources_match_ratio is null exactly when the query names no expected source',
    holds: (q) => (q.sources_match_ratio === null) === (q.total_expected_sources === 0),
    jsonSchema: ifThen(
      { total_expected_sources: 0 },
      { sources_match_ratio: { type: 'null' } },
      {
        sources_match_ratio: unit,
      },
    ),
  },
  {
    rule: 'expected_sources_found + missing_expected_sources = total_expected_sources (zod only: a sum)',
    holds: (q) => q.expected_sources_found + q.missing_expected_sources.length === q.total_expected_sources,
    jsonSchema: null,
  },
  {
    rule: 'best_similarity is the highest similarity_score of top_results (zod only: a comparison across records)',
    holds: (q) =>
      q.top_results.length === 0 || q.best_similarity === Math.max(...q.top_results.map((r) => r.similarity_score)),
    jsonSchema: null,
  },
]);
export type QueryValidationResult = z.infer<typeof QueryValidationResult>;
