/**
 * What ragwatch refuses to believe of an index (docs/RELIABILITY.md, "Do not trust the index"). The similarity rules
 * (min_similarity, the 0..1 similarity_score, results ranked highest first) are defined for cosine similarity. An
 * index that answers in another metric, or with scores no cosine can have, would be judged on numbers that mean
 * something else: Euclid's distances clamped to 1 pass every query, and a score of 7.5 or Infinity clamped to 1
 * passes the query it came with. Such a run is an ERROR with a finding, never a pass.
 */
import type { CollectionInfo, SearchHit } from '../ports.ts';

/**
 * The distances whose scores are cosine similarities. Dot is one of them because ragwatch's embeddings (Cohere
 * embed v3) are unit vectors, and the dot product of unit vectors is their cosine; a Dot collection holding vectors
 * that are not unit length gives scores outside -1..1, which the score check below reports.
 */
const SIMILARITY_DISTANCES: readonly string[] = ['Cosine', 'Dot'];

/**
 * How far past -1..1 a score may be and still be a cosine: float32 rounding in the index puts a vector's cosine with
 * itself at 1.0000001 or so. Anything further is not rounding.
 */
export const SCORE_TOLERANCE = 1e-4;

/** Why the collection's distance cannot be judged by the similarity rules, or null when it can. */
export function distanceProblem(info: Pick<CollectionInfo, 'name' | 'distance'>): string | null {
  if (SIMILARITY_DISTANCES.includes(info.distance)) return null;
  return (
    `the collection "${info.name}" uses ${info.distance} distance; ragwatch's similarity rules are defined for ` +
    `cosine similarity (Cosine, or Dot on unit vectors): re-index it with Cosine distance`
  );
}

/** A score no cosine similarity can have: not a finite number, or outside -1..1 past float rounding. */
export function isAnomalousScore(score: number): boolean {
  return !Number.isFinite(score) || score > 1 + SCORE_TOLERANCE || score < -1 - SCORE_TOLERANCE;
}

/** The hits' anomalous scores as written (Infinity, NaN, 7.5), in rank order; empty when every score is sound. */
export function anomalousScores(hits: readonly SearchHit[]): string[] {
  return hits.filter((h) => isAnomalousScore(h.score)).map((h) => `${h.score} (point ${h.id})`);
}
