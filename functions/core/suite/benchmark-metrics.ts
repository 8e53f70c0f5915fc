/**
 * Seed 004's `metrics` list ("precision@5", "recall@10", "MRR"): "a valid list of supported metrics". The project
 * computes precision@k, recall@k, nDCG@k, hit rate and MRR for every judged query at its top_k, so a benchmark's
 * metrics map onto the depth searched: the deepest cut-off becomes the suite's default top_k.
 */

/** A metric the project computes: precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k. */
const METRIC = /^(?:(?:precision|recall|ndcg|hit_rate)@([1-9]\d?)|mrr(?:@([1-9]\d?))?)$/i;

/** The project fields a benchmark's metrics map to, and what is wrong with them. */
export function mapBenchmarkMetrics(metrics: unknown): { fields: Record<string, unknown>; problems: string[] } {
  if (metrics === undefined) return { fields: {}, problems: [] };
  if (!Array.isArray(metrics) || metrics.length === 0)
    return { fields: {}, problems: ['metrics: must list at least one metric, e.g. ["precision@5", "mrr"]'] };
  const problems: string[] = [];
  const depths: number[] = [];
  metrics.forEach((m, i) => {
    const match = typeof m === 'string' ? METRIC.exec(m.trim()) : null;
    const k = Number(match?.[1] ?? match?.[2] ?? 0);
    if (match === null || k > 50)
      problems.push(
        `metrics[${i}]: ${JSON.stringify(m)} is not supported; use precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k`,
      );
    else if (k > 0) depths.push(k);
  });
  const deepest = Math.max(0, ...depths);
  return { fields: deepest > 0 ? { defaults: { top_k: deepest } } : {}, problems };
}
