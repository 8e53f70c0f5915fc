/** Seed 001 QualityMetrics in the report: metadata completeness and the token and similarity distributions. */
import { z } from 'zod';

export const Distribution = z.object({
  count: z.number().int().min(0),
  min: z.number().nullable(),
  max: z.number().nullable(),
  avg: z.number().nullable(),
  median: z.number().nullable(),
  p95: z.number().nullable(),
});
export type Distribution = z.infer<typeof Distribution>;

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
  timestamp: z.iso.datetime(),
});
export type QualityMetrics = z.infer<typeof QualityMetrics>;
