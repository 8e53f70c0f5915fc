/** Seed 003 ValidationMetrics in the report: the run's figures across all queries. */
import { z } from 'zod';

/** A UUID, as seed 003 requires of a validation run's id. */
const Uuid = z.uuid();

/** Seed 003 ValidationMetrics, with the IR means and latency percentiles. */
export const ValidationMetrics = z.object({
  validation_run_id: Uuid,
  timestamp: z.iso.datetime(),
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
  latency_basis: z
    .literal('batch_share')
    .optional()
    .describe(
      'What the latency figures below are over: each query’s batch_share_ms (its share of the batched embed and search calls, plus its judging), not a call’s whole duration, which grows with the suite; absent on reports from before',
    ),
  avg_latency_ms: z.number().min(0).nullable(),
  p50_latency_ms: z.number().min(0).nullable(),
  p95_latency_ms: z.number().min(0).nullable(),
  p99_latency_ms: z.number().min(0).nullable(),
  throughput_qps: z.number().min(0).nullable(),
  benchmark: z
    .record(z.string(), z.number().min(0).max(1))
    .nullable()
    .optional()
    .describe('Mean of each benchmark metric over the judged queries that ran; null when none'),
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
