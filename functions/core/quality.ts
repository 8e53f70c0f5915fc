/**
 * Seed 001's QualityMetrics from the collection profile (completeness, token distribution) and the suite's
 * results (the similarity distribution of each query's best match).
 */
import { summarise, summariseHistogram } from './distribution.ts';
import type { CollectionProfile } from './profile-collection.ts';
import type { QualityMetrics, QueryValidationResult } from './report.ts';

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
      profile.totalPoints === 0 ? 0 : Math.round((profile.completePoints / profile.totalPoints) * 10_000) / 100,
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
