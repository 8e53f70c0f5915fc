/**
 * Seed 001's QualityMetrics from the collection profile (completeness, token distribution) and the suite's
 * results (the similarity distribution of each query's best match).
 */

import type { ValidationError } from '../report/findings.ts';
import type { QualityMetrics } from '../report/quality-metrics.ts';
import type { QueryValidationResult } from '../report/query-validation.ts';
import { roundTo, summarise, summariseHistogram } from '../shared/statistics.ts';
import type { CollectionProfile } from './profile-collection.ts';

/** Builds QualityMetrics; similarity figures use each answered query's best similarity. */
export function buildQualityMetrics(options: {
  profile: CollectionProfile;
  requiredFields: string[];
  results: QueryValidationResult[];
  timestamp: string;
}): QualityMetrics {
  const { profile } = options;
  const similarities = options.results.map((r) => r.best_similarity).filter((s): s is number => s !== null);
  const similarity = summarise(similarities);
  return {
    total_chunks: profile.totalPoints,
    chunks_with_complete_metadata: profile.completePoints,
    metadata_completeness_rate:
      profile.totalPoints === 0 ? 0 : roundTo((profile.completePoints / profile.totalPoints) * 100, 2),
    required_fields: options.requiredFields,
    field_completeness: profile.fieldCompleteness,
    token_distribution: summariseHistogram(profile.tokenHistogram),
    avg_similarity_score: similarity.avg,
    similarity_distribution: similarity,
    source: { completeness: profile.sources.completeness, token_distribution: profile.sources.tokens },
    points_scanned: profile.pointsScanned,
    timestamp: options.timestamp,
  };
}

/** INCOMPLETE_METADATA when any chunk lacks a required field, with the count missing per field. */
export function qualityErrors(quality: QualityMetrics, runId: string, newId: () => string): ValidationError[] {
  if (quality.chunks_with_complete_metadata >= quality.total_chunks) return [];
  const id = newId();
  const incomplete = quality.field_completeness.filter((f) => f.missing > 0);
  return [
    {
      id,
      validation_id: runId,
      error_type: 'INCOMPLETE_METADATA',
      severity: quality.metadata_completeness_rate < 90 ? 'HIGH' : 'MEDIUM',
      message: `${quality.total_chunks - quality.chunks_with_complete_metadata} of ${quality.total_chunks} chunks lack required metadata (${incomplete.map((f) => `${f.field}: ${f.missing} missing`).join(', ')})`,
      details: {
        chunks_with_complete_metadata: quality.chunks_with_complete_metadata,
        total_chunks: quality.total_chunks,
        fields: incomplete,
      },
    },
  ];
}
